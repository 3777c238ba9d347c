/**
 * `parley play`: the usage line, kept apart from the command's code so that
 * `parley help` (./commands.ts) lists it without loading the command and the
 * site's Reference (/reference/cli) shows it.
 */
export const usage =
  "play [--config <experiment.json>] [--port N] [--host H] [--out DIR] [--replace]   experiment server: people play LLM players in the browser (GLEE's human study, App. E);\n" +
  "        loopback only unless --host (then links carry an access token); games land in <out> as parley run writes them; /admin needs the admin token;\n" +
  "        an <out> holding tables of a run, an ingest or another experiment is refused unless --replace";
