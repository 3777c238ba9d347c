/**
 * Generated (simulated) catalog datasets: a run config under data/runs/
 * played into a directory, for loaders/emit.ts to pack like an ingested one.
 */
import {readFileSync} from "node:fs";
import {join} from "node:path";
import {projectRoot} from "../config.js";
import {parseRunConfig} from "./config.js";
import {writeTournament} from "./tournament.js";

/** Plays data/runs/<name>.json into `outDir` (games.parquet, turns.parquet); returns summary counts. */
export async function generateRun(name: string, outDir: string): Promise<Record<string, number>> {
  const path = join(projectRoot, "data", "runs", `${name}.json`);
  const config = parseRunConfig(JSON.parse(readFileSync(path, "utf8")), name);
  const files = await writeTournament(config, outDir);
  return {games: files.games, turns: files.turns};
}
