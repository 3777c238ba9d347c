/**
 * The eight gamma-Bench games (gamma-Bench (Huang et al. 2024) §3), in the
 * paper's order: three cooperative, three betraying, two sequential games.
 */
import type {GameDef} from "../../contract/game.js";
import {GB_GAME} from "./columns.js";
import {battleRoyale} from "./battleRoyale.js";
import {diner} from "./diner.js";
import {divideDollar} from "./divideDollar.js";
import {elFarol} from "./elFarol.js";
import {guessing} from "./guessing.js";
import {pirate} from "./pirate.js";
import {publicGoods} from "./publicGoods.js";
import {sealedBid} from "./sealedBid.js";

/**
 * A Parley run records who played like the paper's raw results do: `model`
 * names the lineup (the player id when one player takes every seat, as in the
 * paper) and `run` the 1-based repetition, so the same score SQL groups both.
 */
function withLineup(def: GameDef): GameDef {
  return {
    ...def,
    columns: {...def.columns, games: [...def.columns.games, GB_GAME.model, GB_GAME.run, GB_GAME.version]},
    lineupColumns: (lineup, repetition) => ({model: lineup.every((id) => id === lineup[0]) ? lineup[0] : lineup.join("+"), run: repetition + 1, version: "parley"}),
  };
}

export const gamabenchGames: GameDef[] = [guessing, elFarol, divideDollar, publicGoods, diner, sealedBid, battleRoyale, pirate].map(withLineup);

export {battleRoyale, diner, divideDollar, elFarol, guessing, pirate, publicGoods, sealedBid};
export type * from "./views.js";
