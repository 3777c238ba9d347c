/**
 * Narrators by game id: what a language model reads in each game (games hold
 * no prompt text). A game an LLM player can sit is a game listed here, or a
 * matrix or tree game of data/games/, which all share one narrator.
 */
import type {Narrator} from "../contract/narrator.js";
import {gamabenchNarrators} from "../papers/gamabench/narrators.js";
import {dondNarrator} from "../papers/gtllm/dond/narrator.js";
import {econarenaNarrators} from "../papers/econarena/narrators.js";
import {negotiationArenaNarrator} from "../papers/negotiationarena/narrator.js";
import {negotiationArenaGames} from "../papers/negotiationarena/games.js";
import {gleeNarrator} from "../papers/glee/narrator.js";
import {gtllmNarrator} from "../papers/gtllm/narrator.js";
import {dataGames} from "./games.js";

const narrators: Record<string, Narrator> = {
  "glee/bargaining": gleeNarrator as Narrator,
  "glee/negotiation": gleeNarrator as Narrator,
  "glee/persuasion": gleeNarrator as Narrator,
  ...gamabenchNarrators,
  ...econarenaNarrators,
  "dond/negotiation": dondNarrator as Narrator,
  ...Object.fromEntries(negotiationArenaGames.map((g) => [g.id, negotiationArenaNarrator as Narrator])),
  ...Object.fromEntries(dataGames.map((g) => [g.id, gtllmNarrator as Narrator])),
};

/** The narrator of `game`, or null when LLM players cannot play it. */
export function narratorFor(game: string): Narrator | null {
  return narrators[game] ?? null;
}

/** Every game an LLM player can sit (the games with a narrator). */
export const narratedGames: readonly string[] = Object.keys(narrators);
