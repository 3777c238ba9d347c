/**
 * `parley export`: the usage line, kept apart from the command's code so that
 * `parley help` (commands/index.ts) lists it without loading the command.
 */
export const usage = "export <dir> --out <dir> [--format jsonl]          each game with its transcript as chat messages (JSONL) and a dataset card";
