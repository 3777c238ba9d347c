/** The browser-safe part of gamma-Bench (Huang et al. 2024): its eight N-player games (§3), built-in strategies and prompts (App. C). */
import type {PaperPlay} from "../../contract/paper.js";
import {gamabenchGames} from "./games.js";
import {gamabenchAgents} from "./agents.js";
import {gamabenchNarrators} from "./narrators.js";

export const play: PaperPlay = {games: gamabenchGames, agents: gamabenchAgents, narrators: gamabenchNarrators};
