/**
 * Every `parley` command's usage, in the order `parley help` lists them: its
 * usage line (one module per command beside this file, `run.usage.ts` for
 * `parley run`) and, for the per-paper commands kept as aliases of `parley
 * stats`, the paper whose measure it prints. The command line
 * (loaders/cli/commands/index.ts) adds how to load each command; the site's
 * Reference (/reference/cli, loaders/site/referenceDocs.ts) shows the same
 * text. It lives below both (the command line is a leaf nothing imports),
 * and imports nothing heavy, so `parley help` stays instant.
 */
import {usage as ingestUsage} from "./ingest.usage.js";
import {usage as statsUsage} from "./stats.usage.js";
import {usage as dondStatsUsage} from "./dondStats.usage.js";
import {usage as gamabenchScoresUsage} from "./gamabenchScores.usage.js";
import {usage as econarenaStatsUsage} from "./econarenaStats.usage.js";
import {usage as negotiationarenaStatsUsage} from "./negotiationarenaStats.usage.js";
import {usage as gtllmStatsUsage} from "./gtllmStats.usage.js";
import {usage as datasetsUsage} from "./datasets.usage.js";
import {usage as equilibriaUsage} from "./equilibria.usage.js";
import {usage as runUsage} from "./run.usage.js";
import {usage as gamesUsage} from "./games.usage.js";
import {usage as agentsUsage} from "./agents.usage.js";
import {usage as gleeMetricsUsage} from "./gleeMetrics.usage.js";
import {usage as regressUsage} from "./regress.usage.js";
import {usage as ratingsUsage} from "./ratings.usage.js";
import {usage as compareUsage} from "./compare.usage.js";
import {usage as exportUsage} from "./export.usage.js";
import {usage as playUsage} from "./play.usage.js";
import {usage as runsUsage} from "./runs.usage.js";
import {buildUsage, serveUsage, devUsage} from "./site.usage.js";
import {usage as reportUsage} from "./report.usage.js";

export interface CommandUsage {
  /** What `parley help` prints after "  parley ": the synopsis, then what it does (continuation lines indented). */
  usage: string;
  /** A per-paper command kept as an alias of `parley stats <paper>` (loaders/cli/commands/stats.ts, `aliases`). */
  statsAliasOf?: string;
}

export const commandUsage = {
  ingest: {usage: ingestUsage},
  stats: {usage: statsUsage},
  "dond-stats": {usage: dondStatsUsage, statsAliasOf: "gtllm"},
  "gamabench-scores": {usage: gamabenchScoresUsage, statsAliasOf: "gamabench"},
  "econarena-stats": {usage: econarenaStatsUsage, statsAliasOf: "econarena"},
  "negotiationarena-stats": {usage: negotiationarenaStatsUsage, statsAliasOf: "negotiationarena"},
  "gtllm-stats": {usage: gtllmStatsUsage, statsAliasOf: "gtllm"},
  datasets: {usage: datasetsUsage},
  equilibria: {usage: equilibriaUsage},
  run: {usage: runUsage},
  games: {usage: gamesUsage},
  agents: {usage: agentsUsage},
  metrics: {usage: gleeMetricsUsage, statsAliasOf: "glee"},
  regress: {usage: regressUsage},
  ratings: {usage: ratingsUsage},
  compare: {usage: compareUsage},
  export: {usage: exportUsage},
  play: {usage: playUsage},
  runs: {usage: runsUsage},
  build: {usage: buildUsage},
  serve: {usage: serveUsage},
  dev: {usage: devUsage},
  report: {usage: reportUsage},
} satisfies Record<string, CommandUsage>;

export type CommandName = keyof typeof commandUsage;

/** The names that print the list of commands (`parley` alone prints it too, and exits 2). */
export const HELP_NAMES: readonly string[] = ["help", "--help", "-h"];

/** What `parley help` prints: every command's usage in order. */
export function helpText(): string {
  return ["usage: parley <command> [options]", "", ...Object.values(commandUsage).map((c) => `  parley ${c.usage}`)].join("\n");
}

/** The flags that ask a command for its usage instead of running it (`parley ratings --help`). */
export const COMMAND_HELP_FLAGS: readonly string[] = ["--help", "-h"];

/** What `parley <command> --help` and `parley help <command>` print: that command's usage, as `parley help` lists it. */
export function commandHelpText(name: CommandName): string {
  return `usage: parley ${commandUsage[name].usage}`;
}

/** Whether a command's arguments ask for its usage: `--help` or `-h` anywhere before a `--` (after it they are positionals). */
export function asksForHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => COMMAND_HELP_FLAGS.includes(a));
}
