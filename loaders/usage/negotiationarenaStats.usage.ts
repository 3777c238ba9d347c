/**
 * `parley negotiationarena-stats`: the usage line, kept apart from the command's code so that
 * `parley help` (./commands.ts) lists it without loading the command and the
 * site's Reference (/reference/cli) shows it.
 */
export const usage = "negotiationarena-stats <dir>                      NegotiationArena (Bianchi et al. 2024) §3 win rates (ties excluded) and mean payoffs per ordered pair (JSON Lines)";
