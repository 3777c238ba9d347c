/**
 * Senders (Alice) and buyers (Bob) for persuasion (GLEE (Shapira et al. 2024) §2.3, Appendix C).
 *
 * - commitment: the Bayesian-persuasion policy: on high quality say "high";
 *   on low quality say "high" with probability q = min(p(v − 1)/(1 − p), 1),
 *   which leaves an obedient buyer exactly indifferent. When Alice is not told
 *   v it uses the smallest v of Table 1 (1.2), which keeps the policy
 *   incentive-compatible for every v in the grid.
 * - truthful: says the true quality. babbling: says "high" with probability p
 *   whatever the quality (uninformative; the cheap-talk equilibrium).
 *   pushy: always says "high".
 * - bayesian: estimates the sender's policy P(say high | quality) from revealed
 *   rounds (Beta(1,1) priors), updates p by Bayes' law on the message and buys
 *   iff the posterior expected value is at least the price (posterior·v ≥ 1).
 *   A myopic buyer only sees shares of past rounds; it then estimates
 *   P(high | recommended) as 1 − (low purchases)/(purchases), smoothed towards p.
 * - credulous: buys iff told "high". skeptic: ignores messages and buys iff
 *   p·v ≥ 1 (the babbling-equilibrium buyer). tit-for-tat buyer: believes
 *   "high" but refuses for one round after buying a low-quality product.
 */
import {describeSignal} from "./persuasion.js";
import type {Rng} from "../../../src/lib/rng.js";
import type {Agent, AgentDef, AgentReply} from "../../contract/agent.js";
import type {GleeObservation, GleeView, PersuasionView, Player, Quality, Signal} from "./types.js";

/** The committed lying probability q of Appendix C. */
export function commitmentQ(prior: number, valueHigh: number): number {
  if (prior >= 1) return 1;
  return Math.min((prior * (valueHigh - 1)) / (1 - prior), 1);
}

/** Probability an obedient buyer buys under the commitment policy: p + (1 − p)·q. */
export function commitmentPurchaseRate(prior: number, valueHigh: number): number {
  return prior + (1 - prior) * commitmentQ(prior, valueHigh);
}

const LOWEST_V = 1.2;

/** What a message claims: the declared claim, else "high"/"low" read from the text, else null. */
export function claimOf(signal: Signal | null): Quality | null {
  if (!signal) return null;
  if (signal.claim) return signal.claim;
  const text = (signal.text ?? "").toLowerCase();
  const high = /\bhigh\b/.test(text);
  const low = /\blow\b/.test(text);
  return high && !low ? "high" : low && !high ? "low" : null;
}

function say(view: PersuasionView, claim: Quality): AgentReply {
  const signal: Signal = view.message_type === "binary" ? {type: "message", claim} : {type: "message", claim, text: describeSignal({type: "message", claim})};
  return {action: signal};
}

const decide = (buy: boolean): AgentReply => ({action: {type: "decision", decision: buy ? "accept" : "reject"}});

/** The view of a persuasion game; throws naming the game otherwise (these agents are registered for persuasion only). */
function persuasionView(obs: GleeObservation): PersuasionView {
  const v = obs.view;
  if (v.family !== "persuasion") throw new Error(`${obs.game_id}: this agent plays glee/persuasion, not ${obs.game}`);
  return v;
}

function sender(choose: (view: PersuasionView, rng: Rng) => Quality): Agent<GleeView> {
  return {
    act: (obs: GleeObservation, rng: Rng) => {
      const view = persuasionView(obs);
      return say(view, choose(view, rng));
    },
  };
}

function buyer(choose: (view: PersuasionView, rng: Rng) => boolean): Agent<GleeView> {
  return {act: (obs: GleeObservation, rng: Rng) => decide(choose(persuasionView(obs), rng))};
}

/** Senders sit in Alice's seat, buyers in Bob's. */
const senderSeat = (_game: string, seat: number) => seat === 0;
const buyerSeat = (_game: string, seat: number) => seat === 1;

const EPS = 1e-9;

/** Posterior probability of high quality given the message, for the Bayesian buyer. */
export function bayesianPosterior(view: PersuasionView): number {
  const p = view.prior;
  const claim = claimOf(view.signal);
  if (claim === null) return p;
  if (view.buyer_type === "myopic") {
    const s = view.stats;
    const bought = s.bought_share * s.rounds;
    const lowBought = s.bought_low_share * s.rounds;
    const strength = 2;
    const highGivenRecommend = (bought - lowBought + strength * p) / (bought + strength);
    return claim === "high" ? highGivenRecommend : 0;
  }
  let highN = 0, highSaidHigh = 0, lowN = 0, lowSaidHigh = 0;
  for (const r of view.past) {
    const said = claimOf(r.signal) === "high";
    if (r.quality === "high") {
      highN++;
      if (said) highSaidHigh++;
    } else {
      lowN++;
      if (said) lowSaidHigh++;
    }
  }
  const a = (1 + highSaidHigh) / (2 + highN);
  const b = (1 + lowSaidHigh) / (2 + lowN);
  const [la, lb] = claim === "high" ? [a, b] : [1 - a, 1 - b];
  return (p * la) / (p * la + (1 - p) * lb);
}

export const persuasionAgents: AgentDef[] = [
  {
    id: "commitment",
    games: ["glee/persuasion"],
    canSit: senderSeat,
    description: "Bayesian-persuasion sender: always recommends high quality, and on low quality lies with probability q = min(p(v−1)/(1−p), 1).",
    source: "GLEE (Shapira et al. 2024) Appendix C (Kamenica–Gentzkow 2011; Best–Quigley)",
    create: () => sender((v, rng) => (v.quality === "high" ? "high" : rng.bernoulli(commitmentQ(v.prior, v.value_high ?? LOWEST_V)) ? "high" : "low")),
  },
  {
    id: "truthful",
    games: ["glee/persuasion"],
    canSit: senderSeat,
    description: "Always reports the true quality.",
    source: "GLEE (Shapira et al. 2024) §2.3 (fully informative signalling)",
    create: () => sender((v) => v.quality!),
  },
  {
    id: "babbling",
    games: ["glee/persuasion"],
    canSit: senderSeat,
    description: "Says \"high\" with probability p whatever the quality: an uninformative message (the cheap-talk equilibrium).",
    source: "GLEE (Shapira et al. 2024) Appendix C (babbling equilibrium, Crawford–Sobel 1982)",
    create: () => sender((v, rng) => (rng.bernoulli(v.prior) ? "high" : "low")),
  },
  {
    id: "pushy",
    games: ["glee/persuasion"],
    canSit: senderSeat,
    description: "Always claims high quality.",
    source: "GLEE (Shapira et al. 2024) §4 (sellers who always recommend buying)",
    create: () => sender(() => "high"),
  },
  {
    id: "bayesian",
    games: ["glee/persuasion"],
    canSit: buyerSeat,
    description: "Learns the sender's policy from revealed rounds (or purchase statistics when myopic), applies Bayes' law to the message, buys iff posterior·v ≥ 1.",
    source: "GLEE (Shapira et al. 2024) Appendix C (Bayesian buyer)",
    create: () => buyer((v) => bayesianPosterior(v) * v.value_high! >= 1 - EPS),
  },
  {
    id: "credulous",
    games: ["glee/persuasion"],
    canSit: buyerSeat,
    description: "Buys whenever the seller says the product is of high quality.",
    source: "GLEE (Shapira et al. 2024) §4 (obedient buyers)",
    create: () => buyer((v) => claimOf(v.signal) !== "low"),
  },
  {
    id: "skeptic",
    games: ["glee/persuasion"],
    canSit: buyerSeat,
    description: "Ignores messages; buys iff the prior makes buying worthwhile (p·v ≥ 1).",
    source: "GLEE (Shapira et al. 2024) Appendix C (babbling-equilibrium buyer)",
    create: () => buyer((v) => v.prior * v.value_high! >= 1 - EPS),
  },
];

/** Tit-for-tat buyer: believes "high" but refuses for one round after buying a low-quality product. */
export const titForTatBuyer = (): Agent<GleeView> =>
  buyer((v) => {
    const last = v.past.at(-1);
    const burned = last !== undefined && last.bought && last.quality === "low";
    return !burned && claimOf(v.signal) !== "low";
  });

/** Random sender (claims high or low with equal chance) and buyer (buys with probability 1/2). */
export const randomPersuasion = (player: Player): Agent<GleeView> =>
  player === "alice" ? sender((_v, rng) => (rng.bernoulli(0.5) ? "high" : "low")) : buyer((_v, rng) => rng.bernoulli(0.5));
