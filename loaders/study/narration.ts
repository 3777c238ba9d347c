/**
 * What a person playing a seat reads: what a language model in that seat
 * would be told, written by the same narrators (loaders/registry/narrators.ts),
 * without the LLM player's extras (persona, chain of thought). GLEE's
 * families show a person the rules as system message and one update per turn
 * with the person's own answers between, as one conversation for the whole
 * game (without the JSON format a model is asked for, which the play page's
 * form replaces, and without restarting a myopic buyer's conversation each
 * round); every other game's
 * narrator lays out the whole conversation itself. Pure: runs in the
 * browser (src/play.md).
 */
import type {Action, GameObservation} from "../contract/game.js";
import type {GleeObservation} from "../papers/glee/types.js";
import type {ChatMessage} from "../llm/types.js";
import type {Narrator, PastTurn} from "../contract/narrator.js";
import {gleeRules, gleeUpdate} from "../papers/glee/narrator.js";

/** How a person's accepted answer appears in the conversation (where a model's reply would be). */
export const answerText = (action: Action): string => JSON.stringify(action);

/** One seat's narration through a game: `tell` what it reads now, `answered` after each accepted move. */
export class Narration {
  private glee: {messages: ChatMessage[]; previous: GleeObservation | null} = {messages: [], previous: null};
  private readonly past: PastTurn[] = [];

  /** `narrator`: the game's (the engine's narrators); GLEE's families are narrated below, as one conversation for the whole game. */
  constructor(readonly game: string, private readonly narrator: Narrator | null) {}

  /** The conversation up to this decision: system message (rules), what happened, what to do now. */
  tell(obs: GameObservation): ChatMessage[] {
    if (this.game.startsWith("glee/")) {
      const glee = obs as GleeObservation;
      const start: ChatMessage[] = this.glee.messages.length ? this.glee.messages : [{role: "system", content: gleeRules(glee)}];
      return [...start, {role: "user", content: gleeUpdate(glee, this.glee.previous)}];
    }
    if (this.narrator) return this.narrator.messages(obs, this.past, "");
    return [{role: "user", content: JSON.stringify(obs.view, null, 2)}];
  }

  /** Records the seat's accepted move, so the next `tell` shows it where a model's reply would be. */
  answered(obs: GameObservation, action: Action): void {
    const raw = answerText(action);
    if (this.game.startsWith("glee/")) {
      this.glee = {messages: [...this.tell(obs), {role: "assistant", content: raw}], previous: obs as GleeObservation};
    } else {
      this.past.push({observation: obs, raw});
    }
  }
}
