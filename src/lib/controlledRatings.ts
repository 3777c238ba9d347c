/**
 * A controlled ranking: the Bradley–Terry fit with covariates, as Chatbot
 * Arena's style control fits it (Li, Angelopoulos and Chiang 2024, "Does style
 * matter? Disentangling style and substance in Chatbot Arena", LMSYS blog,
 * Methodology: a logistic regression on the two sides' indicators plus
 * their standardised style differences; here each seat's covariate is
 * standardised over seats, then differenced). For a comparison of seat x
 * (entrant a) with seat y (entrant b), outcome o ∈ [0, 1]
 * (ratingOutcomes.ts) and weight w (ratings.ts ratingComparisons: seat
 * balance and family weights as the raw ratings have them),
 *
 *   logit P(x beats y) = θ_a − θ_b + βᵀ(z_x − z_y),
 *
 * z the seat's encoded covariates (ratingCovariates.ts). θ_a is then the
 * entrant's strength with its covariates at the reference (the pooled mean,
 * or the baseline level): the ranking "had every seat said as much, broken
 * as many rules, used the same harness". β is in log-odds per standard
 * deviation (numeric) or for the level against its baseline. The raw
 * ranking beside it is the same fit with β = 0 on the same comparisons
 * (with agents as entrants it is rateAgents' own point estimate).
 *
 * What can be controlled for. With one indicator per entrant, a covariate
 * that never varies within an entrant (an LLM player's persona or harness
 * in one run) is a linear combination of the indicators: it shifts θ and β
 * together without changing one prediction, so it is not identified, and
 * no amount of data identifies it. Such a covariate is reported as not
 * identified (and left out of the fit), never estimated from the prior.
 * It becomes identified when it varies within an entrant: games of one
 * agent id played under two settings (two runs pooled), or, with entrants
 * = models (`by: "model"`: LLM players of one provider/model are one
 * entrant), players of one model that differ in persona, effort or
 * harness. Covariates read from the turns (tokens, thinking, rule breaks)
 * vary game by game and are identified from each agent's own variation.
 * The check is exact linear algebra: a column is kept when its residual
 * after projecting on the indicators and the columns kept before it, in
 * the information metric, is above 1e-9 of its own norm.
 *
 * Caution: tokens and rule breaks are outcomes of play as much as causes;
 * controlling for them answers "who wins at equal verbosity", not "what
 * would happen if an agent were made terser".
 *
 * Intervals follow the design as the raw ratings' do (ratings.ts,
 * clusterRobust.ts): each comparison's share of the regression's score in
 * (θ, β) is added to its configuration (a game of a single-configuration
 * family), configurations are the clusters and families the strata, and
 * the sandwich gives t intervals on Satterthwaite's degrees of freedom for
 * the ratings and the coefficients; the ratings' rank intervals, tiers and
 * settledness come from it as the raw ratings' do (ratingIntervals.ts).
 * The raw ranking beside it gets the same from its own fit. Ranks are
 * within connected sets of entrants. Pure.
 */
import {centre, components, ranksOf, ratingComparisons, solveSymmetric, TIER_CONFIDENCE, type RatedGame, type RatingOptions} from "./ratings.js";
import {clusterRobust, emptyStrata, tInterval, type ClusterRobust} from "./clusterRobust.js";
import {ratingIntervals, type Settledness} from "./ratingIntervals.js";
import {solveLinear} from "./supportEnumeration.js";
import type {CovariateColumn} from "./ratingCovariates.js";

export interface ControlledOptions extends Pick<RatingOptions, "weighting" | "outcome" | "resamples" | "seed" | "prior" | "level"> {
  /** Who the indicators are for: each agent, or each model (seats carry it as `entrant`). */
  by?: "agent" | "model";
}

export interface ControlledEntrant {
  entrant: string;
  /** The agents it stands for (itself, for agents). */
  agents: string[];
  component: number;
  comparisons: number;
  raw_rating: number;
  raw_lo: number | null;
  raw_hi: number | null;
  raw_rank: number;
  rating: number;
  rating_lo: number | null;
  rating_hi: number | null;
  rank: number;
  rank_lo: number | null;
  rank_hi: number | null;
  /** The controlled ranking's tier and settledness, by the raw ratings' rules (ratings.ts). */
  tier: number;
  settled: Settledness;
}

export interface ControlledCoefficient extends CovariateColumn {
  /** Log-odds per standard deviation (numeric) or against the baseline (binary, level). */
  coefficient: number;
  lo: number | null;
  hi: number | null;
  /** Its standard error and degrees of freedom (null without spread to judge by). */
  se: number | null;
  df: number | null;
}

export interface ControlledResult {
  by: "agent" | "model";
  entrants: ControlledEntrant[];
  coefficients: ControlledCoefficient[];
  not_identified: {name: string; reason: string}[];
  /** Draws behind the rank intervals. */
  resamples: number;
}

/**
 * The comparisons as rows of the regression: entrants a over b in game
 * `game`, configuration `cell` of family `family` (ratings.ts
 * WeightedComparison), weight, outcome, covariate differences (m per row);
 * and each cell's family and each family's weight factor.
 */
interface Design {
  k: number;
  m: number;
  a: Int32Array;
  b: Int32Array;
  game: Int32Array;
  cell: Int32Array;
  family: Int32Array;
  w: Float64Array;
  o: Float64Array;
  dz: Float64Array;
  cellFamily: number[];
  scale: number[];
}

/** Rows of the design for `columns` (indexes into each seat's x), and entrants; rows that carry nothing (one entrant, equal covariates) are left out. */
function buildDesign(games: readonly RatedGame[], columns: readonly number[], options: ControlledOptions) {
  const {comparisons, cells, scale} = ratingComparisons(games, options);
  const entrantOf = (s: {agent: string; entrant?: string}) => s.entrant ?? s.agent;
  const names = [...new Set(comparisons.flatMap((c) => [entrantOf(c.first), entrantOf(c.second)]))].sort();
  const index = new Map(names.map((e, i) => [e, i]));
  const agentsOf = names.map(() => new Set<string>());
  const kept = comparisons.filter((c) => {
    agentsOf[index.get(entrantOf(c.first))!].add(c.first.agent);
    agentsOf[index.get(entrantOf(c.second))!].add(c.second.agent);
    return entrantOf(c.first) !== entrantOf(c.second) || columns.some((col) => (c.first.x?.[col] ?? 0) !== (c.second.x?.[col] ?? 0));
  });
  const m = columns.length;
  const rows = kept.length;
  const design: Design = {
    k: names.length, m, a: new Int32Array(rows), b: new Int32Array(rows), game: new Int32Array(rows), cell: new Int32Array(rows), family: new Int32Array(rows),
    w: new Float64Array(rows), o: new Float64Array(rows), dz: new Float64Array(rows * m), cellFamily: cells.map((c) => c.family), scale,
  };
  kept.forEach((c, n) => {
    design.a[n] = index.get(entrantOf(c.first))!;
    design.b[n] = index.get(entrantOf(c.second))!;
    design.game[n] = c.game;
    design.cell[n] = c.cell;
    design.family[n] = c.family;
    design.w[n] = c.weight;
    design.o[n] = c.outcome;
    columns.forEach((col, j) => (design.dz[n * m + j] = (c.first.x?.[col] ?? 0) - (c.second.x?.[col] ?? 0)));
  });
  return {design, names, agents: agentsOf.map((s) => [...s].sort()), kept};
}

/** Connected sets of entrants (an edge wherever two different entrants were compared). */
function entrantGroups(d: Design): number[][] {
  const met = new Float64Array(d.k * d.k);
  for (let n = 0; n < d.a.length; n++) if (d.a[n] !== d.b[n]) met[d.a[n] * d.k + d.b[n]] = 1;
  return components(d.k, met);
}

/**
 * Which of the design's columns are identified beside the entrants'
 * indicators (see the module comment): sequential residuals in the Gram
 * matrix Σ w d dᵀ, d = (e_a − e_b, Δz), each connected set's indicators
 * pinned (their common shift is not a direction of the data).
 */
function identified(d: Design, groups: number[][]): boolean[] {
  const {k, m} = d;
  const p = k + m;
  const gram = Array.from({length: p}, () => new Array<number>(p).fill(0));
  for (let n = 0; n < d.a.length; n++) {
    const w = d.w[n];
    if (w === 0) continue;
    const vec = new Map<number, number>();
    if (d.a[n] !== d.b[n]) vec.set(d.a[n], 1), vec.set(d.b[n], -1);
    for (let j = 0; j < m; j++) if (d.dz[n * m + j] !== 0) vec.set(k + j, d.dz[n * m + j]);
    for (const [r, x] of vec) for (const [c, y] of vec) gram[r][c] += w * x * y;
  }
  for (const g of groups) for (const i of g) for (const j of g) gram[i][j] += 1;
  const keep: number[] = Array.from({length: k}, (_, i) => i);
  return Array.from({length: m}, (_, j) => {
    const c = k + j;
    const norm = gram[c][c];
    if (!(norm > 0)) return false;
    const cross = keep.map((r) => gram[r][c]);
    const solved = solveLinear(keep.map((r) => keep.map((s) => gram[r][s])), cross, 0);
    const residual = solved ? norm - cross.reduce((t, v, i) => t + v * solved[i], 0) : 0;
    const ok = residual > 1e-9 * norm;
    if (ok) keep.push(c);
    return ok;
  });
}

/**
 * One row's part of the regression at x (θ then m coefficients): the
 * derivative of its log-likelihood in η, g = w (o − P), and its
 * information, h = w P (1 − P), for the direction d = (e_a − e_b, Δz).
 */
function rowTerms(d: Design, m: number, x: ArrayLike<number>, n: number): {g: number; h: number} {
  let eta = x[d.a[n]] - x[d.b[n]];
  for (let j = 0; j < m; j++) eta += x[d.k + j] * d.dz[n * d.m + j];
  const pr = 1 / (1 + Math.exp(-eta));
  return {g: d.w[n] * (d.o[n] - pr), h: d.w[n] * pr * (1 - pr)};
}

/** Adds h d dᵀ of row n (p = k + m parameters) to `hess`, row-major. */
function addInformation(d: Design, m: number, n: number, h: number, hess: Float64Array): void {
  const p = d.k + m;
  const [a, b] = [d.a[n], d.b[n]];
  if (a !== b) {
    hess[a * p + a] += h;
    hess[b * p + b] += h;
    hess[a * p + b] -= h;
    hess[b * p + a] -= h;
  }
  for (let j = 0; j < m; j++) {
    const z = d.dz[n * d.m + j];
    if (z === 0) continue;
    const row = (d.k + j) * p;
    if (a !== b) {
      hess[a * p + d.k + j] += h * z;
      hess[row + a] += h * z;
      hess[b * p + d.k + j] -= h * z;
      hess[row + b] -= h * z;
    }
    for (let l = 0; l < m; l++) hess[row + d.k + l] += h * z * d.dz[n * d.m + l];
  }
}

/** Adds g d of row n to `grad`. */
function addScore(d: Design, m: number, n: number, g: number, grad: Float64Array): void {
  if (d.a[n] !== d.b[n]) {
    grad[d.a[n]] += g;
    grad[d.b[n]] -= g;
  }
  for (let j = 0; j < m; j++) grad[d.k + j] += g * d.dz[n * d.m + j];
}

/**
 * The log-likelihood's gradient and information (−∇²) at x, the weak prior
 * (virtual half-wins against a reference of strength 1) or each pinned
 * connected set's penalty included, into grad and hess.
 */
function regressionTerms(d: Design, m: number, x: Float64Array, prior: number, pins: number[][], grad: Float64Array, hess: Float64Array): void {
  const p = d.k + m;
  grad.fill(0);
  hess.fill(0);
  for (let n = 0; n < d.a.length; n++) {
    if (d.w[n] === 0) continue;
    const {g, h} = rowTerms(d, m, x, n);
    addScore(d, m, n, g, grad);
    addInformation(d, m, n, h, hess);
  }
  for (let i = 0; i < d.k; i++) {
    if (prior > 0) {
      const s = 1 / (1 + Math.exp(-x[i]));
      grad[i] += prior * (0.5 - s);
      hess[i * p + i] += prior * s * (1 - s);
    }
  }
  for (const g of pins) {
    const s = g.reduce((acc, i) => acc + x[i], 0);
    for (const i of g) {
      grad[i] -= s;
      for (const j of g) hess[i * p + j] += 1;
    }
  }
}

/**
 * Maximum (penalised) likelihood of the regression on the design's rows:
 * θ (k) then β (m, or none when `withCovariates` is false). Newton's method
 * with step halving on long steps; the same weak prior as the ratings, or
 * pinned connected sets without one.
 */
function fitRegression(d: Design, withCovariates: boolean, prior: number, groups: number[][], tolerance = 1e-10): Float64Array {
  const {k} = d;
  const m = withCovariates ? d.m : 0;
  const p = k + m;
  const x = new Float64Array(p);
  const pins = prior > 0 ? [] : groups;
  const loglik = (t: Float64Array) => {
    let l = 0;
    for (let n = 0; n < d.a.length; n++) {
      const w = d.w[n];
      if (w === 0) continue;
      let e = t[d.a[n]] - t[d.b[n]];
      for (let j = 0; j < m; j++) e += t[k + j] * d.dz[n * d.m + j];
      l += w * (d.o[n] * e - (e > 0 ? e + Math.log1p(Math.exp(-e)) : Math.log1p(Math.exp(e))));
    }
    for (let i = 0; i < k; i++) if (prior > 0) l += prior * (0.5 * t[i] - Math.log1p(Math.exp(t[i])));
    for (const g of pins) {
      const s = g.reduce((acc, i) => acc + t[i], 0);
      l -= 0.5 * s * s;
    }
    return l;
  };
  const grad = new Float64Array(p);
  const hess = new Float64Array(p * p);
  for (let iteration = 0; iteration < 100; iteration++) {
    regressionTerms(d, m, x, prior, pins, grad, hess);
    // hess holds −∇²: (−∇²) δ = ∇ is the ascent step (ratings.ts's solver: Cholesky, elimination if not positive definite).
    const step = solveSymmetric(p, hess, grad);
    let scale = 1;
    let next = x.map((v, i) => v + step[i]);
    if (step.some((s) => Math.abs(s) > 0.5)) {
      const current = loglik(x);
      while (loglik(next) < current - 1e-12 * Math.abs(current) && scale > 1e-8) {
        scale /= 2;
        next = x.map((v, i) => v + scale * step[i]);
      }
    }
    x.set(next);
    if (step.reduce((mx, s) => Math.max(mx, Math.abs(scale * s)), 0) < tolerance) break;
  }
  return x;
}

/**
 * The sandwich of a fit at x (clusterRobust.ts): each row's score added to
 * its configuration, its information (times its family's weight factor) to
 * its family; the bread is the fit's information, prior or pins included.
 */
function regressionDesign(d: Design, withCovariates: boolean, x: Float64Array, prior: number, groups: number[][]): ClusterRobust {
  const m = withCovariates ? d.m : 0;
  const p = d.k + m;
  const {scores, strata} = emptyStrata(p, d.cellFamily, d.scale.length);
  for (let n = 0; n < d.a.length; n++) {
    if (d.w[n] === 0) continue;
    const {g, h} = rowTerms(d, m, x, n);
    addScore(d, m, n, g, scores[d.cell[n]]);
    addInformation(d, m, n, h * d.scale[d.family[n]], strata[d.family[n]].information);
  }
  const information = new Float64Array(p * p);
  regressionTerms(d, m, x, prior, prior > 0 ? [] : groups, new Float64Array(p), information);
  return clusterRobust(p, information, strata);
}

/**
 * The controlled ranking of `games` whose seats carry covariate vectors
 * `x` (columns described by `columns`) and, for `by: "model"`, entrants.
 */
export function controlledRatings(games: readonly RatedGame[], columns: readonly CovariateColumn[], options: ControlledOptions = {}): ControlledResult {
  const {resamples = 1000, seed = 1, prior = 1, level = 0.95, by = "agent"} = options;
  // Nothing to control for: no ranking beside the raw one (it would be the raw one).
  if (!columns.length) return {by, entrants: [], coefficients: [], not_identified: [], resamples: 0};
  const all = columns.map((_, j) => j);
  const probe = buildDesign(games, all, options);
  const groups = entrantGroups(probe.design).filter((g) => g.length > 1);
  const ok = identified(probe.design, entrantGroups(probe.design));
  const notIdentified = columns.flatMap((c, j) => (ok[j] ? [] : [{name: c.name, reason: whyNotIdentified(probe.kept, j, by)}]));
  const used = all.filter((j) => ok[j]);
  const {design, names, agents} = used.length === columns.length ? probe : buildDesign(games, used, options);
  const pinned = entrantGroups(design);
  const componentOf = new Array<number>(design.k).fill(-1);
  groups.forEach((g, c) => g.forEach((i) => (componentOf[i] = c)));
  const ones = new Array<number>(design.k).fill(1);
  const intervalOptions = {level, tierConfidence: TIER_CONFIDENCE, draws: resamples, seed};
  const rawFit = fitRegression(design, false, prior, pinned);
  const raw = centre(rawFit, groups);
  const rawIntervals = ratingIntervals(raw, regressionDesign(design, false, rawFit, prior, pinned), groups, ones, {...intervalOptions, draws: 0});
  const fitted = fitRegression(design, true, prior, pinned);
  const point = centre(fitted.subarray(0, design.k), groups);
  const sandwich = regressionDesign(design, true, fitted, prior, pinned);
  const intervals = ratingIntervals(point, sandwich, groups, ones, intervalOptions);
  const rank = ranksOf(point, groups);
  const rawRank = ranksOf(raw, groups);
  const comparisons = new Array<number>(design.k).fill(0);
  for (let n = 0; n < design.a.length; n++) {
    const c = games[design.game[n]].count ?? 1;
    comparisons[design.a[n]] += c;
    if (design.b[n] !== design.a[n]) comparisons[design.b[n]] += c;
  }
  const entrants = names
    .map((entrant, i) => {
      const [r, a] = [rawIntervals.agents[i], intervals.agents[i]];
      return {
        entrant, agents: agents[i], component: componentOf[i], comparisons: comparisons[i],
        raw_rating: raw[i], raw_lo: r.lo, raw_hi: r.hi, raw_rank: rawRank[i],
        rating: point[i], rating_lo: a.lo, rating_hi: a.hi, rank: rank[i], rank_lo: a.rankLo, rank_hi: a.rankHi, tier: intervals.tier[i], settled: a.settled,
      };
    })
    .filter((e) => e.component >= 0)
    .sort((x, y) => x.component - y.component || x.rank - y.rank);
  const coefficients = used.map((j, u) => {
    const at = design.k + u;
    const v = sandwich.contrast(Float64Array.from({length: sandwich.p}, (_, r) => (r === at ? 1 : 0)));
    const {lo, hi} = tInterval(fitted[at], v, level);
    return {...columns[j], coefficient: fitted[at], lo, hi, se: v.df > 0 ? Math.sqrt(v.variance) : null, df: v.df > 0 ? v.df : null};
  });
  return {by, entrants, coefficients, not_identified: notIdentified, resamples: intervals.draws};
}

/** Why column `j` is not identified: constant within every entrant, or a combination of the others. */
function whyNotIdentified(kept: readonly {first: {agent: string; entrant?: string; x?: readonly number[]}; second: {agent: string; entrant?: string; x?: readonly number[]}}[], j: number, by: "agent" | "model"): string {
  const seen = new Map<string, number>();
  let constant = true;
  for (const c of kept) {
    for (const s of [c.first, c.second]) {
      const e = s.entrant ?? s.agent;
      const v = s.x?.[j] ?? 0;
      if (!seen.has(e)) seen.set(e, v);
      else if (seen.get(e) !== v) constant = false;
    }
  }
  const unit = by === "model" ? "model" : "agent";
  if (!constant) return "a combination of the ratings and the covariates before it";
  return `constant within each ${unit}: absorbed by the ${unit}'s rating (it is identified only when it varies within a${unit === "agent" ? "n" : ""} ${unit})`;
}
