/** The browser-safe part of NegotiationArena (Bianchi et al. 2024): its three scenarios (§2.1), built-in agents and the tagged protocol's narrator (one for all three, App. E.1). */
import type {PaperPlay} from "../../contract/paper.js";
import type {Narrator} from "../../contract/narrator.js";
import {negotiationArenaGames} from "./games.js";
import {negotiationArenaAgents} from "./agents.js";
import {negotiationArenaNarrator} from "./narrator.js";

export const play: PaperPlay = {
  games: negotiationArenaGames,
  agents: negotiationArenaAgents,
  narrators: Object.fromEntries(negotiationArenaGames.map((g) => [g.id, negotiationArenaNarrator as Narrator])),
};
