/**
 * Where a game's randomness comes from, by the run config's `chance` scheme.
 *
 * - "common" (common random numbers; the default of a new run config): a
 *   game's chance is derived from the run seed, the game, its configuration
 *   (parameters and number of seats) and its repetition, never from who
 *   sits or from the run's name, and each draw from its key (StartContext's
 *   `chance("values/round-3")`, contract/game.ts), not from its place in a
 *   sequence. Every agent, and every run with the same seed, compared on a
 *   configuration therefore faces the same private values, qualities, costs
 *   and shots' luck, even when the games take different paths, and a paired
 *   comparison is matched on chance as well as on configuration ("Some
 *   guidelines and guarantees for common random numbers", Glasserman 1992).
 *   Each seat's own stream (a scripted agent's coin) is derived from the
 *   same game, configuration and repetition and the seat's name, not the
 *   lineup, so a stochastic opponent draws the same numbers whichever agent
 *   it faces.
 * - "per-game" (every run before the scheme existed; the built-in run configs
 *   name it so that their numbers do not move): one stream from the run seed
 *   and the game id for what the game draws, taken in sequence whatever the
 *   key, one for chance nodes, and one per seat from the game id and the
 *   seat's name. The game id names the lineup, so matched games draw
 *   different numbers.
 */
import {deriveRng, type Rng} from "../../src/lib/rng.js";
import type {ChanceScheme} from "../../src/lib/sharedChance.js";
import type {Chance, GameDef, Params} from "../contract/game.js";
import {seatName} from "../contract/game.js";

export {CHANCE_SCHEMES, type ChanceScheme} from "../../src/lib/sharedChance.js";

/** A game's random streams: what it draws as it starts and plays, at chance nodes, and each seat's own. */
export interface GameStreams {
  chance: Chance;
  chanceNodes: Chance;
  seats: Rng[];
}

/** One stream for every key, taken in sequence: a game's chance as the per-game scheme (and a test) gives it. */
export const inSequence = (rng: Rng): Chance => () => rng;

/** The per-game streams (module comment) of game `gameId` with these seats. */
export function perGameStreams(seed: number, gameId: string, seatNames: readonly string[]): GameStreams {
  return {
    chance: inSequence(deriveRng(seed, `${gameId}/chance`)),
    chanceNodes: inSequence(deriveRng(seed, `${gameId}/chance-nodes`)),
    seats: seatNames.map((name) => deriveRng(seed, `${gameId}/${name}`)),
  };
}

/** What identifies a game's chance under the common scheme: never its lineup. */
export interface ChanceCell {
  game: string;
  params: Params;
  nSeats: number;
  repetition: number;
}

/** The cell's key: the game, its parameters with their names in order, the seats and the repetition, as JSON (no separator can be forged by a value). */
export function cellKey({game, params, nSeats, repetition}: ChanceCell): string {
  const sorted = Object.keys(params).sort().map((k) => [k, params[k]]);
  return JSON.stringify([game, sorted, nSeats, repetition]);
}

/** The common streams (module comment) of one game: each key its own stream, continued when asked again. */
export function commonStreams(seed: number, cell: ChanceCell, seatNames: readonly string[]): GameStreams {
  const base = cellKey(cell);
  const streams = new Map<string, Rng>();
  const chance: Chance = (key) => {
    let rng = streams.get(key);
    if (!rng) streams.set(key, (rng = deriveRng(seed, `${base}/chance/${key}`)));
    return rng;
  };
  return {chance, chanceNodes: chance, seats: seatNames.map((name) => deriveRng(seed, `${base}/seat/${name}`))};
}

/** A planned game's streams under `scheme`. */
export function gameStreams(scheme: ChanceScheme, seed: number, game: {def: GameDef; params: Params; lineup: readonly string[]; repetition: number; game_id: string}): GameStreams {
  const names = game.lineup.map((_, s) => seatName(game.def, s));
  if (scheme === "per-game") return perGameStreams(seed, game.game_id, names);
  return commonStreams(seed, {game: game.def.id, params: game.params, nSeats: game.lineup.length, repetition: game.repetition}, names);
}
