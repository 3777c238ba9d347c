/**
 * `parley runs`: the usage line, kept apart from the command's code so that
 * `parley help` (./commands.ts) lists it without loading the command and the
 * site's Reference (/reference/cli) shows it.
 */
export const usage =
  "runs add <dir> [--name N] [--description D]      add a run directory (parley run or ingest output; globs allowed) to \"runs\" in parley.config.json\n" +
  "  parley runs list [--json]                         the configured runs: games, agents, models, date, whether still running";
