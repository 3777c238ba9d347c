/**
 * What /glee-regression and /glee-pairs compute: regressions of GLEE
 * (Shapira et al. 2024) §3 and Appendix F on the rows of gleeRows.ts, as
 * named computations (src/lib/snapshot.ts), so that the build answers the
 * default view with the same code the page runs on a changed input. Each
 * returns plain data (what the page draws), never a fit object.
 */
import {gleeRegressionRowsSQL} from "../gleeRows.js";
import type {GleeConventions} from "../gleeMetrics.js";
import {fitGlee, pairEffects, metaGame, GLEE_FAMILIES, GLEE_METRICS, DEFAULT_BASELINE_AGENT, type GleeRow, type GleeFamily, type GleeMetric, type MetaGame, type PairEffect} from "../gleeDesign.js";
import {findEquilibria, type EquilibriaResult} from "../equilibria.js";
import {marketTable, agentTable, type MarketRow, type AgentRow} from "../gleeTables.js";
import type {CoefRow, DroppedLevel, HoldoutRmse} from "../olsOneHot.js";
import type {Computation, FirstView, Query} from "../snapshot.js";

export const REGRESSION_ROWS_SQL = `SELECT * EXCLUDE (game_id, source) FROM (${gleeRegressionRowsSQL("games")})`;
/** The regression rows scored by `conventions` (GLEE's code or the paper, gleeMetrics.ts); the paper's is the first view's SQL. */
const rowsSQL = (conventions: GleeConventions = "paper") => (conventions === "paper" ? REGRESSION_ROWS_SQL : `SELECT * EXCLUDE (game_id, source) FROM (${gleeRegressionRowsSQL("games", undefined, conventions)})`);
export const FAMILY_ROWS_SQL = `SELECT * EXCLUDE (game_id, source) FROM (${gleeRegressionRowsSQL("games", "g.family = ?")})`;

/** Every agent that sat in either seat of `rows`, sorted. */
export function agentsOf(rows: readonly GleeRow[]): string[] {
  return [...new Set(rows.flatMap((r) => [r.alice_agent, r.bob_agent]).filter((a): a is string => Boolean(a)))].sort();
}

/** The baseline agent a page starts with: gemini-1.5-flash when it played (Table 3's reference), else the first by name. */
export function defaultBaselineAgent(agents: readonly string[]): string | null {
  return agents.includes(DEFAULT_BASELINE_AGENT) ? DEFAULT_BASELINE_AGENT : (agents[0] ?? null);
}

/** Rows whose two agents are both among `agents`. */
const among = (rows: GleeRow[], agents: readonly string[]) => {
  const keep = new Set(agents);
  return rows.filter((r) => keep.has(r.alice_agent!) && keep.has(r.bob_agent!));
};

const allRows = async (query: Query, conventions?: GleeConventions) => (await query(rowsSQL(conventions))) as GleeRow[];
const familyRows = async (query: Query, family: GleeFamily) => (await query(FAMILY_ROWS_SQL, [family])) as GleeRow[];

/** The agents of the whole dataset and its number of games. */
export const regressionAgents: Computation<null, {agents: string[]; games: number}> = {
  name: "glee-regression/agents",
  async compute(query) {
    const rows = await allRows(query);
    return {agents: agentsOf(rows), games: rows.length};
  },
};

export interface Selection {
  agents: string[];
  baseline: string | null;
  /** Absent for the paper's formulas (so the build's first view answers it). */
  conventions?: GleeConventions;
}

/** Games in the selection. */
export const selectedGames: Computation<Selection, number> = {
  name: "glee-regression/selected",
  async compute(query, {agents, conventions}) {
    return among(await allRows(query, conventions), agents).length;
  },
};

/** Table 2: market effects on efficiency and fairness in one family. */
export const marketEffects: Computation<Selection & {family: GleeFamily}, MarketRow[]> = {
  name: "glee-regression/market",
  async compute(query, {agents, baseline, family, conventions}) {
    const rows = among(await allRows(query, conventions), agents);
    const [efficiency, fairness] = (["efficiency", "fairness"] as const).map((metric) => fitGlee(rows, {family, metric, baselineAgent: baseline, holdout: false}));
    return marketTable(efficiency.n ? efficiency : null, fairness.n ? fairness : null);
  },
};

/** Table 3: each agent's effect on its own side's self-gain, and the baseline used per column. */
export const agentEffects: Computation<Selection, {rows: AgentRow[]; baselines: string[]}> = {
  name: "glee-regression/agents-effects",
  async compute(query, {agents, baseline, conventions}) {
    const rows = among(await allRows(query, conventions), agents);
    const fits = Object.fromEntries(GLEE_FAMILIES.flatMap((family) => (["alice", "bob"] as const).map((role) => {
      const fit = fitGlee(rows, {family, metric: `${role}_self_gain`, baselineAgent: baseline, holdout: false});
      return [`${family}/${role}`, fit.n ? fit : null];
    })));
    const baselines = Object.entries(fits).filter(([, fit]) => fit).map(([key, fit]) => `${key.replace("/", " ")}: ${fit!.baselines[key.endsWith("alice") ? "alice_agent" : "bob_agent"]}`);
    return {rows: agentTable(fits), baselines};
  },
};

/** What the page shows of one fit. */
export interface FitSummary {
  n: number;
  p: number;
  df: number;
  r2: number;
  rmse: HoldoutRmse | null;
  quantile: {prob: number; value: number};
  rows: CoefRow[];
  dropped: DroppedLevel[];
  notes: string[];
}

/** Any family × metric fit, with held-out RMSE (Table 9's linear column). */
export const anyFit: Computation<Selection & {family: GleeFamily; metric: GleeMetric; pairs: boolean}, FitSummary> = {
  name: "glee-regression/fit",
  async compute(query, {agents, baseline, family, metric, pairs, conventions}) {
    const fit = fitGlee(among(await allRows(query, conventions), agents), {family, metric, pairs, baselineAgent: baseline});
    return {n: fit.n, p: fit.p, df: fit.df, r2: fit.r2, rmse: fit.rmse, quantile: {prob: fit.quantile.prob, value: fit.quantile.value}, rows: fit.rows, dropped: fit.dropped, notes: fit.notes};
  },
};

/** The agents of one family (for /glee-pairs). */
export const familyAgents: Computation<{family: GleeFamily}, string[]> = {
  name: "glee-pairs/agents",
  async compute(query, {family}) {
    return agentsOf(await familyRows(query, family));
  },
};

/** Pair effects relative to the mean (Figures 1, 21–23), per metric. */
export const pairEffectsByMetric: Computation<{family: GleeFamily; agents: string[]}, Record<string, PairEffect[]>> = {
  name: "glee-pairs/effects",
  async compute(query, {family, agents}) {
    const rows = among(await familyRows(query, family), agents);
    return Object.fromEntries(GLEE_METRICS.map((metric) => [metric, pairEffects(fitGlee(rows, {family, metric, pairs: true, holdout: false}))]));
  },
};

/** The meta-game of choosing an agent (footnote 13) and its equilibria. */
export const metaGameOf: Computation<{family: GleeFamily; agents: string[]}, {game: MetaGame; result: EquilibriaResult}> = {
  name: "glee-pairs/meta-game",
  async compute(query, {family, agents}) {
    const game = metaGame(among(await familyRows(query, family), agents), family);
    const result: EquilibriaResult = game.rows.length && game.cols.length ? findEquilibria(game) : {pure: [], mixed: [], method: "support-enumeration", complete: true, eliminated: {rows: [], cols: []}, support_pairs: 0};
    return {game, result};
  },
};

export const gleeRegressionFirstView: FirstView = {
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
};

export const gleePairsFirstView: FirstView = {
  page: "glee-pairs",
  dataset: "glee",
  tables: ["games"],
  async script({memo}) {
    const agents = await memo(familyAgents, {family: "bargaining"});
    await memo(pairEffectsByMetric, {family: "bargaining", agents});
    await memo(metaGameOf, {family: "bargaining", agents});
  },
};
