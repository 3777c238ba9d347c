/**
 * `parley ratings`: the usage line, kept apart from the command's code so that
 * `parley help` (./commands.ts) lists it without loading the command and the
 * site's Reference (/reference/cli) shows it.
 */
export const usage =
  "ratings <dir ...> [--weighting families|games] [--resamples N] [--seed N] [--generalisation]   Bradley–Terry ratings with intervals, tiers, α-Rank (JSON);\n" +
  "        --generalisation: the focal agents' returns and win shares with seen vs unseen co-players, on seen vs held-out configurations,\n" +
  "        in self-play vs cross-play, with intervals (runs whose config has a \"generalisation\" key)";
