/**
 * The beauty contest of Economics Arena (Guo et al. 2024, Appendix A.1;
 * prompt B.1): N players each choose a real number in [0, c̄]; whoever is
 * closest to two thirds of the average wins a fixed prize x, split equally
 * among tied winners; the others get 0. The unique NE is everyone at 0.
 *
 * Choices where the paper leaves a number open (parameters below):
 * - c̄ = 100 (the classic game), or drawn per session, as a whole number
 *   uniformly from the paper's groups L [10, 100), M [100, 1000),
 *   H [1000, 10000) (§4.2; the distribution is not stated);
 * - x = 1 (Table 1's beauty-contest rows sum to 1 per session group);
 * - a player that gives no legal answer is left out of the run (its number
 *   does not enter the average) and pays `entrance_fee` (default 0: the
 *   paper names the fee only for auctions, Appendix A.2).
 * Equilibrium payoff: x / N (everyone ties at 0).
 */
import type {Action, ActionSpec, GameDef, ParamSpec, Params, Seat, StartContext} from "../../contract/game.js";
import {guessingRound} from "../gamabench/guessing.js";
import {citation, EA_GAME, EA_TURN, param, SEATS_5, SESSION_PARAMS, sessionSettings, type SessionSettings} from "./paper.js";
import {allSeats, FORFEIT, SessionGame, type RunOutcome} from "./session.js";
import type {BeautyRunSeen, BeautyView} from "./views.js";

export type {BeautyView, BeautyRunSeen} from "./views.js";

/** c̄ groups of §4.2: [low, high) for a drawn c̄. */
export const BOUND_GROUPS: Record<string, [number, number] | null> = {fixed: null, L: [10, 100], M: [100, 1000], H: [1000, 10000]};

const PARAMS: ParamSpec[] = [
  ...SESSION_PARAMS,
  {name: "bound_group", label: "c̄ group", type: "choice", values: Object.keys(BOUND_GROUPS), default: "fixed", grid: ["fixed", "L", "M", "H"], baseline: "fixed", doc: "fixed: c̄ = upper_bound; L, M, H: c̄ drawn per session as a whole number uniformly from [10, 100), [100, 1000), [1000, 10000) (§4.2)"},
  {name: "upper_bound", label: "c̄", type: "number", min: 1e-6, max: 1e9, default: 100, grid: [100], doc: "choose a real number in [0, c̄] (used when bound_group is fixed)"},
  {name: "prize", label: "Prize x", type: "number", min: 1e-9, max: 1e12, default: 1, grid: [1], doc: "split equally among tied winners (1: Table 1's rows sum to 1)"},
  {name: "entrance_fee", label: "Entrance fee", type: "number", min: 0, max: 1e12, default: 0, grid: [0], doc: "deducted from the payoff of a run in which the player gave no legal answer"},
];

/** One run of the beauty contest. Forfeited seats (null) are left out; the rest play the rule. */
export function beautyRun(answers: readonly (number | null)[], prize: number, fee: number): {target: number | null; winners: Seat[]; payoffs: number[]} {
  const valid = answers.flatMap((a, i) => (a === null ? [] : [i]));
  const payoffs = answers.map((a) => (a === null ? -fee : 0));
  if (!valid.length) return {target: null, winners: [], payoffs};
  const round = guessingRound(valid.map((i) => answers[i]!), 2 / 3);
  const winners = valid.filter((_, k) => round.won[k]);
  for (const w of winners) payoffs[w] = prize / winners.length;
  return {target: round.target, winners, payoffs};
}

interface BeautyRecord extends RunOutcome {
  answers: (number | null)[];
  target: number | null;
  winners: Seat[];
}

interface Settings extends SessionSettings {
  bound_group: string;
  upper_bound: number;
  prize: number;
  entrance_fee: number;
}

class BeautyState extends SessionGame<BeautyRecord, BeautyView> {
  protected readonly actionType = "choose";
  constructor(gameId: string, nSeats: number, private readonly p: Settings) {
    super(gameId, beautyContest.id, nSeats, p);
  }
  protected movers(): readonly Seat[] {
    return allSeats(this.nSeats);
  }
  protected specs(): ActionSpec[] {
    return [{type: "choose", numbers: {amount: {min: 0, max: this.p.upper_bound}, popular_answer: {}}, optional: ["popular_answer"]}];
  }
  protected play(_seats: readonly Seat[], actions: readonly Action[]): BeautyRecord {
    const answers = actions.map((a) => (a.type === FORFEIT ? null : (a.amount as number)));
    const {target, winners, payoffs} = beautyRun(answers, this.p.prize, this.p.entrance_fee);
    return {
      answers, target, winners, payoffs, strategy: answers,
      eqPayoffs: answers.map(() => this.p.prize / this.nSeats),
      won: answers.map((_, i) => winners.includes(i)),
      forfeited: answers.map((a) => a === null),
      decidedAt: answers.map(() => this.step),
    };
  }
  protected reported(r: BeautyRecord, seat: Seat): number {
    return r.payoffs[seat];
  }
  protected runFacts(r: BeautyRecord) {
    return {target: r.target};
  }
  /** Every seat sees the same (the seat's own id is the observation's). */
  protected view(): BeautyView {
    return this.shared(() => {
      const history: BeautyRunSeen[] = this.shown().map(({run, record: r}) => ({run, answers: r.answers, target: r.target, winners: r.winners, payoffs: r.payoffs}));
      return {...this.told(), upper_bound: this.p.upper_bound, prize: this.p.prize, history};
    });
  }
  protected gameColumns() {
    return beautyContest.paramColumns!(this.p as unknown as Params);
  }
}

function settings(params: Params, drawBound?: (lo: number, hi: number) => number): Settings {
  const group = String(param(params, "bound_group", PARAMS));
  const range = BOUND_GROUPS[group];
  return Object.assign(sessionSettings(params), {
    bound_group: group,
    upper_bound: range && drawBound ? drawBound(range[0], range[1]) : Number(param(params, "upper_bound", PARAMS)),
    prize: Number(param(params, "prize", PARAMS)),
    entrance_fee: Number(param(params, "entrance_fee", PARAMS)),
  });
}

export const beautyContest: GameDef = {
  id: "econarena/beauty_contest",
  title: "Beauty contest (2/3 of the average)",
  citation: citation("§3.1, Appendix A.1, prompts B.1–B.4"),
  seats: SEATS_5,
  moves: "simultaneous",
  description: "Every player chooses a real number in [0, c̄]; the closest to two thirds of the average wins a prize, split among ties. One-shot; a session repeats it with history.",
  params: PARAMS,
  columns: {
    games: [EA_GAME.environment, EA_GAME.runs, EA_GAME.history_window, EA_GAME.entrance_fee,
      {name: "bound_group", type: "VARCHAR"}, {name: "upper_bound", type: "DOUBLE", doc: "c̄ of this session (drawn when bound_group is L, M or H)"}, {name: "prize", type: "DOUBLE"}],
    players: [],
    turns: [EA_TURN.run, EA_TURN.amount, {name: "popular_answer", type: "DOUBLE", doc: "the number the player thinks others most likely choose"}, EA_TURN.strategy, EA_TURN.payoff, EA_TURN.eq_payoff, EA_TURN.won, EA_TURN.forfeited,
      {name: "target", type: "DOUBLE", doc: "settled: two thirds of the average of the run's valid answers"}],
  },
  paramColumns(params: Params) {
    const s = settings(params);
    return {environment: s.environment, runs: s.runs, history_window: s.history_window, entrance_fee: s.entrance_fee, bound_group: s.bound_group, upper_bound: s.upper_bound, prize: s.prize};
  },
  start(params: Params, context: StartContext) {
    return new BeautyState(context.gameId, context.nSeats, settings(params, (lo, hi) => lo + context.chance("upper_bound").int(hi - lo)));
  },
};
