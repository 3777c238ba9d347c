/**
 * The browser-safe part of GLEE (Shapira et al. 2024): its three game
 * families (§2), built-in agents, and the narrator that writes GLEE's
 * prompts (Appendix D.2) for all three.
 */
import type {PaperPlay} from "../../contract/paper.js";
import {gleeGames} from "./games.js";
import {gleeAgents} from "./agents.js";
import {gleeNarrator} from "./narrator.js";
import type {Narrator} from "../../contract/narrator.js";

export const play: PaperPlay = {games: gleeGames, agents: gleeAgents, narrators: Object.fromEntries(gleeGames.map((g) => [g.id, gleeNarrator as Narrator]))};
