/**
 * GLEE's built-in agents (`parley agents`) on the agent contract
 * (loaders/contract/agent.ts): each reads the GLEE view of a seat's
 * observation (types.ts `GleeView`). Listed in the order `parley agents`
 * prints them.
 */
import type {AgentDef} from "../../contract/agent.js";
import {rubinstein} from "./rubinstein.js";
import {rational} from "./rational.js";
import {behaviouralAgent, behaviouralAgents, randomBehaviour, titForTat} from "./behavioural.js";
import {persuasionAgents, randomPersuasion, titForTatBuyer} from "./persuasionAgents.js";
import {playerAt} from "./types.js";

const titForTatAgent: AgentDef = {
  ...behaviouralAgents.find((a) => a.id === "tit-for-tat")!,
  games: ["glee/bargaining", "glee/negotiation", "glee/persuasion"],
  // As a persuasion buyer only.
  canSit: (game, seat) => game !== "glee/persuasion" || seat === 1,
  description: "Reciprocity: opens at 60% and concedes exactly as much as the other conceded last; as a persuasion buyer, believes \"high\" but refuses once after being sold low quality.",
  create: (c) => (c.game === "glee/persuasion" ? titForTatBuyer() : behaviouralAgent(titForTat, playerAt(c.seat))),
};

const randomAgent: AgentDef = {
  id: "random",
  games: ["glee/bargaining", "glee/negotiation", "glee/persuasion"],
  description: "Uniformly random offers (any split; a price within ±M/2 of its value), random claims, and coin-flip decisions.",
  source: "baseline",
  create: (c) => (c.game === "glee/persuasion" ? randomPersuasion(playerAt(c.seat)) : behaviouralAgent(randomBehaviour, playerAt(c.seat))),
};

export const gleeAgents: AgentDef[] = [
  rubinstein,
  rational,
  ...behaviouralAgents.filter((a) => a.id !== "tit-for-tat"),
  titForTatAgent,
  randomAgent,
  ...persuasionAgents,
];
