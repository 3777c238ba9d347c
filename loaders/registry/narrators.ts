/**
 * Narrators by game id: what a language model reads in each game (games
 * hold no prompt text), read off the list of papers (loaders/papers/index.ts):
 * each paper's narrators of its games in code, and for its games written as
 * data (the matrix and tree games of data/games/) the one narrator of their
 * rules. A game an LLM player can sit is a game with a narrator.
 */
import type {Narrator} from "../contract/narrator.js";
import {papers} from "../papers/index.js";
import {dataGamesOf} from "./games.js";

export const narrators: Readonly<Record<string, Narrator>> = collect();

function collect(): Record<string, Narrator> {
  const narrators: Record<string, Narrator> = {};
  const declaredBy: Record<string, string> = {};
  const add = (game: string, narrator: Narrator, paper: string) => {
    if (declaredBy[game]) throw new Error(`papers "${declaredBy[game]}" and "${paper}" both declare a narrator for game "${game}"`);
    narrators[game] = narrator;
    declaredBy[game] = paper;
  };
  for (const p of papers) {
    for (const [game, narrator] of Object.entries(p.play.narrators)) add(game, narrator, p.id);
    const rules = p.play.dataGames;
    if (rules) for (const file of dataGamesOf(p.id)) add(file.id, rules.narrator, p.id);
  }
  return narrators;
}

/** The narrator of `game`, or null when LLM players cannot play it. */
export function narratorFor(game: string): Narrator | null {
  return narrators[game] ?? null;
}

/** Every game an LLM player can sit (the games with a narrator). */
export const narratedGames: readonly string[] = Object.keys(narrators);
