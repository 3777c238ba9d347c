/**
 * `parley econarena-stats`: the usage line, kept apart from the command's code so that
 * `parley help` (./commands.ts) lists it without loading the command and the
 * site's Reference (/reference/cli) shows it.
 */
export const usage = "econarena-stats <dir>                             Economics Arena (Guo et al. 2024, §3.2, App. A.3): payoff and rationality ratios, deviation, win and rule-break rates (JSON rows)";
