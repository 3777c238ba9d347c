/** The browser-safe part of Economics Arena (Guo et al. 2024): the beauty contest and the auctions (§3.1, App. A.1), built-in strategies and prompts (App. B). */
import type {PaperPlay} from "../../contract/paper.js";
import {econarenaGames} from "./games.js";
import {econarenaAgents} from "./agents.js";
import {econarenaNarrators} from "./narrators.js";

export const play: PaperPlay = {games: econarenaGames, agents: econarenaAgents, narrators: econarenaNarrators};
