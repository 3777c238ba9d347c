/**
 * `parley gamabench-scores`: the usage line, kept apart from the command's code so that
 * `parley help` (commands/index.ts) lists it without loading the command.
 */
export const usage = "gamabench-scores <dir> [--runs]                   gamma-Bench 0–100 scores {model: {game: {mean, sd, runs}, overall}} (JSON)";
