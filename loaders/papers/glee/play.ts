/**
 * The browser-safe part of GLEE (Shapira et al. 2024): its three game
 * families (§2) and built-in agents. Its families have no narrator here:
 * the LLM player and the play page narrate them as GLEE's prompts do
 * (llmAgent.ts, study/narration.ts).
 */
import type {PaperPlay} from "../../contract/paper.js";
import {gleeGames} from "./games.js";
import {gleeAgents} from "./agents.js";

export const play: PaperPlay = {games: gleeGames, agents: gleeAgents, narrators: {}};
