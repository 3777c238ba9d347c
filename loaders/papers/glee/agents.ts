/**
 * GLEE's built-in agents (index.ts) on the agent contract: each acts on the
 * family observation that GLEE games give as a seat's `view`.
 */
import type {Agent, AgentDef} from "../../contract/agent.js";
import {builtinAgents} from "./agentSpecs.js";
import type {Family, Observation, Player} from "./types.js";
import type {Agent as FamilyAgent, AgentSpec} from "./familyAgent.js";
import {FAMILIES} from "./types.js";

const SEATS: readonly Player[] = ["alice", "bob"];
const familyOf = (game: string) => game.slice("glee/".length) as Family;

/** A family agent seen through the contract: it reads the GLEE observation in `view`. */
export function contractAgent(agent: FamilyAgent): Agent<Observation> {
  return {
    act: (observation, rng) => {
      const view = observation.view;
      if (observation.retry) view.retry = observation.retry;
      return agent.act(view, rng);
    },
  };
}

export function gleeAgentDef(spec: AgentSpec): AgentDef {
  return {
    id: spec.id,
    games: spec.families.filter((f) => FAMILIES.includes(f)).map((f) => `glee/${f}`),
    canSit: (game, seat) => {
      const seats = spec.seats?.[familyOf(game)];
      return !seats || seats.includes(SEATS[seat]);
    },
    description: spec.description,
    source: spec.source,
    create: (c) => contractAgent(spec.create({family: familyOf(c.game), player: SEATS[c.seat], gameId: c.gameId})) as Agent,
  };
}

export const gleeAgents: AgentDef[] = builtinAgents.map(gleeAgentDef);
