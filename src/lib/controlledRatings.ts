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
 * Intervals: percentile intervals over two-stage bootstrap draws
 * (ratingDraws.ts: configurations, then games within them); ranks are
 * within connected sets of entrants, as the raw ratings'. Pure.
 */
import {centre, components, ranksOf, ratingComparisons, solveSymmetric, type RatedGame, type RatingOptions} from "./ratings.js";
import {drawDesign, twoStageDraw} from "./ratingDraws.js";
import {solveLinear} from "./supportEnumeration.js";
import {createRng} from "./rng.js";
import {percentileInterval as interval} from "./ratingModels.js";
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
}

export interface ControlledCoefficient extends CovariateColumn {
  /** Log-odds per standard deviation (numeric) or against the baseline (binary, level). */
  coefficient: number;
  lo: number | null;
  hi: number | null;
}

export interface ControlledResult {
  by: "agent" | "model";
  entrants: ControlledEntrant[];
  coefficients: ControlledCoefficient[];
  not_identified: {name: string; reason: string}[];
  resamples: number;
}

/** The comparisons as rows of the regression: entrants a over b, weight per game copy, outcome, covariate differences (m per row). */
interface Design {
  k: number;
  m: number;
  a: Int32Array;
  b: Int32Array;
  game: Int32Array;
  w: Float64Array;
  o: Float64Array;
  dz: Float64Array;
}

/** Rows of the design for `columns` (indexes into each seat's x), and entrants; rows that carry nothing (one entrant, equal covariates) are left out. */
function buildDesign(games: readonly RatedGame[], columns: readonly number[], options: ControlledOptions) {
  const {comparisons} = ratingComparisons(games, options);
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
  const design: Design = {k: names.length, m, a: new Int32Array(kept.length), b: new Int32Array(kept.length), game: new Int32Array(kept.length), w: new Float64Array(kept.length), o: new Float64Array(kept.length), dz: new Float64Array(kept.length * m)};
  kept.forEach((c, n) => {
    design.a[n] = index.get(entrantOf(c.first))!;
    design.b[n] = index.get(entrantOf(c.second))!;
    design.game[n] = c.game;
    design.w[n] = c.weight / (games[c.game].count ?? 1);
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
function identified(d: Design, groups: number[][], times?: Float64Array): boolean[] {
  const {k, m} = d;
  const p = k + m;
  const gram = Array.from({length: p}, () => new Array<number>(p).fill(0));
  for (let n = 0; n < d.a.length; n++) {
    const w = d.w[n] * (times ? times[d.game[n]] : 1);
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
 * Maximum (penalised) likelihood of the regression on the design's rows,
 * weighted by w × times[game]: θ (k) then β (m, or none when `withCovariates`
 * is false). Newton's method with step halving on long steps; the same weak
 * prior as the ratings (virtual half-wins against a reference of strength 1),
 * or pinned connected sets without one.
 */
function fitRegression(d: Design, withCovariates: boolean, prior: number, groups: number[][], times?: Float64Array, start?: Float64Array, tolerance = 1e-10): Float64Array {
  const {k} = d;
  const m = withCovariates ? d.m : 0;
  const p = k + m;
  const x = new Float64Array(p);
  if (start) x.set(start.subarray(0, p));
  const pins = prior > 0 ? [] : groups;
  const eta = (t: Float64Array, n: number) => {
    let e = t[d.a[n]] - t[d.b[n]];
    for (let j = 0; j < m; j++) e += t[k + j] * d.dz[n * d.m + j];
    return e;
  };
  const loglik = (t: Float64Array) => {
    let l = 0;
    for (let n = 0; n < d.a.length; n++) {
      const w = d.w[n] * (times ? times[d.game[n]] : 1);
      if (w === 0) continue;
      const e = eta(t, n);
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
    grad.fill(0);
    hess.fill(0);
    for (let n = 0; n < d.a.length; n++) {
      const w = d.w[n] * (times ? times[d.game[n]] : 1);
      if (w === 0) continue;
      const pr = 1 / (1 + Math.exp(-eta(x, n)));
      const g = w * (d.o[n] - pr);
      const h = w * pr * (1 - pr);
      const [a, b] = [d.a[n], d.b[n]];
      if (a !== b) {
        grad[a] += g;
        grad[b] -= g;
        hess[a * p + a] += h;
        hess[b * p + b] += h;
        hess[a * p + b] -= h;
        hess[b * p + a] -= h;
      }
      for (let j = 0; j < m; j++) {
        const z = d.dz[n * d.m + j];
        if (z === 0) continue;
        const row = (k + j) * p;
        grad[k + j] += g * z;
        if (a !== b) {
          hess[a * p + k + j] += h * z;
          hess[row + a] += h * z;
          hess[b * p + k + j] -= h * z;
          hess[row + b] -= h * z;
        }
        for (let l = 0; l < m; l++) hess[row + k + l] += h * z * d.dz[n * d.m + l];
      }
    }
    for (let i = 0; i < k; i++) {
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
  const raw = centre(fitRegression(design, false, prior, pinned), groups);
  const fitted = fitRegression(design, true, prior, pinned);
  const point = centre(fitted.subarray(0, design.k), groups);

  const rawDraws: Float64Array[] = [];
  const draws: Float64Array[] = [];
  const betas: Float64Array[] = [];
  if (resamples > 0) {
    const rng = createRng(seed);
    const plan = drawDesign(games);
    const times = new Float64Array(games.length);
    for (let r = 0; r < resamples; r++) {
      twoStageDraw(plan, rng, times);
      rawDraws.push(centre(fitRegression(design, false, prior, pinned, times, raw, 1e-6), groups));
      const x = fitRegression(design, true, prior, pinned, times, fitted, 1e-6);
      draws.push(centre(x.subarray(0, design.k), groups));
      betas.push(x.slice(design.k));
    }
  }
  const rank = ranksOf(point, groups);
  const rawRank = ranksOf(raw, groups);
  const drawRanks = draws.map((d) => ranksOf(d, groups));
  const comparisons = new Array<number>(design.k).fill(0);
  for (let n = 0; n < design.a.length; n++) {
    const c = games[design.game[n]].count ?? 1;
    comparisons[design.a[n]] += c;
    if (design.b[n] !== design.a[n]) comparisons[design.b[n]] += c;
  }
  const entrants = names
    .map((entrant, i) => {
      const [raw_lo, raw_hi] = interval(rawDraws.map((d) => d[i]), level);
      const [rating_lo, rating_hi] = interval(draws.map((d) => d[i]), level);
      const [rank_lo, rank_hi] = interval(drawRanks.map((d) => d[i]), level);
      const round = (r: number | null) => (r === null ? null : Math.round(r));
      return {
        entrant, agents: agents[i], component: componentOf[i], comparisons: comparisons[i],
        raw_rating: raw[i], raw_lo, raw_hi, raw_rank: rawRank[i],
        rating: point[i], rating_lo, rating_hi, rank: rank[i], rank_lo: round(rank_lo), rank_hi: round(rank_hi),
      };
    })
    .filter((e) => e.component >= 0)
    .sort((x, y) => x.component - y.component || x.rank - y.rank);
  const coefficients = used.map((j, u) => {
    const [lo, hi] = interval(betas.map((b) => b[u]), level);
    return {...columns[j], coefficient: fitted[design.k + u], lo, hi};
  });
  return {by, entrants, coefficients, not_identified: notIdentified, resamples: draws.length};
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
