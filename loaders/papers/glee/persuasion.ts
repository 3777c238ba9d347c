/**
 * Persuasion (GLEE (Shapira et al. 2024) §2.3): repeated cheap talk. In each of T rounds the
 * product is of high quality with probability p (independently; drawn from
 * the game's chance stream), Alice sees the quality and sends a message, and
 * Bob decides whether to buy at price 1 (scaled by M). Alice gains 1 per sale;
 * Bob gains M·(v − 1) for a high-quality purchase, −M for a low-quality one,
 * 0 when he does not buy. Table 1: p ∈ {1/3, 0.5, 0.8}, v ∈ {1.2, 1.25, 2, 3, 4},
 * M ∈ {1e2, 1e4, 1e6}, T = 20, Alice knows v or not, binary or text messages,
 * long-living or myopic buyers → 360 configurations.
 *
 * After each decision the round's quality is revealed (GLEE's logs show a
 * "Nature" row per round). A long-living Bob sees every past round; a myopic
 * buyer sees only the summary statistics (share of rounds bought, share of
 * rounds a low-quality product was bought).
 */
import {checkAction} from "../../contract/legal.js";
import {emptyOutcome} from "./alternating.js";
import {LazyObservation} from "../../contract/observation.js";
import type {Rng} from "../../../src/lib/rng.js";
import type {
  Action, ActionSpec, Decision, EndReason, GameFamily, GameState, Observation, Outcome, PersuasionParams, PersuasionRound, PersuasionStats, Player, Quality, SeenEvent, Signal,
} from "./types.js";

const BUY_SPEC: ActionSpec = {
  type: "decision",
  choices: {decision: ["accept", "reject"]},
  text: null,
};

function signalSpec(type: PersuasionParams["message_type"]): ActionSpec {
  return type === "binary"
    ? {type: "message", choices: {claim: ["high", "low"]}, text: null}
    : {type: "message", choices: {claim: ["high", "low"]}, optional: ["claim"], text: {field: "text", required: true}};
}

export class PersuasionGame implements GameState<"persuasion"> {
  readonly family = "persuasion" as const;
  readonly horizonCap: number;
  private round = 1;
  private phase: "signal" | "decision" = "signal";
  private qualities: Quality[] = [];
  private signals: Signal[] = [];
  private purchased: boolean[] = [];
  private events: SeenEvent[] = [];
  private endedBy: EndReason | null = null;

  constructor(readonly params: PersuasionParams, readonly gameId: string, private readonly chance: Rng) {
    this.horizonCap = params.horizon;
    this.qualities.push(this.draw());
  }

  private draw(): Quality {
    return this.chance.bernoulli(this.params.prior) ? "high" : "low";
  }

  currentPlayer(): Player | null {
    if (this.endedBy) return null;
    return this.phase === "signal" ? "alice" : "bob";
  }

  isTerminal(): boolean {
    return this.endedBy !== null;
  }

  legalActions(): ActionSpec[] {
    if (this.endedBy) return [];
    return this.phase === "signal" ? [signalSpec(this.params.message_type)] : [BUY_SPEC];
  }

  validate(action: unknown): string | null {
    if (this.endedBy) return "the game is over";
    return checkAction(this.legalActions(), action);
  }

  private past(): PersuasionRound[] {
    return this.purchased.map((bought, i) => ({round: i + 1, signal: this.signals[i], bought, quality: this.qualities[i]}));
  }

  private stats(): PersuasionStats {
    const n = this.purchased.length;
    const bought = this.purchased.filter(Boolean).length;
    const low = this.purchased.filter((b, i) => b && this.qualities[i] === "low").length;
    return {rounds: n, bought_share: n ? bought / n : 0, bought_low_share: n ? low / n : 0};
  }

  observe(player: Player = this.currentPlayer() ?? "alice"): Observation<"persuasion"> {
    const P = this.params;
    const toMove = this.currentPlayer() === player;
    const isAlice = player === "alice";
    const myopicBob = !isAlice && P.buyer_type === "myopic";
    const current = this.round - 1;
    const view = {
      money: P.money,
      prior: P.prior,
      horizon: P.horizon,
      message_type: P.message_type,
      buyer_type: P.buyer_type,
      value_high: isAlice && !P.complete_information ? null : P.value_high,
      quality: isAlice && !this.endedBy ? this.qualities[current] : null,
      signal: !isAlice && this.phase === "decision" ? this.signals[current] : null,
      past: myopicBob ? [] : this.past(),
      stats: this.stats(),
    };
    return new LazyObservation<"persuasion">(
      "persuasion",
      this.gameId,
      player,
      isAlice ? "seller" : "buyer",
      this.round,
      view,
      toMove ? this.legalActions() : [],
      this.events,
      myopicBob ? 0 : this.events.length,
    );
  }

  apply(action: Action): void {
    const error = this.validate(action);
    if (error) throw new Error(`${this.gameId} round ${this.round}: illegal action (${error})`);
    const player = this.currentPlayer()!;
    this.events.push({round: this.round, player, action});
    if (this.phase === "signal") {
      this.signals.push(action as Signal);
      this.phase = "decision";
      return;
    }
    const bought = (action as Decision).decision === "accept";
    this.purchased.push(bought);
    if (this.round >= this.params.horizon) {
      this.endedBy = "completed";
      return;
    }
    this.round++;
    this.phase = "signal";
    this.qualities.push(this.draw());
  }

  abort(_player: Player, _reason: string): void {
    if (!this.endedBy) this.endedBy = "rule_break";
  }

  outcome(): Outcome {
    if (!this.endedBy) throw new Error(`${this.gameId}: outcome asked before the game ended`);
    return persuasionOutcome(this.params, this.qualities.slice(0, this.purchased.length), this.purchased, this.endedBy);
  }
}

/** Outcome of a persuasion history (n_ev, k_ev, r_ev of §2.3 and utilities). */
export function persuasionOutcome(params: Pick<PersuasionParams, "money" | "value_high">, qualities: Quality[], purchased: boolean[], endedBy: EndReason): Outcome {
  const high = qualities.map((q) => q === "high");
  const n = high.filter(Boolean).length;
  const k = high.filter((h, i) => h && purchased[i]).length;
  const r = high.filter((h, i) => !h && !purchased[i]).length;
  const sales = purchased.filter(Boolean).length;
  const lowBought = sales - k;
  return {
    ...emptyOutcome(purchased.length, endedBy),
    high_quality: high,
    purchased: purchased.slice(),
    n_high: n,
    k_high_bought: k,
    r_low_rejected: r,
    sales,
    alice_utility: sales,
    bob_utility: params.money * (k * (params.value_high - 1) - lowBought),
  };
}

export function describeSignal(s: Signal): string {
  if (s.text) return s.text;
  return s.claim === "high" ? "The product is of high quality." : "The product is of low quality.";
}


export const persuasion: GameFamily<"persuasion"> = {
  family: "persuasion",
  grid: {
    prior: [1 / 3, 0.5, 0.8],
    value_high: [1.2, 1.25, 2, 3, 4],
    money: [1e2, 1e4, 1e6],
    horizon: [20],
    complete_information: [true, false],
    message_type: ["binary", "text"],
    buyer_type: ["long_living", "myopic"],
  },
  infiniteCap: 20,
  start(params, gameId, rng) {
    return new PersuasionGame(params, gameId, rng);
  },
};
