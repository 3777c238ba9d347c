/**
 * The analysis of GLEE (Shapira et al. 2024): per-game efficiency, fairness
 * and self-gain (§3.1, in the paper's formulas or GLEE's code's), Table 6's
 * counts, the one-hot regressions with 95% CIs (§3, Tables 2, 3 and 9,
 * Appendix F) fitted from per-cell sufficient statistics, pair effects and
 * the meta-game of choosing an LLM (Figures 1, 21–23, footnote 13), the
 * human-vs-LLM games (§4, Appendix E), and the discount-factor worked
 * example. The SQL is src/lib's (gleeMetrics, gleeRows, gleeCells,
 * selfGain, pages/gleeFamily, pages/gleeHuman); the fits gleeDesign.ts's.
 */
import {GLEE_CONVENTIONS, GLEE_FAMILIES, GLEE_METRICS, GLEE_PARAMETERS, gleeMetricsSQL, gleeStatsSQL, type GleeConventions, type GleeFamily, type GleeMetric} from "../lib/gleeMetrics.js";
import {gleeRegressionRowsSQL} from "../lib/gleeRows.js";
import {cellsFromRows, gleeCellsSQL} from "../lib/gleeCells.js";
import {familyColumns, fitGleeCells} from "../lib/gleeDesign.js";
import type {OlsFit} from "../lib/olsOneHot.js";
import {sqlString} from "../lib/sqlText.js";
import {GLEE_TURNS_SQL, metricValuesSQL, pairGamesSQL, parameterImpactSQL, seatAgentsSQL} from "../lib/pages/gleeFamily.js";
import {HUMAN_GAMES_SQL, HUMAN_METRICS_SQL, HUMAN_OUTCOMES_SQL, HUMAN_SUMMARY_SQL, HUMAN_TURNS_SQL} from "../lib/pages/gleeHuman.js";
import {agentEffects, anyFit, defaultBaselineAgent, familyAgents, marketEffects, metaGameOf, pairEffectsByMetric, regressionAgents, selectedGames} from "../lib/pages/gleeAnalysis.js";
import {selfGainsByDelta} from "../lib/pages/studyDiscount.js";
import type {FirstView, Query} from "../lib/snapshot.js";
import {measureSQL, NothingToMeasure, sqlMeasure, type Analysis, type GameSelector, type Measure, type Parameter, type Params} from "./analysis.js";

/**
 * The computations behind /glee-regression's, /glee-pairs' and
 * /study-discount's measures, which those pages ask through `memo` (so
 * that the build's first view answers them): the same objects the measures
 * below call.
 */
export {agentEffects, anyFit, defaultBaselineAgent, familyAgents, marketEffects, metaGameOf, pairEffectsByMetric, regressionAgents, selectedGames, selfGainsByDelta};

/** Regressions held out by at most this many splits: each refits the model. */
export const MAX_SPLITS = 1000;

const conventionsParameter: Parameter = {name: "conventions", kind: "string", default: "paper", choices: GLEE_CONVENTIONS, description: "the metric formulas: as the paper states them, or as GLEE's published analysis code computes them"};
const familyParameter: Parameter = {name: "family", kind: "string", default: "bargaining", choices: GLEE_FAMILIES, description: "the game family"};
const metricParameter: Parameter = {name: "metric", kind: "string", default: "efficiency", choices: GLEE_METRICS, description: "the metric"};
const seatParameter: Parameter = {name: "seat", kind: "string", default: "alice", choices: ["alice", "bob"], description: "whose agent the rows are grouped by"};

const familyOf = (p: Params) => String(p.family) as GleeFamily;
const metricOf = (p: Params) => String(p.metric) as GleeMetric;
const conventionsOf = (p: Params) => String(p.conventions) as GleeConventions;
const seatOf = (p: Params) => String(p.seat) as "alice" | "bob";

/** Only the partition of the chosen family. */
const familyGames: GameSelector = (game, p) => game === `glee/${familyOf(p)}`;

/** The games (alias g) of one family, and of one source if given: the condition the regression rows read. */
export function familyWhere(family: GleeFamily, source?: string): string {
  return [`g.family = ${sqlString(family)}`, source ? `g.source = ${sqlString(source)}` : null].filter(Boolean).join(" AND ");
}

/** The JSON of a regression: {summary, rows: [{feature, level, coef, se, ci_low, ci_high, baseline, n}], dropped}. */
export function regressionReport(fit: OlsFit, family: string, metric: string, pairs: boolean, conventions: GleeConventions = "paper") {
  return {
    summary: {
      family,
      metric,
      conventions,
      variant: pairs ? "pairs" : "agents",
      n: fit.n,
      excluded: fit.excluded,
      p: fit.p,
      df: fit.df,
      r2: fit.r2,
      sigma: fit.sigma,
      rmse: fit.rmse,
      ci: `${Math.round(fit.quantile.confidence * 100)}% = coef ± t(${fit.quantile.prob}, df = ${fit.quantile.df}) · se, t = ${fit.quantile.value}`,
      baselines: fit.baselines,
      notes: fit.notes,
    },
    rows: fit.rows.map(({feature, level, coef, se, ci_low, ci_high, baseline, n}) => ({feature, level, coef, se, ci_low, ci_high, baseline, n})),
    dropped: fit.dropped,
  };
}

/** The regression of `metric` on one family's design, fitted from the per-cell statistics (gleeCells.ts) of the games `query` reads. */
async function regression(query: Query, p: Params) {
  const family = familyOf(p);
  const metric = metricOf(p);
  const splits = Number(p.splits);
  const holdout = splits ? {splits} : false;
  const rows = gleeRegressionRowsSQL("games", familyWhere(family, String(p.source)), conventionsOf(p));
  const cells = cellsFromRows(await query(gleeCellsSQL(rows, metric, holdout, familyColumns(family))), splits);
  if (!cells.length) throw new NothingToMeasure(`no ${family} games${p.source ? ` with source ${p.source}` : ""}`);
  const fit = fitGleeCells(cells, {family, metric, pairs: p.pairs === true, baselineAgent: String(p["baseline-agent"]) || null, holdout});
  return regressionReport(fit, family, metric, p.pairs === true, conventionsOf(p));
}

/** Every agent of the games, and the baseline a page starts with. */
async function selection(query: Query) {
  const {agents} = await regressionAgents.compute(query, null);
  return {agents, baseline: defaultBaselineAgent(agents)};
}

const measures: Measure[] = [
  sqlMeasure({
    name: "metrics",
    description: "§3.1: efficiency, fairness and each side's self-gain per game",
    tables: ["games"],
    parameters: [conventionsParameter],
    format: "jsonl",
    dataset: "glee",
    sql: (p) => `${gleeMetricsSQL("games", {conventions: conventionsOf(p)})} ORDER BY game_id`,
  }),
  sqlMeasure({
    name: "table-6",
    description: "Table 6 per family: games, decisions, messages, words and rule breaks",
    tables: ["games", "turns"],
    format: "json",
    dataset: "glee",
    sql: () => gleeStatsSQL("games", "turns"),
  }),
  sqlMeasure({
    name: "regression-rows",
    description: "§3: one family's regression rows, one per game: its design columns and metrics",
    tables: ["games"],
    games: familyGames,
    parameters: [familyParameter, {name: "source", kind: "string", default: "", description: "only games of this source; all when empty"}, conventionsParameter],
    format: "jsonl",
    dataset: "glee",
    sql: (p) => gleeRegressionRowsSQL("games", familyWhere(familyOf(p), String(p.source)), conventionsOf(p)),
  }),
  {
    name: "regression",
    description: "§3, Appendix F: one-hot OLS of a metric on one family's parameters and agents (or ordered pairs), with 95% CIs and held-out RMSE, as `parley regress` prints it",
    tables: ["games"],
    games: familyGames,
    parameters: [
      familyParameter,
      metricParameter,
      {name: "pairs", kind: "boolean", default: false, description: "one level per ordered pair of agents instead of one per agent and seat"},
      {name: "baseline-agent", kind: "string", default: "", description: "the agent every other is compared with (default: gemini-1.5-flash when it played, else the first by name)"},
      {name: "source", kind: "string", default: "", description: "only games of this source; all when empty"},
      {name: "splits", kind: "integer", default: 20, range: {min: 0, max: MAX_SPLITS}, description: "held-out 80/20 splits for the RMSE (Table 9); 0 for none"},
      conventionsParameter,
    ],
    format: "json",
    dataset: "glee",
    answer: regression,
  },
  sqlMeasure({
    name: "metric-values",
    description: "A family page's distributions: each distinct value of a metric per agent (in one seat) with its number of games",
    tables: ["games"],
    parameters: [familyParameter, metricParameter, seatParameter, conventionsParameter],
    format: "json",
    dataset: "glee",
    sql: (p) => metricValuesSQL(familyOf(p), metricOf(p), seatOf(p), conventionsOf(p)),
  }),
  sqlMeasure({
    name: "parameter-impact",
    description: "A family page's parameter impact: mean metric by parameter value and agent (in one seat)",
    tables: ["games"],
    parameters: [familyParameter, {name: "parameter", kind: "string", default: "", description: "a parameter column of the family (default: its first)"}, metricParameter, seatParameter, conventionsParameter],
    format: "json",
    dataset: "glee",
    sql: (p) => parameterImpactSQL(familyOf(p), String(p.parameter) || GLEE_PARAMETERS[familyOf(p)][0].column, metricOf(p), seatOf(p), conventionsOf(p)),
  }),
  {
    name: "market-effects",
    description: "Table 2: market effects on efficiency and fairness in one family, over every agent, baseline gemini-1.5-flash when it played",
    tables: ["games"],
    parameters: [familyParameter],
    format: "json",
    dataset: "glee",
    answer: async (query, p) => marketEffects.compute(query, {...(await selection(query)), family: familyOf(p)}),
  },
  {
    name: "agent-effects",
    description: "Table 3: each agent's effect on its own side's self-gain per family and seat, with the baseline of each column",
    tables: ["games"],
    format: "json",
    dataset: "glee",
    answer: async (query) => agentEffects.compute(query, await selection(query)),
  },
  {
    name: "pair-effects",
    description: "Figures 1, 21–23: each ordered pair's effect relative to the mean, per metric, in one family",
    tables: ["games"],
    parameters: [familyParameter],
    format: "json",
    dataset: "glee",
    answer: async (query, p) => pairEffectsByMetric.compute(query, {family: familyOf(p), agents: await familyAgents.compute(query, {family: familyOf(p)})}),
  },
  {
    name: "meta-game",
    description: "Footnote 13: the meta-game of choosing an agent in one family (payoffs from the pair fits of each side's self-gain) and its equilibria",
    tables: ["games"],
    parameters: [familyParameter],
    format: "json",
    dataset: "glee",
    answer: async (query, p) => metaGameOf.compute(query, {family: familyOf(p), agents: await familyAgents.compute(query, {family: familyOf(p)})}),
  },
  sqlMeasure({
    name: "human-summary",
    description: "§4, Appendix E: who played which side against people: games, rounds, agreement and gains per family and seating",
    tables: ["games"],
    format: "json",
    dataset: "glee-human",
    sql: () => HUMAN_SUMMARY_SQL,
  }),
  sqlMeasure({
    name: "human-metrics",
    description: "§4: efficiency, fairness and self-gains by family and by whether the person or the LLM moved first",
    tables: ["games"],
    format: "json",
    dataset: "glee-human",
    sql: () => HUMAN_METRICS_SQL,
  }),
  sqlMeasure({
    name: "human-outcomes",
    description: "§4: the deals of human-vs-LLM bargaining and negotiation games: Alice's share, price and values per M",
    tables: ["games"],
    format: "jsonl",
    dataset: "glee-human",
    sql: () => HUMAN_OUTCOMES_SQL,
  }),
  {
    name: "self-gain-by-discount",
    description: "The worked example /study-discount: each agent's mean self-gain by its own discount factor δ, with its 95% t interval",
    tables: ["games"],
    parameters: [conventionsParameter],
    format: "json",
    dataset: "glee",
    answer: (query, p) => selfGainsByDelta.compute(query, conventionsOf(p)),
  },
];

/** The questions a family page asks before any input is touched (its inputs' defaults). */
function familyFirstView(family: GleeFamily): FirstView {
  return {
    page: `glee-${family}`,
    dataset: "glee",
    tables: ["games", "turns"],
    async script({query}) {
      await query(measureSQL(gleeAnalysis, "table-6"));
      await query(measureSQL(gleeAnalysis, "metric-values", {family, metric: GLEE_METRICS[0], seat: "alice"}));
      await query(measureSQL(gleeAnalysis, "parameter-impact", {family, parameter: GLEE_PARAMETERS[family][0].column, metric: GLEE_METRICS[0], seat: "alice"}));
      const [alice] = await query(seatAgentsSQL(family, "alice"));
      const [bob] = await query(seatAgentsSQL(family, "bob"));
      if (!alice || !bob) return;
      const [game] = await query(pairGamesSQL(family), [alice.agent, bob.agent]);
      if (game) await query(GLEE_TURNS_SQL, [game.game_id]);
    },
  };
}

const firstViews: FirstView[] = [
  ...GLEE_FAMILIES.map(familyFirstView),
  {
    page: "glee-regression",
    dataset: "glee",
    tables: ["games"],
    async script({memo}) {
      const {agents} = await memo(regressionAgents, null);
      const selection = {agents, baseline: defaultBaselineAgent(agents)};
      await memo(selectedGames, selection);
      await memo(marketEffects, {...selection, family: "bargaining"});
      await memo(agentEffects, selection);
      await memo(anyFit, {...selection, family: "bargaining", metric: GLEE_METRICS[0], pairs: false});
    },
  },
  {
    page: "glee-pairs",
    dataset: "glee",
    tables: ["games"],
    async script({memo}) {
      const agents = await memo(familyAgents, {family: "bargaining"});
      await memo(pairEffectsByMetric, {family: "bargaining", agents});
      await memo(metaGameOf, {family: "bargaining", agents});
    },
  },
  {
    page: "glee-human",
    dataset: "glee-human",
    tables: ["games", "turns"],
    async script({query}) {
      for (const name of ["human-summary", "human-metrics", "human-outcomes"]) await query(measureSQL(gleeAnalysis, name));
      const [first] = await query(HUMAN_GAMES_SQL, ["bargaining"]);
      if (first) await query(HUMAN_TURNS_SQL, [first.game_id]);
    },
  },
  {
    page: "study-discount",
    dataset: "glee",
    tables: ["games"],
    script: async ({memo}) => void (await memo(selfGainsByDelta, "paper")),
  },
];

export const gleeAnalysis: Analysis = {
  paper: "glee",
  title: "GLEE (Shapira et al. 2024)",
  games: (game) => game.startsWith("glee/"),
  inputHint: (dir) => `run "parley run <config.json> --out ${dir}" first`,
  measures,
  defaultMeasure: "metrics",
  firstViews,
};
