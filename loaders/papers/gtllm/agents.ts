/**
 * The built-in agents of the matrix and tree games the registry read from
 * data/games/ (and PARLEY_GAMES_DIR): gtllmScripted.ts's strategies.
 */
import {dataGames} from "../../registry/games.js";
import {gtllmAgentDefs} from "./scriptedAgents.js";

export * from "./scriptedAgents.js";

export const gtllmAgents = gtllmAgentDefs(dataGames);
