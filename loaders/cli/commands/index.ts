/**
 * Every `parley` command: its usage line and how to load it. A command's
 * module is imported only when that command runs, so `parley help` or
 * `parley agents` never load native DuckDB, the LLM SDKs or parquet-wasm;
 * keep this file free of imports that pull them in. Each command keeps its
 * usage line in a module of its own beside it (`run.usage.ts` for `run.ts`),
 * which imports nothing heavy; nothing but bin/ and tests imports this list.
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

interface CommandEntry {
  usage: string;
  load(): Promise<(argv: string[]) => Promise<number>>;
}

export const commands = {
  ingest: {
    usage: ingestUsage,
    load: async () => (await import("./ingest.js")).run,
  },
  stats: {
    usage: statsUsage,
    load: async () => (await import("./stats.js")).run,
  },
  "dond-stats": {
    usage: dondStatsUsage,
    load: async () => (await import("./stats.js")).alias("dond-stats"),
  },
  "gamabench-scores": {
    usage: gamabenchScoresUsage,
    load: async () => (await import("./stats.js")).alias("gamabench-scores"),
  },
  "econarena-stats": {
    usage: econarenaStatsUsage,
    load: async () => (await import("./stats.js")).alias("econarena-stats"),
  },
  "negotiationarena-stats": {
    usage: negotiationarenaStatsUsage,
    load: async () => (await import("./stats.js")).alias("negotiationarena-stats"),
  },
  "gtllm-stats": {
    usage: gtllmStatsUsage,
    load: async () => (await import("./stats.js")).alias("gtllm-stats"),
  },
  datasets: {
    usage: datasetsUsage,
    load: async () => (await import("./datasets.js")).run,
  },
  equilibria: {
    usage: equilibriaUsage,
    load: async () => (await import("./equilibria.js")).run,
  },
  run: {
    usage: runUsage,
    load: async () => (await import("./run.js")).run,
  },
  games: {
    usage: gamesUsage,
    load: async () => (await import("./games.js")).run,
  },
  agents: {
    usage: agentsUsage,
    load: async () => (await import("./agents.js")).run,
  },
  metrics: {
    usage: gleeMetricsUsage,
    load: async () => (await import("./stats.js")).alias("metrics"),
  },
  regress: {
    usage: regressUsage,
    load: async () => (await import("./regress.js")).run,
  },
  ratings: {
    usage: ratingsUsage,
    load: async () => (await import("./ratings.js")).run,
  },
  compare: {
    usage: compareUsage,
    load: async () => (await import("./compare.js")).run,
  },
  export: {
    usage: exportUsage,
    load: async () => (await import("./export.js")).run,
  },
  play: {
    usage: playUsage,
    load: async () => (await import("./play.js")).run,
  },
  runs: {
    usage: runsUsage,
    load: async () => (await import("./runs.js")).run,
  },
  build: {
    usage: buildUsage,
    load: async () => (await import("./site.js")).build,
  },
  serve: {
    usage: serveUsage,
    load: async () => (await import("./site.js")).serve,
  },
  dev: {
    usage: devUsage,
    load: async () => (await import("./site.js")).dev,
  },
  report: {
    usage: reportUsage,
    load: async () => (await import("./report.js")).run,
  },
} satisfies Record<string, CommandEntry>;

export type CommandName = keyof typeof commands;

export const isCommand = (name: string): name is CommandName => Object.hasOwn(commands, name);
