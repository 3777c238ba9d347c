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
import {checkAction, money} from "./legal.js";
import {emptyOutcome} from "./alternating.js";
import {LazyObservation} from "./observation.js";
import type {Rng} from "../../src/lib/rng.js";
import type {
  Action, ActionSpec, Decision, EndReason, GameFamily, GameState, Observation, Outcome, PersuasionParams, PersuasionRound, PersuasionStats, Player, Quality, SeenEvent, Signal,
} from "./types.js";

const BUY_SPEC: ActionSpec = {
  type: "decision",
  choices: {decision: ["accept", "reject"]},
  text: null,
  format: `{"decision": "accept"} to buy or {"decision": "reject"} not to buy`,
};

function signalSpec(type: PersuasionParams["message_type"]): ActionSpec {
  return type === "binary"
    ? {type: "message", choices: {claim: ["high", "low"]}, text: null, format: `{"claim": "high"} or {"claim": "low"} (what you tell the buyer about the product's quality)`}
    : {type: "message", choices: {claim: ["high", "low"]}, optional: ["claim"], text: {field: "text", required: true}, format: `{"text": The message you send to the buyer}`};
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
  /** Text is built lazily (thunks), as in alternating.ts. */
  private unseen: Record<Player, (() => string)[]> = {alice: [], bob: []};
  private rulesText: Partial<Record<Player, string>> = {};
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
    const signal = !isAlice && this.phase === "decision" ? this.signals[current] : null;
    const round = this.round;
    const quality = this.qualities[current];
    const stats = this.stats();
    const unseen = myopicBob ? [] : this.unseen[player].slice();
    const legal = toMove ? this.legalActions() : [];
    const view = {
      money: P.money,
      prior: P.prior,
      horizon: P.horizon,
      message_type: P.message_type,
      buyer_type: P.buyer_type,
      value_high: isAlice && !P.complete_information ? null : P.value_high,
      quality: isAlice && !this.endedBy ? quality : null,
      signal,
      past: myopicBob ? [] : this.past(),
      stats,
    };
    return new LazyObservation<"persuasion">(
      "persuasion",
      this.gameId,
      player,
      isAlice ? "seller" : "buyer",
      round,
      view,
      legal,
      this.events,
      myopicBob ? 0 : this.events.length,
      () => (this.rulesText[player] ??= this.rules(player)),
      () => {
        let text = "";
        if (toMove && isAlice) text = `Round ${round}\nThe product is of ${quality} quality. Send your message to the buyer.\n${signalSpec(P.message_type).format}`;
        if (toMove && !isAlice) text = `Round ${round}\nAlice's message: ${describeSignal(signal!)}\nDo you buy the product for ${money(P.money)}?\n${BUY_SPEC.format}`;
        if (toMove && myopicBob && stats.rounds)
          text = `So far, the product was bought in ${pct(stats.bought_share)} of ${stats.rounds} rounds, and a low-quality product was bought in ${pct(stats.bought_low_share)} of them.\n` + text;
        return [...unseen.map((f) => f()), text].filter(Boolean).join("\n");
      },
    );
  }

  private rules(player: Player): string {
    const P = this.params;
    const worth = money(P.value_high * P.money);
    const common = `The product is of high quality with probability ${fmtP(P.prior)} in each round, independently. A high-quality product is worth ${worth} to the buyer and a low-quality product is worth $0.`;
    if (player === "alice")
      return [
        `You are playing as Alice, a seller. In each of ${P.horizon} rounds you offer a product to a buyer for ${money(P.money)}.`,
        `Before each round you learn the product's quality, and you send the buyer ${P.message_type === "binary" ? "a message saying whether it is of high or low quality" : "a message"}. Then the buyer decides whether to buy.`,
        P.complete_information ? common : `The product is of high quality with probability ${fmtP(P.prior)} in each round, independently. A low-quality product is worth $0 to the buyer.`,
        `You gain 1 point for every round in which the buyer buys, whatever the quality.`,
        P.buyer_type === "myopic" ? `Every round has a new buyer, who only sees statistics of past rounds.` : `The same buyer plays all rounds and sees what happened in each of them.`,
      ].join(" ");
    return [
      P.buyer_type === "myopic"
        ? `You are playing as a buyer in one round of a market that lasts ${P.horizon} rounds. Alice sells a product for ${money(P.money)}.`
        : `You are playing as Bob, a buyer. In each of ${P.horizon} rounds Alice offers you a product for ${money(P.money)}.`,
      common,
      `Alice knows the quality and sends you a message before you decide whether to buy. After your decision the quality is revealed.`,
      `Your gain is the product's worth minus the price if you buy, and $0 if you do not.`,
    ].join(" ");
  }

  apply(action: Action): void {
    const error = this.validate(action);
    if (error) throw new Error(`${this.gameId} round ${this.round}: illegal action (${error})`);
    const player = this.currentPlayer()!;
    this.unseen[player] = [];
    this.events.push({round: this.round, player, action});
    if (this.phase === "signal") {
      this.signals.push(action as Signal);
      this.phase = "decision";
      return;
    }
    const bought = (action as Decision).decision === "accept";
    const quality = this.qualities[this.round - 1];
    this.purchased.push(bought);
    const round = this.round;
    const line = () => `Round ${round}: the buyer ${bought ? "bought" : "did not buy"}; the product was of ${quality} quality.`;
    this.unseen.alice.push(line);
    this.unseen.bob.push(line);
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

const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;
const fmtP = (p: number) => (Math.abs(p - 1 / 3) < 1e-9 ? "1/3" : String(p));

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
