/**
 * The eight gamma-Bench games (gamma-Bench (Huang et al. 2024) §3), in the
 * paper's order: three cooperative, three betraying, two sequential games.
 */
import type {GameDef} from "../contract.js";
import {battleRoyale} from "./battleRoyale.js";
import {diner} from "./diner.js";
import {divideDollar} from "./divideDollar.js";
import {elFarol} from "./elFarol.js";
import {guessing} from "./guessing.js";
import {pirate} from "./pirate.js";
import {publicGoods} from "./publicGoods.js";
import {sealedBid} from "./sealedBid.js";

export const gamabenchGames: GameDef[] = [guessing, elFarol, divideDollar, publicGoods, diner, sealedBid, battleRoyale, pirate];

export {battleRoyale, diner, divideDollar, elFarol, guessing, pirate, publicGoods, sealedBid};
export type * from "./views.js";
