/** `parley run <config.json> --out <dir>`: play a GLEE tournament and write games.parquet + turns.parquet. */
import {readFileSync, existsSync} from "node:fs";
import {basename, extname} from "node:path";
import {parseRunConfig, ConfigError, type RunConfig} from "../run/config.js";
import {countGames} from "../run/grid.js";
import {writeTournament} from "../run/tournament.js";
import {parse, printJson, UsageError} from "./args.js";

export const usage = "run <config.json> --out <dir> [--concurrency N]  play a GLEE tournament (games.parquet, turns.parquet)";

/** Reads and validates a run config file; errors name the file and the bad key. */
export function readRunConfig(path: string): RunConfig {
  if (!existsSync(path)) throw new UsageError(`parley run: config ${path} not found`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new UsageError(`parley run: ${path} is not valid JSON (${(error as Error).message})`);
  }
  try {
    return parseRunConfig(raw, basename(path, extname(path)));
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(`parley run: ${path}: ${error.message}`);
    throw error;
  }
}

export async function run(argv: string[]): Promise<number> {
  const {values, positionals} = parse("run", argv, {out: {type: "string"}, concurrency: {type: "string"}});
  if (positionals.length !== 1 || !values.out) throw new UsageError(`usage: parley ${usage}`);
  const config = readRunConfig(positionals[0]);
  const concurrency = values.concurrency === undefined ? undefined : Number(values.concurrency);
  if (concurrency !== undefined && !(Number.isInteger(concurrency) && concurrency >= 1)) throw new UsageError(`parley run: --concurrency must be a positive integer`);
  const planned = countGames(config);
  const started = performance.now();
  const files = await writeTournament(config, values.out, {concurrency});
  printJson({run_id: config.run_id, families: config.families, planned, games: files.games, turns: files.turns, seconds: Math.round(performance.now() - started) / 1000, games_path: files.gamesPath, turns_path: files.turnsPath});
  return 0;
}
