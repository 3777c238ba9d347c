/**
 * `parley regress`: the usage line, kept apart from the command's code so that
 * `parley help` (./commands.ts) lists it without loading the command and the
 * site's Reference (/reference/cli) shows it.
 */
export const usage =
  "regress <dir> --family F --metric M [--pairs] [--baseline-agent X] [--source S] [--splits N] [--rows-only]\n" +
  "        [--conventions paper|glee-code]\n" +
  "                                                    GLEE one-hot OLS with 95% CIs (JSON)";
