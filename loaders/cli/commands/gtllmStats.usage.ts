/**
 * `parley gtllm-stats`: the usage line, kept apart from the command's code so that
 * `parley help` (commands/index.ts) lists it without loading the command.
 */
export const usage = "gtllm-stats <dir>                                 NE and Pareto-optimal NE rates of matrix and tree games (JSON)";
