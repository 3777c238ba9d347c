/**
 * The built-in agents of the matrix and tree games the registry read from
 * data/games/ (and PARLEY_GAMES_DIR): gtllmScripted.ts's strategies.
 */
import {dataGames} from "../games/registry.js";
import {gtllmAgentDefs} from "./gtllmScripted.js";

export * from "./gtllmScripted.js";

export const gtllmAgents = gtllmAgentDefs(dataGames);
