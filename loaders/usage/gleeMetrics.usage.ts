/**
 * `parley metrics`: the usage line, kept apart from the command's code so that
 * `parley help` (./commands.ts) lists it without loading the command and the
 * site's Reference (/reference/cli) shows it.
 */
export const usage =
  "metrics <dir> [--conventions paper|glee-code]     GLEE efficiency/fairness/self-gain per game (JSON Lines);\n" +
  "                                                    glee-code scores as GLEE's published analysis code does";
