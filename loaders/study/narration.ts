/**
 * What a person playing a seat reads: exactly what a language model in that
 * seat would be told, written by the same narrators (loaders/agents/llm/
 * narrators/), without the LLM player's response-format extras. GLEE's
 * families keep their conversation as GLEE's LLM player does (the rules as
 * system message, one update per turn, the seat's own answers between);
 * matrix and tree games send one prompt per decision (Game-theoretic LLM
 * workflows (Hua et al. 2024) §4); every other game's narrator lays out the
 * whole conversation itself. Pure: runs in the browser (src/play.md).
 */
import type {Action, GameObservation} from "../contract/game.js";
import type {Observation} from "../papers/glee/types.js";
import type {DataGameView} from "../papers/gtllm/views.js";
import type {ChatMessage} from "../llm/types.js";
import type {Narrator, PastTurn} from "../contract/narrator.js";
import {gleeRules, gleeUpdate} from "../papers/glee/narrator.js";
import {actionPrompt, negotiatePrompt, systemPrompt} from "../papers/gtllm/narrator.js";

/** How a person's accepted answer appears in the conversation (where a model's reply would be). */
export const answerText = (action: Action): string => JSON.stringify(action);

/** One seat's narration through a game: `tell` what it reads now, `answered` after each accepted move. */
export class Narration {
  private glee: {messages: ChatMessage[]; previous: Observation | null} = {messages: [], previous: null};
  private readonly past: PastTurn[] = [];

  /** `narrator`: the game's, or null for GLEE's families and the matrix and tree games, narrated below as their LLM players are. */
  constructor(readonly game: string, private readonly narrator: Narrator | null) {}

  /** The conversation up to this decision: system message (rules), what happened, what to do now. */
  tell(obs: GameObservation): ChatMessage[] {
    if (this.game.startsWith("glee/")) {
      const view = obs.view as Observation;
      const start: ChatMessage[] = this.glee.messages.length ? this.glee.messages : [{role: "system", content: gleeRules(view)}];
      return [...start, {role: "user", content: gleeUpdate(view, this.glee.previous)}];
    }
    if (this.narrator) return this.narrator.messages(obs, this.past, "");
    const v = obs.view as DataGameView;
    if (v && (v.kind === "matrix" || v.kind === "tree")) {
      return [{role: "system", content: systemPrompt(null)}, {role: "user", content: v.phase === "talk" ? negotiatePrompt(v, "") : actionPrompt(v, "", null)}];
    }
    return [{role: "user", content: JSON.stringify(obs.view, null, 2)}];
  }

  /** Records the seat's accepted move, so the next `tell` shows it where a model's reply would be. */
  answered(obs: GameObservation, action: Action): void {
    const raw = answerText(action);
    if (this.game.startsWith("glee/")) {
      this.glee = {messages: [...this.tell(obs), {role: "assistant", content: raw}], previous: obs.view as Observation};
    } else {
      this.past.push({observation: obs, raw});
    }
  }
}
