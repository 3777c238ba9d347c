/**
 * Every `parley` command: its usage line and how to load it. A command's
 * module is imported only when that command runs, so `parley help` or
 * `parley agents` never load native DuckDB, the LLM SDKs or parquet-wasm;
 * keep this file free of imports that pull them in. The commands, their
 * order and their usage lines are listed in loaders/usage/commands.ts (one
 * module per usage line there, `run.usage.ts` for `run.ts`, importing
 * nothing heavy), which the site's Reference reads too; this file adds how
 * to load each one, and must name exactly those commands. Nothing but bin/
 * and tests imports this list.
 */
import {commandUsage, type CommandName} from "../../usage/commands.js";

interface CommandEntry {
  usage: string;
  load(): Promise<(argv: string[]) => Promise<number>>;
}

const loaders = {
  ingest: async () => (await import("./ingest.js")).run,
  stats: async () => (await import("./stats.js")).run,
  "dond-stats": async () => (await import("./stats.js")).alias("dond-stats"),
  "gamabench-scores": async () => (await import("./stats.js")).alias("gamabench-scores"),
  "econarena-stats": async () => (await import("./stats.js")).alias("econarena-stats"),
  "negotiationarena-stats": async () => (await import("./stats.js")).alias("negotiationarena-stats"),
  "gtllm-stats": async () => (await import("./stats.js")).alias("gtllm-stats"),
  datasets: async () => (await import("./datasets.js")).run,
  equilibria: async () => (await import("./equilibria.js")).run,
  run: async () => (await import("./run.js")).run,
  games: async () => (await import("./games.js")).run,
  agents: async () => (await import("./agents.js")).run,
  metrics: async () => (await import("./stats.js")).alias("metrics"),
  regress: async () => (await import("./regress.js")).run,
  ratings: async () => (await import("./ratings.js")).run,
  compare: async () => (await import("./compare.js")).run,
  export: async () => (await import("./export.js")).run,
  play: async () => (await import("./play.js")).run,
  runs: async () => (await import("./runs.js")).run,
  build: async () => (await import("./site.js")).build,
  serve: async () => (await import("./site.js")).serve,
  dev: async () => (await import("./site.js")).dev,
  report: async () => (await import("./report.js")).run,
} satisfies Record<CommandName, CommandEntry["load"]>;

/** Every command with its usage (in `parley help`'s order, loaders/usage/commands.ts) and how to load it. */
export const commands = Object.fromEntries(Object.entries(commandUsage).map(([name, {usage}]) => [name, {usage, load: loaders[name as CommandName]}])) as Record<CommandName, CommandEntry>;

export type {CommandName};

export const isCommand = (name: string): name is CommandName => Object.hasOwn(commands, name);
