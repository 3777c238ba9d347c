/**
 * Divide the Dollar (gamma-Bench (Huang et al. 2024) §2.1, §3.1 (3),
 * Appendix C.2): every round each of N players bids an integer in [0, G];
 * if the bids sum to at most G everyone receives its bid, else everyone
 * receives nothing.
 */
import type {Action, ActionSpec, GameDef, ParamSpec, Params, Seat, StartContext} from "../../contract/game.js";
import {GB_GAME, GB_TURN} from "./columns.js";
import {citation, MAX_ROUNDS_COLUMN, numberParam, ROUNDS_PARAM, SEATS_10} from "./paper.js";
import {amountOf, RepeatedGame} from "./repeated.js";
import type {DollarView} from "./views.js";

export type {DollarView, DollarRoundSeen} from "./views.js";

export interface DollarRound {
  total: number;
  /** The bids sum to more than G: everyone gets 0. */
  exceeded: boolean;
  payoffs: number[];
}

/** One round of Divide the Dollar: each bid is paid when Σ bids ≤ G, else nothing is. */
export function dollarRound(bids: readonly number[], gold: number): DollarRound {
  const total = bids.reduce((a, b) => a + b, 0);
  const exceeded = !(total <= gold);
  return {total, exceeded, payoffs: bids.map((x) => (exceeded ? 0 : x))};
}

const PARAMS: ParamSpec[] = [
  // Table 9: G ∈ {50, 100, 200, 400, 800}.
  {name: "gold", label: "Golds G", type: "integer", min: 1, max: 1e6, default: 100, grid: [50, 100, 200, 400, 800], baseline: 100, doc: "the amount divided"},
  ROUNDS_PARAM,
];

interface DollarRecord extends DollarRound {
  bids: number[];
}

class DollarState extends RepeatedGame<DollarRecord, DollarView> {
  protected readonly actionType = "bid";
  constructor(gameId: string, nSeats: number, private readonly p: {gold: number; rounds: number}) {
    super(gameId, divideDollar.id, nSeats, p.rounds);
  }
  protected specs(): ActionSpec[] {
    return [{type: "bid", numbers: {amount: {min: 0, max: this.p.gold, integer: true}}}];
  }
  protected resolve(actions: readonly Action[]): DollarRecord {
    const bids = actions.map((a) => amountOf(a));
    return {bids, ...dollarRound(bids, this.p.gold)};
  }
  protected view(seat: Seat): DollarView {
    return {
      n_players: this.nSeats, rounds: this.rounds, round: this.round, gold: this.p.gold,
      history: this.history.map((r, j) => ({round: j + 1, bid: r.bids[seat], total: r.total, exceeded: r.exceeded, received: r.payoffs[seat]})),
    };
  }
  protected gameColumns() {
    return divideDollar.paramColumns!(this.p);
  }
}

export const divideDollar: GameDef = {
  id: "gamabench/divide_dollar",
  title: "Divide the Dollar",
  citation: citation("§3.1 (3), Appendix C.2"),
  seats: SEATS_10,
  moves: "simultaneous",
  description: "Every player bids for a share of G golds; the bids are paid only if they add up to at most G.",
  params: PARAMS,
  columns: {games: [GB_GAME.variant, GB_GAME.gold, MAX_ROUNDS_COLUMN], players: [], turns: [GB_TURN.amount, GB_TURN.payoff]},
  paramColumns(params: Params) {
    return {variant: "divide_dollar", gold: numberParam(params, "gold", PARAMS), max_rounds: numberParam(params, "rounds", PARAMS)};
  },
  start(params: Params, context: StartContext) {
    return new DollarState(context.gameId, context.nSeats, {gold: numberParam(params, "gold", PARAMS), rounds: numberParam(params, "rounds", PARAMS)});
  },
};
