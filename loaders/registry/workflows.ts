/**
 * A workflow of an LLM player (`workflow: true`; Game-theoretic LLM: Agent
 * Workflow for Negotiation Games (Hua et al. 2024) §4.4, §5.2): sub-calls
 * made before each answer, whose summary (`notes`) the game's narrator puts
 * into the prompt. Workflows are per game and per seat (a fresh one for each
 * game, so it may keep state); `workflowFor` names the games that have one.
 */
import {dataGame} from "./games.js";
import type {GameObservation} from "../contract/game.js";
import type {SubCall} from "../contract/agent.js";
import type {ChatMessage} from "../llm/types.js";
import {dondWorkflow} from "../papers/gtllm/dond/workflow.js";

/** One sub-call through the player's `complete`: the raw answer and its usage. */
export type AskModel = (messages: ChatMessage[]) => Promise<{raw: string; usage: {input_tokens: number; output_tokens: number; latency_ms: number}}>;

export interface Workflow<V = unknown> {
  prepare(observation: GameObservation<V>, ask: AskModel): Promise<{calls: SubCall[]; notes: string | null; record?: Record<string, unknown>}>;
}

const workflows: Record<string, () => Workflow> = {
  "dond/negotiation": dondWorkflow as () => Workflow,
};

/** A fresh workflow for one seat of `game`, or null when the game has none. */
export function workflowFor(game: string): Workflow | null {
  return workflows[game]?.() ?? null;
}

/** Deal or No Deal has the belief workflow here; every matrix and tree game has the game-theoretic one (gtllmPlayer.ts). */
export const hasWorkflow = (game: string): boolean => game in workflows || dataGame(game) !== undefined;

export const workflowGames: readonly string[] = [...Object.keys(workflows), "every matrix and tree game"];
