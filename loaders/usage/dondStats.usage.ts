/**
 * `parley dond-stats`: the usage line, kept apart from the command's code so that
 * `parley help` (./commands.ts) lists it without loading the command and the
 * site's Reference (/reference/cli) shows it.
 */
export const usage = "dond-stats <dir> [--cumulative] [--selection all|paper]   agreement / envy-free / Pareto rates per difficulty (JSON); paper: the authors' Table 9 selection";
