/**
 * What the Economics Arena games share: the citation, the seats, the session
 * parameters (environment, runs, history window) declared once, and the
 * columns both games write.
 *
 * Economics Arena (Guo et al. 2024) is the anonymous ICLR 2024 submission
 * "Economics Arena for Large Language Models" (arXiv:2401.01735).
 */
import type {Column} from "../../io/schema.js";
import type {Citation, ParamSpec, Params} from "../../contract/game.js";
import type {Environment} from "./views.js";

export const ECONARENA_PAPER = {
  short: "Economics Arena (Guo et al. 2024)",
  title: "Economics Arena for Large Language Models",
  authors: "Shangmin Guo, Haoran Bu, Haochuan Wang, Yi Ren, Dianbo Sui, Yuming Shang, Siting Lu",
  year: 2024,
} as const;

export const citation = (section: string): Citation => ({...ECONARENA_PAPER, section});

/**
 * Five players in the rational and senior environments (§4.1, §4.2). The
 * paper does not say how many LLMs share a melee game (nine models are
 * listed); `n_players` of a run config sets it, 2 to 20.
 */
export const SEATS_5 = {min: 2, max: 20, default: 5} as const;

export const ENVIRONMENTS: readonly Environment[] = ["melee", "senior", "rational", "cot"];

/** The session parameters both games declare (§4.3: 6 runs per session, at most 3 shown). */
export const SESSION_PARAMS: ParamSpec[] = [
  {
    name: "environment", label: "Environment", type: "choice", values: ENVIRONMENTS, default: "melee", grid: ENVIRONMENTS, baseline: "melee",
    doc: "what the players are told (Appendix B): melee and senior the plain rules; rational adds that the others are perfectly rational; cot also asks to think step by step. Who sits is the run config's lineup (rational: one LLM and four `rational` agents)",
  },
  {name: "runs", label: "Runs per session", type: "integer", min: 1, max: 100, default: 1, grid: [1, 6], doc: "runs of the one-shot game in one session (a game); 6 with history (§4.3), 1 otherwise"},
  {name: "history_window", label: "Runs of history shown", type: "integer", min: 0, max: 100, default: 3, grid: [3], doc: "from run 2 on, the last runs' choices of everyone (auctions: and private values) are shown, at most this many (§4.3: 3, for the token limit)"},
];

/** A declared parameter's value (configs give values; the runner fills defaults). */
export const param = (params: Params, name: string, specs: readonly ParamSpec[]): Params[string] => params[name] ?? specs.find((s) => s.name === name)!.default;

export interface SessionSettings {
  environment: Environment;
  runs: number;
  history_window: number;
}

export const sessionSettings = (params: Params): SessionSettings => ({
  environment: param(params, "environment", SESSION_PARAMS) as Environment,
  runs: Number(param(params, "runs", SESSION_PARAMS)),
  history_window: Number(param(params, "history_window", SESSION_PARAMS)),
});

/** Turns columns both games write; the per-run results are settled onto each seat's last decision of the run. */
export const EA_TURN = {
  run: {name: "run", type: "INTEGER", doc: "1-based run within the session (the game)"},
  amount: {name: "amount", type: "DOUBLE", doc: "the number chosen (beauty contest) or the bid (sealed-bid auctions)"},
  strategy: {name: "strategy", type: "DOUBLE", doc: "settled: the seat's choice this run in the game's units (English auction: the highest clock price it stayed in for); null when it broke the rules"},
  payoff: {name: "payoff", type: "DOUBLE", doc: "settled: ρ, the seat's payoff this run (beauty contest: its share of the prize; auctions: its asset after the run); the entrance fee is deducted after a rule break"},
  eq_payoff: {name: "eq_payoff", type: "DOUBLE", doc: "settled: the seat's payoff had everyone played the equilibrium (beauty contest: prize / N; auctions: its asset when everyone bids the equilibrium bid)"},
  won: {name: "won", type: "BOOLEAN", doc: "settled: won the prize (ties all win) or the item"},
  forfeited: {name: "forfeited", type: "BOOLEAN", doc: "settled: gave no legal answer this run (left out, paid the entrance fee)"},
} satisfies Record<string, Column>;

export const EA_GAME = {
  environment: {name: "environment", type: "VARCHAR"},
  runs: {name: "runs", type: "INTEGER", doc: "runs planned in the session"},
  history_window: {name: "history_window", type: "INTEGER"},
  entrance_fee: {name: "entrance_fee", type: "DOUBLE", doc: "beauty contest: deducted from the payoff; auctions: share of assets deducted, after a rule break"},
} satisfies Record<string, Column>;
