/**
 * Ordinary least squares on one-hot encoded categorical features, with
 * standard errors, confidence intervals and held-out RMSE — the regression of
 * GLEE (Shapira et al. 2024 §3, Appendix F): each coefficient is the effect of a level
 * relative to its feature's baseline level.
 *
 * Conventions (also in the Guide, src/guide/glee.md, "Regressions"):
 * - Design: an intercept plus one 0/1 column per non-baseline level of each
 *   feature. The baseline is the requested level when the data has it;
 *   otherwise the most frequent level (the first in level order among
 *   ties), with a note when a requested level was missing.
 * - Covariance σ²(XᵀX)⁻¹ with σ² = RSS / (n − p), p counting the intercept
 *   and every estimated column. The CI is coef ± t_{1−α/2, n−p} · se
 *   (Student's t quantile with n − p degrees of freedom; 0.975 for 95%).
 * - Levels that never occur are dropped ("absent"); a column that is a linear
 *   combination of the columns before it (intercept first, then features and
 *   levels in order, as R's lm does) is dropped ("collinear") and the
 *   combination is named. Neither gets a coefficient; both are reported.
 * - Held-out RMSE: `splits` random splits (seeded) into 1 − testFraction
 *   training and testFraction test rows; each split refits on the training
 *   rows (levels missing there predict as the baseline) and scores the test
 *   rows; mean and sample sd over splits. Or splits given by the caller
 *   (`fitOneHotCells`: hash-assigned, hashSplits.ts).
 *
 * Sufficient statistics (`fitOneHotCells`): every feature is categorical, so
 * XᵀX, Xᵀy, the residual and total sums of squares depend on the data only
 * through each cell's (rows sharing every level) count n, sum of outcomes
 * and sum of squared deviations from the cell mean m2:
 *   XᵀX = Σ n·x xᵀ, Xᵀy = Σ sum·x, RSS = Σ m2 + n(ȳ − ŷ)², TSS = Σ m2 + n(ȳ − ȳ_all)²,
 * so one GROUP BY in DuckDB gives the fit of millions of rows at the cost of
 * its cells. `fitOneHot` is the same computation with one cell per row
 * (n = 1, sum = y, m2 = 0), so the two agree to rounding.
 *
 * Why not ml-regression-multivariate-linear's fit: it builds dense n × p
 * matrices (three copies for 100,000 games), inverts XᵀX with an SVD
 * pseudo-inverse, which on a rank-deficient design silently returns the
 * minimum-norm solution (coefficients that depend on which levels happen to
 * be aliased) and counts aliased columns in n − p. Here XᵀX is accumulated
 * straight from the one-hot indices (O(n·k²) for k features, no dense X) and
 * factored by a Cholesky decomposition that detects and drops aliased
 * columns. The tests check this solver against hand-computed normal equations
 * and against ml-regression-multivariate-linear on full-rank designs.
 */
import {mean, sampleStandardDeviation} from "simple-statistics";
import {studentTQuantile} from "./studentT.js";

export type Level = string;

/** One categorical feature: how to read a row's level, and which level is the reference. */
export interface OneHotFeature<R> {
  /** Name reported in the output (e.g. "delta_a", "market", "alice_agent"). */
  name: string;
  /** The row's level; null or undefined leaves the row out of the fit (counted in `excluded`). */
  level: (row: R) => Level | null | undefined;
  /** The reference level (coefficient 0). When the data lacks it, the most frequent level is used and a note says so. */
  baseline?: Level | null;
  /** Levels the design expects (e.g. a parameter grid); those absent from the data are reported as dropped. */
  levels?: readonly Level[];
}

export interface OlsOptions<R> {
  features: readonly OneHotFeature<R>[];
  /** The outcome; rows where it is null or not finite are left out (counted in `excluded`). */
  y: (row: R) => number | null | undefined;
  /** Confidence level of the intervals; default 0.95. */
  confidence?: number;
  /** Held-out RMSE settings; false skips it. Defaults: 20 splits, 20% test, seed 1. */
  holdout?: false | {splits?: number; testFraction?: number; seed?: number};
  /** A column whose squared residual norm, after projecting out the earlier columns, is at most `tolerance` times its own squared norm is collinear. Default 1e-9. */
  tolerance?: number;
}

/** One level's coefficient. The baseline level appears too, with coef = se = 0. */
export interface CoefRow {
  feature: string;
  level: Level;
  coef: number;
  se: number;
  ci_low: number;
  ci_high: number;
  /** The reference level the coefficient is relative to. */
  baseline: Level;
  /** Rows of the fit at this level. */
  n: number;
}

export interface DroppedLevel {
  feature: string;
  level: Level;
  reason: "absent" | "collinear";
  /** For collinear levels: the combination of earlier columns it equals. */
  detail?: string;
}

export interface HoldoutRmse {
  mean: number;
  sd: number;
  splits: number;
  test_fraction: number;
  seed: number;
  /** How test rows were chosen: uniformly at random per split (`fitOneHot`), or by a hash of each row's id (hashSplits.ts). */
  assignment: "random" | "hash";
}

/** Outcome statistics of a cell (rows sharing every level): rows with an outcome, their sum, and their sum of squared deviations from the cell's mean. */
export interface CellStats {
  n: number;
  sum: number;
  m2: number;
}

export interface OlsCellOptions<C> {
  /** Levels are read from a cell as from a row. */
  features: readonly OneHotFeature<C>[];
  /** The cell's outcome statistics (n = 0 when none of its rows has a finite outcome). */
  stats: (cell: C) => CellStats;
  /** Rows of the cell, those without an outcome included (counted in `excluded`); default stats.n. */
  rows?: (cell: C) => number;
  confidence?: number;
  tolerance?: number;
  /** Held-out RMSE over given splits: `test(cell, s)` is the cell's statistics over split s's test rows; false skips it. */
  holdout?: false | {splits: number; test: (cell: C, split: number) => CellStats; test_fraction: number; seed: number};
}

export interface OlsFit {
  /** Intercept first (feature "(intercept)", level "", baseline "all baselines"), then every level of every feature. */
  rows: CoefRow[];
  dropped: DroppedLevel[];
  /** Baseline used per feature (null when the feature had no rows). */
  baselines: Record<string, Level | null>;
  /** Human-readable remarks: baseline substitutions, features with a single level, missing df. */
  notes: string[];
  n: number;
  /** Estimated columns including the intercept. */
  p: number;
  /** Residual degrees of freedom n − p. */
  df: number;
  r2: number;
  /** Mean outcome over the fitted rows (the average prediction, since the fit has an intercept). */
  y_mean: number;
  /** Residual standard error √(RSS / (n − p)). */
  sigma: number;
  /** The quantile used for the intervals: t_{prob, df}. */
  quantile: {confidence: number; prob: number; df: number; value: number; distribution: "student-t"};
  /** Rows left out because the outcome or a feature level was missing. */
  excluded: number;
  rmse: HoldoutRmse | null;
  /** Design columns: [feature, level] per column, column 0 being the intercept. */
  columns: Array<{feature: string; level: Level; kept: boolean}>;
  /** Covariance of the estimated coefficients, p × p over `columns` (0 rows and columns for dropped ones). */
  covariance: Float64Array;
  /** Coefficient per design column (0 for dropped ones). */
  beta: Float64Array;
  /**
   * Estimate, se and CI of a linear combination Σ w_c β_c, the weights given
   * as (feature, level) → weight; baseline levels have β = 0.
   */
  contrast(weights: Iterable<[feature: string, level: Level, weight: number]>): {estimate: number; se: number; ci_low: number; ci_high: number};
}

/** Orders levels numerically when both parse as numbers ("inf" counts as +∞), else as strings. */
export function compareLevels(a: Level, b: Level): number {
  const x = levelNumber(a);
  const y = levelNumber(b);
  if (!Number.isNaN(x) && !Number.isNaN(y)) return x - y || (a < b ? -1 : a > b ? 1 : 0);
  if (!Number.isNaN(x)) return -1;
  if (!Number.isNaN(y)) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function levelNumber(s: Level): number {
  if (/^(inf|infinity|∞)$/i.test(s)) return Infinity;
  return s.trim() === "" ? NaN : Number(s);
}

/** A seeded uniform generator on [0, 1) (mulberry32). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Encoded {
  /** Cells (rows, for the row-level fit). */
  n: number;
  k: number;
  p: number;
  /** n × k design column per cell and feature, −1 for the baseline level. */
  cols: Int32Array;
  /** Per cell: rows, sum of outcomes, sum of squared deviations from the cell mean. */
  w: Float64Array;
  sum: Float64Array;
  m2: Float64Array;
}

/**
 * Sequential Cholesky of the p × p matrix `a` (row-major), skipping aliased
 * columns: returns the lower factor over kept columns (zeros elsewhere) and
 * which columns were kept.
 */
function choleskyDropping(a: Float64Array, p: number, tolerance: number): {l: Float64Array; kept: boolean[]} {
  const l = new Float64Array(p * p);
  const kept = new Array<boolean>(p).fill(false);
  for (let j = 0; j < p; j++) {
    const ajj = a[j * p + j];
    let v = ajj;
    for (let k = 0; k < j; k++) if (kept[k]) v -= l[j * p + k] * l[j * p + k];
    if (!(ajj > 0) || v <= tolerance * ajj) continue;
    kept[j] = true;
    const d = Math.sqrt(v);
    l[j * p + j] = d;
    for (let i = j + 1; i < p; i++) {
      let s = a[i * p + j];
      for (let k = 0; k < j; k++) if (kept[k]) s -= l[i * p + k] * l[j * p + k];
      l[i * p + j] = s / d;
    }
  }
  return {l, kept};
}

/** Solves L Lᵀ x = b over kept columns (x = 0 at dropped ones). */
function choleskySolve(l: Float64Array, kept: boolean[], p: number, b: Float64Array): Float64Array {
  const z = new Float64Array(p);
  for (let i = 0; i < p; i++) {
    if (!kept[i]) continue;
    let s = b[i];
    for (let k = 0; k < i; k++) if (kept[k]) s -= l[i * p + k] * z[k];
    z[i] = s / l[i * p + i];
  }
  const x = new Float64Array(p);
  for (let i = p - 1; i >= 0; i--) {
    if (!kept[i]) continue;
    let s = z[i];
    for (let k = i + 1; k < p; k++) if (kept[k]) s -= l[k * p + i] * x[k];
    x[i] = s / l[i * p + i];
  }
  return x;
}

/** (XᵀX)⁻¹ over kept columns from its Cholesky factor, as a p × p matrix with zeros at dropped ones. */
function choleskyInverse(l: Float64Array, kept: boolean[], p: number): Float64Array {
  const inv = new Float64Array(p * p);
  const e = new Float64Array(p);
  for (let j = 0; j < p; j++) {
    if (!kept[j]) continue;
    e.fill(0);
    e[j] = 1;
    const col = choleskySolve(l, kept, p, e);
    for (let i = 0; i < p; i++) inv[i * p + j] = col[i];
  }
  return inv;
}

/** Adds the cells `idx` (or all cells) to XᵀX and Xᵀy; `stats` replaces the cells' own (a split's test rows). */
function accumulate(enc: Encoded, xtx: Float64Array, xty: Float64Array, idx?: Uint32Array, sign = 1, stats: {w: Float64Array; sum: Float64Array} = enc): void {
  const {k, p, cols} = enc;
  const active = new Int32Array(k + 1);
  const count = idx ? idx.length : enc.n;
  for (let r = 0; r < count; r++) {
    const i = idx ? idx[r] : r;
    let m = 0;
    active[m++] = 0;
    for (let f = 0; f < k; f++) {
      const c = cols[i * k + f];
      if (c >= 0) active[m++] = c;
    }
    const si = stats.sum[idx && stats !== enc ? r : i] * sign;
    const wi = stats.w[idx && stats !== enc ? r : i] * sign;
    for (let u = 0; u < m; u++) {
      const a = active[u];
      xty[a] += si;
      const row = a * p;
      for (let v = 0; v < m; v++) xtx[row + active[v]] += wi;
    }
  }
}

function predictRow(enc: Encoded, beta: Float64Array, i: number): number {
  let s = beta[0];
  for (let f = 0; f < enc.k; f++) {
    const c = enc.cols[i * enc.k + f];
    if (c >= 0) s += beta[c];
  }
  return s;
}

/**
 * Fits OLS of `y` on the one-hot encoding of `features` over `data`, one
 * cell per row (so the random held-out splits can draw rows).
 * Throws only on invalid options; a design with no rows or no residual
 * degrees of freedom gives NaN standard errors and a note instead.
 */
export function fitOneHot<R>(data: Iterable<R>, options: OlsOptions<R>): OlsFit {
  const unit = {n: 1, sum: 0, m2: 0};
  const none = {n: 0, sum: 0, m2: 0};
  const stats = (row: R): CellStats => {
    const y = options.y(row);
    if (typeof y !== "number" || !Number.isFinite(y)) return none;
    unit.sum = y;
    return unit;
  };
  const {holdout, ...rest} = options;
  return fitCells(data, {...rest, stats, rows: () => 1, holdout: false}, (enc, xtx, xty, tolerance) =>
    holdout === false || enc.n < 2 ? null : holdoutRmse(enc, xtx, xty, tolerance, holdout ?? {}),
  );
}

/**
 * Fits the same OLS from per-cell sufficient statistics (see the top of this
 * file): `cells` are rows that stand for every row sharing their levels,
 * e.g. the result of a GROUP BY. Equal to `fitOneHot` on the rows the cells
 * summarize, to rounding; held-out RMSE over the caller's splits.
 */
export function fitOneHotCells<C>(cells: Iterable<C>, options: OlsCellOptions<C>): OlsFit {
  const holdout = options.holdout;
  return fitCells(cells, options, holdout ? (enc, xtx, xty, tolerance, kept) => givenSplitsRmse(enc, xtx, xty, tolerance, kept, holdout) : () => null);
}

type Holdout<C> = (enc: Encoded, xtx: Float64Array, xty: Float64Array, tolerance: number, cells: readonly C[]) => HoldoutRmse | null;

function fitCells<C>(data: Iterable<C>, options: OlsCellOptions<C>, holdout: Holdout<C>): OlsFit {
  const {features, confidence = 0.95, tolerance = 1e-9} = options;
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`fitOneHot: confidence must be in (0, 1), got ${confidence}`);
  const names = new Set<string>();
  for (const f of features) {
    if (names.has(f.name)) throw new Error(`fitOneHot: feature "${f.name}" is listed twice`);
    names.add(f.name);
  }
  const k = features.length;

  // Pass 1: statistics and levels of every cell (typed arrays sized for all cells, trimmed by `nc`).
  const all = Array.isArray(data) ? (data as readonly C[]) : [...data];
  const levelIds = features.map(() => new Map<Level, number>());
  const levelNames: Level[][] = features.map(() => []);
  const levelCounts: number[][] = features.map(() => []);
  const ids = new Int32Array(all.length * k);
  const w = new Float64Array(all.length);
  const sums = new Float64Array(all.length);
  const m2s = new Float64Array(all.length);
  const keptCells: C[] = [];
  const levels: Level[] = new Array(k);
  let nc = 0;
  let n = 0;
  let sumAll = 0;
  let excluded = 0;
  for (const cell of all) {
    const {n: count, sum, m2} = options.stats(cell);
    const rows = options.rows ? options.rows(cell) : count;
    let ok = count > 0;
    for (let f = 0; ok && f < k; f++) {
      const level = features[f].level(cell);
      if (level === null || level === undefined) ok = false;
      else levels[f] = typeof level === "string" ? level : String(level);
    }
    if (!ok) {
      excluded += rows;
      continue;
    }
    excluded += rows - count;
    for (let f = 0; f < k; f++) {
      let id = levelIds[f].get(levels[f]);
      if (id === undefined) {
        id = levelNames[f].length;
        levelIds[f].set(levels[f], id);
        levelNames[f].push(levels[f]);
        levelCounts[f].push(0);
      }
      ids[nc * k + f] = id;
      levelCounts[f][id] += count;
    }
    w[nc] = count;
    sums[nc] = sum;
    m2s[nc] = m2;
    keptCells.push(cell);
    n += count;
    sumAll += sum;
    nc++;
  }

  // Baselines and design columns.
  const notes: string[] = [];
  const dropped: DroppedLevel[] = [];
  const baselines: Record<string, Level | null> = {};
  const columns: Array<{feature: string; level: Level; kept: boolean}> = [{feature: "(intercept)", level: "", kept: true}];
  const colOfLevel: Int32Array[] = [];
  const order: Level[][] = [];
  for (let f = 0; f < k; f++) {
    const feature = features[f];
    const present = [...levelNames[f]].sort(compareLevels);
    order.push(present);
    for (const level of feature.levels ?? []) {
      if (!levelIds[f].has(String(level))) dropped.push({feature: feature.name, level: String(level), reason: "absent"});
    }
    let baseline: Level | null = null;
    if (present.length) {
      const wanted = feature.baseline === null || feature.baseline === undefined ? null : String(feature.baseline);
      if (wanted !== null && levelIds[f].has(wanted)) baseline = wanted;
      else {
        baseline = present.reduce((best, l) => (levelCounts[f][levelIds[f].get(l)!] > levelCounts[f][levelIds[f].get(best)!] ? l : best), present[0]);
        if (wanted !== null) notes.push(`${feature.name}: baseline ${wanted} does not occur in the data; using the most frequent level ${baseline}`);
      }
      if (present.length === 1) notes.push(`${feature.name}: only one level (${baseline}) in the data, so it has no estimable effect`);
    }
    baselines[feature.name] = baseline;
    const map = new Int32Array(levelNames[f].length).fill(-1);
    for (const level of present) {
      if (level === baseline) continue;
      map[levelIds[f].get(level)!] = columns.length;
      columns.push({feature: feature.name, level, kept: true});
    }
    colOfLevel.push(map);
  }
  const p = columns.length;
  const cols = new Int32Array(nc * k);
  for (let i = 0; i < nc; i++) for (let f = 0; f < k; f++) cols[i * k + f] = colOfLevel[f][ids[i * k + f]];
  const enc: Encoded = {n: nc, k, p, cols, w: w.subarray(0, nc), sum: sums.subarray(0, nc), m2: m2s.subarray(0, nc)};

  // Normal equations and the factorization that finds aliased columns.
  const xtx = new Float64Array(p * p);
  const xty = new Float64Array(p);
  accumulate(enc, xtx, xty);
  const {l, kept} = choleskyDropping(xtx, p, tolerance);
  const beta = choleskySolve(l, kept, p, xty);
  const inv = choleskyInverse(l, kept, p);
  for (let c = 0; c < p; c++) {
    columns[c].kept = kept[c];
    if (kept[c] || n === 0) continue;
    // Name the combination of earlier kept columns that this column equals: solve (XₖᵀXₖ) w = Xₖᵀx_c.
    const rhs = new Float64Array(p);
    for (let i = 0; i < p; i++) if (kept[i] && i < c) rhs[i] = xtx[i * p + c];
    const earlier = kept.map((kk, i) => kk && i < c);
    const w = choleskySolve(l, earlier, p, rhs);
    const terms: string[] = [];
    for (let i = 0; i < p; i++) {
      if (!earlier[i] || Math.abs(w[i]) < 1e-8) continue;
      const name = i === 0 ? "intercept" : `${columns[i].feature}=${columns[i].level}`;
      terms.push(`${w[i] >= 0 && terms.length ? "+ " : w[i] < 0 ? "− " : ""}${fmt(Math.abs(w[i]))}·${name}`);
    }
    dropped.push({
      feature: columns[c].feature,
      level: columns[c].level,
      reason: "collinear",
      detail: terms.length ? `equals ${terms.slice(0, 8).join(" ")}${terms.length > 8 ? " …" : ""}` : "no variation left after earlier columns",
    });
  }
  const pKept = kept.filter(Boolean).length;

  // Residuals, R², σ²: within each cell around its mean, plus the cell mean around the prediction (or the overall mean).
  let rss = 0;
  const yMean = sumAll / (n || 1);
  let tss = 0;
  for (let i = 0; i < nc; i++) {
    const cellMean = enc.sum[i] / enc.w[i];
    const r = cellMean - predictRow(enc, beta, i);
    rss += enc.m2[i] + enc.w[i] * r * r;
    tss += enc.m2[i] + enc.w[i] * (cellMean - yMean) ** 2;
  }
  const df = n - pKept;
  const sigma2 = df > 0 ? rss / df : NaN;
  if (n === 0) notes.push("no rows with an outcome and every feature level");
  else if (df <= 0) notes.push(`no residual degrees of freedom (n = ${n}, p = ${pKept}): standard errors and intervals are undefined`);
  const prob = 1 - (1 - confidence) / 2;
  const q = df > 0 ? studentTQuantile(prob, df) : NaN;
  const covariance = new Float64Array(p * p);
  for (let i = 0; i < p * p; i++) covariance[i] = inv[i] * sigma2;

  const ci = (coef: number, se: number) => ({ci_low: coef - q * se, ci_high: coef + q * se});
  const rows: CoefRow[] = [];
  if (n > 0) {
    const se0 = Math.sqrt(covariance[0]);
    rows.push({feature: "(intercept)", level: "", coef: beta[0], se: se0, ...ci(beta[0], se0), baseline: "all baselines", n});
  }
  for (let f = 0; f < k; f++) {
    const baseline = baselines[features[f].name];
    if (baseline === null) continue;
    for (const level of order[f]) {
      const count = levelCounts[f][levelIds[f].get(level)!];
      const c = colOfLevel[f][levelIds[f].get(level)!];
      if (c < 0) {
        rows.push({feature: features[f].name, level, coef: 0, se: 0, ci_low: 0, ci_high: 0, baseline, n: count});
      } else if (kept[c]) {
        const se = Math.sqrt(covariance[c * p + c]);
        rows.push({feature: features[f].name, level, coef: beta[c], se, ...ci(beta[c], se), baseline, n: count});
      }
    }
  }

  const columnIndex = new Map<string, number>();
  columns.forEach((c, i) => columnIndex.set(`${c.feature}\u0000${c.level}`, i));
  const contrast: OlsFit["contrast"] = (weights) => {
    const w = new Float64Array(p);
    for (const [feature, level, weight] of weights) {
      const c = feature === "(intercept)" ? 0 : columnIndex.get(`${feature}\u0000${level}`);
      if (c === undefined) {
        if (baselines[feature] === level) continue;
        throw new Error(`contrast: ${feature}=${level} is not a level of the fit`);
      }
      if (!kept[c] && weight !== 0) throw new Error(`contrast: ${feature}=${level} was dropped (collinear), so it has no coefficient`);
      w[c] += weight;
    }
    let estimate = 0;
    let variance = 0;
    for (let i = 0; i < p; i++) {
      if (!w[i]) continue;
      estimate += w[i] * beta[i];
      for (let j = 0; j < p; j++) if (w[j]) variance += w[i] * covariance[i * p + j] * w[j];
    }
    const se = Math.sqrt(Math.max(variance, 0));
    return {estimate, se, ...ci(estimate, se)};
  };

  const rmse = holdout(enc, xtx, xty, tolerance, keptCells);
  return {
    rows,
    dropped,
    baselines,
    notes,
    n,
    p: pKept,
    df,
    r2: tss > 0 ? 1 - rss / tss : NaN,
    y_mean: n ? yMean : NaN,
    sigma: Math.sqrt(sigma2),
    quantile: {confidence, prob, df, value: q, distribution: "student-t"},
    excluded,
    rmse,
    columns,
    covariance,
    beta,
    contrast,
  };
}

function fmt(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toPrecision(4);
}

/**
 * Held-out RMSE over random train/test splits. The training normal equations
 * are the full ones minus the test rows' contribution, so each split costs a
 * pass over the test rows only.
 */
function holdoutRmse(
  enc: Encoded,
  xtx: Float64Array,
  xty: Float64Array,
  tolerance: number,
  {splits = 20, testFraction = 0.2, seed = 1}: {splits?: number; testFraction?: number; seed?: number},
): HoldoutRmse | null {
  const {n, p} = enc;
  const nTest = Math.floor(n * testFraction);
  if (nTest < 1 || n - nTest < 1 || splits < 1) return null;
  const random = mulberry32(seed);
  const perm = new Uint32Array(n);
  for (let i = 0; i < n; i++) perm[i] = i;
  const values: number[] = [];
  for (let s = 0; s < splits; s++) {
    // Partial Fisher–Yates: the first nTest entries become a uniform random test set.
    for (let i = 0; i < nTest; i++) {
      const j = i + Math.floor(random() * (n - i));
      const t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
    }
    const test = perm.subarray(0, nTest);
    const a = Float64Array.from(xtx);
    const b = Float64Array.from(xty);
    accumulate(enc, a, b, test, -1);
    const {l, kept} = choleskyDropping(a, p, tolerance);
    const beta = choleskySolve(l, kept, p, b);
    let sse = 0;
    for (let r = 0; r < nTest; r++) {
      const i = test[r];
      const e = enc.sum[i] - predictRow(enc, beta, i); // one row per cell: sum = y
      sse += e * e;
    }
    values.push(Math.sqrt(sse / nTest));
  }
  return {mean: mean(values), sd: values.length > 1 ? sampleStandardDeviation(values) : 0, splits, test_fraction: testFraction, seed, assignment: "random"};
}

/**
 * Held-out RMSE over splits the caller assigns: for each split, the test
 * rows' statistics per cell are taken out of the normal equations, the model
 * refit on the rest, and the test rows scored from their cell statistics
 * (Σ m2 + n(ȳ − ŷ)²), so the cost grows with cells, not rows.
 */
function givenSplitsRmse<C>(
  enc: Encoded,
  xtx: Float64Array,
  xty: Float64Array,
  tolerance: number,
  cells: readonly C[],
  {splits, test, test_fraction, seed}: {splits: number; test: (cell: C, split: number) => CellStats; test_fraction: number; seed: number},
): HoldoutRmse | null {
  const values: number[] = [];
  const idx = new Uint32Array(enc.n);
  const w = new Float64Array(enc.n);
  const sum = new Float64Array(enc.n);
  const m2 = new Float64Array(enc.n);
  const total = enc.w.reduce((a, b) => a + b, 0);
  for (let s = 0; s < splits; s++) {
    let m = 0;
    let nTest = 0;
    for (let i = 0; i < enc.n; i++) {
      const t = test(cells[i], s);
      if (!(t.n > 0)) continue;
      idx[m] = i;
      w[m] = t.n;
      sum[m] = t.sum;
      m2[m] = t.m2;
      nTest += t.n;
      m++;
    }
    if (nTest < 1 || total - nTest < 1) continue;
    const a = Float64Array.from(xtx);
    const b = Float64Array.from(xty);
    accumulate(enc, a, b, idx.subarray(0, m), -1, {w: w.subarray(0, m), sum: sum.subarray(0, m)});
    const {l, kept} = choleskyDropping(a, enc.p, tolerance);
    const beta = choleskySolve(l, kept, enc.p, b);
    let sse = 0;
    for (let r = 0; r < m; r++) {
      const e = sum[r] / w[r] - predictRow(enc, beta, idx[r]);
      sse += m2[r] + w[r] * e * e;
    }
    values.push(Math.sqrt(sse / nTest));
  }
  if (!values.length) return null;
  return {mean: mean(values), sd: values.length > 1 ? sampleStandardDeviation(values) : 0, splits: values.length, test_fraction, seed, assignment: "hash"};
}
