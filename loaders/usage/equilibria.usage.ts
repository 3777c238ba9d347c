/**
 * `parley equilibria`: the usage line, kept apart from the command's code so that
 * `parley help` (./commands.ts) lists it without loading the command and the
 * site's Reference (/reference/cli) shows it.
 */
export const usage = "equilibria <file.json> [--max-support-pairs N]    pure and mixed Nash equilibria of {rows, cols, a, b} (JSON)";
