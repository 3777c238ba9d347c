/** The Economics Arena games (Economics Arena (Guo et al. 2024) §3.1, Appendix A.1). */
import type {GameDef} from "../../contract/game.js";
import {auction} from "./auction.js";
import {beautyContest} from "./beautyContest.js";

export const econarenaGames: GameDef[] = [beautyContest, auction];

export {auction, beautyContest};
export type * from "./views.js";
