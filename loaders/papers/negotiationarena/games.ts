/** NegotiationArena's three scenarios (NegotiationArena (Bianchi et al. 2024) §2.1), in the paper's order. */
import type {GameDef} from "../../contract/game.js";
import {buySell} from "./buySell.js";
import {resourceExchange} from "./resourceExchange.js";
import {ultimatum} from "./ultimatum.js";

export const negotiationArenaGames: GameDef[] = [resourceExchange, ultimatum, buySell];

export {buySell, resourceExchange, ultimatum};
export type * from "./protocol.js";
