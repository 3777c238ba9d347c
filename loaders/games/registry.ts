/**
 * Every playable game, by id (`parley games`). A new game is one module that
 * exports a GameDef, listed here.
 */
import type {GameDef} from "./contract.js";
import {gleeGames} from "./glee.js";
import {gamabenchGames} from "./gamabench/index.js";
import {dond} from "./dond.js";
import {econarenaGames} from "./econarena/index.js";
import {negotiationArenaGames} from "./negotiationarena/index.js";

export const games: readonly GameDef[] = [...gleeGames, ...gamabenchGames, dond, ...econarenaGames, ...negotiationArenaGames];

/** The game with this id; throws naming the known ids. */
export function gameDef(id: string): GameDef {
  const def = games.find((g) => g.id === id);
  if (!def) throw new Error(`unknown game "${id}"; expected one of ${games.map((g) => g.id).join(", ")}`);
  return def;
}

/** The games a run config's `game` entry names: an id, or a family prefix such as "gamabench/*". */
export function matchGames(pattern: string): GameDef[] {
  if (pattern.endsWith("/*")) return games.filter((g) => g.id.startsWith(pattern.slice(0, -1)));
  return games.filter((g) => g.id === pattern);
}
