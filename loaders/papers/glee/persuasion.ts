/**
 * Persuasion (GLEE (Shapira et al. 2024) §2.3): repeated cheap talk. In each of T rounds the
 * product is of high quality with probability p (independently; drawn from
 * the game's chance under the key `quality/round-<r>`), Alice sees the
 * quality and sends a message, and Bob decides whether to buy at price 1
 * (scaled by M). Alice gains 1 per sale;
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
import type {ActionSpec, Chance, GameDef} from "../../contract/game.js";
import {emptyOutcome} from "./alternating.js";
import {GleeState} from "./gleeState.js";
import {GLEE_CITATION, GLEE_COLUMNS, GLEE_SEATS, boolParam, commonParamColumns, horizonParam, moneyParam} from "./declarations.js";
import type {Decision, EndReason, GleeAction, Outcome, PersuasionParams, PersuasionRound, PersuasionStats, PersuasionView, Player, Quality, Role, SeenEvent, Signal} from "./types.js";
import {SeenLog} from "./types.js";

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

export class PersuasionGame extends GleeState {
  private round = 1;
  private phase: "signal" | "decision" = "signal";
  private qualities: Quality[] = [];
  private signals: Signal[] = [];
  private purchased: boolean[] = [];
  private events: SeenEvent[] = [];
  private endedBy: EndReason | null = null;

  constructor(readonly params: PersuasionParams, gameId: string, private readonly draws: Chance) {
    super("persuasion", gameId);
    this.qualities.push(this.draw());
  }

  private draw(): Quality {
    return this.draws(`quality/round-${this.qualities.length + 1}`).bernoulli(this.params.prior) ? "high" : "low";
  }

  currentPlayer(): Player | null {
    if (this.endedBy) return null;
    return this.phase === "signal" ? "alice" : "bob";
  }

  protected legalActions(): ActionSpec[] {
    if (this.endedBy) return [];
    return this.phase === "signal" ? [signalSpec(this.params.message_type)] : [BUY_SPEC];
  }

  protected roleOf(player: Player): Role {
    return player === "alice" ? "seller" : "buyer";
  }

  protected qualitySeen(player: Player): Quality | null {
    return player === "alice" && !this.endedBy ? this.qualities[this.round - 1] : null;
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

  protected view(player: Player) {
    const P = this.params;
    const isAlice = player === "alice";
    const myopicBob = !isAlice && P.buyer_type === "myopic";
    const current = this.round - 1;
    const view: PersuasionView = {
      family: "persuasion",
      player,
      role: this.roleOf(player),
      history: new SeenLog(this.events, myopicBob ? 0 : this.events.length),
      money: P.money,
      prior: P.prior,
      horizon: P.horizon,
      message_type: P.message_type,
      buyer_type: P.buyer_type,
      value_high: isAlice && !P.complete_information ? null : P.value_high,
      seller_knows_value: P.complete_information,
      quality: this.qualitySeen(player),
      signal: !isAlice && this.phase === "decision" ? this.signals[current] : null,
      past: myopicBob ? [] : this.past(),
      stats: this.stats(),
    };
    return {view, round: this.round};
  }

  protected play(player: Player, action: GleeAction): void {
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

  protected end(reason: EndReason): void {
    this.endedBy = reason;
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


export const persuasion: GameDef<PersuasionParams> = {
  id: "glee/persuasion",
  title: "Persuasion (repeated cheap talk)",
  citation: {...GLEE_CITATION, section: "§2.3, Table 1"},
  seats: GLEE_SEATS,
  moves: "sequential",
  description: "Over 20 rounds a seller who sees each product's quality sends a message; the buyer decides to buy at price M.",
  // Table 1's grids, in this order (config ids depend on it).
  params: [
    {name: "prior", label: "p, prior of high quality", type: "number", min: 0, max: 1, exclusiveMin: true, exclusiveMax: true, default: 0.5, grid: [1 / 3, 0.5, 0.8], baseline: 0.5},
    {name: "value_high", label: "v, buyer's value of high quality", type: "number", min: 1, max: 1000, exclusiveMin: true, default: 1.25, grid: [1.2, 1.25, 2, 3, 4], baseline: 1.25},
    moneyParam,
    horizonParam([20], 20, false),
    boolParam("complete_information", "complete information", true),
    {name: "message_type", label: "message type", type: "choice", values: ["binary", "text"], default: "binary", grid: ["binary", "text"], baseline: "binary"},
    {name: "buyer_type", label: "buyer type", type: "choice", values: ["long_living", "myopic"], default: "long_living", grid: ["long_living", "myopic"], baseline: "long_living"},
  ],
  columns: GLEE_COLUMNS,
  paramColumns(params) {
    const row = commonParamColumns("persuasion", params, params.horizon);
    row.messages = params.message_type === "text";
    row.prior = params.prior;
    row.value_high = params.value_high;
    row.message_type = params.message_type;
    row.buyer_type = params.buyer_type;
    return row;
  },
  // GLEE keeps its family name as the id stem, so existing ids and seeds stay as they were.
  idStem: () => "persuasion",
  start: (params, {gameId, chance}) => new PersuasionGame(params, gameId, chance),
};
