/**
 * Built-in agents for NegotiationArena's three scenarios (NegotiationArena
 * (Bianchi et al. 2024) §2.1, §5): the rational player of each scenario, the
 * split-the-difference negotiator of §5.1, a fixed-anchor seller and uniform
 * random legal play. They read only the observation (ArenaView) and answer
 * an action of its legal specs.
 */
import type {Rng} from "../../../src/lib/rng.js";
import type {Action, ActionSpec, GameObservation} from "../../contract/game.js";
import {tradeFieldsOf, type ArenaView, type Trade} from "./protocol.js";
import {lastMover} from "./ultimatum.js";
import {priceOf} from "./buySell.js";
import type {AgentDef, AgentReply} from "../../contract/agent.js";

const G = {
  exchange: "negotiationarena/resource_exchange",
  ultimatum: "negotiationarena/ultimatum",
  buySell: "negotiationarena/buy_sell",
} as const;
const SOURCE = "NegotiationArena (Bianchi et al. 2024)";

type Obs = GameObservation<ArenaView>;
type Policy = (obs: Obs, rng: Rng) => Action;

const can = (obs: Obs, type: string): boolean => obs.legal.some((s) => s.type === type);
const spec = (obs: Obs, type: string): ActionSpec | undefined => obs.legal.find((s) => s.type === type);
/** The most a side may give of a resource (the legal spec's bound), 0 when it cannot give it. */
const maxGive = (obs: Obs, field: string): number => spec(obs, "PROPOSAL")?.numbers?.[field]?.max ?? 0;
const mySide = (obs: Obs): keyof Trade => (obs.seat === 0 ? "red" : "blue");
const otherSide = (obs: Obs): keyof Trade => (obs.seat === 0 ? "blue" : "red");
const propose = (trade: Trade): Action => ({type: "PROPOSAL", ...tradeFieldsOf(trade)});
/** When nothing better is legal: wait if the game allows it, else turn the offer down. */
const pass = (obs: Obs): Action => ({type: can(obs, "NONE") ? "NONE" : "REJECT"});

/** Resource exchange: what the seat gains from a trade (units received − units given). */
export function exchangeGain(obs: Obs, trade: Trade): number {
  const sum = (h: Record<string, number>) => Object.values(h).reduce((a, b) => a + b, 0);
  return sum(trade[otherSide(obs)]) - sum(trade[mySide(obs)]);
}

/** Ultimatum: the dollars a trade leaves this seat (RED gives, BLUE receives). */
export function ultimatumShare(obs: Obs, trade: Trade): number {
  const given = trade.red.Dollars ?? 0;
  return obs.seat === 1 ? given : obs.view.red_resources.Dollars - given;
}

/** Ultimatum: a trade that leaves BLUE `blue` dollars. */
const ultimatumSplit = (blue: number): Trade => ({red: {Dollars: blue}, blue: {}});

const buySellTrade = (price: number): Trade => ({red: {X: 1}, blue: {ZUP: price}});

/** Buy/sell: whether a price is inside the seat's valuation (seller: at least its cost; buyer: at most its value). */
function withinValuation(obs: Obs, price: number): boolean {
  const goal = obs.view.goal;
  return goal.kind === "sell" ? price >= goal.cost : goal.kind === "buy" ? price <= goal.value : false;
}

// ---------------------------------------------------------------- rational

/**
 * Resource exchange (constant-sum: any gain is the other's loss): accept a
 * standing trade only when it loses nothing (gain ≥ 0); propose giving 1 of
 * its most plentiful resource for 2 of its scarcest (gain +1), which another
 * rational player refuses; otherwise wait. Two rational players never trade.
 */
const rationalExchange: Policy = (obs) => {
  const v = obs.view;
  if (v.standing && exchangeGain(obs, v.standing) >= 0) return {type: "ACCEPT"};
  if (can(obs, "PROPOSAL")) {
    const mine = Object.entries(v.resources).sort((a, b) => b[1] - a[1]);
    const plentiful = mine[0][0];
    const scarce = v.resources_in_game.filter((r) => r !== plentiful).sort((a, b) => (v.resources[a] ?? 0) - (v.resources[b] ?? 0))[0];
    const ask = Math.min(2, maxGive(obs, `${otherSide(obs)}_${scarce}`));
    if (scarce && ask === 2) {
      const trade: Trade = {red: {}, blue: {}};
      trade[mySide(obs)][plentiful] = 1;
      trade[otherSide(obs)][scarce] = ask;
      return propose(trade);
    }
  }
  return pass(obs);
};

/**
 * Ultimatum by backward induction: the last mover accepts any positive
 * offer, so the penultimate mover keeps stake − 1 and offers 1. At every
 * other turn the agent accepts a standing offer worth at least its
 * equilibrium share and otherwise proposes the equilibrium split (which the
 * other rational player accepts at once).
 */
const rationalUltimatum: Policy = (obs) => {
  const v = obs.view;
  const stake = v.red_resources.Dollars;
  const decider = lastMover(v.iterations);
  const equilibriumShare = (seat: number) => (seat === decider ? 1 : stake - 1);
  const offered = v.standing ? ultimatumShare(obs, v.standing) : null;
  if (!can(obs, "PROPOSAL")) return {type: offered !== null && offered >= 1 ? "ACCEPT" : "REJECT"};
  if (offered !== null && offered >= equilibriumShare(obs.seat)) return {type: "ACCEPT"};
  return propose(ultimatumSplit(equilibriumShare(1)));
};

/**
 * Buy/sell: accept any price inside its valuation; otherwise concede
 * linearly over its proposals, the seller from the budget down to its cost,
 * the buyer from 0 up to its value (never proposing outside its valuation);
 * out of proposals, reject what it cannot accept.
 */
const rationalBuySell: Policy = (obs) => {
  const v = obs.view;
  if (v.standing && withinValuation(obs, priceOf(v.standing))) return {type: "ACCEPT"};
  if (!can(obs, "PROPOSAL")) return pass(obs);
  const budget = maxGive(obs, "blue_ZUP");
  const k = v.proposals_made;
  const steps = Math.max(1, (v.proposal_limit ?? 1) - 1);
  const t = Math.min(1, k / steps);
  const price = v.goal.kind === "sell" ? Math.round(budget - (budget - v.goal.cost) * t) : v.goal.kind === "buy" ? Math.round(Math.min(v.goal.value, budget) * t) : 0;
  return propose(buySellTrade(Math.min(budget, Math.max(0, price))));
};

// ---------------------------------------------------------------- split the difference

/** The numbers proposed so far, in order: buy/sell prices, or ultimatum offers to BLUE. */
function proposedNumbers(obs: Obs): number[] {
  return obs.view.history.filter((m) => m.trade).map((m) => (obs.view.scenario === "buy_sell" ? priceOf(m.trade!) : (m.trade!.red.Dollars ?? 0)));
}

/**
 * §5.1's split-the-difference negotiator: p_{t+1} = (p_t + p_{t−1}) / 2,
 * rounded to a whole unit. It opens far from the other side (seller: twice
 * its cost, buyer: half its value; ultimatum: keeping two thirds), accepts
 * once the standing offer is within 2 units of its own last proposal (and,
 * in buy/sell, inside its valuation), and out of proposals accepts what is
 * inside its valuation (ultimatum: anything positive).
 */
const splitDifference: Policy = (obs) => {
  const v = obs.view;
  const buySell = v.scenario === "buy_sell";
  const numbers = proposedNumbers(obs);
  const standing = v.standing ? numbers.at(-1)! : null;
  const mine = v.history.filter((m) => m.seat === obs.seat && m.trade).at(-1);
  const myLast = mine ? (buySell ? priceOf(mine.trade!) : (mine.trade!.red.Dollars ?? 0)) : null;
  const acceptable = (x: number) => (buySell ? withinValuation(obs, x) : ultimatumShare(obs, ultimatumSplit(x)) > 0);
  const unit = buySell ? 1 : Math.max(1, v.red_resources.Dollars / 100);
  if (standing !== null && myLast !== null && Math.abs(standing - myLast) <= 2 * unit && acceptable(standing)) return {type: "ACCEPT"};
  if (!can(obs, "PROPOSAL")) return standing !== null && acceptable(standing) ? {type: "ACCEPT"} : pass(obs);
  let next: number;
  if (numbers.length >= 2) next = Math.round((numbers.at(-1)! + numbers.at(-2)!) / 2);
  else if (buySell) next = v.goal.kind === "sell" ? 2 * v.goal.cost : v.goal.kind === "buy" ? Math.floor(v.goal.value / 2) : 0;
  else {
    const stake = v.red_resources.Dollars;
    next = obs.seat === 0 ? Math.round(stake / 3) : Math.round((2 * stake) / 3);
  }
  if (buySell) return propose(buySellTrade(Math.min(maxGive(obs, "blue_ZUP"), Math.max(0, next))));
  return propose(ultimatumSplit(Math.min(v.red_resources.Dollars, Math.max(0, next))));
};

// ---------------------------------------------------------------- fixed anchor

/**
 * A seller that names one price and sticks to it: 1.5 × its cost (60 at the
 * default cost of 40), capped by the buyer's budget; it accepts a standing
 * offer at or above that price and rejects at its last chance.
 */
const fixedAnchor: Policy = (obs) => {
  const v = obs.view;
  const cost = v.goal.kind === "sell" ? v.goal.cost : 0;
  const anchor = Math.min(maxGive(obs, "blue_ZUP") || Infinity, Math.round(1.5 * cost));
  if (v.standing && priceOf(v.standing) >= anchor) return {type: "ACCEPT"};
  return can(obs, "PROPOSAL") ? propose(buySellTrade(anchor)) : pass(obs);
};

// ---------------------------------------------------------------- random

/** Uniform over the legal answers; a proposal draws every amount uniformly within its bounds. */
export const randomArena: Policy = (obs, rng) => {
  const s = rng.pick(obs.legal);
  const action: Action = {type: s.type};
  for (const field in s.numbers ?? {}) {
    const {min = 0, max = 0} = s.numbers![field];
    action[field] = min + rng.int(Math.floor(max - min) + 1);
  }
  return action;
};

const reply = (policy: Policy) => () => ({act: (obs: GameObservation, rng: Rng): AgentReply => ({action: policy(obs as Obs, rng)})});

const byScenario = (policies: Record<string, Policy>): Policy => (obs, rng) => policies[obs.game](obs, rng);

export const negotiationArenaAgents: AgentDef[] = [
  {
    id: "rational",
    games: [G.exchange, G.ultimatum, G.buySell],
    description: "NegotiationArena: never accepts a losing trade (resource exchange); backward induction (ultimatum: the penultimate mover keeps all but 1); accepts any price inside its valuation and concedes linearly (buy/sell).",
    source: `${SOURCE} §2.1, §5.2 (backward induction)`,
    create: reply(byScenario({[G.exchange]: rationalExchange, [G.ultimatum]: rationalUltimatum, [G.buySell]: rationalBuySell})),
  },
  {
    id: "split-difference",
    games: [G.ultimatum, G.buySell],
    description: "NegotiationArena: proposes the midpoint of the last two proposals, p_{t+1} = (p_t + p_{t−1})/2, and accepts once the offers meet.",
    source: `${SOURCE} §5.1 (split the difference)`,
    create: reply(splitDifference),
  },
  {
    id: "fixed-anchor",
    games: [G.buySell],
    canSit: (_game, seat) => seat === 0,
    description: "NegotiationArena seller: names 1.5 × its cost and never moves from it.",
    source: `${SOURCE} §5.1 (anchoring)`,
    create: reply(fixedAnchor),
  },
  {
    id: "random",
    games: [G.exchange, G.ultimatum, G.buySell],
    description: "NegotiationArena: a uniformly random legal answer, amounts uniform within what may be given.",
    source: "uniform random legal play",
    create: reply(randomArena),
  },
];
