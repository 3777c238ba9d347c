/**
 * What a rating fit's design variance (clusterRobust.ts) says about each
 * agent: its rating interval, rank interval, tier, and how settled it is;
 * and the confidence that one agent is above another. Used by ratings.ts
 * for the pooled Bradley–Terry ratings, and open to any fit of one
 * strength per agent (centred within connected sets) that has a
 * ClusterRobust: the controlled ranking (controlledRatings.ts) and
 * Davidson's ties model (ratingModels.ts), whose further parameters
 * (covariate coefficients, the ties parameter) follow the strengths. The
 * rules are explained in ratings.ts's module comment. Pure: no DOM, no
 * Node API.
 */
import {confidenceAbove, multivariateTDraws, tInterval, type ClusterRobust} from "./clusterRobust.js";
import {createRng} from "./rng.js";

export type Settledness = "preliminary" | "usable" | "established";

/**
 * The widest 95 % rating interval, in Elo points, of an "established" and
 * of a "usable" rating. 50 Elo across (±25) puts the win probability
 * against an equal opponent within ±3.6 points; 150 (±75), within ±11.
 */
export const SETTLED_WIDTH_ELO = {established: 50, usable: 150} as const;

const ELO = 400 / Math.LN10;

/** How settled a rating with this interval (log-strength units) is. */
export function settledness(lo: number | null, hi: number | null): Settledness {
  if (lo === null || hi === null) return "preliminary";
  const width = ELO * (hi - lo);
  return width < SETTLED_WIDTH_ELO.established ? "established" : width < SETTLED_WIDTH_ELO.usable ? "usable" : "preliminary";
}

export interface AgentInterval {
  lo: number | null;
  hi: number | null;
  se: number | null;
  df: number | null;
  rankLo: number | null;
  rankHi: number | null;
  settled: Settledness;
}

export interface IntervalOptions {
  level: number;
  tierConfidence: number;
  /** Draws from the ratings' joint distribution for the rank intervals (0: none). */
  draws: number;
  seed: number;
}

/**
 * Intervals, tiers and pairwise confidences for centred ratings `point`
 * (agents of each of `components` centred at the mean weighted by
 * `centreWeight`), from the design variance of the uncentred fit. The
 * design may have more parameters than `point` has agents, after them.
 */
export function ratingIntervals(point: Float64Array, design: ClusterRobust, components: readonly number[][], centreWeight: readonly number[], options: IntervalOptions): {agents: AgentInterval[]; tier: number[]; above: number[][] | null; draws: number} {
  const k = point.length;
  const centred = centredContrasts(design.p, components, centreWeight);
  const agents: AgentInterval[] = Array.from({length: k}, (_, i) => {
    if (!centred[i]) return {lo: null, hi: null, se: null, df: null, rankLo: null, rankHi: null, settled: "preliminary"};
    const v = design.contrast(centred[i]);
    const {lo, hi} = tInterval(point[i], v, options.level);
    return {lo, hi, se: v.df > 0 ? Math.sqrt(v.variance) : null, df: v.df > 0 ? v.df : null, rankLo: null, rankHi: null, settled: settledness(lo, hi)};
  });
  const above = aboveMatrix(point, design, components);
  const draws = rankIntervals(point, design, components, centred, agents, options);
  return {agents, tier: tiersOf(point, components, above, options.tierConfidence), above, draws};
}

/** For each agent in a connected set, e_i − w / Σw over its set (its centred rating as a contrast of the fit's p parameters); null outside every set. */
function centredContrasts(p: number, components: readonly number[][], weight: readonly number[]): (Float64Array | null)[] {
  const out: (Float64Array | null)[] = new Array(p).fill(null);
  for (const g of components) {
    const total = g.reduce((t, i) => t + weight[i], 0);
    for (const i of g) {
      const a = new Float64Array(p);
      for (const j of g) a[j] = -weight[j] / total;
      a[i] += 1;
      out[i] = a;
    }
  }
  return out;
}

/** Confidence that the row agent is above the column agent; NaN across sets and on the diagonal; null when no pair has degrees of freedom. */
function aboveMatrix(point: Float64Array, design: ClusterRobust, components: readonly number[][]): number[][] | null {
  const k = point.length;
  const above = Array.from({length: k}, () => new Array<number>(k).fill(NaN));
  let any = false;
  const a = new Float64Array(design.p);
  for (const g of components) {
    for (const i of g) {
      for (const j of g) {
        if (j <= i) continue;
        a.fill(0);
        a[i] = 1;
        a[j] = -1;
        const c = confidenceAbove(point[i] - point[j], design.contrast(a));
        if (c === null) continue;
        any = true;
        above[i][j] = c;
        above[j][i] = 1 - c;
      }
    }
  }
  return any ? above : null;
}

/** Walking down each set's point ranking, a new tier where the next agent is below its neighbour above with at least `confidence`. */
function tiersOf(point: Float64Array, components: readonly number[][], above: number[][] | null, confidence: number): number[] {
  const tier = new Array<number>(point.length).fill(1);
  for (const g of components) {
    const order = [...g].sort((a, b) => point[b] - point[a]);
    let t = 1;
    order.forEach((i, n) => {
      if (n > 0 && above && above[order[n - 1]][i] >= confidence) t++;
      tier[i] = t;
    });
  }
  return tier;
}

/**
 * Rank intervals from draws of the centred ratings, set by set: a
 * multivariate t with the set's covariance and the smallest degrees of
 * freedom among its agents. Returns the number of draws taken.
 */
function rankIntervals(point: Float64Array, design: ClusterRobust, components: readonly number[][], centred: (Float64Array | null)[], agents: AgentInterval[], options: IntervalOptions): number {
  if (options.draws <= 0) return 0;
  const rng = createRng(options.seed);
  const alpha = (1 - options.level) / 2;
  let taken = 0;
  for (const g of components) {
    const dfs = g.map((i) => agents[i].df).filter((d): d is number => d !== null);
    if (dfs.length < g.length) continue;
    const covariance = contrastCovariance(design, g.map((i) => centred[i]!));
    const draws = multivariateTDraws(g.map((i) => point[i]), covariance, Math.min(...dfs), options.draws, rng);
    taken = draws.length;
    const ranks = g.map(() => [] as number[]);
    for (const d of draws) {
      const order = d.map((_, n) => n).sort((x, y) => d[y] - d[x]);
      order.forEach((n, r) => ranks[n].push(r + 1));
    }
    g.forEach((i, n) => {
      const sorted = ranks[n].sort((x, y) => x - y);
      agents[i].rankLo = Math.round(quantile(sorted, alpha));
      agents[i].rankHi = Math.round(quantile(sorted, 1 - alpha));
    });
  }
  return taken;
}

/** aᵢᵀ V aⱼ for the given contrasts, V the design covariance. */
function contrastCovariance(design: ClusterRobust, contrasts: readonly Float64Array[]): Float64Array {
  const {p, covariance} = design;
  const m = contrasts.length;
  const va = contrasts.map((a) => {
    const out = new Float64Array(p);
    for (let i = 0; i < p; i++) for (let j = 0; j < p; j++) out[i] += covariance[i * p + j] * a[j];
    return out;
  });
  const out = new Float64Array(m * m);
  for (let x = 0; x < m; x++) {
    for (let y = 0; y < m; y++) {
      let v = 0;
      for (let i = 0; i < p; i++) v += contrasts[x][i] * va[y][i];
      out[x * m + y] = v;
    }
  }
  return out;
}

/** The p-quantile of sorted values (linear interpolation between order statistics). */
export function quantile(sorted: readonly number[], p: number): number {
  if (!sorted.length) return NaN;
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  return sorted[lo] + (h - lo) * ((sorted[Math.min(lo + 1, sorted.length - 1)] ?? sorted[lo]) - sorted[lo]);
}
