/**
 * The browser-safe part of Game-theoretic LLM workflows (Hua et al. 2024):
 * Deal or No Deal with its 50 hard points bundled (§5.3) and its scripted
 * negotiators, and the rules and strategies of the matrix and tree games
 * written as data (§4; the files are read by Node, or bundled for /play).
 */
import type {PaperPlay} from "../../contract/paper.js";
import {dondGame} from "./dond/game.js";
import {bundledPoints} from "./dond/hard50.js";
import {dondAgents} from "./dond/agents.js";
import {dataGameDef} from "./dataGame.js";
import {gtllmAgentDefs} from "./scriptedAgents.js";
import type {GameFile} from "./files.js";
import type {Narrator} from "../../contract/narrator.js";
import {dondNarrator} from "./dond/narrator.js";
import {gtllmNarrator} from "./narrator.js";

export const dond = dondGame(bundledPoints);

export const play: PaperPlay<GameFile> = {
  games: [dond],
  agents: dondAgents,
  narrators: {[dond.id]: dondNarrator as Narrator},
  dataGames: {def: dataGameDef, agents: gtllmAgentDefs, narrator: gtllmNarrator as Narrator},
};
