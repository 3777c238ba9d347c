/**
 * A run config's games played into memory as rows of the common tables, for
 * a catalog dataset that shows a Parley run beside ingested logs (the
 * gamma-Bench page lists the built-in strategies of data/runs/gamabench.json
 * beside the paper's models). Small runs only: every row is kept in memory.
 */
import {readFileSync} from "node:fs";
import {join} from "node:path";
import {projectRoot} from "../projectConfig.js";
import type {Row} from "../io/schema.js";
import {parseRunConfig} from "./runConfig.js";
import {runTournament} from "./tournament.js";

export interface RunRows {
  games: Row[];
  players: Row[];
  turns: Row[];
}

/** Plays data/runs/<name>.json; games rows carry their game id in `game`, as flat tables do. */
export async function runRows(name: string): Promise<RunRows> {
  const config = parseRunConfig(JSON.parse(readFileSync(join(projectRoot, "data", "runs", `${name}.json`), "utf8")), name);
  const rows: RunRows = {games: [], players: [], turns: []};
  await runTournament(config, {
    onGame: (record) => {
      rows.games.push({...record.row, game: record.game});
      rows.players.push(...record.players);
      rows.turns.push(...record.turns);
    },
  });
  return rows;
}
