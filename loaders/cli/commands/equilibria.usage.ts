/**
 * `parley equilibria`: the usage line, kept apart from the command's code so that
 * `parley help` (commands/index.ts) lists it without loading the command.
 */
export const usage = "equilibria <file.json> [--max-support-pairs N]    pure and mixed Nash equilibria of {rows, cols, a, b} (JSON)";
