/** Narrators by game id: what a language model reads in each game (games hold no prompt text). */
import type {Narrator} from "./narrator.js";
import {gamabenchNarrators} from "./gamabench.js";
import {dondNarrator} from "./dond.js";
import {econarenaNarrators} from "./econarena.js";
import {negotiationArenaNarrator} from "./negotiationarena.js";
import {negotiationArenaGames} from "../../../games/negotiationarena/index.js";

const narrators: Record<string, Narrator> = {
  ...gamabenchNarrators,
  ...econarenaNarrators,
  "dond/negotiation": dondNarrator as Narrator,
  ...Object.fromEntries(negotiationArenaGames.map((g) => [g.id, negotiationArenaNarrator as Narrator])),
};

/** The narrator of `game`, or null when LLM players cannot play it. */
export function narratorFor(game: string): Narrator | null {
  return narrators[game] ?? null;
}
