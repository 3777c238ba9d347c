/**
 * What /glee-regression and /glee-pairs compute: regressions of GLEE
 * (Shapira et al. 2024) §3 and Appendix F on the rows of gleeRows.ts, as
 * named computations (src/lib/snapshot.ts), so that the build answers the
 * default view with the same code the page runs on a changed input. Each
 * returns plain data (what the page draws), never a fit object.
 *
 * All aggregation happens in SQL: agent lists and counts are SELECT
 * DISTINCT / count, the agent selection is a WHERE, and every fit reads the
 * per-cell sufficient statistics of gleeCells.ts (one row per combination of
 * parameters and players, not per game), fitted by fitGleeCells, which gives
 * the row-level fit's numbers. So a million-game run costs what its cells
 * cost, in the build (native DuckDB) and in the page (DuckDB-WASM).
 *
 * src/analyses/glee.ts names them as measures, declares the pages' first
 * views, and is where the pages take them from.
 */
import {gleeRegressionRowsSQL} from "../gleeRows.js";
import type {GleeConventions} from "../gleeMetrics.js";
import {cellsFromRows, gleeCellsSQL, type GleeCell} from "../gleeCells.js";
import {fitGleeCells, metaGameOfFits, pairEffects, GLEE_FAMILIES, GLEE_METRICS, DEFAULT_BASELINE_AGENT, type GleeFamily, type GleeMetric, type MetaGame, type PairEffect} from "../gleeDesign.js";
import {findEquilibria, type EquilibriaResult} from "../equilibria.js";
import {marketTable, agentTable, type MarketRow, type AgentRow} from "../gleeTables.js";
import type {CoefRow, DroppedLevel, HoldoutRmse} from "../olsOneHot.js";
import type {HashSplitOptions} from "../hashSplits.js";
import type {Computation, Query} from "../snapshot.js";
import {sqlString as literal} from "../sqlText.js";

/** Held-out RMSE of "Any fit": Table 9's 20 splits of 80/20, assigned by hashing game ids (hashSplits.ts). */
export const HOLDOUT: Required<HashSplitOptions> = {splits: 20, testFraction: 0.2, seed: 1};


/** The games (alias g) of `family`, if given, whose two agents are both among `agents`, if given: a condition for gleeRegressionRowsSQL. */
export function gamesWhere({family, agents}: {family?: GleeFamily; agents?: readonly string[]}): string | undefined {
  if (family !== undefined && !GLEE_FAMILIES.includes(family)) throw new Error(`unknown family "${family}" (expected one of ${GLEE_FAMILIES.join(", ")})`);
  const among = agents && (agents.length ? `IN (${agents.map(literal).join(", ")})` : null);
  const conditions = [
    family === undefined ? null : `g.family = ${literal(family)}`,
    agents === undefined ? null : among ? `g.alice_agent ${among} AND g.bob_agent ${among}` : "false",
  ].filter(Boolean);
  return conditions.length ? conditions.join(" AND ") : undefined;
}

/** The cells of `metric` over the chosen games, metrics scored by `conventions`, with `holdout`'s split statistics. */
async function cells(query: Query, metric: GleeMetric, games: {family?: GleeFamily; agents?: readonly string[]; conventions?: GleeConventions}, holdout: HashSplitOptions | false = false): Promise<GleeCell[]> {
  const rows = gleeRegressionRowsSQL("games", gamesWhere(games), games.conventions ?? "paper");
  return cellsFromRows(await query(gleeCellsSQL(rows, metric, holdout)), holdout ? holdout.splits : 0);
}

/** Every agent that sat in either seat of the games (of `family`, if given), sorted. */
async function agentsOfGames(query: Query, family?: GleeFamily): Promise<string[]> {
  const where = family === undefined ? "" : ` WHERE family = ?`;
  const rows = await query(`SELECT DISTINCT agent FROM (SELECT alice_agent AS agent FROM games${where} UNION ALL SELECT bob_agent FROM games${where}) WHERE agent IS NOT NULL AND agent <> ''`, family === undefined ? [] : [family, family]);
  return rows.map((r) => r.agent as string).sort();
}

/** Number of games (alias g) where `where` holds. */
async function countGames(query: Query, where?: string): Promise<number> {
  const [row] = await query(`SELECT count(*)::DOUBLE AS games FROM games AS g${where ? ` WHERE ${where}` : ""}`);
  return Number(row.games);
}

/** The baseline agent a page starts with: gemini-1.5-flash when it played (Table 3's reference), else the first by name. */
export function defaultBaselineAgent(agents: readonly string[]): string | null {
  return agents.includes(DEFAULT_BASELINE_AGENT) ? DEFAULT_BASELINE_AGENT : (agents[0] ?? null);
}

/** The agents of the whole dataset and its number of games. */
export const regressionAgents: Computation<null, {agents: string[]; games: number}> = {
  name: "glee-regression/agents",
  async compute(query) {
    return {agents: await agentsOfGames(query), games: await countGames(query)};
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
  async compute(query, {agents}) {
    return countGames(query, gamesWhere({agents}));
  },
};

/** Table 2: market effects on efficiency and fairness in one family. */
export const marketEffects: Computation<Selection & {family: GleeFamily}, MarketRow[]> = {
  name: "glee-regression/market",
  async compute(query, {agents, baseline, family, conventions}) {
    const fit = async (metric: GleeMetric) => fitGleeCells(await cells(query, metric, {agents, conventions}), {family, metric, baselineAgent: baseline, holdout: false});
    const efficiency = await fit("efficiency");
    const fairness = await fit("fairness");
    return marketTable(efficiency.n ? efficiency : null, fairness.n ? fairness : null);
  },
};

/** Table 3: each agent's effect on its own side's self-gain, and the baseline used per column. */
export const agentEffects: Computation<Selection, {rows: AgentRow[]; baselines: string[]}> = {
  name: "glee-regression/agents-effects",
  async compute(query, {agents, baseline, conventions}) {
    const byRole = {
      alice: await cells(query, "alice_self_gain", {agents, conventions}),
      bob: await cells(query, "bob_self_gain", {agents, conventions}),
    };
    const fits = Object.fromEntries(GLEE_FAMILIES.flatMap((family) => (["alice", "bob"] as const).map((role) => {
      const fit = fitGleeCells(byRole[role], {family, metric: `${role}_self_gain`, baselineAgent: baseline, holdout: false});
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
    const fit = fitGleeCells(await cells(query, metric, {family, agents, conventions}, HOLDOUT), {family, metric, pairs, baselineAgent: baseline, holdout: HOLDOUT});
    return {n: fit.n, p: fit.p, df: fit.df, r2: fit.r2, rmse: fit.rmse, quantile: {prob: fit.quantile.prob, value: fit.quantile.value}, rows: fit.rows, dropped: fit.dropped, notes: fit.notes};
  },
};

/** The agents of one family (for /glee-pairs). */
export const familyAgents: Computation<{family: GleeFamily}, string[]> = {
  name: "glee-pairs/agents",
  async compute(query, {family}) {
    return agentsOfGames(query, family);
  },
};

/** Pair effects relative to the mean (Figures 1, 21–23), per metric. */
export const pairEffectsByMetric: Computation<{family: GleeFamily; agents: string[]}, Record<string, PairEffect[]>> = {
  name: "glee-pairs/effects",
  async compute(query, {family, agents}) {
    const effects: Record<string, PairEffect[]> = {};
    for (const metric of GLEE_METRICS) effects[metric] = pairEffects(fitGleeCells(await cells(query, metric, {family, agents}), {family, metric, pairs: true, holdout: false}));
    return effects;
  },
};

/** The meta-game of choosing an agent (footnote 13) and its equilibria. */
export const metaGameOf: Computation<{family: GleeFamily; agents: string[]}, {game: MetaGame; result: EquilibriaResult}> = {
  name: "glee-pairs/meta-game",
  async compute(query, {family, agents}) {
    const alice = await cells(query, "alice_self_gain", {family, agents});
    const bob = await cells(query, "bob_self_gain", {family, agents});
    const fit = (own: GleeCell[], metric: GleeMetric) => fitGleeCells(own, {family, metric, pairs: true, holdout: false});
    const game = metaGameOfFits(fit(alice, "alice_self_gain"), fit(bob, "bob_self_gain"), alice);
    const result: EquilibriaResult = game.rows.length && game.cols.length ? findEquilibria(game) : {pure: [], mixed: [], method: "support-enumeration", complete: true, eliminated: {rows: [], cols: []}, support_pairs: 0};
    return {game, result};
  },
};
