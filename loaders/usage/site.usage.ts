/**
 * `parley build`, `parley serve` and `parley dev`: the usage lines, kept
 * apart from the commands' code so that `parley help` (./commands.ts)
 * lists them without loading the commands and the site's Reference
 * (/reference/cli) shows them.
 */
export const buildUsage = "build                                             generate data and build the static site into dist/";
export const serveUsage = "serve [dir] [--port N]                            serve a built site on http://127.0.0.1:N (default dist/, 3000)";
export const devUsage = "dev                                               live preview on http://127.0.0.1:3000 (re-runs loaders on change; configured runs update as games finish)";
