/**
 * Public Goods Game (gamma-Bench (Huang et al. 2024) §2.2, §3.2 (4),
 * Appendix C.3): every round each player holds T tokens (the repository
 * resets them every round, reset = True) and secretly contributes an integer
 * c in [0, T] to the pot; the pot is multiplied by R and shared equally.
 * Round payoff: T − c + R·Σc/N.
 */
import type {Action, ActionSpec, GameDef, ParamSpec, Params, Seat, StartContext} from "../../contract/game.js";
import {GB_GAME, GB_TURN} from "./columns.js";
import {citation, MAX_ROUNDS_COLUMN, numberParam, ROUNDS_PARAM, SEATS_10} from "./paper.js";
import {amountOf, RepeatedGame} from "./repeated.js";
import type {PublicGoodsView} from "./views.js";

export type {PublicGoodsView, PublicGoodsRoundSeen} from "./views.js";

export interface PublicGoodsRound {
  /** Σ contributions (the pot before the multiplier). */
  total: number;
  /** R·Σc/N: each player's public share. */
  share: number;
  /** T − c + share. */
  payoffs: number[];
}

/** One round of the public goods game: each keeps T − c and gets R·Σc/N. */
export function publicGoodsRound(contributions: readonly number[], tokens: number, ratio: number): PublicGoodsRound {
  const total = contributions.reduce((a, b) => a + b, 0);
  const share = (ratio * total) / contributions.length;
  return {total, share, payoffs: contributions.map((x) => tokens - x + share)};
}

const PARAMS: ParamSpec[] = [
  // Table 9: R ∈ {0, 0.5, 1, 2, 4}.
  {name: "ratio", label: "Multiplier R", type: "number", min: 0, max: 100, default: 2, grid: [0, 0.5, 1, 2, 4], baseline: 2, doc: "the pot is multiplied by R and shared equally"},
  {name: "tokens", label: "Tokens T", type: "integer", min: 1, max: 1e6, default: 20, grid: [20], doc: "tokens each player holds at the start of every round"},
  ROUNDS_PARAM,
];

interface PublicGoodsRecord extends PublicGoodsRound {
  contributions: number[];
}

class PublicGoodsState extends RepeatedGame<PublicGoodsRecord, PublicGoodsView> {
  protected readonly actionType = "contribute";
  constructor(gameId: string, nSeats: number, private readonly p: {ratio: number; tokens: number; rounds: number}) {
    super(gameId, publicGoods.id, nSeats, p.rounds);
  }
  protected specs(): ActionSpec[] {
    return [{type: "contribute", numbers: {amount: {min: 0, max: this.p.tokens, integer: true}}}];
  }
  protected resolve(actions: readonly Action[]): PublicGoodsRecord {
    const contributions = actions.map((a) => amountOf(a));
    return {contributions, ...publicGoodsRound(contributions, this.p.tokens, this.p.ratio)};
  }
  protected view(seat: Seat): PublicGoodsView {
    return {
      n_players: this.nSeats, rounds: this.rounds, round: this.round, ratio: this.p.ratio, tokens: this.p.tokens,
      history: this.history.map((r, j) => ({
        round: j + 1, contributions: [...r.contributions], contributed: r.contributions[seat], pot: r.total,
        gain: r.share - r.contributions[seat], tokens_after: r.payoffs[seat], tokens_all: [...r.payoffs],
      })),
    };
  }
  protected gameColumns() {
    return publicGoods.paramColumns!(this.p);
  }
}

export const publicGoods: GameDef = {
  id: "gamabench/public_goods",
  title: "Public Goods Game",
  citation: citation("§3.2 (4), Appendix C.3"),
  seats: SEATS_10,
  moves: "simultaneous",
  description: "Every player secretly contributes some of its T tokens to a pot that is multiplied by R and shared equally.",
  params: PARAMS,
  columns: {games: [GB_GAME.variant, GB_GAME.ratio, GB_GAME.tokens, MAX_ROUNDS_COLUMN], players: [], turns: [GB_TURN.amount, GB_TURN.payoff]},
  paramColumns(params: Params) {
    return {variant: "public_goods", ratio: numberParam(params, "ratio", PARAMS), tokens: numberParam(params, "tokens", PARAMS), max_rounds: numberParam(params, "rounds", PARAMS)};
  },
  start(params: Params, context: StartContext) {
    return new PublicGoodsState(context.gameId, context.nSeats, {ratio: numberParam(params, "ratio", PARAMS), tokens: numberParam(params, "tokens", PARAMS), rounds: numberParam(params, "rounds", PARAMS)});
  },
};
