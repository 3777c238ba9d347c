/**
 * The built-in agents (`parley agents`). Each entry says which families and
 * seats it plays; `createAgent` builds a fresh agent for one seat of one game.
 */
import {rubinstein} from "./rubinstein.js";
import {rational} from "./rational.js";
import {behaviouralAgent, behaviouralAgents, randomBehaviour, titForTat} from "./behavioural.js";
import {persuasionAgents, randomPersuasion, titForTatBuyer} from "./persuasionAgents.js";
import type {Family, Player} from "./types.js";
import type {AgentContext, AgentSpec} from "./familyAgent.js";

const titForTatSpec: AgentSpec = {
  ...behaviouralAgents.find((a) => a.id === "tit-for-tat")!,
  families: ["bargaining", "negotiation", "persuasion"],
  seats: {persuasion: ["bob"]},
  description: "Reciprocity: opens at 60% and concedes exactly as much as the other conceded last; as a persuasion buyer, believes \"high\" but refuses once after being sold low quality.",
  create: (c: AgentContext) => (c.family === "persuasion" ? titForTatBuyer() : behaviouralAgent(titForTat, c.player)),
};

const randomSpec: AgentSpec = {
  id: "random",
  families: ["bargaining", "negotiation", "persuasion"],
  description: "Uniformly random offers (any split; a price within ±M/2 of its value), random claims, and coin-flip decisions.",
  source: "baseline",
  create: (c) => (c.family === "persuasion" ? randomPersuasion(c.player) : behaviouralAgent(randomBehaviour, c.player)),
};

export const builtinAgents: AgentSpec[] = [
  rubinstein,
  rational,
  ...behaviouralAgents.filter((a) => a.id !== "tit-for-tat"),
  titForTatSpec,
  randomSpec,
  ...persuasionAgents,
];

export function agentSpec(id: string): AgentSpec {
  const spec = builtinAgents.find((a) => a.id === id);
  if (!spec) throw new Error(`unknown agent "${id}"; built-in agents: ${builtinAgents.map((a) => a.id).join(", ")}`);
  return spec;
}

/** Whether `spec` can sit in `player`'s seat of a `family` game. */
export function canPlay(spec: AgentSpec, family: Family, player: Player): boolean {
  if (!spec.families.includes(family)) return false;
  const seats = spec.seats?.[family];
  return !seats || seats.includes(player);
}
