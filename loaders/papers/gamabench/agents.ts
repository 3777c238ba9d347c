/**
 * Built-in agents for the eight gamma-Bench games (gamma-Bench (Huang et al.
 * 2024) §3): the paper's equilibrium / optimal play, uniform random play,
 * and one or more behavioural strategies per game. Agents read only the
 * observation (the view of loaders/papers/gamabench/views.ts) and answer an
 * action of the game's legal specs.
 */
import type {Rng} from "../../../src/lib/rng.js";
import type {Action, ActionSpec, GameObservation, NumberSpec} from "../../contract/game.js";
import {strongestOther} from "./battleRoyale.js";
import {pirateOptimalPlan, pirateOptimalVote} from "./pirate.js";
import type {
  AuctionView, BattleRoyaleView, DinerView, DollarView, ElFarolView, GuessingView, PirateView, PublicGoodsView,
} from "./views.js";
import type {Agent, AgentDef, AgentReply, SeatContext} from "../../contract/agent.js";

const G = {
  guessing: "gamabench/guessing",
  elFarol: "gamabench/el_farol",
  dollar: "gamabench/divide_dollar",
  goods: "gamabench/public_goods",
  diner: "gamabench/diner",
  auction: "gamabench/sealed_bid",
  battle: "gamabench/battle_royale",
  pirate: "gamabench/pirate",
} as const;
const ALL = Object.values(G);

type Policy = (obs: GameObservation, rng: Rng) => Action;

/** An agent that answers every observation with `policy` (a fresh one per seat). */
const stateless = (policy: Policy): Agent => ({act: (obs, rng): AgentReply => ({action: policy(obs, rng)})});

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

// ---------------------------------------------------------------- equilibrium

/**
 * The paper's equilibrium or optimal play (§3), by game:
 * - Guess R: MIN when R < 1 (the paper's NE, 0 in the vanilla game), MAX when
 *   R > 1; when R = 1 every common number is an equilibrium and the agent
 *   picks MIN (Eq. 1 as printed scores it 100).
 * - El Farol: a pure equilibrium with exactly k = ⌊R·N⌋ goers: seats 0..k−1
 *   always go, the others always stay (the paper's mixed equilibrium is the
 *   symmetric alternative; the pure one makes S2 = 0 every round).
 * - Divide the Dollar: G/N, the remainder of G mod N as one extra coin to the
 *   lowest seats, so the bids sum to exactly G.
 * - Public Goods: 0 (dominant when R/N < 1; contributes everything when R/N > 1).
 * - Diner's Dilemma: costly, the dominant dish when U_h − U_l > (P_h − P_l)/N (else cheap).
 * - Sealed-bid auction: second price, bid the valuation (dominant); first
 *   price, the risk-neutral BNE for N i.i.d. uniform valuations,
 *   (N − 1)/N·v rounded down to a whole bid.
 * - Battle Royale: shoot the surviving player with the highest hit rate
 *   other than oneself (what S7 rewards; the paper gives no equilibrium).
 * - Pirate: Stewart's plan as proposer, Stewart's vote rule as voter.
 */
export const equilibriumPolicy: Policy = (obs) => {
  switch (obs.game) {
    case G.guessing: {
      const v = obs.view as GuessingView;
      return {type: "choose", amount: v.ratio > 1 ? v.max : v.min};
    }
    case G.elFarol: {
      const v = obs.view as ElFarolView;
      const k = Math.floor(v.ratio * v.n_players + 1e-9);
      return {type: "decide", choice: obs.seat < k ? "go" : "stay"};
    }
    case G.dollar: {
      const v = obs.view as DollarView;
      const base = Math.floor(v.gold / v.n_players);
      return {type: "bid", amount: base + (obs.seat < v.gold - base * v.n_players ? 1 : 0)};
    }
    case G.goods: {
      const v = obs.view as PublicGoodsView;
      return {type: "contribute", amount: v.ratio / v.n_players > 1 ? v.tokens : 0};
    }
    case G.diner: {
      const v = obs.view as DinerView;
      const costly = v.exp_utility - v.cheap_utility > (v.exp_cost - v.cheap_cost) / v.n_players;
      return {type: "order", choice: costly ? "costly" : "cheap"};
    }
    case G.auction: {
      const v = obs.view as AuctionView;
      const value = v.valuation ?? 0;
      return {type: "bid", amount: v.pricing === "second" ? value : Math.floor(((v.n_players - 1) / v.n_players) * value)};
    }
    case G.battle: {
      const v = obs.view as BattleRoyaleView;
      const rates: number[] = [];
      for (const s of v.alive) rates[s.seat] = s.hit_rate;
      const target = strongestOther(v.alive.map((s) => s.seat), rates, obs.seat);
      return target === null ? {type: "miss"} : {type: "shoot", target};
    }
    case G.pirate: {
      const v = obs.view as PirateView;
      if (v.phase === "propose") return {type: "propose", plan: pirateOptimalPlan(v.survivors.length, v.gold)};
      return {type: "vote", choice: pirateOptimalVote(v.offered ?? 0, v.survivors.indexOf(obs.seat) + 1)};
    }
    default:
      throw new Error(`equilibrium: no strategy for game ${obs.game}`);
  }
};

// ---------------------------------------------------------------- random

/** A uniform whole number (or real, when not `integer`) in the spec's range; unbounded sides default to [0, 100]. */
function randomNumber(spec: NumberSpec, rng: Rng): number {
  const lo = spec.min ?? 0;
  const hi = spec.max ?? lo + 100;
  if (spec.integer) {
    const a = Math.ceil(lo);
    return a + rng.int(Math.floor(hi) - a + 1);
  }
  return lo + rng.next() * (hi - lo);
}

/** A uniformly random split of `total` whole coins into `n` parts (stars and bars). */
function randomComposition(total: number, n: number, rng: Rng): number[] {
  // Choose n − 1 bar positions among total + n − 1 slots.
  const slots = Array.from({length: total + n - 1}, (_, i) => i);
  for (let i = 0; i < n - 1; i++) {
    const j = i + rng.int(slots.length - i);
    [slots[i], slots[j]] = [slots[j], slots[i]];
  }
  const bars = slots.slice(0, n - 1).sort((a, b) => a - b);
  const parts: number[] = [];
  let prev = -1;
  for (const b of bars) {
    parts.push(b - prev - 1);
    prev = b;
  }
  parts.push(total + n - 1 - prev - 1);
  return parts;
}

/** A uniformly random action of one spec (lists with a sum: a uniform composition). */
export function randomAction(spec: ActionSpec, rng: Rng): Action {
  const a: Action = {type: spec.type};
  for (const [field, range] of Object.entries(spec.numbers ?? {})) a[field] = randomNumber(range, rng);
  for (const [field, values] of Object.entries(spec.choices ?? {})) a[field] = rng.pick(values);
  for (const [field, {length, item}] of Object.entries(spec.lists ?? {})) {
    a[field] = spec.sum?.fields.includes(field) && item.integer ? randomComposition(spec.sum.equals, length, rng) : Array.from({length}, () => randomNumber(item, rng));
  }
  return a;
}

/**
 * Uniform over the legal actions: a spec at random, then its fields at
 * random (battle royale: a miss or any other survivor, equally likely; the
 * pirate plan: a uniform split of G).
 */
export const randomPolicy: Policy = (obs, rng) => {
  if (obs.game === G.battle) {
    const others = (obs.view as BattleRoyaleView).alive.map((s) => s.seat).filter((s) => s !== obs.seat);
    const k = rng.int(others.length + 1);
    return k === others.length ? {type: "miss"} : {type: "shoot", target: others[k]};
  }
  return randomAction(rng.pick(obs.legal), rng);
};

// ---------------------------------------------------------------- behavioural

/**
 * Level-k reasoning (Nagel 1995; gamma-Bench §2.1 cites the beauty contest):
 * level 0 picks the middle of [MIN, MAX]; level k best-responds to level
 * k − 1, choosing MIN + R^k·(mid − MIN), rounded, within [MIN, MAX].
 */
export const levelKPolicy = (k: number): Policy => (obs) => {
  const v = obs.view as GuessingView;
  const mid = (v.min + v.max) / 2;
  return {type: "choose", amount: clamp(Math.round(v.min + v.ratio ** k * (mid - v.min)), v.min, v.max)};
};

/**
 * Adaptive attendance (Arthur 1994): go when the last attendance this seat
 * was told was at most R·N, else stay; with nothing known yet (round 1, or
 * implicit feedback after staying home every round), go with probability R.
 */
const adaptivePolicy: Policy = (obs, rng) => {
  const v = obs.view as ElFarolView;
  const known = [...v.history].reverse().find((r) => r.went !== null);
  const go = known ? known.went! <= v.ratio * v.n_players + 1e-9 : rng.bernoulli(v.ratio);
  return {type: "decide", choice: go ? "go" : "stay"};
};

/** Fair share with noise: ⌊G/N⌋ plus −1, 0 or +1 at random (within [0, G]). */
const fairShareNoisePolicy: Policy = (obs, rng) => {
  const v = obs.view as DollarView;
  return {type: "bid", amount: clamp(Math.floor(v.gold / v.n_players) + rng.int(3) - 1, 0, v.gold)};
};

/**
 * Conditional cooperation (Fischbacher, Gächter & Fehr 2001). Public goods:
 * contribute half of T in round 1, then last round's average contribution
 * (rounded). Diner: order cheap in round 1, then cheap while at least half
 * ordered cheap last round.
 */
const conditionalCooperatorPolicy: Policy = (obs) => {
  if (obs.game === G.diner) {
    const v = obs.view as DinerView;
    const last = v.history.at(-1);
    return {type: "order", choice: !last || last.cheap >= v.n_players / 2 ? "cheap" : "costly"};
  }
  const v = obs.view as PublicGoodsView;
  const last = v.history.at(-1);
  const amount = last ? Math.round(last.pot / last.contributions.length) : Math.floor(v.tokens / 2);
  return {type: "contribute", amount: clamp(amount, 0, v.tokens)};
};

/** Shades its bid to 75% of its valuation (rounded down), whatever the pricing rule. */
const shadePolicy: Policy = (obs) => {
  const v = obs.view as AuctionView;
  return {type: "bid", amount: Math.floor(0.75 * (v.valuation ?? 0))};
};

/**
 * Vengeful shooter: shoots the most recent shooter that aimed at it and is
 * still in the game; when nobody has, misses on purpose (the paper's
 * "intentional miss", §3.3 (7)).
 */
const vengefulPolicy: Policy = (obs) => {
  const v = obs.view as BattleRoyaleView;
  const alive = new Set(v.alive.map((s) => s.seat));
  const shot = [...v.history].reverse().find((s) => s.target === obs.seat && alive.has(s.shooter) && s.shooter !== obs.seat);
  return shot ? {type: "shoot", target: shot.shooter} : {type: "miss"};
};

/**
 * Greedy pirate: as proposer keeps all the gold; as voter accepts its own
 * plan and any plan giving it at least an equal share G/n of the n left.
 */
const greedyPiratePolicy: Policy = (obs) => {
  const v = obs.view as PirateView;
  if (v.phase === "propose") return {type: "propose", plan: v.survivors.map((_, i) => (i === 0 ? v.gold : 0))};
  const mine = v.proposer === obs.seat || (v.offered ?? 0) >= v.gold / v.survivors.length;
  return {type: "vote", choice: mine ? "accept" : "reject"};
};

// ---------------------------------------------------------------- registry

const def = (id: string, games: readonly string[], description: string, source: string, policy: Policy): AgentDef => ({
  id, games, description, source, create: (_c: SeatContext) => stateless(policy),
});

/** Level-k guesser for any k ≥ 0 (`level-<k>`). */
export const levelKAgent = (k: number): AgentDef =>
  def(`level-${k}`, [G.guessing], `Level-${k} reasoning: picks R^${k} times the middle of [MIN, MAX] above MIN.`, "Nagel (1995), level-k; gamma-Bench (Huang et al. 2024) §2.1", levelKPolicy(k));

export const gamabenchAgents: AgentDef[] = [
  def("equilibrium", ALL, "The paper's equilibrium or optimal play in each gamma-Bench game (all-equilibrium play scores 100 where the paper says so).", "gamma-Bench (Huang et al. 2024) §3; Stewart (1999) for the pirate game", equilibriumPolicy),
  def("random", ALL, "Uniformly random legal actions (a random survivor or a miss in battle royale; a uniform split of the gold as pirate proposer).", "baseline", randomPolicy),
  levelKAgent(1),
  levelKAgent(2),
  levelKAgent(3),
  def("adaptive", [G.elFarol], "Goes when the last attendance it was told was within capacity; with nothing known, goes with probability R.", "Arthur (1994), El Farol; gamma-Bench (Huang et al. 2024) §3.1 (2)", adaptivePolicy),
  def("fair-share-noise", [G.dollar], "Bids the fair share G/N (rounded down) plus −1, 0 or +1 at random.", "gamma-Bench (Huang et al. 2024) §3.1 (3)", fairShareNoisePolicy),
  def("conditional-cooperator", [G.goods, G.diner], "Matches the others: contributes last round's average (half of T first); orders cheap while at least half did.", "Fischbacher, Gächter & Fehr (2001); gamma-Bench (Huang et al. 2024) §3.2", conditionalCooperatorPolicy),
  def("shade-25", [G.auction], "Bids 75% of its valuation, rounded down.", "gamma-Bench (Huang et al. 2024) §3.2 (6), bidding below valuation", shadePolicy),
  def("vengeful", [G.battle], "Shoots back at the latest survivor that shot at it; otherwise misses on purpose.", "gamma-Bench (Huang et al. 2024) §3.3 (7), intentional miss", vengefulPolicy),
  def("greedy", [G.pirate], "Keeps all the gold as proposer; accepts only plans giving it at least an equal share.", "gamma-Bench (Huang et al. 2024) §3.3 (8)", greedyPiratePolicy),
];
