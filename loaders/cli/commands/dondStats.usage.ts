/**
 * `parley dond-stats`: the usage line, kept apart from the command's code so that
 * `parley help` (commands/index.ts) lists it without loading the command.
 */
export const usage = "dond-stats <dir> [--cumulative]                  agreement / envy-free / Pareto rates per difficulty (JSON)";
