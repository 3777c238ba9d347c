/**
 * Every built-in agent, by id (`parley agents`), read off the list of papers
 * (loaders/papers/index.ts): each paper's scripted agents in the list's
 * order, then the strategies of the games written as data. One id may play
 * several games (e.g. `random`): its entries are merged into one, and
 * `create` picks the entry that plays the seat's game.
 */
import type {AgentDef} from "../contract/agent.js";
import {playsGame} from "../contract/agent.js";
import {mergeAgents} from "../contract/mergeAgents.js";
import {papers} from "../papers/index.js";
import {dataGamesOf} from "./games.js";

export {mergeAgents};

const dataGameAgents = papers.flatMap((p) => p.play.dataGames?.agents(dataGamesOf(p.id)) ?? []);

export const agents: readonly AgentDef[] = mergeAgents([...papers.flatMap((p) => p.play.agents), ...dataGameAgents]);

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
