/**
 * `parley export`: the usage line, kept apart from the command's code so that
 * `parley help` (./commands.ts) lists it without loading the command and the
 * site's Reference (/reference/cli) shows it.
 */
export const usage = "export <dir> --out <dir> [--format jsonl]          each game with its transcript as chat messages (JSONL) and a dataset card";
