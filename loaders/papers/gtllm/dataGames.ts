/**
 * The matrix and tree games written as data (data/games/*.json): the ten
 * complete-information games of Game-theoretic LLM workflows (Hua et al.
 * 2024) §4.1 (`gtllm/*`), its §6 probes (`gtllm-probes/*`), and any game a
 * user adds as one more file. A file that is not a valid game is left out
 * and named in the registry's `gameFileProblems` (printed by `parley games`
 * and `parley run`).
 */
import {join} from "node:path";
import {projectRoot} from "../../projectConfig.js";
import type {GameDef} from "../../contract/game.js";
import {loadGameFiles, type GameFile} from "./files.js";
import {gameTables} from "../../contract/tables.js";
import type {Column, TableSchema} from "../../io/schema.js";

/** Where the game files are: data/games/ of the project, then the directory PARLEY_GAMES_DIR names, if any. */
export const gameDirs = [join(projectRoot, "data", "games"), ...(process.env.PARLEY_GAMES_DIR ? [process.env.PARLEY_GAMES_DIR] : [])];

/** Reads the game files of every directory; `taken` are the ids of the code-defined games. */
export function readGameFiles(taken: readonly string[]): {files: GameFile[]; problems: string[]} {
  const files: GameFile[] = [];
  const problems: string[] = [];
  for (const dir of gameDirs) {
    const loaded = loadGameFiles(dir, [...taken, ...files.map((f) => f.id)]);
    files.push(...loaded.games);
    problems.push(...loaded.problems);
  }
  return {files, problems};
}

/**
 * The flat games and turns tables of matrix and tree games (every data game
 * has the same columns), with the `game` id as a column, as the site reads them.
 */
export function dataGameSchemas(def: GameDef): TableSchema[] {
  const {games, turns} = gameTables(def);
  const game: Column = {name: "game", type: "VARCHAR", doc: "game id"};
  return [{...games, columns: [...games.columns, game]}, {...turns, columns: [...turns.columns, game]}];
}
