/**
 * `parley ratings`: the usage line, kept apart from the command's code so that
 * `parley help` (./commands.ts) lists it without loading the command and the
 * site's Reference (/reference/cli) shows it.
 */
export const usage =
  "ratings <dir ...> [--weighting families|equal|games] [--clones entrants|robust] [--resamples N] [--seed N]   Bradley–Terry ratings with cluster-robust intervals, tiers, settledness, α-Rank (JSON)";
