/**
 * Guess 2/3 of the Average (gamma-Bench (Huang et al. 2024) §2.1, §3.1,
 * Appendix C.2): each of N players picks an integer in [MIN, MAX]; the
 * target is R × the average; whoever is closest wins (ties all win). Payoff:
 * 1 for a win, 0 for a loss, per round; the return counts wins.
 */
import type {Action, ActionSpec, GameDef, ParamSpec, Params, Seat, StartContext} from "../../contract/game.js";
import {GB_GAME, GB_TURN} from "./columns.js";
import {citation, MAX_ROUNDS_COLUMN, numberParam, ROUNDS_PARAM, SEATS_10} from "./paper.js";
import {amountOf, RepeatedGame} from "./repeated.js";
import type {GuessingView} from "./views.js";

export type {GuessingView, GuessingRoundSeen} from "./views.js";

export interface GuessingRound {
  mean: number;
  target: number;
  /** Per seat: closest to the target (ties all win). */
  won: boolean[];
  /** 1 for a win, 0 for a loss. */
  payoffs: number[];
  /** The closest number (the lower one when two numbers are equally close). */
  winning_number: number;
}

/** Distances equal to 1e-9 count as a tie (R × mean is rarely exact in floating point). */
const tieRound = (x: number) => Math.round(x * 1e9) / 1e9;

/** One round of Guess R of the Average: target = R × mean; every choice closest to it wins. */
export function guessingRound(choices: readonly number[], ratio: number): GuessingRound {
  const mean = choices.reduce((a, b) => a + b, 0) / choices.length;
  const target = ratio * mean;
  const best = Math.min(...choices.map((x) => Math.abs(x - target)));
  const won = choices.map((x) => tieRound(Math.abs(x - target)) === tieRound(best));
  const winning_number = Math.min(...choices.filter((_, i) => won[i]));
  return {mean, target, won, payoffs: won.map((w) => (w ? 1 : 0)), winning_number};
}

const PARAMS: ParamSpec[] = [
  {name: "min", label: "MIN", type: "integer", min: 0, max: 1e6, default: 0, grid: [0], doc: "lowest number allowed"},
  {name: "max", label: "MAX", type: "integer", min: 1, max: 1e6, default: 100, grid: [100], doc: "highest number allowed"},
  {
    name: "ratio",
    label: "Ratio R",
    type: "number",
    min: 0,
    max: 10,
    default: 2 / 3,
    // Table 9 (decoded from the repository's raw-results meta): R from 0 to 2 in steps of 1/6.
    grid: [0, 1 / 6, 1 / 3, 1 / 2, 2 / 3, 5 / 6, 1, 7 / 6, 4 / 3, 3 / 2, 5 / 3, 11 / 6, 2],
    baseline: 2 / 3,
    doc: "the target is R × the average",
  },
  ROUNDS_PARAM,
];

interface GuessingRecord extends GuessingRound {
  choices: number[];
}

class GuessingState extends RepeatedGame<GuessingRecord, GuessingView> {
  protected readonly actionType = "choose";
  constructor(
    gameId: string,
    nSeats: number,
    private readonly p: {min: number; max: number; ratio: number; rounds: number},
  ) {
    super(gameId, guessing.id, nSeats, p.rounds);
  }
  protected specs(): ActionSpec[] {
    return [{type: "choose", numbers: {amount: {min: this.p.min, max: this.p.max, integer: true}}}];
  }
  protected resolve(actions: readonly Action[]): GuessingRecord {
    const choices = actions.map((a) => amountOf(a));
    return {choices, ...guessingRound(choices, this.p.ratio)};
  }
  protected settledFacts(r: GuessingRecord, seat: Seat) {
    return {won: r.won[seat]};
  }
  protected view(seat: Seat): GuessingView {
    return {
      n_players: this.nSeats, rounds: this.rounds, round: this.round, min: this.p.min, max: this.p.max, ratio: this.p.ratio,
      history: this.history.map((r, j) => ({round: j + 1, average: r.mean, target: r.target, winning_number: r.winning_number, chosen: r.choices[seat], won: r.won[seat]})),
    };
  }
  protected gameColumns() {
    return guessing.paramColumns!(this.p);
  }
}

export const guessing: GameDef = {
  id: "gamabench/guessing",
  title: "Guess 2/3 of the Average",
  citation: citation("§3.1 (1), Appendix C.2"),
  seats: SEATS_10,
  moves: "simultaneous",
  description: "Every player picks a whole number in [MIN, MAX]; whoever is closest to R times the average wins the round.",
  params: PARAMS,
  checkParams(params: Params) {
    const min = numberParam(params, "min", PARAMS);
    const max = numberParam(params, "max", PARAMS);
    return min < max ? null : `min (${min}) must be below max (${max})`;
  },
  columns: {
    games: [GB_GAME.variant, GB_GAME.param_min, GB_GAME.param_max, GB_GAME.ratio, MAX_ROUNDS_COLUMN],
    players: [],
    turns: [GB_TURN.amount, GB_TURN.won, GB_TURN.payoff],
  },
  paramColumns(params: Params) {
    return {
      variant: "guessing_game",
      param_min: numberParam(params, "min", PARAMS),
      param_max: numberParam(params, "max", PARAMS),
      ratio: numberParam(params, "ratio", PARAMS),
      max_rounds: numberParam(params, "rounds", PARAMS),
    };
  },
  start(params: Params, context: StartContext) {
    const p = {min: numberParam(params, "min", PARAMS), max: numberParam(params, "max", PARAMS), ratio: numberParam(params, "ratio", PARAMS), rounds: numberParam(params, "rounds", PARAMS)};
    return new GuessingState(context.gameId, context.nSeats, p);
  },
};
