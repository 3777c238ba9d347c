/**
 * `parley ratings`: the usage line, kept apart from the command's code so that
 * `parley help` (./commands.ts) lists it without loading the command and the
 * site's Reference (/reference/cli) shows it.
 */
export const usage = "ratings <dir ...> [--weighting families|games] [--resamples N] [--seed N]   Bradley–Terry ratings with intervals, tiers, α-Rank (JSON)";
