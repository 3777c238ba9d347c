/**
 * `parley ratings`: the usage line, kept apart from the command's code so that
 * `parley help` (./commands.ts) lists it without loading the command and the
 * site's Reference (/reference/cli) shows it.
 */
export const usage =
  "ratings <dir ...> [--weighting families|equal|games] [--clones entrants|robust] [--outcome win|surplus-share|advantage] [--ties half|davidson] [--controls all|none|LIST] [--control-by agent|model] [--nash-matrix empirical|bradley-terry] [--resamples N] [--seed N] [--generalisation]\n" +
  "        Bradley–Terry ratings with cluster-robust intervals, tiers, settledness and α-Rank (JSON); --outcome counts a comparison by its margin; --ties davidson fits a ties parameter;\n" +
  "        `controlled` ranks again controlling for tokens, thinking, rule breaks and the players' settings (--controls: a comma-separated list); `nash_averaging` beside them; --resamples: draws for rank intervals and Nash averaging" +
  "\n        --generalisation: instead, the focal agents' returns and win shares with seen vs unseen co-players, on seen vs held-out configurations,\n" +
  "        in self-play vs cross-play, with cluster-robust intervals (runs whose config has a \"generalisation\" key; no draws)";
