// /glee-regression's and /glee-pairs' computations (src/lib/pages/gleeAnalysis.ts)
// aggregate in SQL and fit from per-cell statistics; here each one is held to
// a second method, the row-level computation the pages used to run: every
// game's row read into JavaScript, the agent selection a filter, each fit
// fitGlee on the rows, the held-out RMSE refit split by split on the training
// games and scored game by game, the meta-game by metaGame on the rows. Both
// run on the built-in tournament, on an unbalanced third of it (both metric
// conventions) with seats without an agent and outcomes without a value, and
// on GLEE's human-vs-LLM sample when it is configured.
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {withParquetViews} from "../../loaders/io/parquet.js";
import {sqlString} from "../../loaders/io/duckdb.js";
import {generateRun} from "../../loaders/runner/generate.js";
import {datasetTables} from "../../loaders/datasets/emit.js";
import {writeIngest} from "../../loaders/ingest/write.js";
import {locateDataset} from "../../loaders/datasets/catalog.js";
import {gleeRegressionRowsSQL} from "../../src/lib/gleeRows.js";
import {bucketSQL, splitBuckets} from "../../src/lib/hashSplits.js";
import {chooseBaselineAgent, fitGlee, gleeFeatures, metaGame, pairEffects, GLEE_FAMILIES, GLEE_METRICS, type GleeFamily, type GleeMetric, type GleeRow} from "../../src/lib/gleeDesign.js";
import {findEquilibria, type EquilibriaResult} from "../../src/lib/equilibria.js";
import {agentTable, marketTable} from "../../src/lib/gleeTables.js";
import type {HoldoutRmse, OlsFit} from "../../src/lib/olsOneHot.js";
import type {GleeConventions} from "../../src/lib/gleeMetrics.js";
import type {Query} from "../../src/lib/snapshot.js";
import {agentEffects, anyFit, defaultBaselineAgent, familyAgents, HOLDOUT, marketEffects, metaGameOf, pairEffectsByMetric, regressionAgents, selectedGames, type FitSummary, type Selection} from "../../src/lib/pages/gleeAnalysis.js";

type Row = GleeRow & {bucket: number};

const scratch = mkdtempSync(join(tmpdir(), "parley-glee-cells-"));
after(() => rmSync(scratch, {recursive: true, force: true}));

/** The tournament's games, written once. */
let tournament: string;
before(async () => {
  tournament = mkdtempSync(join(scratch, "tournament-"));
  await generateRun("default", tournament);
});

// ---- The row-level reference (what the pages computed before) ----

/** Every game's regression row, with its held-out bucket. */
const allRows = async (query: Query, conventions: GleeConventions = "paper") =>
  (await query(`SELECT * EXCLUDE (source), ${bucketSQL("game_id")} AS bucket FROM (${gleeRegressionRowsSQL("games", undefined, conventions)})`)) as Row[];

const agentsOf = (rows: readonly GleeRow[]) => [...new Set(rows.flatMap((r) => [r.alice_agent, r.bob_agent]).filter((a): a is string => Boolean(a)))].sort();
const among = <R extends GleeRow>(rows: R[], agents: readonly string[]) => rows.filter((r) => agents.includes(r.alice_agent!) && agents.includes(r.bob_agent!));

/**
 * Held-out RMSE over the hash-assigned splits, game by game: each split
 * refits on the family's games outside its test buckets and scores the test
 * games that have an outcome and every level (a level the training games
 * lack predicts as the baseline).
 */
function rowRmse(rows: readonly Row[], family: GleeFamily, metric: GleeMetric, pairs: boolean, baseline: string | null): HoldoutRmse | null {
  const own = rows.filter((r) => r.family === family);
  const features = gleeFeatures(family, {pairs, baselineAgent: chooseBaselineAgent(own, baseline)});
  const values: number[] = [];
  for (const buckets of splitBuckets(HOLDOUT)) {
    const isTest = (r: Row) => buckets.includes(r.bucket);
    const fit = fitGlee(own.filter((r) => !isTest(r)), {family, metric, pairs, baselineAgent: baseline, holdout: false});
    const coef = new Map(fit.rows.map((c) => [`${c.feature}=${c.level}`, c.coef]));
    let sse = 0;
    let n = 0;
    for (const r of own) {
      const y = r[metric];
      const levels = features.map((f) => f.level(r));
      if (!isTest(r) || typeof y !== "number" || !Number.isFinite(y) || levels.some((l) => l === null || l === undefined)) continue;
      const predicted = (coef.get("(intercept)=") ?? 0) + features.reduce((s, f, i) => s + (coef.get(`${f.name}=${levels[i]}`) ?? 0), 0);
      sse += (y - predicted) ** 2;
      n++;
    }
    if (n && fit.n) values.push(Math.sqrt(sse / n));
  }
  if (!values.length) return null;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const sd = values.length > 1 ? Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / (values.length - 1)) : 0;
  return {mean, sd, splits: values.length, test_fraction: HOLDOUT.testFraction, seed: HOLDOUT.seed, assignment: "hash"};
}

const summary = (fit: OlsFit, rmse: HoldoutRmse | null): FitSummary => ({n: fit.n, p: fit.p, df: fit.df, r2: fit.r2, rmse, quantile: {prob: fit.quantile.prob, value: fit.quantile.value}, rows: fit.rows, dropped: fit.dropped, notes: fit.notes});
const noGame: EquilibriaResult = {pure: [], mixed: [], method: "support-enumeration", complete: true, eliminated: {rows: [], cols: []}, support_pairs: 0};

const reference = {
  agents: (rows: Row[]) => ({agents: agentsOf(rows), games: rows.length}),
  selected: (rows: Row[], {agents}: Selection) => among(rows, agents).length,
  market(rows: Row[], {agents, baseline}: Selection, family: GleeFamily) {
    const [efficiency, fairness] = (["efficiency", "fairness"] as const).map((metric) => fitGlee(among(rows, agents), {family, metric, baselineAgent: baseline, holdout: false}));
    return marketTable(efficiency.n ? efficiency : null, fairness.n ? fairness : null);
  },
  agentEffects(rows: Row[], {agents, baseline}: Selection) {
    const fits = Object.fromEntries(GLEE_FAMILIES.flatMap((family) => (["alice", "bob"] as const).map((role) => {
      const fit = fitGlee(among(rows, agents), {family, metric: `${role}_self_gain`, baselineAgent: baseline, holdout: false});
      return [`${family}/${role}`, fit.n ? fit : null];
    })));
    const baselines = Object.entries(fits).filter(([, fit]) => fit).map(([key, fit]) => `${key.replace("/", " ")}: ${fit!.baselines[key.endsWith("alice") ? "alice_agent" : "bob_agent"]}`);
    return {rows: agentTable(fits), baselines};
  },
  fit(rows: Row[], {agents, baseline}: Selection, family: GleeFamily, metric: GleeMetric, pairs: boolean, rmse: boolean) {
    const chosen = among(rows, agents);
    return summary(fitGlee(chosen, {family, metric, pairs, baselineAgent: baseline, holdout: false}), rmse ? rowRmse(chosen, family, metric, pairs, baseline) : null);
  },
  familyAgents: (rows: Row[], family: GleeFamily) => agentsOf(rows.filter((r) => r.family === family)),
  pairEffects(rows: Row[], family: GleeFamily, agents: string[]) {
    const own = among(rows.filter((r) => r.family === family), agents);
    return Object.fromEntries(GLEE_METRICS.map((metric) => [metric, pairEffects(fitGlee(own, {family, metric, pairs: true, holdout: false}))]));
  },
  metaGame(rows: Row[], family: GleeFamily, agents: string[]) {
    const game = metaGame(among(rows.filter((r) => r.family === family), agents), family);
    return {game, result: game.rows.length && game.cols.length ? findEquilibria(game) : noGame};
  },
};

// ---- Comparison ----

/** Equal up to 1e-9 (relative to the size of the numbers, absolute below 1); NaN, null and undefined stand for "no value" alike, as after JSON. */
function assertClose(actual: unknown, expected: unknown, path = "$"): void {
  const none = (v: unknown) => v === null || v === undefined || (typeof v === "number" && Number.isNaN(v));
  if (none(actual) && none(expected)) return;
  if (typeof actual === "number" && typeof expected === "number") {
    const scale = Math.max(1, Math.abs(actual), Math.abs(expected));
    assert.ok(actual === expected || Math.abs(actual - expected) <= 1e-9 * scale, `${path}: ${actual} vs ${expected}`);
    return;
  }
  if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual), `${path}: not an array`);
    assert.equal(actual.length, expected.length, `${path}: length`);
    expected.forEach((e, i) => assertClose(actual[i], e, `${path}[${i}]`));
    return;
  }
  if (expected && typeof expected === "object") {
    assert.ok(actual && typeof actual === "object", `${path}: not an object`);
    const keys = new Set([...Object.keys(actual), ...Object.keys(expected)].filter((k) => typeof (expected as any)[k] !== "function"));
    for (const k of keys) assertClose((actual as any)[k], (expected as any)[k], `${path}.${k}`);
    return;
  }
  assert.deepEqual(actual, expected, path);
}

/** Counts what was compared, so that a test cannot pass on empty answers. */
function nonTrivial(value: unknown): number {
  if (typeof value === "number") return Number.isFinite(value) && value !== 0 ? 1 : 0;
  if (Array.isArray(value)) return value.reduce((s, v) => s + nonTrivial(v), 0);
  if (value && typeof value === "object") return Object.values(value).reduce((s: number, v) => s + nonTrivial(v), 0);
  return 0;
}

/**
 * Runs every computation of both pages on `games` both ways, over the
 * default selection and a smaller one with another baseline. "Any fit" is
 * checked for every family and metric on the default selection and one
 * metric per family otherwise, the pair variant for that one metric (each
 * row-level held-out RMSE refits 20 times). `rmse: false` leaves the held-out RMSE out: on a few dozen games a
 * split's training games may lack a level (the requested baseline even), and
 * the two methods then predict its test games differently (the row-level
 * refit takes the most frequent level as baseline; the cells keep the full
 * data's columns and drop the aliased one).
 */
async function assertBothWays(games: string, {conventions = ["paper"], rmse = true}: {conventions?: readonly GleeConventions[]; rmse?: boolean} = {}): Promise<void> {
  await withParquetViews({games}, async (db) => {
    const query: Query = (sql, params) => db.query(sql, params);
    const paper = await allRows(query);
    const everyone = await regressionAgents.compute(query, null);
    assertClose(everyone, reference.agents(paper));
    assert.ok(everyone.agents.length >= 2, "agents");
    const selections: Selection[] = [
      {agents: everyone.agents, baseline: defaultBaselineAgent(everyone.agents)},
      {agents: everyone.agents.filter((_, i) => i % 3 !== 1), baseline: everyone.agents.at(-1)!},
    ];
    let compared = 0;
    const same = (actual: unknown, expected: unknown, what: string) => {
      assertClose(actual, expected, what);
      compared += nonTrivial(expected);
    };
    for (const conventions_ of conventions) {
      const rows = conventions_ === "paper" ? paper : await allRows(query, conventions_);
      for (const base of selections) {
        const selection: Selection = conventions_ === "paper" ? base : {...base, conventions: conventions_};
        same(await selectedGames.compute(query, selection), reference.selected(rows, selection), "selected");
        same(await agentEffects.compute(query, selection), reference.agentEffects(rows, selection), "agent effects");
        for (const family of GLEE_FAMILIES) {
          same(await marketEffects.compute(query, {...selection, family}), reference.market(rows, selection, family), `market ${family}`);
          const rotated = GLEE_METRICS[(GLEE_FAMILIES.indexOf(family) + conventions.indexOf(conventions_)) % GLEE_METRICS.length];
          const metrics = base === selections[0] && conventions_ === "paper" ? GLEE_METRICS : [rotated];
          for (const metric of metrics) {
            for (const pairs of metric === rotated ? [false, true] : [false]) {
              const fit = await anyFit.compute(query, {...selection, family, metric, pairs});
              if (fit.n > 1) assert.equal(fit.rmse?.assignment, "hash", "held-out splits by hash");
              same(rmse ? fit : {...fit, rmse: null}, reference.fit(rows, selection, family, metric, pairs, rmse), `fit ${family} ${metric}${pairs ? " pairs" : ""}`);
            }
          }
        }
      }
    }
    for (const family of GLEE_FAMILIES) {
      const agents = await familyAgents.compute(query, {family});
      same(agents.length, reference.familyAgents(paper, family).length, `${family} agents`);
      assert.deepEqual(agents, reference.familyAgents(paper, family));
      for (const chosen of [agents, agents.slice(1)]) {
        same(await pairEffectsByMetric.compute(query, {family, agents: chosen}), reference.pairEffects(paper, family, chosen), `${family} pair effects`);
        same(await metaGameOf.compute(query, {family, agents: chosen}), reference.metaGame(paper, family, chosen), `${family} meta-game`);
      }
    }
    assert.ok(compared > 1000, `numbers compared: ${compared}`);
  });
}

test("the built-in tournament: every computation of /glee-regression and /glee-pairs equals the row-level one", async () => {
  await assertBothWays(join(tournament, "games.parquet"));
});

// A third of the tournament's games is enough for every level and keeps the reference's 20 refits per fit quick.
test("an unbalanced tournament (two games in three missing, seats without an agent, outcomes without a value): the same, in both metric conventions", async () => {
  const games = join(scratch, "ragged.parquet");
  await withParquetViews({games: join(tournament, "games.parquet")}, async (db) => {
    // Two games in three gone, every 11th seat empty, every 7th bargaining share and persuasion count unknown.
    await db.query(`COPY (
      SELECT * REPLACE (
        CASE WHEN hash(game_id) % 11 = 0 THEN NULL ELSE alice_agent END AS alice_agent,
        CASE WHEN hash(game_id) % 7 = 0 THEN NULL ELSE alice_share END AS alice_share,
        CASE WHEN hash(game_id) % 7 = 1 THEN NULL ELSE n_high END AS n_high)
      FROM games WHERE hash(game_id) % 3 = 0) TO ${sqlString(games)} (FORMAT parquet)`);
    const [{missing}] = await db.query<{missing: number}>(`SELECT count(*)::INTEGER AS missing FROM (${gleeRegressionRowsSQL(`read_parquet(${sqlString(games)})`)}) WHERE NOT isfinite(efficiency) OR efficiency IS NULL`);
    assert.ok(missing > 100, `games without an efficiency: ${missing}`);
  });
  await assertBothWays(games, {conventions: ["paper", "glee-code"]});
});

test("GLEE's human-vs-LLM sample: the same", {skip: locateDataset("glee-human").available ? false : "the GLEE human sample is not configured"}, async () => {
  const dir = join(scratch, "human");
  const {result} = await datasetTables("glee-human");
  await writeIngest(result, dir);
  await assertBothWays(join(dir, "games.parquet"), {rmse: false});
});
