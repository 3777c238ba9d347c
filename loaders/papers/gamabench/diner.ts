/**
 * Diner's Dilemma (gamma-Bench (Huang et al. 2024) §2.2, §3.2 (5), Appendix
 * C.3): every round each player orders the costly dish (price P_h, utility
 * U_h) or the cheap one (P_l, U_l); the bill is split equally. Utility:
 * U(own dish) − Σ prices / N.
 */
import type {Action, ActionSpec, GameDef, ParamSpec, Params, Seat, StartContext} from "../../contract/game.js";
import {GB_GAME, GB_TURN} from "./columns.js";
import {citation, MAX_ROUNDS_COLUMN, numberParam, ROUNDS_PARAM, SEATS_10} from "./paper.js";
import {choiceOf, RepeatedGame} from "./repeated.js";
import type {DinerChoice, DinerView} from "./views.js";

export type {DinerView, DinerRoundSeen, DinerChoice} from "./views.js";

export interface DinerPrices {
  cheap_cost: number;
  cheap_utility: number;
  exp_cost: number;
  exp_utility: number;
}

export interface DinerRound {
  cheap: number;
  /** Σ prices. */
  total: number;
  /** Σ prices / N: what each pays. */
  share: number;
  payoffs: number[];
}

/** One round of the diner's dilemma. Only the exact answer "cheap" is the cheap dish; any other counts as costly. */
export function dinerRound(choices: readonly string[], prices: DinerPrices): DinerRound {
  const n = choices.length;
  const cheap = choices.filter((x) => x === "cheap").length;
  const share = (cheap * prices.cheap_cost + (n - cheap) * prices.exp_cost) / n;
  return {cheap, total: share * n, share, payoffs: choices.map((x) => (x === "cheap" ? prices.cheap_utility : prices.exp_utility) - share)};
}

/** The paper's six settings (P_l, U_l, P_h, U_h) of Table 9 (from the repository's raw-results meta); all keep "costly" as the equilibrium. */
export const DINER_SETTINGS: readonly DinerPrices[] = [
  [10, 15, 20, 20], [11, 5, 20, 7], [4, 19, 9, 20], [1, 8, 19, 12], [4, 5, 17, 7], [2, 11, 8, 13],
].map(([cheap_cost, cheap_utility, exp_cost, exp_utility]) => ({cheap_cost, cheap_utility, exp_cost, exp_utility}));

const values = (key: keyof DinerPrices) => [...new Set(DINER_SETTINGS.map((s) => s[key]))];

// Each parameter's grid lists the values it takes in DINER_SETTINGS; the paper pairs them as those six
// tuples, so a run config reproducing Table 9 lists the six settings rather than the Cartesian product.
const PARAMS: ParamSpec[] = [
  {name: "cheap_cost", label: "Cheap dish price P_l", type: "number", min: 0, max: 1e6, default: 10, grid: values("cheap_cost"), baseline: 10},
  {name: "cheap_utility", label: "Cheap dish utility U_l", type: "number", min: -1e6, max: 1e6, default: 15, grid: values("cheap_utility"), baseline: 15},
  {name: "exp_cost", label: "Costly dish price P_h", type: "number", min: 0, max: 1e6, default: 20, grid: values("exp_cost"), baseline: 20},
  {name: "exp_utility", label: "Costly dish utility U_h", type: "number", min: -1e6, max: 1e6, default: 20, grid: values("exp_utility"), baseline: 20},
  ROUNDS_PARAM,
];

interface DinerRecord extends DinerRound {
  choices: DinerChoice[];
}

class DinerState extends RepeatedGame<DinerRecord, DinerView> {
  protected readonly actionType = "order";
  constructor(gameId: string, nSeats: number, private readonly p: DinerPrices & {rounds: number}) {
    super(gameId, diner.id, nSeats, p.rounds);
  }
  protected specs(): ActionSpec[] {
    return [{type: "order", choices: {choice: ["costly", "cheap"]}}];
  }
  protected resolve(actions: readonly Action[]): DinerRecord {
    const choices = actions.map((a) => choiceOf<DinerChoice>(a));
    return {choices, ...dinerRound(choices, this.p)};
  }
  protected view(seat: Seat): DinerView {
    const {cheap_cost, cheap_utility, exp_cost, exp_utility} = this.p;
    return {
      n_players: this.nSeats, rounds: this.rounds, round: this.round, cheap_cost, cheap_utility, exp_cost, exp_utility,
      history: this.history.map((r, j) => ({
        round: j + 1, costly: this.nSeats - r.cheap, cheap: r.cheap, total_cost: r.total, share: r.share, choice: r.choices[seat], utility: r.payoffs[seat],
      })),
    };
  }
  protected gameColumns() {
    return diner.paramColumns!({...this.p});
  }
}

const prices = (params: Params): DinerPrices => ({
  cheap_cost: numberParam(params, "cheap_cost", PARAMS), cheap_utility: numberParam(params, "cheap_utility", PARAMS),
  exp_cost: numberParam(params, "exp_cost", PARAMS), exp_utility: numberParam(params, "exp_utility", PARAMS),
});

export const diner: GameDef = {
  id: "gamabench/diner",
  title: "Diner's Dilemma",
  citation: citation("§3.2 (5), Appendix C.3"),
  seats: SEATS_10,
  moves: "simultaneous",
  description: "Every player orders a costly or a cheap dish and the bill is split equally.",
  params: PARAMS,
  columns: {
    games: [GB_GAME.variant, GB_GAME.cheap_cost, GB_GAME.cheap_utility, GB_GAME.exp_cost, GB_GAME.exp_utility, MAX_ROUNDS_COLUMN],
    players: [],
    turns: [GB_TURN.choice, GB_TURN.payoff],
  },
  paramColumns(params: Params) {
    return {variant: "diner_dilemma", ...prices(params), max_rounds: numberParam(params, "rounds", PARAMS)};
  },
  start(params: Params, context: StartContext) {
    return new DinerState(context.gameId, context.nSeats, {...prices(params), rounds: numberParam(params, "rounds", PARAMS)});
  },
};
