/**
 * `parley gamabench-scores`: the usage line, kept apart from the command's code so that
 * `parley help` (./commands.ts) lists it without loading the command and the
 * site's Reference (/reference/cli) shows it.
 */
export const usage = "gamabench-scores <dir> [--runs]                   gamma-Bench 0–100 scores {model: {game: {mean, sd, runs}, overall}} (JSON)";
