/**
 * Every built-in agent, by id (`parley agents`). One id may play several
 * games (e.g. `random`): its entries are merged into one, and `create` picks
 * the entry that plays the seat's game.
 */
import type {AgentDef} from "../contract/agent.js";
import {playsGame} from "../contract/agent.js";
import {mergeAgents} from "../contract/mergeAgents.js";
import {gleeAgents} from "../papers/glee/agents.js";
import {gamabenchAgents} from "../papers/gamabench/agents.js";
import {dondAgents} from "../papers/gtllm/dond/agents.js";
import {econarenaAgents} from "../papers/econarena/agents.js";
import {negotiationArenaAgents} from "../papers/negotiationarena/agents.js";
import {gtllmAgents} from "../papers/gtllm/agents.js";

export {mergeAgents};

export const agents: readonly AgentDef[] = mergeAgents([...gleeAgents, ...gamabenchAgents, ...dondAgents, ...econarenaAgents, ...negotiationArenaAgents, ...gtllmAgents]);

/** The agent with this id; throws naming the known ids. */
export function agentDef(id: string): AgentDef {
  const def = agents.find((a) => a.id === id);
  if (!def) throw new Error(`unknown agent "${id}"; built-in agents: ${agents.map((a) => a.id).join(", ")}`);
  return def;
}

/** Whether `def` can take `seat` of an `nSeats`-seat `game`. */
export function canSit(def: AgentDef, game: string, seat: number, nSeats: number): boolean {
  return playsGame(def, game) && (def.canSit?.(game, seat, nSeats) ?? true);
}
