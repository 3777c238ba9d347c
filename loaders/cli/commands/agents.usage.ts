/**
 * `parley agents`: the usage line, kept apart from the command's code so that
 * `parley help` (commands/index.ts) lists it without loading the command.
 */
export const usage = "agents                                            list built-in game agents (JSON)";
