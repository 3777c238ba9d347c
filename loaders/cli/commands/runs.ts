/**
 * `parley runs add <dir> [--name N] [--description D]` and `parley runs list [--json]`:
 * the researcher's own runs in parley.config.json ("runs": loaders/ownRuns/configuredRuns.ts),
 * which the site shows beside the built-in datasets.
 */
import {mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join, relative} from "node:path";
import {addRun, formatRunProblem, readRuns, RunConfigError} from "../../ownRuns/configuredRuns.js";
import {describeRun, type RunDescription} from "../../ownRuns/describe.js";
import {parse, printJson, UsageError} from "./args.js";
import {printable} from "../../io/printable.js";
import {usage} from "../../usage/runs.usage.js";

/** A path as the user would type it from here: relative inside the working directory, else absolute. */
const shown = (path: string) => {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith("..") ? rel : path;
};

async function add(argv: string[]): Promise<number> {
  const {values, positionals} = parse("runs add", argv, {name: {type: "string"}, description: {type: "string"}});
  if (positionals.length !== 1) throw new UsageError(`usage: parley ${usage.split("\n")[0]}`);
  try {
    const {configPath, entry, added} = await addRun(positionals[0], {name: values.name, description: values.description});
    process.stderr.write(`${printable(`${added ? "added" : "updated"} ${JSON.stringify(entry)} in ${shown(configPath)}`)}\n`);
  } catch (error) {
    if (error instanceof RunConfigError) throw new UsageError(`parley runs add: ${error.message}`);
    throw error;
  }
  return 0;
}

export interface ListedRun {
  name: string;
  path: string;
  description: string | null;
  run: RunDescription;
}

/** Every configured run described, and one line per entry that could not be used. */
export async function listRuns(env: NodeJS.ProcessEnv = process.env): Promise<{runs: ListedRun[]; problems: string[]}> {
  const config = readRuns(env);
  const file = shown(config.configPath);
  const problems = config.problems.map((p) => formatRunProblem(p, file));
  const scratch = mkdtempSync(join(tmpdir(), "parley-runs-"));
  const runs: ListedRun[] = [];
  try {
    for (const [i, entry] of config.runs.entries()) {
      try {
        runs.push({name: entry.name, path: entry.path, description: entry.description, run: await describeRun(entry.dir, join(scratch, String(i)))});
      } catch (error) {
        problems.push(formatRunProblem({index: entry.index, path: entry.path, message: `unreadable (${(error as Error).message.split("\n")[0]})`}, file));
      }
    }
  } finally {
    rmSync(scratch, {recursive: true, force: true});
  }
  return {runs, problems};
}

/** A run's lines for the terminal. */
export function runLines({name, path, description, run}: ListedRun): string[] {
  const games = run.games.map((g) => `${g.game} ${g.games}`).join(", ") || "none yet";
  const when = run.running ? `still running (pid ${run.running.pid} on ${run.running.host}, since ${run.running.started}): ${run.total} finished games in` : run.finished ? `finished ${run.finished}` : "no manifest (no end time recorded)";
  return [
    `${name}  (${path})`,
    ...(description ? [`  ${description}`] : []),
    `  games: ${games}${run.games.length > 1 ? ` (${run.total} in all)` : ""}`,
    `  agents: ${run.agents.join(", ") || "–"}${run.models.length ? `; LLM models: ${run.models.join(", ")}` : ""}`,
    `  ${when}`,
  ];
}

async function list(argv: string[]): Promise<number> {
  const {values, positionals} = parse("runs list", argv, {json: {type: "boolean"}});
  if (positionals.length) throw new UsageError(`usage: parley ${usage.split("\n")[0]}`);
  const {runs, problems} = await listRuns();
  if (values.json) printJson({runs: runs.map((r) => ({name: r.name, path: r.path, description: r.description, games: r.run.games, total: r.run.total, agents: r.run.agents, models: r.run.models, started: r.run.started, finished: r.run.finished, running: r.run.running !== null})), problems});
  else {
    const lines = runs.flatMap(runLines);
    if (!runs.length && !problems.length) lines.push('no runs configured; add one with "parley runs add <dir>"');
    process.stdout.write(lines.map(printable).join("\n") + (lines.length ? "\n" : ""));
    for (const p of problems) process.stdout.write(`${printable(`problem: ${p}`)}\n`);
  }
  return 0;
}

export async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === "add") return add(rest);
  if (sub === "list") return list(rest);
  throw new UsageError(`usage: parley ${usage}`);
}
