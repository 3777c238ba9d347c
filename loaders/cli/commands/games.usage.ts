/**
 * `parley games`: the usage line, kept apart from the command's code so that
 * `parley help` (commands/index.ts) lists it without loading the command.
 */
export const usage = "games                                             list playable games with their parameters (JSON)";
