/**
 * Sealed-Bid Auction (gamma-Bench (Huang et al. 2024) §2.2, §3.2 (6),
 * Appendix C.3): every round each player gets a private valuation and bids
 * an integer in [0, valuation]; the highest bid wins (ties broken at random)
 * and pays its own bid (first price) or the second-highest bid (second
 * price). Winner's utility: valuation − price; everyone else 0. Only the
 * first-price auction is scored (footnote 4).
 *
 * Valuations: distinct multiples of 10 in [valuation_min, valuation_max],
 * drawn per round from the game's chance (StartContext.chance, key
 * `values/round-<r>`), as the repository draws `random.sample(range(0, 210,
 * 10), N)`. The repository seeds Python's Mersenne Twister (seed 42 + round
 * − 1), which we do not reimplement, so Parley's valuations differ from the
 * paper's; the same run seed and game (and, under the common scheme, the
 * same configuration and repetition, whoever bids) give the same
 * valuations. Ties are broken by the key `tie/round-<r>`.
 */
import type {Action, ActionSpec, Chance, GameDef, ParamSpec, Params, Seat, StartContext} from "../../contract/game.js";
import {GB_GAME, GB_TURN} from "./columns.js";
import {citation, MAX_ROUNDS_COLUMN, numberParam, ROUNDS_PARAM, sampleDistinct, SEATS_10, stringParam} from "./paper.js";
import {amountOf, RepeatedGame} from "./repeated.js";
import type {AuctionPricing, AuctionView} from "./views.js";

export type {AuctionView, AuctionRoundSeen, AuctionPricing} from "./views.js";

/** Valuations are multiples of this (the repository's `interval`). */
export const VALUATION_STEP = 10;

export interface AuctionRound {
  winner: Seat;
  winning_bid: number;
  price: number;
  won: boolean[];
  payoffs: number[];
}

/** The price the winner pays: the highest bid (first price) or the second highest (second price; the highest when alone). */
export function auctionPrice(bids: readonly number[], pricing: AuctionPricing): number {
  const sorted = [...bids].sort((a, b) => b - a);
  return pricing === "first" ? sorted[0] : sorted[1] ?? sorted[0];
}

/** The winner gets valuation − price; everyone else 0. */
export function auctionPayoffs(values: readonly number[], winner: Seat, price: number): number[] {
  return values.map((v, i) => (i === winner ? v - price : 0));
}

/** One round: the highest bid wins (`tieBreak` picks among the tied seats, listed in seat order). */
export function auctionRound(bids: readonly number[], values: readonly number[], pricing: AuctionPricing, tieBreak: (tied: Seat[]) => Seat): AuctionRound {
  const top = Math.max(...bids);
  const tied = bids.flatMap((b, i) => (b === top ? [i] : []));
  const winner = tied.length === 1 ? tied[0] : tieBreak(tied);
  const price = auctionPrice(bids, pricing);
  return {winner, winning_bid: top, price, won: bids.map((_, i) => i === winner), payoffs: auctionPayoffs(values, winner, price)};
}

/** The valuations a round draws from: multiples of VALUATION_STEP in [min, max]. */
export function valuationSupport(min: number, max: number): number[] {
  const out: number[] = [];
  for (let v = Math.ceil(min / VALUATION_STEP) * VALUATION_STEP; v <= max; v += VALUATION_STEP) out.push(v);
  return out;
}

const PARAMS: ParamSpec[] = [
  {name: "pricing", label: "Pricing", type: "choice", values: ["first", "second"], default: "first", grid: ["first", "second"], baseline: "first", doc: "the winner pays the highest (first) or second-highest (second) bid; first price is scored"},
  {name: "valuation_min", label: "Lowest valuation", type: "number", min: 0, max: 1e6, default: 0, grid: [0]},
  // Table 9: valuation ranges [0, 100], [0, 200], [0, 400], [0, 800].
  {name: "valuation_max", label: "Highest valuation", type: "number", min: 0, max: 1e6, default: 200, grid: [100, 200, 400, 800], baseline: 200},
  ROUNDS_PARAM,
];

interface AuctionRecord extends AuctionRound {
  bids: number[];
  values: number[];
}

interface Settings {
  pricing: AuctionPricing;
  valuation_min: number;
  valuation_max: number;
  rounds: number;
}

class AuctionState extends RepeatedGame<AuctionRecord, AuctionView> {
  protected readonly actionType = "bid";
  private values: number[];
  private readonly support: number[];
  constructor(gameId: string, nSeats: number, private readonly p: Settings, private readonly draws: Chance) {
    super(gameId, sealedBid.id, nSeats, p.rounds);
    this.support = valuationSupport(p.valuation_min, p.valuation_max);
    this.values = this.draw();
  }
  private draw(): number[] {
    const rng = this.draws(`values/round-${this.round}`);
    return sampleDistinct(this.support, this.nSeats, (k) => rng.int(k));
  }
  protected specs(seat: Seat): ActionSpec[] {
    return [{type: "bid", numbers: {amount: {min: 0, max: this.values[seat], integer: true}}}];
  }
  protected resolve(actions: readonly Action[]): AuctionRecord {
    const bids = actions.map((a) => amountOf(a));
    const values = this.values;
    return {bids, values, ...auctionRound(bids, values, this.p.pricing, (tied) => this.draws(`tie/round-${this.round}`).pick(tied))};
  }
  protected nextRound(): void {
    this.values = this.draw();
  }
  protected settledFacts(r: AuctionRecord, seat: Seat) {
    return {won: r.won[seat]};
  }
  /** The seat's private valuation this round. */
  turnInfo(seat: Seat): Record<string, unknown> {
    return this.over ? {} : {valuation: this.values[seat]};
  }
  protected view(seat: Seat): AuctionView {
    return {
      n_players: this.nSeats, rounds: this.rounds, round: this.round, pricing: this.p.pricing, valuation: this.over ? null : this.values[seat],
      history: this.history.map((r, j) => ({round: j + 1, valuation: r.values[seat], bid: r.bids[seat], winning_bid: r.winning_bid, price: r.price, won: r.won[seat], utility: r.payoffs[seat]})),
    };
  }
  protected gameColumns() {
    return sealedBid.paramColumns!({...this.p});
  }
}

const settings = (params: Params): Settings => ({
  pricing: stringParam(params, "pricing", PARAMS) as AuctionPricing,
  valuation_min: numberParam(params, "valuation_min", PARAMS),
  valuation_max: numberParam(params, "valuation_max", PARAMS),
  rounds: numberParam(params, "rounds", PARAMS),
});

export const sealedBid: GameDef = {
  id: "gamabench/sealed_bid",
  title: "Sealed-Bid Auction",
  citation: citation("§3.2 (6), Appendix C.3"),
  seats: SEATS_10,
  moves: "simultaneous",
  description: "Every round each player bids for an item it privately values; the highest bid wins and pays the first or second price.",
  params: PARAMS,
  checkParams(params: Params, nSeats: number) {
    const s = settings(params);
    const k = valuationSupport(s.valuation_min, s.valuation_max).length;
    return k >= nSeats ? null : `valuations are distinct multiples of ${VALUATION_STEP} in [${s.valuation_min}, ${s.valuation_max}]: ${k} values for ${nSeats} players`;
  },
  columns: {
    games: [GB_GAME.variant, GB_GAME.mode, GB_GAME.valuation_min, GB_GAME.valuation_max, MAX_ROUNDS_COLUMN],
    players: [],
    turns: [GB_TURN.amount, GB_TURN.valuation, GB_TURN.won, GB_TURN.payoff],
  },
  paramColumns(params: Params) {
    const s = settings(params);
    return {variant: `sealed_bid_auction_${s.pricing}_price`, mode: `${s.pricing}_price`, valuation_min: s.valuation_min, valuation_max: s.valuation_max, max_rounds: s.rounds};
  },
  start(params: Params, context: StartContext) {
    return new AuctionState(context.gameId, context.nSeats, settings(params), context.chance);
  },
};
