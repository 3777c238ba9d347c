/**
 * GLEE's family agents: the scripted strategies of the three GLEE families
 * (and GLEE's LLM player) act on the family observation
 * (loaders/papers/glee/types.ts `Observation`) with alice/bob seats. They answer as
 * every agent does (contract.ts `AgentReply`); gleeAgents.ts puts them on the
 * agent contract.
 */
import type {Rng} from "../../../src/lib/rng.js";
import type {Family, Observation, Outcome, Player} from "./types.js";
import type {AgentReply} from "../../contract/agent.js";

export type {AgentReply, Usage} from "../../contract/agent.js";


/** One seat at one game. Created fresh for every game, so it may keep state. */
export interface Agent {
  act(observation: Observation, rng: Rng): AgentReply | Promise<AgentReply>;
  /** Called once when the game ends (e.g. to close a conversation). */
  finish?(outcome: Outcome): void | Promise<void>;
}

export interface AgentContext {
  family: Family;
  player: Player;
  gameId: string;
}

/** An entry of the agent registry (`parley agents`). */
export interface AgentSpec {
  id: string;
  families: readonly Family[];
  /** Seats it can take, per family; a family not listed allows both. */
  seats?: Partial<Record<Family, readonly Player[]>>;
  description: string;
  /** Where the strategy comes from (seed and section, or textbook). */
  source: string;
  create(context: AgentContext): Agent;
}
