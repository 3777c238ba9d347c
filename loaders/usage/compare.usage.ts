/**
 * `parley compare`: the usage line, kept apart from the command's code so that
 * `parley help` (./commands.ts) lists it without loading the command and the
 * site's Reference (/reference/cli) shows it.
 */
export const usage = "compare <dirA> <dirB> [--rename X=Y] | <dir ...> --agents A --agents B   paired differences (returns; runs: rule-break rates too; pairs by repetition when chance was shared, else by configuration), t and permutation tests, Holm (JSON)";
