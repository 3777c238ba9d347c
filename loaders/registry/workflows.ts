/**
 * The workflows of LLM players (`workflow: true`; Game-theoretic LLM: Agent
 * Workflow for Negotiation Games (Hua et al. 2024) §4.4, §5.2), by game:
 * Deal or No Deal has the belief workflow, every matrix and tree game the
 * game-theoretic one. The contract is loaders/contract/workflow.ts.
 */
import {dataGame} from "./games.js";
import type {PlayerPrompt} from "../contract/narrator.js";
import type {Workflow, WorkflowFactory} from "../contract/workflow.js";
import {dondWorkflow} from "../papers/gtllm/dond/workflow.js";
import {gtllmWorkflow} from "../papers/gtllm/workflow.js";

const workflows: Record<string, WorkflowFactory> = {
  "dond/negotiation": dondWorkflow,
};

/** The workflow factory of `game`, or null when it has none. */
const factoryFor = (game: string): WorkflowFactory | null => workflows[game] ?? (dataGame(game) ? gtllmWorkflow : null);

/** A fresh workflow for one seat of `game` played with `player`'s prompt settings, or null when the game has none. */
export function workflowFor(game: string, player: PlayerPrompt): Workflow | null {
  return factoryFor(game)?.(player) ?? null;
}

export const hasWorkflow = (game: string): boolean => factoryFor(game) !== null;

export const workflowGames: readonly string[] = [...Object.keys(workflows), "every matrix and tree game"];
