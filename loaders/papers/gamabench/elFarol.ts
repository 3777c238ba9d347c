/**
 * El Farol Bar (gamma-Bench (Huang et al. 2024) §2.1, §3.1 (2), Appendix
 * C.2): every round each player goes to the bar or stays home. If at most
 * R of the players go, goers get MAX; otherwise goers get MIN; stayers get
 * HOME. Feedback is explicit (everyone learns how many went and whether it
 * was fun) or implicit (a stayer learns only its own choice and HOME; goers
 * learn everything; the repository's report_result). Only the implicit
 * setting is scored (footnote 3).
 */
import type {Action, ActionSpec, GameDef, ParamSpec, Params, Seat, StartContext} from "../../contract/game.js";
import {GB_GAME, GB_TURN} from "./columns.js";
import {citation, MAX_ROUNDS_COLUMN, numberParam, ROUNDS_PARAM, SEATS_10, stringParam} from "./paper.js";
import {choiceOf, RepeatedGame} from "./repeated.js";
import type {ElFarolChoice, ElFarolView} from "./views.js";

export type {ElFarolView, ElFarolRoundSeen, ElFarolChoice} from "./views.js";

export interface ElFarolRules {
  /** R: capacity share. */
  ratio: number;
  min: number;
  max: number;
  home: number;
}

export interface ElFarolRound {
  goers: number;
  /** Going paid MAX: at most R·N went (rule 2, "equal to or less than R"). */
  fun: boolean;
  payoffs: number[];
}

/**
 * One round of El Farol. Only the exact answer "stay" earns HOME; any other
 * answer is counted as going for the payoff but not in the attendance (the
 * engine only accepts go/stay; the raw files have a few other words, kept as
 * recorded by the ingest).
 */
export function elFarolRound(choices: readonly string[], rules: ElFarolRules): ElFarolRound {
  const goers = choices.filter((x) => x === "go").length;
  const fun = goers <= rules.ratio * choices.length + 1e-9;
  return {goers, fun, payoffs: choices.map((x) => (x === "stay" ? rules.home : fun ? rules.max : rules.min))};
}

const PARAMS: ParamSpec[] = [
  {name: "min", label: "MIN (crowded bar)", type: "number", min: -1e6, max: 1e6, default: 0, grid: [0], doc: "a goer's utility when more than R go"},
  {name: "max", label: "MAX (fun bar)", type: "number", min: -1e6, max: 1e6, default: 10, grid: [10], doc: "a goer's utility when at most R go"},
  {name: "home", label: "HOME", type: "number", min: -1e6, max: 1e6, default: 5, grid: [5], doc: "a stayer's utility"},
  // §4.3 RQ3 grid: R ∈ {0%, 20%, 40%, 60%, 80%, 100%}.
  {name: "ratio", label: "Capacity R", type: "number", min: 0, max: 1, default: 0.6, grid: [0, 0.2, 0.4, 0.6, 0.8, 1], baseline: 0.6, doc: "going pays MAX when at most R·N go"},
  {name: "feedback", label: "Feedback", type: "choice", values: ["implicit", "explicit"], default: "implicit", grid: ["implicit", "explicit"], baseline: "implicit", doc: "implicit: stayers learn only their own utility (the scored setting, footnote 3)"},
  ROUNDS_PARAM,
];

interface ElFarolRecord extends ElFarolRound {
  choices: ElFarolChoice[];
}

type Settings = ElFarolRules & {feedback: "explicit" | "implicit"; rounds: number};

class ElFarolState extends RepeatedGame<ElFarolRecord, ElFarolView> {
  protected readonly actionType = "decide";
  constructor(gameId: string, nSeats: number, private readonly p: Settings) {
    super(gameId, elFarol.id, nSeats, p.rounds);
  }
  protected specs(): ActionSpec[] {
    return [{type: "decide", choices: {choice: ["go", "stay"]}}];
  }
  protected resolve(actions: readonly Action[]): ElFarolRecord {
    const choices = actions.map((a) => choiceOf<ElFarolChoice>(a));
    return {choices, ...elFarolRound(choices, this.p)};
  }
  protected view(seat: Seat): ElFarolView {
    const {min, max, home, ratio, feedback} = this.p;
    return {
      n_players: this.nSeats, rounds: this.rounds, round: this.round, min, max, home, ratio, feedback,
      history: this.history.map((r, j) => {
        const choice = r.choices[seat];
        const told = feedback === "explicit" || choice === "go";
        return {round: j + 1, choice, gained: r.payoffs[seat], went: told ? r.goers : null, stayed: told ? this.nSeats - r.goers : null, fun: told ? r.fun : null};
      }),
    };
  }
  protected gameColumns() {
    return elFarol.paramColumns!({...this.p});
  }
}

export const elFarol: GameDef = {
  id: "gamabench/el_farol",
  title: "El Farol Bar",
  citation: citation("§3.1 (2), Appendix C.2"),
  seats: SEATS_10,
  moves: "simultaneous",
  description: "Every player goes to the bar or stays home; going is fun only if at most R of the players go.",
  params: PARAMS,
  columns: {
    games: [GB_GAME.variant, GB_GAME.param_min, GB_GAME.param_max, GB_GAME.ratio, GB_GAME.home, GB_GAME.mode, MAX_ROUNDS_COLUMN],
    players: [],
    turns: [GB_TURN.choice, GB_TURN.payoff],
  },
  paramColumns(params: Params) {
    const mode = stringParam(params, "feedback", PARAMS);
    return {
      variant: `bar_game_${mode}`,
      param_min: numberParam(params, "min", PARAMS),
      param_max: numberParam(params, "max", PARAMS),
      ratio: numberParam(params, "ratio", PARAMS),
      home: numberParam(params, "home", PARAMS),
      mode,
      max_rounds: numberParam(params, "rounds", PARAMS),
    };
  },
  start(params: Params, context: StartContext) {
    const p: Settings = {
      min: numberParam(params, "min", PARAMS), max: numberParam(params, "max", PARAMS), home: numberParam(params, "home", PARAMS), ratio: numberParam(params, "ratio", PARAMS),
      feedback: stringParam(params, "feedback", PARAMS) as Settings["feedback"], rounds: numberParam(params, "rounds", PARAMS),
    };
    return new ElFarolState(context.gameId, context.nSeats, p);
  },
};
