import {test} from "node:test";
import assert from "node:assert/strict";
import MultivariateLinearRegression from "ml-regression-multivariate-linear";
import {fitOneHot, fitOneHotCells, mulberry32, type CellStats, type OlsFit, type OlsOptions, type OneHotFeature} from "../../src/lib/olsOneHot.js";
import {studentTQuantile, studentTCdf} from "../../src/lib/studentT.js";

type Row = Record<string, string | number | null>;
const feature = (name: string, baseline?: string, levels?: string[]): OneHotFeature<Row> => ({
  name,
  level: (r) => (r[name] === null || r[name] === undefined ? null : String(r[name])),
  baseline,
  levels,
});
const close = (actual: number, expected: number, tol = 1e-9, what = "") =>
  assert.ok(Math.abs(actual - expected) <= tol * Math.max(1, Math.abs(expected)), `${what}: ${actual} vs ${expected}`);

type Cell = {row: Row; rows: number; all: CellStats; tests: CellStats[]};

/** n, sum and Σ(y − ȳ)² of `ys`, two-pass, independently of the library. */
function stats(ys: number[]): CellStats {
  const sum = ys.reduce((a, b) => a + b, 0);
  const mean = ys.length ? sum / ys.length : 0;
  return {n: ys.length, sum, m2: ys.reduce((a, y) => a + (y - mean) ** 2, 0)};
}

/** Groups rows by their levels of every feature (a GROUP BY written in the test), with each split's test rows' statistics. */
function cellsOf(data: Row[], options: OlsOptions<Row>, inTest: (i: number, split: number) => boolean = () => false, splits = 0): Cell[] {
  const groups = new Map<string, number[]>();
  data.forEach((row, i) => {
    const key = JSON.stringify(options.features.map((f) => f.level(row) ?? null));
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  const ys = (idx: number[]) => idx.map((i) => options.y(data[i])).filter((y): y is number => typeof y === "number" && Number.isFinite(y));
  return [...groups.values()].map((idx) => ({
    row: data[idx[0]],
    rows: idx.length,
    all: stats(ys(idx)),
    tests: Array.from({length: splits}, (_, s) => stats(ys(idx.filter((i) => inTest(i, s))))),
  }));
}

/** The fit from the rows' cells equals `fit` (the row-level one): every reported number to 1e-9. */
function sameFromCells(data: Row[], options: OlsOptions<Row>, fit: OlsFit): void {
  const cells = cellsOf(data, options);
  const features = options.features.map((f) => ({...f, level: (c: Cell) => f.level(c.row)}));
  const fromCells = fitOneHotCells(cells, {features, stats: (c) => c.all, rows: (c) => c.rows, holdout: false});
  assert.ok(cells.length < data.length, "the cells summarize several rows each");
  for (const key of ["n", "p", "df", "excluded"] as const) assert.equal(fromCells[key], fit[key], key);
  for (const key of ["r2", "sigma", "y_mean"] as const) close(fromCells[key], fit[key], 1e-9, key);
  assert.deepEqual(fromCells.baselines, fit.baselines);
  assert.deepEqual(fromCells.notes, fit.notes);
  assert.deepEqual(fromCells.dropped.map((d) => [d.feature, d.level, d.reason]), fit.dropped.map((d) => [d.feature, d.level, d.reason]));
  assert.equal(fromCells.rows.length, fit.rows.length);
  fit.rows.forEach((row, i) => {
    const other = fromCells.rows[i];
    assert.deepEqual([other.feature, other.level, other.baseline, other.n], [row.feature, row.level, row.baseline, row.n]);
    for (const key of ["coef", "se", "ci_low", "ci_high"] as const) close(other[key], row[key], 1e-9, `${key} ${row.feature}=${row.level}`);
  });
}

/** Gauss–Jordan inverse with partial pivoting, written independently of the library's Cholesky. */
function invert(m: number[][]): number[][] {
  const n = m.length;
  const a = m.map((row, i) => [...row, ...row.map((_, j) => (i === j ? 1 : 0))]);
  for (let c = 0; c < n; c++) {
    let piv = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(a[r][c]) > Math.abs(a[piv][c])) piv = r;
    [a[c], a[piv]] = [a[piv], a[c]];
    const d = a[c][c];
    for (let j = 0; j < 2 * n; j++) a[c][j] /= d;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = a[r][c];
      for (let j = 0; j < 2 * n; j++) a[r][j] -= f * a[c][j];
    }
  }
  return a.map((row) => row.slice(n));
}

function gaussian(random: () => number): () => number {
  return () => {
    const u = 1 - random();
    const v = random();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
}

test("Student t quantiles match printed tables", () => {
  // Two-sided 95% critical values from any t table (e.g. NIST/SEMATECH e-Handbook 1.3.6.7.2).
  const table: Array<[number, number]> = [[1, 12.706], [2, 4.303], [3, 3.182], [5, 2.571], [10, 2.228], [30, 2.042], [100, 1.984]];
  for (const [df, value] of table) close(studentTQuantile(0.975, df), value, 5e-4, `t(0.975, ${df})`);
  close(studentTQuantile(0.995, 3), 5.841, 5e-4, "t(0.995, 3)");
  close(studentTQuantile(0.975, 1e9), 1.959964, 1e-6, "normal limit");
  close(studentTCdf(studentTQuantile(0.9, 7), 7), 0.9, 1e-12, "cdf(quantile)");
  // df = 1 is the Cauchy distribution: quantile = tan(π(p − ½)).
  close(studentTQuantile(0.8, 1), Math.tan(Math.PI * 0.3), 1e-10, "Cauchy");
});

test("coefficients and standard errors on a tiny design equal hand-computed normal equations", () => {
  const data: Row[] = [
    {a: "p", b: "x", y: 1.0},
    {a: "p", b: "y", y: 2.5},
    {a: "q", b: "x", y: 2.0},
    {a: "q", b: "y", y: 3.1},
    {a: "r", b: "x", y: 0.4},
    {a: "r", b: "y", y: 2.2},
    {a: "q", b: "x", y: 1.7},
    {a: "p", b: "x", y: 0.6},
  ];
  const fit = fitOneHot(data, {features: [feature("a", "p"), feature("b", "x")], y: (r) => r.y as number, holdout: false});
  sameFromCells(data, {features: [feature("a", "p"), feature("b", "x")], y: (r) => r.y as number}, fit);
  // Columns: 1, a=q, a=r, b=y.
  const X = data.map((r) => [1, r.a === "q" ? 1 : 0, r.a === "r" ? 1 : 0, r.b === "y" ? 1 : 0]);
  const y = data.map((r) => r.y as number);
  const xtx = [0, 1, 2, 3].map((i) => [0, 1, 2, 3].map((j) => X.reduce((s, row) => s + row[i] * row[j], 0)));
  const xty = [0, 1, 2, 3].map((i) => X.reduce((s, row, r) => s + row[i] * y[r], 0));
  const inv = invert(xtx);
  const beta = inv.map((row) => row.reduce((s, v, j) => s + v * xty[j], 0));
  const rss = X.reduce((s, row, r) => s + (y[r] - row.reduce((t, v, j) => t + v * beta[j], 0)) ** 2, 0);
  const sigma2 = rss / (data.length - 4);
  const se = inv.map((row, i) => Math.sqrt(sigma2 * row[i]));
  const byName = (f: string, l: string) => fit.rows.find((r) => r.feature === f && r.level === l)!;
  const expected: Array<[string, string, number]> = [["(intercept)", "", 0], ["a", "q", 1], ["a", "r", 2], ["b", "y", 3]];
  for (const [f, l, i] of expected) {
    close(byName(f, l).coef, beta[i], 1e-10, `coef ${f}=${l}`);
    close(byName(f, l).se, se[i], 1e-10, `se ${f}=${l}`);
    // df = 8 − 4 = 4: t_{0.975,4} = 2.776 (table value).
    close(byName(f, l).ci_high - byName(f, l).coef, 2.776 * se[i], 5e-4, `ci ${f}=${l}`);
  }
  assert.equal(fit.df, 4);
  assert.equal(fit.n, 8);
  close(fit.quantile.value, 2.7764451, 1e-6);
  const tss = y.reduce((s, v) => s + (v - y.reduce((a, b) => a + b) / y.length) ** 2, 0);
  close(fit.r2, 1 - rss / tss, 1e-12, "R²");
  // Baselines are listed with coef 0 and relate to themselves.
  assert.deepEqual(
    {coef: byName("a", "p").coef, se: byName("a", "p").se, baseline: byName("a", "p").baseline, n: byName("a", "p").n},
    {coef: 0, se: 0, baseline: "p", n: 3},
  );
});

test("agrees with ml-regression-multivariate-linear on a full-rank random design", () => {
  const random = mulberry32(7);
  const normal = gaussian(random);
  const levels = {a: ["0", "1", "2", "3"], b: ["u", "v", "w"], c: ["k", "l"]};
  const data: Row[] = [];
  for (let i = 0; i < 300; i++) {
    const a = levels.a[Math.floor(random() * 4)];
    const b = levels.b[Math.floor(random() * 3)];
    const c = levels.c[Math.floor(random() * 2)];
    data.push({a, b, c, y: Number(a) * 0.3 - (b === "w" ? 1 : 0) + (c === "l" ? 0.5 : 0) + normal()});
  }
  const fit = fitOneHot(data, {features: [feature("a", "0"), feature("b", "u"), feature("c", "k")], y: (r) => r.y as number, holdout: false});
  sameFromCells(data, {features: [feature("a", "0"), feature("b", "u"), feature("c", "k")], y: (r) => r.y as number}, fit);
  const cols = fit.columns.slice(1);
  const X = data.map((r) => cols.map((c) => (String(r[c.feature]) === c.level ? 1 : 0)));
  const mlr = new MultivariateLinearRegression(X, data.map((r) => [r.y as number]));
  // ml-regression puts the intercept last.
  close(fit.beta[0], mlr.weights[cols.length][0], 1e-9, "intercept");
  close(fit.rows[0].se, mlr.stdErrors[cols.length], 1e-9, "intercept se");
  cols.forEach((c, j) => {
    const row = fit.rows.find((r) => r.feature === c.feature && r.level === c.level)!;
    close(row.coef, mlr.weights[j][0], 1e-9, `coef ${c.feature}=${c.level}`);
    close(row.se, mlr.stdErrors[j], 1e-9, `se ${c.feature}=${c.level}`);
  });
});

test("95% intervals cover the true coefficients 93–97% of the time", () => {
  // 3 features (3, 4 and 2 levels), n = 30 games per dataset, so t_{0.975, 24}
  // matters: with the normal quantile the coverage would be about 93.6%.
  const random = mulberry32(20250101);
  const normal = gaussian(random);
  const truth: Record<string, number> = {"(intercept)": 0.5, "a=1": 0.2, "a=2": -0.4, "b=1": 0.1, "b=2": 0.0, "b=3": 0.3, "c=1": -0.25};
  const features = [feature("a", "0"), feature("b", "0"), feature("c", "0")];
  let covered = 0;
  let total = 0;
  const replications = 4000;
  for (let rep = 0; rep < replications; rep++) {
    const data: Row[] = [];
    for (let i = 0; i < 30; i++) {
      // Balanced-ish levels so every level occurs.
      const a = String(i % 3);
      const b = String(Math.floor(random() * 4));
      const c = String(Math.floor(random() * 2));
      const mu = truth["(intercept)"] + (truth[`a=${a}`] ?? 0) + (truth[`b=${b}`] ?? 0) + (truth[`c=${c}`] ?? 0);
      data.push({a, b, c, y: mu + 0.3 * normal()});
    }
    const fit = fitOneHot(data, {features, y: (r) => r.y as number, holdout: false});
    for (const row of fit.rows) {
      const key = row.feature === "(intercept)" ? row.feature : `${row.feature}=${row.level}`;
      if (row.level === row.baseline) continue;
      total++;
      if (row.ci_low <= truth[key] && truth[key] <= row.ci_high) covered++;
    }
  }
  const rate = covered / total;
  console.log(`# coverage of 95% intervals: ${(100 * rate).toFixed(2)}% of ${total} intervals (${replications} datasets)`);
  assert.ok(rate >= 0.93 && rate <= 0.97, `coverage ${rate}`);
});

test("absent and collinear levels are dropped and reported, the rest estimated as without them", () => {
  const random = mulberry32(3);
  const normal = gaussian(random);
  const data: Row[] = [];
  for (let i = 0; i < 120; i++) {
    const a = ["p", "q", "r"][i % 3];
    const b = ["x", "y"][Math.floor(random() * 2)];
    // `twin` repeats `a` under other names; `nested` is "on" exactly when a = r.
    data.push({a, b, twin: a.toUpperCase(), nested: a === "r" ? "on" : "off", y: (a === "q" ? 1 : 0) + (b === "y" ? 2 : 0) + normal()});
  }
  const base = fitOneHot(data, {features: [feature("a", "p"), feature("b", "x")], y: (r) => r.y as number, holdout: false});
  const fit = fitOneHot(data, {
    features: [feature("a", "p", ["p", "q", "r", "s"]), feature("b", "x"), feature("twin", "P"), feature("nested", "off")],
    y: (r) => r.y as number,
    holdout: false,
  });
  sameFromCells(data, {features: [feature("a", "p", ["p", "q", "r", "s"]), feature("b", "x"), feature("twin", "P"), feature("nested", "off")], y: (r) => r.y as number}, fit);
  const dropped = fit.dropped.map((d) => `${d.feature}=${d.level}:${d.reason}`).sort();
  assert.deepEqual(dropped, ["a=s:absent", "nested=on:collinear", "twin=Q:collinear", "twin=R:collinear"]);
  assert.match(fit.dropped.find((d) => d.level === "on")!.detail!, /a=r/);
  assert.equal(fit.p, base.p);
  assert.equal(fit.df, base.df);
  for (const row of base.rows) {
    const same = fit.rows.find((r) => r.feature === row.feature && r.level === row.level)!;
    close(same.coef, row.coef, 1e-8, `coef ${row.feature}=${row.level}`);
    close(same.se, row.se, 1e-8, `se ${row.feature}=${row.level}`);
  }
  // Dropped levels get no row; baselines stay listed.
  assert.ok(!fit.rows.some((r) => r.feature === "twin" && r.level !== "P"));
  assert.ok(fit.columns.some((c) => c.feature === "nested" && !c.kept));
});

test("a baseline missing from the data falls back to the most frequent level, with a note", () => {
  const data: Row[] = [
    {a: "u", y: 1}, {a: "v", y: 2}, {a: "v", y: 2.5}, {a: "w", y: 0}, {a: "v", y: 2.2}, {a: "u", y: 1.4},
  ];
  const fit = fitOneHot(data, {features: [feature("a", "z")], y: (r) => r.y as number, holdout: false});
  assert.equal(fit.baselines.a, "v");
  assert.match(fit.notes.join("\n"), /baseline z does not occur/);
  // Single-level features and excluded rows.
  const single = fitOneHot([...data, {a: null, y: 3}, {a: "u", y: null}], {features: [feature("a", "u"), {name: "k", level: () => "only"}], y: (r) => r.y as number, holdout: false});
  assert.equal(single.excluded, 2);
  sameFromCells([...data, {a: null, y: 3}, {a: "u", y: null}], {features: [feature("a", "u"), {name: "k", level: () => "only"}], y: (r) => r.y as number}, single);
  assert.match(single.notes.join("\n"), /k: only one level/);
});

test("held-out RMSE: 20 seeded splits, reproducible, near σ for a correct model", () => {
  const random = mulberry32(11);
  const normal = gaussian(random);
  const data: Row[] = [];
  for (let i = 0; i < 2000; i++) {
    const a = String(Math.floor(random() * 5));
    data.push({a, y: Number(a) * 0.1 + 0.2 * normal()});
  }
  const opts = {features: [feature("a", "0")], y: (r: Row) => r.y as number};
  const one = fitOneHot(data, opts);
  const two = fitOneHot(data, opts);
  assert.deepEqual(one.rmse, two.rmse);
  assert.equal(one.rmse!.splits, 20);
  assert.ok(Math.abs(one.rmse!.mean - 0.2) < 0.01, `rmse ${one.rmse!.mean}`);
  assert.ok(one.rmse!.sd > 0 && one.rmse!.sd < 0.01);
  const other = fitOneHot(data, {...opts, holdout: {seed: 2}});
  assert.notEqual(other.rmse!.mean, one.rmse!.mean);
});

test("contrasts: estimate and se of a linear combination from the covariance", () => {
  const data: Row[] = [];
  const random = mulberry32(5);
  for (let i = 0; i < 60; i++) data.push({a: ["p", "q", "r"][i % 3], y: i % 3 + random()});
  const fit = fitOneHot(data, {features: [feature("a", "p")], y: (r) => r.y as number, holdout: false});
  const diff = fit.contrast([["a", "r", 1], ["a", "q", -1]]);
  const q = fit.rows.find((r) => r.level === "q")!;
  const r = fit.rows.find((x) => x.level === "r")!;
  close(diff.estimate, r.coef - q.coef, 1e-12);
  // One-way layout: the difference of two group means has variance σ²(1/n_q + 1/n_r).
  close(diff.se, fit.sigma * Math.sqrt(1 / 20 + 1 / 20), 1e-10);
  // The baseline contributes nothing.
  close(fit.contrast([["a", "p", 5], ["a", "q", 1]]).estimate, q.coef, 1e-12);
});

test("held-out RMSE over given splits: from the cells as from one cell per row", () => {
  const random = mulberry32(13);
  const normal = gaussian(random);
  const data: Row[] = Array.from({length: 1500}, () => {
    const [a, b] = [String(Math.floor(random() * 4)), ["u", "v", "w"][Math.floor(random() * 3)]];
    return {a, b, y: Number(a) * 0.2 - (b === "v" ? 0.3 : 0) + 0.5 * normal(), bucket: Math.floor(random() * 10)};
  });
  const options: OlsOptions<Row> = {features: [feature("a", "0"), feature("b", "u")], y: (r) => r.y as number};
  // Split s tests the rows of buckets s and s + 5: a test set of about 20%.
  const inTest = (i: number, s: number) => data[i].bucket === s || data[i].bucket === s + 5;
  const perRow = data.map((row, i) => ({row, rows: 1, all: stats([row.y as number]), tests: Array.from({length: 5}, (_, s) => stats(inTest(i, s) ? [row.y as number] : []))}));
  const cells = cellsOf(data, options, inTest, 5);
  const fit = (list: Cell[]) =>
    fitOneHotCells(list, {
      features: options.features.map((f) => ({...f, level: (c: Cell) => f.level(c.row)})),
      stats: (c) => c.all,
      rows: (c) => c.rows,
      holdout: {splits: 5, test: (c, s) => c.tests[s], test_fraction: 0.2, seed: 0},
    });
  const a = fit(perRow);
  const b = fit(cells);
  assert.equal(cells.length, 12);
  assert.equal(a.rmse!.splits, 5);
  close(b.rmse!.mean, a.rmse!.mean, 1e-9, "rmse mean");
  close(b.rmse!.sd, a.rmse!.sd, 1e-9, "rmse sd");
  // Split 0 by a second method: the row-level fit on the training rows, its predictions scored on the test rows one by one.
  const train = data.filter((_, i) => !inTest(i, 0));
  const trained = fitOneHot(train, {...options, holdout: false});
  const predict = (r: Row) => trained.rows[0].coef + trained.rows.filter((x) => (x.feature === "a" && x.level === String(r.a)) || (x.feature === "b" && x.level === r.b)).reduce((s, x) => s + x.coef, 0);
  const test = data.filter((_, i) => inTest(i, 0));
  const rmse0 = Math.sqrt(test.reduce((s, r) => s + ((r.y as number) - predict(r)) ** 2, 0) / test.length);
  const only0 = fitOneHotCells(cells, {
    features: options.features.map((f) => ({...f, level: (c: Cell) => f.level(c.row)})),
    stats: (c) => c.all,
    rows: (c) => c.rows,
    holdout: {splits: 1, test: (c) => c.tests[0], test_fraction: 0.2, seed: 0},
  });
  close(only0.rmse!.mean, rmse0, 1e-9, "split 0 by hand");
  assert.equal(only0.rmse!.assignment, "hash");
});
