/**
 * `parley run`: the usage line, kept apart from the command's code so that
 * `parley help` (./commands.ts) lists it without loading the command and the
 * site's Reference (/reference/cli) shows it.
 */

/** Planned games above which `parley run` asks for --yes before playing. */
export const CONFIRM_ABOVE = 1_000_000;

export const usage =
  "run <config.json> --out <dir> [--shard i/n] [--concurrency N] [--cache <dir>] [--resume] [--quiet] [--yes] [--max-cost USD] [--replace]  play a run config's games into <dir>/game=<id>/{games,players,turns}.parquet;\n" +
  "        --shard i/n plays shard i (from 0) of n into <dir>/game=<id>/shard=<i>/, the union of all n being the whole run;\n" +
  `        prints how many games it plans; more than ${CONFIRM_ABOVE.toLocaleString("en-US")} need --yes;\n` +
  "        runs with LLM players (or --resume) checkpoint each game and resume when run again; --cache moves the LLM response cache;\n" +
  "        --max-cost reserves each call's most possible cost (prices in parley.config.json) before sending it and sends none that would pass the budget;\n" +
  "        a <dir> holding tables of another config, an ingest or a study is refused unless --replace (files and folders parley did not link are never replaced)";
