/**
 * The private-value auctions of Economics Arena (Guo et al. 2024, Appendix
 * A.1, A.2; prompt B.5): one item, each bidder with a private value s and
 * assets A. Pricing:
 * - `second` (the paper's game): sealed bids; the highest bid wins (ties go
 *   to the lowest id) and pays the second-highest bid;
 * - `first`: sealed bids; the winner pays its own bid;
 * - `english` (ascending clock, named in A.1, no results given): the price
 *   rises by `clock_increment`·A per step from one increment; at each price
 *   every bidder still in says stay or drop (dropping is for good). When one
 *   stays it wins at that price; when the last ones all drop at once, the
 *   lowest id among them wins at the previous price (the last one they all
 *   accepted). Staying at a price above one's assets breaks the rules.
 * Payoff ("asset", A.2): A − price + s for the winner, A for the others;
 * the paper's example: A = 100, s = 60, price 50 → 110 (assets 1.1).
 * Equilibrium: truthful bidding (second price; staying in up to s in the
 * English auction), the risk-neutral BNE in first price; all capped at A.
 * The equilibrium asset of a seat is its asset when everyone plays so; the
 * paper's "payoff" is asset / equilibrium asset.
 *
 * Choices where the paper leaves a number open (parameters below):
 * - scales L: s ~ N(50, 10), A = 100; M: N(500, 100), A = 1000;
 *   H: N(5000, 1000), A = 10000 (§4.2); the second number is read as the
 *   SD (`spread: "variance"` reads it as the variance);
 * - values are drawn once per session (B.8: "private value will stay
 *   unchanged"), seat by seat from the game's chance under the key
 *   `values`, rounded to `value_step` units (1; 0 keeps them real) and
 *   never below 0;
 * - a bidder that gives no legal answer is left out of the run and pays
 *   `entrance_fee` · A (0.1; Appendix A.2 names the fee, not its amount);
 * - a lone valid bidder at second price pays 0 (no second bid).
 */
import {firstPriceBid} from "../../../src/lib/auctionEquilibria.js";
import type {Rng} from "../../../src/lib/rng.js";
import type {Action, ActionSpec, GameDef, ParamSpec, Params, Seat, StartContext} from "../../contract/game.js";
import {citation, EA_GAME, EA_TURN, param, SEATS_5, SESSION_PARAMS, sessionSettings, type SessionSettings} from "./paper.js";
import {allSeats, FORFEIT, SessionGame, type RunOutcome} from "./session.js";
import type {AuctionPricing, AuctionRunSeen, AuctionView} from "./views.js";

export type {AuctionView, AuctionRunSeen, AuctionPricing} from "./views.js";

/** The paper's three scales (§4.2): value mean, its spread, assets. */
export const SCALES: Record<string, {mean: number; spread: number; assets: number}> = {
  L: {mean: 50, spread: 10, assets: 100},
  M: {mean: 500, spread: 100, assets: 1000},
  H: {mean: 5000, spread: 1000, assets: 10000},
};

const PRICINGS: AuctionPricing[] = ["second", "first", "english"];

const PARAMS: ParamSpec[] = [
  ...SESSION_PARAMS,
  {name: "pricing", label: "Format", type: "choice", values: PRICINGS, default: "second", grid: PRICINGS, baseline: "second", doc: "second-price sealed bid (the paper's), first-price sealed bid, or English ascending clock"},
  {name: "scale", label: "Scale", type: "choice", values: Object.keys(SCALES), default: "L", grid: ["L", "M", "H"], baseline: "L", doc: "L: s ~ N(50, 10), A = 100; M: N(500, 100), A = 1000; H: N(5000, 1000), A = 10000 (§4.2)"},
  {name: "spread", label: "Spread read as", type: "choice", values: ["sd", "variance"], default: "sd", grid: ["sd"], doc: "whether N(μ, 10) gives the SD (default) or the variance; the paper does not say"},
  {name: "value_step", label: "Value rounding", type: "number", min: 0, max: 1e6, default: 1, grid: [1], doc: "private values are rounded to multiples of this (0: not rounded); never below 0"},
  {name: "entrance_fee", label: "Entrance fee (share of assets)", type: "number", min: 0, max: 1, default: 0.1, grid: [0.1], doc: "deducted from the assets of a bidder that gave no legal answer in a run (Appendix A.2 names the fee, not its amount)"},
  {name: "clock_increment", label: "Clock increment (share of assets)", type: "number", min: 1e-4, max: 1, exclusiveMin: false, default: 0.01, grid: [0.01], doc: "English auction: the price rises by this share of the assets per step (1, 10, 100 units at the three scales)"},
];

/** Highest valid bid wins, ties to the lowest id; price = own bid (first) or the second-highest valid bid (second; 0 when alone). */
export function sealedOutcome(bids: readonly (number | null)[], pricing: "first" | "second"): {winner: Seat | null; price: number | null} {
  let winner: Seat | null = null;
  for (let i = 0; i < bids.length; i++) if (bids[i] !== null && (winner === null || bids[i]! > bids[winner]!)) winner = i;
  if (winner === null) return {winner: null, price: null};
  if (pricing === "first") return {winner, price: bids[winner]!};
  let second = 0;
  for (let i = 0; i < bids.length; i++) if (i !== winner && bids[i] !== null && bids[i]! > second) second = bids[i]!;
  return {winner, price: second};
}

/**
 * One step of the English clock at `price`: `stayers` of the `active` bidders
 * stay. Goes on (null) while two or more stay; one stayer wins at `price`;
 * when none stays the lowest id of the active ones wins at the previous price.
 */
export function clockStep(active: readonly Seat[], stayers: readonly Seat[], price: number, increment: number): {winner: Seat | null; price: number | null} | null {
  if (stayers.length >= 2) return null;
  if (stayers.length === 1) return {winner: stayers[0], price};
  return active.length ? {winner: Math.min(...active), price: Math.max(0, price - increment)} : {winner: null, price: null};
}

/** The English auction when each bidder stays in up to its limit (the highest price it accepts). */
export function clockOutcome(limits: readonly number[], increment: number): {winner: Seat | null; price: number | null; stayed: number[]} {
  let active = allSeats(limits.length);
  const stayed = limits.map(() => 0);
  for (let k = 1; ; k++) {
    const price = k * increment;
    const stayers = active.filter((i) => price <= limits[i] + 1e-9);
    for (const i of stayers) stayed[i] = price;
    const end = clockStep(active, stayers, price, increment);
    if (end) return {...end, stayed};
    active = stayers;
  }
}

/** Assets after a run: A − price + s for the winner, A for the others, less the fee for forfeits. */
export function auctionAssets(values: readonly number[], assets: number, winner: Seat | null, price: number | null, forfeited: readonly boolean[], fee: number): number[] {
  return values.map((s, i) => (i === winner ? assets - price! + s : assets) - (forfeited[i] ? fee * assets : 0));
}

interface AuctionRecord extends RunOutcome {
  bids: (number | null)[];
  winner: Seat | null;
  price: number | null;
}

interface Settings extends SessionSettings {
  pricing: AuctionPricing;
  scale: string;
  spread: "sd" | "variance";
  value_step: number;
  entrance_fee: number;
  clock_increment: number;
  value_mean: number;
  value_sd: number;
  assets: number;
}

/** A standard normal draw (Box–Muller). */
function normal(rng: Rng): number {
  const u = 1 - rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}

class AuctionState extends SessionGame<AuctionRecord, AuctionView> {
  protected readonly actionType: string;
  readonly values: number[];
  private readonly eqAssets: number[];
  private readonly increment: number;
  /** English auction, the run in progress. */
  private active: Seat[] = [];
  private stayed: number[] = [];
  private lastAsked: number[] = [];
  private forfeits = new Set<Seat>();
  private clock = 1;

  constructor(gameId: string, nSeats: number, private readonly p: Settings, rng: Rng) {
    super(gameId, auction.id, nSeats, p);
    this.actionType = p.pricing === "english" ? "clock" : "bid";
    this.increment = p.clock_increment * p.assets;
    const step = p.value_step;
    this.values = allSeats(nSeats).map(() => {
      const v = Math.max(0, p.value_mean + p.value_sd * normal(rng));
      return step > 0 ? Math.round(v / step) * step : v;
    });
    this.eqAssets = this.equilibriumAssets();
    this.startRun();
  }

  /** Everyone's asset when every bidder plays the equilibrium (capped at assets). */
  private equilibriumAssets(): number[] {
    const {pricing, assets} = this.p;
    const none = this.values.map(() => false);
    if (pricing === "english") {
      const {winner, price} = clockOutcome(this.values.map((v) => Math.min(v, assets)), this.increment);
      return auctionAssets(this.values, assets, winner, price, none, 0);
    }
    const bids = this.values.map((v) => Math.min(assets, pricing === "first" ? firstPriceBid(v, this.nSeats, this.p.value_mean, this.p.value_sd) : v));
    const {winner, price} = sealedOutcome(bids, pricing);
    return auctionAssets(this.values, assets, winner, price, none, 0);
  }

  private startRun(): void {
    this.active = allSeats(this.nSeats);
    this.stayed = this.values.map(() => 0);
    this.lastAsked = this.values.map(() => this.step);
    this.forfeits = new Set();
    this.clock = 1;
  }

  private get price(): number {
    return this.clock * this.increment;
  }

  protected movers(): readonly Seat[] {
    return this.p.pricing === "english" ? this.active : allSeats(this.nSeats);
  }

  protected specs(): ActionSpec[] {
    if (this.p.pricing === "english") return [{type: "clock", choices: {choice: this.price <= this.p.assets + 1e-9 ? ["stay", "drop"] : ["drop"]}}];
    return [{type: "bid", numbers: {amount: {min: 0, max: this.p.assets}}}];
  }

  validate(seat: Seat, action: unknown): string | null {
    const error = super.validate(seat, action);
    if (error === null || typeof action !== "object" || action === null) return error;
    const a = action as Record<string, unknown>;
    // Name the rule the paper names (B.5: "a bid which is not higher than your assets").
    if (this.p.pricing !== "english" && typeof a.amount === "number" && a.amount > this.p.assets) return `bid ${a.amount} is higher than the assets ${this.p.assets}`;
    if (this.p.pricing === "english" && a.choice === "stay" && this.price > this.p.assets) return `staying in at ${this.price} would be a bid higher than the assets ${this.p.assets}`;
    return error;
  }

  protected play(seats: readonly Seat[], actions: readonly Action[]): AuctionRecord | null {
    const forfeitedNow = new Set(seats.filter((_, i) => actions[i].type === FORFEIT));
    if (this.p.pricing !== "english") {
      const bids = actions.map((a) => (a.type === FORFEIT ? null : (a.amount as number)));
      const {winner, price} = sealedOutcome(bids, this.p.pricing);
      return this.finish(bids, winner, price, seats.map((s) => forfeitedNow.has(s)), seats.map(() => this.step));
    }
    for (const s of seats) this.lastAsked[s] = this.step;
    const stayers = seats.filter((s, i) => !forfeitedNow.has(s) && actions[i].choice === "stay");
    for (const s of stayers) this.stayed[s] = this.price;
    for (const s of forfeitedNow) this.forfeits.add(s);
    const end = clockStep(seats.filter((s) => !forfeitedNow.has(s)), stayers, this.price, this.increment);
    if (!end) {
      this.active = stayers;
      this.clock++;
      return null;
    }
    const forfeited = allSeats(this.nSeats).map((s) => this.forfeits.has(s));
    const bids = this.stayed.map((x, s) => (forfeited[s] ? null : x));
    return this.finish(bids, end.winner, end.price, forfeited, [...this.lastAsked]);
  }

  private finish(bids: (number | null)[], winner: Seat | null, price: number | null, forfeited: boolean[], decidedAt: number[]): AuctionRecord {
    const payoffs = auctionAssets(this.values, this.p.assets, winner, price, forfeited, this.p.entrance_fee);
    return {
      bids, winner, price, payoffs, strategy: bids, eqPayoffs: this.eqAssets, forfeited, decidedAt,
      won: bids.map((_, i) => i === winner),
    };
  }

  apply(actions: readonly Action[]): void {
    const before = this.done.length;
    super.apply(actions);
    if (this.p.pricing === "english" && this.done.length > before && !this.over) this.startRun();
  }

  protected reported(r: AuctionRecord, seat: Seat): number {
    return r.payoffs[seat] / r.eqPayoffs[seat];
  }

  protected runFacts(r: AuctionRecord) {
    return {price: r.price};
  }

  turnInfo(seat: Seat): Record<string, unknown> {
    // Plain literals, no spread: this runs for every decision (object spread costs ~50× more here).
    return this.p.pricing === "english" && !this.over ? {run: this.run, value: this.values[seat], clock_price: this.price} : {run: this.run, value: this.values[seat]};
  }

  protected view(seat: Seat): AuctionView {
    const {told, history, clock} = this.shared(() => ({
      told: this.told(),
      history: this.shown().map(({run, record: r}): AuctionRunSeen => ({run, bids: r.bids, values: this.values, winner: r.winner, price: r.price, payoffs: r.payoffs})),
      clock: this.p.pricing === "english" && !this.over ? {price: this.price, increment: this.increment, active: [...this.active]} : null,
    }));
    const p = this.p;
    return {
      n_players: told.n_players, environment: told.environment, told_rational: told.told_rational, chain_of_thought: told.chain_of_thought, runs: told.runs, run: told.run, history_window: told.history_window,
      pricing: p.pricing, value: this.values[seat], assets: p.assets, value_mean: p.value_mean, value_sd: p.value_sd, clock, history,
    };
  }

  protected gameColumns() {
    return auction.paramColumns!(this.p as unknown as Params);
  }
}

function settings(params: Params): Settings {
  const scale = String(param(params, "scale", PARAMS));
  const spread = String(param(params, "spread", PARAMS)) as Settings["spread"];
  const s = SCALES[scale];
  return Object.assign(sessionSettings(params), {
    pricing: param(params, "pricing", PARAMS) as AuctionPricing,
    scale, spread,
    value_step: Number(param(params, "value_step", PARAMS)),
    entrance_fee: Number(param(params, "entrance_fee", PARAMS)),
    clock_increment: Number(param(params, "clock_increment", PARAMS)),
    value_mean: s.mean,
    value_sd: spread === "variance" ? Math.sqrt(s.spread) : s.spread,
    assets: s.assets,
  });
}

export const auction: GameDef = {
  id: "econarena/auction",
  title: "Private-value auction (second price, first price, English)",
  citation: citation("§3.1, §4.2, Appendix A.1–A.2, prompts B.5–B.8"),
  seats: SEATS_5,
  moves: "simultaneous",
  description: "Bidders with private values and assets bid for one item: sealed second price (the paper's), sealed first price, or an ascending clock. One-shot; a session repeats it with history.",
  params: PARAMS,
  checkParams(params: Params) {
    const p = settings(params);
    return p.pricing === "english" && p.assets / (p.clock_increment * p.assets) > 10000 ? "clock_increment: at most 10,000 clock steps per run (expected a share of at least 1e-4)" : null;
  },
  columns: {
    games: [EA_GAME.environment, EA_GAME.runs, EA_GAME.history_window, EA_GAME.entrance_fee,
      {name: "pricing", type: "VARCHAR"}, {name: "scale", type: "VARCHAR"}, {name: "spread", type: "VARCHAR"}, {name: "value_step", type: "DOUBLE"},
      {name: "clock_increment", type: "DOUBLE"}, {name: "value_mean", type: "DOUBLE"}, {name: "value_sd", type: "DOUBLE"}, {name: "assets", type: "DOUBLE", doc: "every bidder's assets A"}],
    players: [],
    turns: [EA_TURN.run, EA_TURN.amount, {name: "choice", type: "VARCHAR", doc: "English auction: stay or drop"},
      {name: "clock_price", type: "DOUBLE", doc: "English auction: the price asked"}, {name: "value", type: "DOUBLE", doc: "the bidder's private value"},
      EA_TURN.strategy, EA_TURN.payoff, EA_TURN.eq_payoff, EA_TURN.won, EA_TURN.forfeited, {name: "price", type: "DOUBLE", doc: "settled: what the run's winner paid"}],
  },
  paramColumns(params: Params) {
    const p = settings(params);
    return {
      environment: p.environment, runs: p.runs, history_window: p.history_window, entrance_fee: p.entrance_fee, pricing: p.pricing, scale: p.scale, spread: p.spread,
      value_step: p.value_step, clock_increment: p.clock_increment, value_mean: p.value_mean, value_sd: p.value_sd, assets: p.assets,
    };
  },
  start(params: Params, context: StartContext) {
    return new AuctionState(context.gameId, context.nSeats, settings(params), context.chance("values"));
  },
};
