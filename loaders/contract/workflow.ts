/**
 * A workflow of an LLM player (`workflow: true`; Game-theoretic LLM: Agent
 * Workflow for Negotiation Games (Hua et al. 2024) §4.4, §5.2): model calls
 * made before a decision, whose summary (`notes`) the game's narrator puts
 * into the prompt. A paper provides the workflows of its games; a fresh one
 * is made for each seat of each game, so it may keep state.
 */
import type {GameObservation} from "./game.js";
import type {SubCall, Usage} from "./agent.js";
import type {ChatMessage} from "../llm/types.js";
import type {PlayerPrompt} from "./narrator.js";

/** One sub-call through the player's `complete`: the raw answer and its usage. */
export type AskModel = (messages: ChatMessage[]) => Promise<{raw: string; usage: Usage}>;

export interface Workflow<V = unknown> {
  /**
   * The cache sample key of the sub-calls: "decision" shares the decision's
   * own key (the matrix and tree workflow asks in the seat's one
   * conversation slot), "workflow" a key of their own ("<sample>/workflow",
   * Deal or No Deal's belief questions). Part of every cached answer's key.
   */
  subCallSample: "decision" | "workflow";
  /** Runs before each first attempt of a decision (not before the retries of a rule break). */
  prepare(observation: GameObservation<V>, ask: AskModel): Promise<{calls: SubCall[]; notes: string | null; record?: Record<string, unknown>}>;
}

/** Makes a workflow for one seat, given the player's own prompt settings. */
export type WorkflowFactory = (player: PlayerPrompt) => Workflow;
