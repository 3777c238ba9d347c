/** Narrators by game id: what a language model reads in each game (games hold no prompt text). */
import type {Narrator} from "../contract/narrator.js";
import {gamabenchNarrators} from "../papers/gamabench/narrators.js";
import {dondNarrator} from "../papers/gtllm/dond/narrator.js";
import {econarenaNarrators} from "../papers/econarena/narrators.js";
import {negotiationArenaNarrator} from "../papers/negotiationarena/narrator.js";
import {negotiationArenaGames} from "../papers/negotiationarena/games.js";

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
