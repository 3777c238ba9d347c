// Hand-built GLEE games -> games.parquet -> shared metric SQL (native DuckDB) -> `parley regress` / `parley equilibria`.
import {test} from "node:test";
import assert from "node:assert/strict";
import {spawnSync} from "node:child_process";
import {mkdtempSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {writeParquet} from "../../loaders/io/parquet.js";
import {GLEE_GAMES} from "../../loaders/papers/glee/tables.js";
import {projectRoot} from "../../loaders/projectConfig.js";
import {readGleeCells, readGleeRows} from "../../loaders/cli/commands/regress.js";
import {chooseBaselineAgent, fitGlee, fitGleeCells, gleeFeatures, GLEE_FAMILIES, GLEE_METRICS} from "../../src/lib/gleeDesign.js";
import {writeTournament} from "../../loaders/runner/tournament.js";
import {parseRunConfig} from "../../loaders/runner/runConfig.js";
import {fitOneHotCells, mulberry32} from "../../src/lib/olsOneHot.js";
import {bucketSQL, splitBuckets} from "../../src/lib/hashSplits.js";
import {queryParquet} from "../../loaders/io/parquet.js";

function parley(...args: string[]) {
  const r = spawnSync(process.execPath, [join(projectRoot, "bin/parley.js"), ...args], {encoding: "utf8"});
  return {code: r.status, stdout: r.stdout, stderr: r.stderr};
}

/** Bargaining games agreed in round t on Alice's share p: alice_self_gain = p·δ_A^(t−1) (GLEE (Shapira et al. 2024) §2.1). */
function bargainingGames(n: number) {
  const random = mulberry32(17);
  const agents = ["fair", "greedy", "human"];
  const rows = [];
  for (let i = 0; i < n; i++) {
    const alice = agents[i % 3];
    const bob = agents[Math.floor(i / 3) % 3];
    const delta_a = [0.8, 0.9, 0.95][Math.floor(random() * 3)];
    const messages = random() < 0.5;
    const share = Math.min(1, Math.max(0, 0.5 + (alice === "greedy" ? 0.2 : 0) - (bob === "greedy" ? 0.15 : 0) + (messages ? 0.05 : 0) + 0.1 * (random() - 0.5)));
    const rounds = 1 + Math.floor(random() * 3);
    rows.push({
      game_id: `g${String(i).padStart(4, "0")}`, source: "test", family: "bargaining", alice_agent: alice, bob_agent: bob,
      money: 10000, horizon: null, horizon_cap: 100, complete_information: random() < 0.5, messages,
      delta_a, delta_b: 0.9, rounds, ended_by: "agreement", agreement: true, alice_share: share,
      alice_gain: share * 10000, bob_gain: (1 - share) * 10000,
    });
  }
  return rows;
}

test("parley regress: metrics from the shared SQL, fit identical to the library's, JSON rows with CIs", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-regress-"));
  const games = bargainingGames(300);
  await writeParquet(join(dir, "games.parquet"), GLEE_GAMES, games);
  const rows = await readGleeRows(dir, "bargaining");
  assert.equal(rows.length, 300);
  const g = games[7];
  const r = rows.find((x) => (x as unknown as {game_id: string}).game_id === g.game_id)!;
  assert.ok(Math.abs(r.alice_self_gain! - g.alice_share * g.delta_a ** (g.rounds - 1)) < 1e-12);

  const out = parley("regress", dir, "--family", "bargaining", "--metric", "alice_self_gain", "--baseline-agent", "fair");
  assert.equal(out.code, 0, out.stderr);
  const report = JSON.parse(out.stdout);
  assert.equal(report.summary.n, 300);
  assert.equal(report.summary.rmse.splits, 20);
  assert.match(report.summary.ci, /t\(0\.975, df = \d+\)/);
  const fit = fitGlee(rows, {family: "bargaining", metric: "alice_self_gain", baselineAgent: "fair"});
  const greedy = report.rows.find((x: {feature: string; level: string}) => x.feature === "alice_agent" && x.level === "greedy");
  const same = fit.rows.find((x) => x.feature === "alice_agent" && x.level === "greedy")!;
  assert.deepEqual(Object.keys(greedy), ["feature", "level", "coef", "se", "ci_low", "ci_high", "baseline", "n"]);
  assert.equal(greedy.baseline, "fair");
  assert.ok(Math.abs(greedy.coef - same.coef) < 1e-12 && greedy.ci_low < greedy.coef && greedy.coef < greedy.ci_high);
  // The CLI fits from per-cell sufficient statistics (one GROUP BY); the row-level fit gives the same numbers.
  assert.equal(report.summary.n, fit.n);
  assert.equal(report.summary.df, fit.df);
  for (const key of ["r2", "sigma"] as const) assert.ok(Math.abs(report.summary[key] - fit[key]) < 1e-9, key);
  assert.equal(report.rows.length, fit.rows.length);
  fit.rows.forEach((row, i) => {
    for (const key of ["coef", "se", "ci_low", "ci_high"] as const) assert.ok(Math.abs(report.rows[i][key] - row[key]) < 1e-9, `${key} ${row.feature}=${row.level}`);
    assert.equal(report.rows[i].n, row.n);
  });
  // Held-out RMSE: the same hash-assigned splits (bucket of each game id, from SQL) scored one game at a time.
  const buckets = new Map((await queryParquet<{game_id: string; bucket: number}>({games: join(dir, "games.parquet")}, `SELECT game_id, ${bucketSQL("game_id")} AS bucket FROM games`)).map((r) => [r.game_id, r.bucket]));
  const tests = splitBuckets({splits: 20}).map((list) => new Set(list));
  const y = (r: (typeof rows)[number]) => r.alice_self_gain!;
  const perGame = fitOneHotCells(rows, {
    features: gleeFeatures("bargaining", {baselineAgent: chooseBaselineAgent(rows, "fair")}),
    stats: (r) => ({n: 1, sum: y(r), m2: 0}),
    holdout: {splits: 20, test: (r, s) => (tests[s].has(buckets.get((r as unknown as {game_id: string}).game_id)!) ? {n: 1, sum: y(r), m2: 0} : {n: 0, sum: 0, m2: 0}), test_fraction: 0.2, seed: 1},
  });
  assert.equal(report.summary.rmse.assignment, "hash");
  assert.ok(Math.abs(report.summary.rmse.mean - perGame.rmse!.mean) < 1e-9 && Math.abs(report.summary.rmse.sd - perGame.rmse!.sd) < 1e-9, JSON.stringify([report.summary.rmse, perGame.rmse]));
  // Grid levels missing from this data are reported, not estimated.
  const absent = report.dropped.map((d: {feature: string; level: string; reason: string}) => `${d.feature}=${d.level}:${d.reason}`);
  assert.ok(absent.includes("delta_a=1:absent") && absent.includes("market=CI=yes, MA=no, T=12:absent"));

  const pairs = parley("regress", dir, "--family", "bargaining", "--metric", "efficiency", "--pairs", "--rows-only", "--splits", "0");
  assert.equal(pairs.code, 0, pairs.stderr);
  assert.equal(JSON.parse(pairs.stdout).filter((x: {feature: string}) => x.feature === "pair").length, 9);

  const bad = parley("regress", dir, "--family", "poker", "--metric", "efficiency");
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--family must be one of bargaining, negotiation, persuasion/);
  const none = parley("regress", dir, "--family", "negotiation", "--metric", "efficiency");
  assert.equal(none.code, 2);
  assert.match(none.stderr, /no negotiation games/);
});

test("parley equilibria: battle of the sexes from a file; errors name the field", () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-eq-"));
  const file = join(dir, "bos.json");
  writeFileSync(file, JSON.stringify({rows: ["opera", "football"], cols: ["opera", "football"], a: [[2, 0], [0, 1]], b: [[1, 0], [0, 2]]}));
  const out = parley("equilibria", file);
  assert.equal(out.code, 0, out.stderr);
  const r = JSON.parse(out.stdout);
  assert.deepEqual(r.pure.map((e: {row: string; col: string}) => [e.row, e.col]), [["opera", "opera"], ["football", "football"]]);
  assert.equal(r.mixed.length, 1);
  assert.ok(Math.abs(r.mixed[0].row.opera - 2 / 3) < 1e-12);
  writeFileSync(file, JSON.stringify({rows: ["a", "b"], cols: ["x"], a: [[1], [2]], b: [[1], ["?"]]}));
  const bad = parley("equilibria", file);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /b\[1\]\[0\]: expected a finite number/);
});

test("for every GLEE family, metric and variant, the fit from one GROUP BY's cells equals the row-level fit", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-regress-cells-"));
  // Two games per configuration and pair, so cells hold several games; persuasion's fairness is NULL in some (excluded rows).
  const grid = {
    bargaining: {delta_a: [0.8, 0.95], delta_b: [0.9, 1], money: [100], horizon: [12, "inf"], complete_information: [true, false], messages: [false]},
    negotiation: {factor_a: [0.8, 1.2], factor_b: [1], money: [100, 10000], horizon: [1, 10], complete_information: [true, false], messages: [false]},
    persuasion: {prior: [0.3333333333333333, 0.8], value_high: [1.25, 2], money: [100], complete_information: [true, false], message_type: ["binary"], buyer_type: ["long_living", "myopic"]},
  };
  await writeTournament(parseRunConfig({family: "all", grid, players: "all", pairs: "all", games_per_pair: 2, seed: 3}, "cells"), dir);
  for (const family of GLEE_FAMILIES) {
    const rows = await readGleeRows(dir, family);
    for (const metric of GLEE_METRICS) {
      const cells = await readGleeCells(dir, family, metric);
      assert.ok(cells.length < rows.length, `${family}: cells summarize several games`);
      for (const pairs of [false, true]) {
        const a = fitGlee(rows, {family, metric, pairs, holdout: false});
        const b = fitGleeCells(cells, {family, metric, pairs, holdout: false});
        const what = `${family} ${metric}${pairs ? " pairs" : ""}`;
        assert.deepEqual([b.n, b.p, b.df, b.excluded, b.baselines, b.dropped, b.notes], [a.n, a.p, a.df, a.excluded, a.baselines, a.dropped, a.notes], what);
        assert.ok(Math.abs(a.r2 - b.r2) < 1e-9 && Math.abs(a.sigma - b.sigma) < 1e-9, what);
        a.rows.forEach((row, i) => {
          for (const key of ["coef", "se", "ci_low", "ci_high"] as const) assert.ok(Math.abs(b.rows[i][key] - row[key]) < 1e-9 * Math.max(1, Math.abs(row[key])), `${what}: ${key} ${row.feature}=${row.level}`);
        });
      }
    }
  }
});
