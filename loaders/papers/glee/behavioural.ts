/**
 * Behavioural strategies for the alternating-offers families (bargaining and
 * negotiation), written once over "my gain": in bargaining my part of M, in
 * negotiation my surplus (price − V_A for the seller, V_B − price for the
 * buyer). The pie is M in bargaining and V_B − V_A in negotiation when the
 * other's value is known; under incomplete information the agent guesses a
 * pie of GUESSED_PIE·M. Except `random`, no agent accepts a loss.
 *
 * The behaviours are those the seeds report of people and LLMs: the fair
 * 50/50 split, tough/greedy demands, splitting the difference, anchoring on
 * the first offer, reciprocal (tit-for-tat) concessions, and random play
 * (GLEE (Shapira et al. 2024) §4; NegotiationArena (Bianchi et al. 2024) §5 on anchoring; Game-theoretic LLM workflows (Hua et al. 2024) §5).
 */
import type {Rng} from "../../../src/lib/rng.js";
import type {Agent, AgentDef} from "../../contract/agent.js";
import type {BargainingView, GleeAction, GleeObservation, GleeView, NegotiationView, Player, SplitOffer} from "./types.js";
import {playerAt} from "./types.js";

/** Pie assumed in negotiation when the other's valuation is hidden (a quarter of M, about Table 1's mean gap). */
export const GUESSED_PIE = 0.25;

export interface BehaviourContext {
  pie: number;
  scale: number;
  round: number;
  /** Gains I asked for in my earlier proposals, oldest first. */
  mine: number[];
  /** Gains the other offered me in its proposals, oldest first. */
  theirs: number[];
  /** Who made the first proposal of the game. */
  openedByMe: boolean | null;
  rng: Rng;
}

export interface Behaviour {
  /** My gain in the proposal I make now. */
  propose(c: BehaviourContext): number;
  /** Whether to accept an offer giving me `offered`. */
  accept(c: BehaviourContext, offered: number): boolean;
  message: string;
  /** Accepts losses and unreasonable offers (random play). */
  unconstrained?: boolean;
}

/**
 * "My gain" coordinates of one observation: gain = sign·(x − base) where x is
 * the seat's part of a split (bargaining: base 0, sign 1) or the price
 * (negotiation: base = own value, sign +1 for the seller, −1 for the buyer).
 * Plain numbers rather than closures: it is built on every turn.
 */
class Frame {
  readonly pie: number;
  readonly scale: number;
  private readonly bargaining: boolean;
  private readonly key: "alice_gain" | "bob_gain";
  private readonly sign: number;
  private readonly base: number;

  constructor(v: BargainingView | NegotiationView, player: Player) {
    this.bargaining = v.family === "bargaining";
    this.key = player === "alice" ? "alice_gain" : "bob_gain";
    if (v.family === "bargaining") {
      this.pie = this.scale = v.money;
      this.sign = 1;
      this.base = 0;
    } else {
      this.sign = player === "alice" ? 1 : -1;
      this.base = v.value_self;
      this.scale = v.money;
      this.pie = v.value_other === null ? GUESSED_PIE * v.money : Math.max(0, this.sign * (v.value_other - v.value_self));
    }
  }

  gainOf(a: GleeAction): number {
    return this.bargaining ? (a as SplitOffer)[this.key] : this.sign * ((a as {price: number}).price - this.base);
  }

  offer(g: number): GleeAction {
    if (!this.bargaining) return {type: "offer", price: Math.max(0, this.base + this.sign * g)};
    const M = this.scale;
    const mine = Math.min(Math.max(g, 0), M);
    return this.key === "alice_gain" ? {type: "offer", alice_gain: mine, bob_gain: M - mine} : {type: "offer", alice_gain: M - mine, bob_gain: mine};
  }
}

/**
 * Wraps a behaviour as an agent for either alternating-offers family. It
 * remembers its own proposals and the offers it was asked to answer (every
 * offer of the other side reaches it that way), so it never rescans the
 * history.
 */
export function behaviouralAgent(behaviour: Behaviour, player: Player): Agent<GleeView> {
  return new BehaviouralAgent(behaviour, player);
}

/** The view of an alternating-offers game; throws naming the game otherwise (these agents are registered for those two only). */
export function offerView(obs: GleeObservation): BargainingView | NegotiationView {
  const v = obs.view;
  if (v.family === "persuasion") throw new Error(`${obs.game_id}: this agent plays bargaining and negotiation, not ${obs.game}`);
  return v;
}

class BehaviouralAgent implements Agent<GleeView> {
  private mine: number[] = [];
  private theirs: number[] = [];
  private openedByMe: boolean | null = null;
  private answeredRound = 0;

  constructor(private readonly behaviour: Behaviour, private readonly player: Player) {}

  act(obs: GleeObservation, rng: Rng) {
    const view = offerView(obs);
    const frame = new Frame(view, this.player);
    const c: BehaviourContext = {pie: frame.pie, scale: frame.scale, round: obs.round, mine: this.mine, theirs: this.theirs, openedByMe: this.openedByMe, rng};
    if (obs.legal[0]?.type === "decision") {
      const offered = frame.gainOf(view.offer!);
      if (this.openedByMe === null) c.openedByMe = this.openedByMe = false;
      const ok = this.behaviour.accept(c, offered) && (this.behaviour.unconstrained || offered >= -1e-9 * frame.scale);
      if (this.answeredRound !== obs.round) {
        this.theirs.push(offered);
        this.answeredRound = obs.round;
      }
      return {action: {type: "decision", decision: ok ? "accept" : "reject"}};
    }
    if (this.openedByMe === null) this.openedByMe = true;
    const gain = this.behaviour.propose(c);
    const action = frame.offer(gain) as GleeAction & {message?: string};
    this.mine.push(frame.gainOf(action));
    if (view.messages) action.message = this.behaviour.message;
    return {action};
  }
}

const tol = (c: BehaviourContext) => 1e-9 * c.scale;

export const fair: Behaviour = {
  propose: (c) => c.pie / 2,
  accept: (c, x) => x >= c.pie / 2 - tol(c),
  message: "An even split is fair to both of us.",
};

/** Tough: asks 90% of the pie, concedes 5 points per proposal down to 60%, accepts only its current demand. */
export const greedy: Behaviour = {
  propose: (c) => Math.max(0.6, 0.9 - 0.05 * c.mine.length) * c.pie,
  accept: (c, x) => x >= Math.max(0.6, 0.9 - 0.05 * c.mine.length) * c.pie - tol(c),
  message: "This is my best offer; take it or leave it.",
};

/** Opens at 75%, then proposes the midpoint of its last demand and the other's last offer; accepts within 2% of that midpoint. */
export const splitDifference: Behaviour = {
  propose: (c) => (c.mine.length && c.theirs.length ? (c.mine.at(-1)! + c.theirs.at(-1)!) / 2 : c.mine.at(-1) ?? 0.75 * c.pie),
  accept: (c, x) => (c.mine.length ? x >= 0.98 * ((c.mine.at(-1)! + x) / 2) - tol(c) && x >= 0.5 * c.mine.at(-1)! : x >= c.pie / 2 - tol(c)),
  message: "Let's meet halfway.",
};

/**
 * Anchoring: the first number on the table is its reference. If the other
 * opened, it accepts anything at least as good as that opening and asks for
 * 10% of the pie more, halving the gap each round. If it opened (at 75%),
 * it concedes 5 points per round towards 50% and accepts offers above that.
 */
export const anchor: Behaviour = {
  propose: (c) => {
    if (c.openedByMe === false) return Math.min(c.pie, c.theirs[0] + 0.1 * c.pie * 0.5 ** c.mine.length);
    return Math.max(0.5, 0.75 - 0.05 * c.mine.length) * c.pie;
  },
  accept: (c, x) => {
    if (c.openedByMe === false) return c.theirs.length ? x >= c.theirs[0] - tol(c) : x >= 0.75 * c.pie - tol(c);
    return x >= Math.max(0.5, 0.75 - 0.05 * c.mine.length) * c.pie - tol(c);
  },
  message: "My offer is close to where we started.",
};

/**
 * Reciprocity: opens at 60% and matches the other's last concession; while
 * it still asks for more than half it concedes at least 2 points a round (the
 * cooperative first move of tit-for-tat), so two reciprocators meet at 50%.
 */
function titForTatDemand(c: BehaviourContext, theirs: number[]): number {
  const last = c.mine.at(-1);
  if (last === undefined) return 0.6 * c.pie;
  const n = theirs.length;
  const conceded = n >= 2 ? Math.max(0, theirs[n - 1] - theirs[n - 2]) : 0;
  const goodwill = last > 0.5 * c.pie ? Math.min(0.02 * c.pie, last - 0.5 * c.pie) : 0;
  return Math.max(0, last - Math.max(conceded, goodwill));
}

export const titForTat: Behaviour = {
  propose: (c) => titForTatDemand(c, c.theirs),
  accept: (c, x) => x >= titForTatDemand(c, [...c.theirs, x]) - tol(c),
  message: "I will move as far as you move.",
};

/** Uniform random proposals (bargaining: any split; negotiation: a price within ±M/2 of its own value) and coin-flip acceptance. */
export const randomPlay: Behaviour = {
  propose: (c) => (c.pie === c.scale ? c.rng.next() * c.pie : (c.rng.next() - 0.5) * c.scale),
  accept: (c) => c.rng.bernoulli(0.5),
  message: "Here is my offer.",
  unconstrained: true,
};

const spec = (id: string, behaviour: Behaviour, description: string, source: string): AgentDef => ({
  id,
  games: ["glee/bargaining", "glee/negotiation"],
  description,
  source,
  create: ({seat}) => behaviouralAgent(behaviour, playerAt(seat)),
});

export const behaviouralAgents: AgentDef[] = [
  spec("fair", fair, "Always proposes an even split of the (known or guessed) surplus and accepts at least half.", "GLEE (Shapira et al. 2024) §4 (LLMs favour fair splits); NegotiationArena (Bianchi et al. 2024) §5"),
  spec("greedy", greedy, "Tough: demands 90% of the surplus, concedes 5 points per offer to 60%, accepts only its current demand.", "NegotiationArena (Bianchi et al. 2024) §5 (aggressive/greedy personas)"),
  spec("split-difference", splitDifference, "Opens at 75% then proposes the midpoint of its last demand and the other's last offer.", "Game-theoretic LLM workflows (Hua et al. 2024) §5 (negotiation heuristics)"),
  spec("anchor", anchor, "Anchors on the first offer of the game: accepts anything at least as good as the other's opening, or concedes slowly from its own.", "NegotiationArena (Bianchi et al. 2024) §5.3 (anchoring bias)"),
  spec("tit-for-tat", titForTat, "Opens at 60% and concedes exactly as much as the other conceded last.", "Game-theoretic LLM workflows (Hua et al. 2024) §5 (reciprocity); Axelrod"),
];

export {randomPlay as randomBehaviour};
