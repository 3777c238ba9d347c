/**
 * Every built-in agent, by id (`parley agents`). One id may play several
 * games (e.g. `random`): its entries are merged into one, and `create` picks
 * the entry that plays the seat's game.
 */
import type {AgentDef, SeatContext} from "./contract.js";
import {playsGame} from "./contract.js";
import {gleeAgents} from "./gleeAgents.js";
import {gamabenchAgents} from "./gamabench.js";
import {dondAgents} from "./dond.js";
import {econarenaAgents} from "./econarena.js";
import {negotiationArenaAgents} from "./negotiationarena.js";
import {gtllmAgents} from "./gtllm.js";

/** Merges entries that share an id into one agent that plays all their games. */
export function mergeAgents(defs: readonly AgentDef[]): AgentDef[] {
  const byId = new Map<string, AgentDef[]>();
  for (const d of defs) byId.set(d.id, [...(byId.get(d.id) ?? []), d]);
  return [...byId.values()].map((entries) => {
    if (entries.length === 1) return entries[0];
    const pick = (game: string) => entries.find((e) => playsGame(e, game));
    return {
      id: entries[0].id,
      games: entries.flatMap((e) => e.games),
      canSit: (game, seat, n) => {
        const e = pick(game);
        return !!e && (e.canSit?.(game, seat, n) ?? true);
      },
      description: entries.map((e) => e.description).join(" "),
      source: [...new Set(entries.map((e) => e.source))].join("; "),
      variants: entries,
      create: (context: SeatContext) => {
        const e = pick(context.game);
        if (!e) throw new Error(`agent "${entries[0].id}" does not play ${context.game}`);
        return e.create(context);
      },
    } as AgentDef & {variants: AgentDef[]};
  });
}

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
