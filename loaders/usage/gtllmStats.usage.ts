/**
 * `parley gtllm-stats`: the usage line, kept apart from the command's code so that
 * `parley help` (./commands.ts) lists it without loading the command and the
 * site's Reference (/reference/cli) shows it.
 */
export const usage = "gtllm-stats <dir>                                 NE and Pareto-optimal NE rates of matrix and tree games (JSON)";
