/**
 * Narrators by game id: what a language model reads in each game (games
 * hold no prompt text), read off the list of papers (loaders/papers/index.ts).
 */
import type {Narrator} from "../contract/narrator.js";
import {papers} from "../papers/index.js";

export const narrators: Readonly<Record<string, Narrator>> = collect();

function collect(): Record<string, Narrator> {
  const narrators: Record<string, Narrator> = {};
  const declaredBy: Record<string, string> = {};
  for (const p of papers) {
    for (const [game, narrator] of Object.entries(p.play.narrators)) {
      if (declaredBy[game]) throw new Error(`papers "${declaredBy[game]}" and "${p.id}" both declare a narrator for game "${game}"`);
      narrators[game] = narrator;
      declaredBy[game] = p.id;
    }
  }
  return narrators;
}

/** The narrator of `game`, or null when LLM players cannot play it. */
export function narratorFor(game: string): Narrator | null {
  return narrators[game] ?? null;
}
