/**
 * Every playable game, by id (`parley games`). A new game is one module that
 * exports a GameDef, listed here, or one JSON file in data/games/ (a matrix
 * or tree game; loaders/games/gtllm/).
 */
import type {GameDef} from "../contract/game.js";
import {gleeGames} from "../papers/glee/games.js";
import {gamabenchGames} from "../papers/gamabench/games.js";
import {dond} from "../papers/gtllm/dond/hardPoints.js";
import {econarenaGames} from "../papers/econarena/games.js";
import {negotiationArenaGames} from "../papers/negotiationarena/games.js";
import {loadDataGames} from "../papers/gtllm/dataGames.js";
import type {GameFile} from "../papers/gtllm/files.js";

const coded: GameDef[] = [...gleeGames, ...gamabenchGames, dond, ...econarenaGames, ...negotiationArenaGames];
const data = loadDataGames(coded.map((g) => g.id));

export const games: readonly GameDef[] = [...coded, ...data.defs];

/** The matrix and tree games read from data files, and one line per file left out. */
export const dataGames: readonly GameFile[] = data.files;
export const gameFileProblems: readonly string[] = data.problems;

/** The data file of a matrix or tree game, or undefined for a game written in code. */
export const dataGame = (id: string): GameFile | undefined => dataGames.find((g) => g.id === id);

/** The game with this id; throws naming the known ids. */
export function gameDef(id: string): GameDef {
  const def = games.find((g) => g.id === id);
  if (!def) throw new Error(`unknown game "${id}"; expected one of ${games.map((g) => g.id).join(", ")}${leftOut()}`);
  return def;
}

/** The games a run config's `game` entry names: an id, or a family prefix such as "gamabench/*". */
export function matchGames(pattern: string): GameDef[] {
  if (pattern.endsWith("/*")) return games.filter((g) => g.id.startsWith(pattern.slice(0, -1)));
  return games.filter((g) => g.id === pattern);
}

/** Notes the game files left out, for "unknown game" messages. */
export const leftOut = (): string => (gameFileProblems.length ? ` (left out: ${gameFileProblems.join("; ")})` : "");
