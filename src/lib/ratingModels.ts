/**
 * Models fitted beside the Bradley–Terry ratings (ratings.ts), on the same
 * weighted comparisons (ratings.ts ratingComparisons): the model with a
 * ties parameter (davidson.ts) and Nash averaging (nashAveraging.ts).
 * `parley ratings` and /ratings both call them. Pure: no DOM, no Node API.
 *
 * Intervals follow the design as the ratings' do (clusterRobust.ts:
 * configurations sampled within fixed game families, the sandwich with
 * Student's t on Satterthwaite's degrees of freedom).
 *
 * - Davidson's model is fitted by maximum likelihood, so it has scores: each
 *   configuration's share of the gradient in (θ, log ν) gives the sandwich,
 *   and its strengths get the ratings' intervals, ranks and tiers
 *   (ratingIntervals.ts); ν gets a t interval on log ν, exponentiated (it
 *   stays above 0). With no tie ν̂ = 0 is on the boundary, where log ν has
 *   no information and no interval is given.
 * - Nash averaging is a function of an evaluation matrix, but not a smooth
 *   one (the equilibrium's support jumps), so no delta method: the matrix's
 *   inputs are drawn from their cluster-robust multivariate t (as the rank
 *   intervals draw the ratings) and the equilibrium solved for each draw;
 *   intervals are the draws' percentiles. The inputs are the Bradley–Terry
 *   strengths and, for the empirical matrix, each met pair's log-odds,
 *   which is a logistic fit of its own (a half comparison added to each
 *   side): the same estimating-equation sandwich stacks the pairs' scores
 *   with the strengths', so the draws keep their correlation.
 */
import {btInformation, btScoreStrata, centre, components, fitBradleyTerry, ranksOf, ratingComparisons, sumCells, TIER_CONFIDENCE, type AgentRating, type Cell, type RatedGame, type RatingOptions, type WeightedComparison} from "./ratings.js";
import {davidsonInformation, fitDavidson, pairTerms, type DavidsonFit} from "./davidson.js";
import {nashAverage} from "./nashAveraging.js";
import {clusterRobust, emptyStrata, multivariateTDraws, tInterval, type ClusterRobust} from "./clusterRobust.js";
import {quantile, ratingIntervals} from "./ratingIntervals.js";
import {createRng} from "./rng.js";

const ELO = 400 / Math.LN10;

type ModelOptions = Pick<RatingOptions, "weighting" | "resamples" | "seed" | "prior" | "level">;

/** Percentile interval of `values` at `level`; nulls without values. */
function percentileInterval(values: readonly number[], level: number): [number | null, number | null] {
  if (!values.length) return [null, null];
  const sorted = [...values].sort((x, y) => x - y);
  const alpha = (1 - level) / 2;
  return [quantile(sorted, alpha), quantile(sorted, 1 - alpha)];
}

/**
 * Per ordered pair, the weighted outcome (wins[i*k+j]: i over j) and
 * outcomes of exactly ½ as ties (ties[i*k+j] = ties[j*k+i]).
 */
function winsAndTies(k: number, comparisons: readonly WeightedComparison[]) {
  const wins = new Float64Array(k * k);
  const ties = new Float64Array(k * k);
  for (const {i, j, weight, outcome} of comparisons) {
    if (outcome === 0.5) {
      ties[i * k + j] += weight;
      ties[j * k + i] += weight;
      continue;
    }
    wins[i * k + j] += weight * outcome;
    wins[j * k + i] += weight * (1 - outcome);
  }
  return {wins, ties};
}

/** An agent's rating under Davidson's model, in the ratings' own terms. */
export type DavidsonAgent = Pick<AgentRating, "agent" | "component" | "rating" | "rating_lo" | "rating_hi" | "rating_se" | "df" | "elo" | "rank" | "rank_lo" | "rank_hi" | "tier" | "settled">;

export interface DavidsonResult {
  model: "davidson";
  /** The tie parameter ν, and the probability of a tie between equally strong agents, ν / (2 + ν). */
  nu: number;
  nu_lo: number | null;
  nu_hi: number | null;
  tie_probability: number;
  tie_probability_lo: number | null;
  tie_probability_hi: number | null;
  /** Weighted ties and comparisons (after seat balance and family weights). */
  ties: number;
  comparisons: number;
  agents: DavidsonAgent[];
  /** Draws behind the rank intervals. */
  resamples: number;
}

/**
 * The sandwich of Davidson's fit: each comparison's share of the score in
 * (θ, log ν) (davidson.ts pairTerms) added to its cell, its information
 * (times its family's weight factor) to its family; in θ alone when ν̂ = 0.
 */
function davidsonDesign(k: number, comparisons: readonly WeightedComparison[], cells: readonly Cell[], scale: readonly number[], wins: Float64Array, ties: Float64Array, fit: DavidsonFit, prior: number): ClusterRobust {
  const withNu = fit.nu > 0;
  const p = withNu ? k + 1 : k;
  const {scores, strata} = emptyStrata(p, cells.map((c) => c.family), scale.length);
  for (const {i, j, weight, outcome, cell, family} of comparisons) {
    const t = outcome === 0.5 ? pairTerms(fit.theta[i] - fit.theta[j], fit.nu, 0, 0, weight) : pairTerms(fit.theta[i] - fit.theta[j], fit.nu, weight * outcome, weight * (1 - outcome), 0);
    const u = scores[cell];
    u[i] += t.gd;
    u[j] -= t.gd;
    const h = strata[family].information;
    const s = scale[family];
    h[i * p + i] += s * t.hdd;
    h[j * p + j] += s * t.hdd;
    h[i * p + j] -= s * t.hdd;
    h[j * p + i] -= s * t.hdd;
    if (!withNu) continue;
    u[k] += t.gt;
    h[i * p + k] += s * t.hdt;
    h[k * p + i] += s * t.hdt;
    h[j * p + k] -= s * t.hdt;
    h[k * p + j] -= s * t.hdt;
    h[k * p + k] += s * t.htt;
  }
  return clusterRobust(p, davidsonInformation(k, wins, ties, fit, prior), strata);
}

/**
 * Ratings under Davidson's model with ties (davidson.ts), a tie being two
 * seats with equal returns (outcome "win"): strengths centred within each
 * connected set as the ratings', with their intervals, ranks and tiers; ν
 * with its interval (see the module comment).
 */
export function davidsonRatings(games: readonly RatedGame[], options: ModelOptions = {}): DavidsonResult {
  const {weighting = "families", resamples = 1000, seed = 1, prior = 1, level = 0.95} = options;
  const {agents, comparisons, cells, scale} = ratingComparisons(games, {weighting, outcome: "win"});
  const k = agents.length;
  const {wins, ties} = winsAndTies(k, comparisons);
  const groups = components(k, wins.map((w, at) => w + ties[at])).filter((g) => g.length > 1);
  const componentOf = new Array<number>(k).fill(-1);
  groups.forEach((g, c) => g.forEach((i) => (componentOf[i] = c)));
  const fit = fitDavidson(k, wins, ties, prior);
  const point = centre(fit.theta, groups);
  const design = davidsonDesign(k, comparisons, cells, scale, wins, ties, fit, prior);
  const intervals = ratingIntervals(point, design, groups, new Array<number>(k).fill(1), {level, tierConfidence: TIER_CONFIDENCE, draws: resamples, seed});
  const nuInterval = fit.nu > 0 ? tInterval(Math.log(fit.nu), design.contrast(Float64Array.from({length: k + 1}, (_, i) => (i === k ? 1 : 0))), level) : {lo: null, hi: null};
  const [nu_lo, nu_hi] = [nuInterval.lo, nuInterval.hi].map((v) => (v === null ? null : Math.exp(v)));
  const rank = ranksOf(point, groups);
  let tieTotal = 0;
  let total = 0;
  for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) (tieTotal += ties[i * k + j]), (total += wins[i * k + j] + wins[j * k + i] + ties[i * k + j]);
  const share = (nu: number | null) => (nu === null ? null : nu / (2 + nu));
  const rated = agents
    .map((agent, i) => {
      const a = intervals.agents[i];
      return {agent, component: componentOf[i], rating: point[i], rating_lo: a.lo, rating_hi: a.hi, rating_se: a.se, df: a.df, elo: 1500 + ELO * point[i], rank: rank[i], rank_lo: a.rankLo, rank_hi: a.rankHi, tier: intervals.tier[i], settled: a.settled};
    })
    .filter((a) => a.component >= 0)
    .sort((x, y) => x.component - y.component || x.rank - y.rank);
  return {model: "davidson", nu: fit.nu, nu_lo, nu_hi, tie_probability: fit.nu / (2 + fit.nu), tie_probability_lo: share(nu_lo), tie_probability_hi: share(nu_hi), ties: tieTotal, comparisons: total, agents: rated, resamples: intervals.draws};
}

export interface NashAgent {
  agent: string;
  component: number;
  /** The maximum-entropy Nash equilibrium's probability of the agent, and its skill (expected log-odds against it). */
  mass: number;
  mass_lo: number | null;
  mass_hi: number | null;
  skill: number;
  skill_lo: number | null;
  skill_hi: number | null;
}

export interface NashResult {
  /** "empirical": each pair's observed log-odds (the Bradley–Terry fit's where a pair never met); "bradley-terry": the fit's for every pair. */
  matrix: "empirical" | "bradley-terry";
  agents: NashAgent[];
  /** Pairs within a connected set that never met (their entries come from the fit). */
  unmet_pairs: number;
  /** Draws of the evaluation matrix behind the intervals. */
  resamples: number;
}

/**
 * The inputs of the evaluation matrices: the Bradley–Terry log-strengths
 * (k) then, for the empirical matrix, the log-odds of each pair that met
 * within a connected set, ℓ = logit((W_ij + ½) / (N_ij + 1)) of i over j
 * for i < j (a half comparison added to each side, as Haldane's and
 * Anscombe's correction does, so a pair that only ever won keeps a finite
 * log-odds). `pair` maps i*k+j (i < j) to its index after the strengths.
 */
interface NashInputs {
  k: number;
  estimate: Float64Array;
  pair: Map<number, number>;
}

function nashInputs(k: number, wins: Float64Array, theta: Float64Array, groups: readonly number[][], matrix: "empirical" | "bradley-terry"): NashInputs {
  const pair = new Map<number, number>();
  const ell: number[] = [];
  if (matrix === "empirical") {
    for (const g of groups) {
      for (const i of g) {
        for (const j of g) {
          if (j <= i || wins[i * k + j] + wins[j * k + i] === 0) continue;
          pair.set(i * k + j, k + ell.length);
          ell.push(Math.log((wins[i * k + j] + 0.5) / (wins[j * k + i] + 0.5)));
        }
      }
    }
  }
  return {k, estimate: Float64Array.from([...theta, ...ell]), pair};
}

/**
 * The stacked sandwich of the inputs: the Bradley–Terry scores per cell
 * (ratings.ts btScoreStrata) and each pair's, W_ij,c − N_ij,c σ(ℓ); the
 * information block-diagonal, the fit's (prior included) and (N + 1) σ(1 − σ)
 * per pair.
 */
function nashDesign(inputs: NashInputs, cells: readonly Cell[], scale: readonly number[], wins: Float64Array, prior: number): ClusterRobust {
  const {k, estimate, pair} = inputs;
  const p = estimate.length;
  const theta = estimate.subarray(0, k);
  const {scores, strata} = btScoreStrata(k, cells, scale, theta, p);
  const sigmoid = (q: number) => 1 / (1 + Math.exp(-estimate[q]));
  cells.forEach((cell, c) => {
    for (let n = 0; n < cell.at.length; n++) {
      const i = Math.floor(cell.at[n] / k);
      const j = cell.at[n] - i * k;
      const q = pair.get(Math.min(i, j) * k + Math.max(i, j));
      if (q === undefined) continue;
      const s = sigmoid(q);
      // An amount of the first (lower-indexed) agent winning adds (1 − σ), of the other −σ.
      scores[c][q] += cell.w[n] * (i < j ? 1 - s : -s);
      strata[cell.family].information[q * p + q] += scale[cell.family] * cell.w[n] * s * (1 - s);
    }
  });
  const information = new Float64Array(p * p);
  const bt = btInformation(k, wins, theta, prior);
  for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) information[i * p + j] = bt[i * k + j];
  for (const [at, q] of pair) {
    const s = sigmoid(q);
    const n = wins[at] + wins[(at % k) * k + Math.floor(at / k)];
    information[q * p + q] = (n + 1) * s * (1 - s);
  }
  return clusterRobust(p, information, strata);
}

/** The antisymmetric evaluation matrix of one connected set `group` from inputs `x` (NashInputs' layout): a met pair's log-odds, else θ_i − θ_j. */
function evaluationMatrix(group: readonly number[], inputs: NashInputs, x: ArrayLike<number>): number[][] {
  const {k, pair} = inputs;
  return group.map((i) =>
    group.map((j) => {
      if (i === j) return 0;
      const q = pair.get(Math.min(i, j) * k + Math.max(i, j));
      if (q === undefined) return x[i] - x[j];
      return i < j ? x[q] : -x[q];
    }),
  );
}

/** The inputs a connected set's matrix reads (its pairs' log-odds, and its strengths unless every pair met in an empirical matrix) and the contrasts whose degrees of freedom bound its draws'. */
function groupInputs(group: readonly number[], inputs: NashInputs, unmet: boolean): {at: number[]; contrasts: Float64Array[]} {
  const {k, pair} = inputs;
  const p = inputs.estimate.length;
  const pairs = group.flatMap((i) => group.filter((j) => j > i).flatMap((j) => pair.get(i * k + j) ?? []));
  const needsTheta = pairs.length === 0 || unmet;
  const contrasts = pairs.map((q) => Float64Array.from({length: p}, (_, r) => (r === q ? 1 : 0)));
  if (needsTheta) for (const i of group) contrasts.push(Float64Array.from({length: p}, (_, r) => (r === i ? 1 : 0) - (group.includes(r) ? 1 / group.length : 0)));
  return {at: [...(needsTheta ? group : []), ...pairs], contrasts};
}

/**
 * Nash averaging (nashAveraging.ts) of each connected set of agents, on the
 * comparisons under `outcome` (margins included), with intervals from
 * `resamples` draws of its evaluation matrix (see the module comment).
 */
export function nashRatings(games: readonly RatedGame[], options: ModelOptions & Pick<RatingOptions, "outcome"> & {matrix?: "empirical" | "bradley-terry"} = {}): NashResult {
  const {weighting = "families", outcome = "win", resamples = 1000, seed = 1, prior = 1, level = 0.95, matrix = "empirical"} = options;
  const {agents, cells, scale} = ratingComparisons(games, {weighting, outcome});
  const k = agents.length;
  const wins = sumCells(k, cells);
  const groups = components(k, wins).filter((g) => g.length > 1);
  const theta = fitBradleyTerry(k, wins, prior);
  const inputs = nashInputs(k, wins, theta, groups, matrix);
  const mass = new Float64Array(k);
  const skill = new Float64Array(k);
  const drawn = agents.map(() => ({mass: [] as number[], skill: [] as number[]}));
  let unmet = 0;
  let taken = 0;
  const design = resamples > 0 ? nashDesign(inputs, cells, scale, wins, prior) : null;
  const rng = createRng(seed);
  for (const g of groups) {
    const before = unmet;
    for (const i of g) for (const j of g) if (i < j && wins[i * k + j] + wins[j * k + i] === 0) unmet++;
    const point = nashAverage(evaluationMatrix(g, inputs, inputs.estimate));
    g.forEach((i, n) => ((mass[i] = point.mass[n]), (skill[i] = point.skill[n])));
    if (!design) continue;
    const {at, contrasts} = groupInputs(g, inputs, unmet > before);
    const dfs = contrasts.map((a) => design.contrast(a).df).filter((df) => df > 0);
    // No spread to judge by (a stratum of one configuration only): no interval.
    if (!dfs.length) continue;
    const p = design.p;
    const covariance = Float64Array.from({length: at.length * at.length}, (_, n) => design.covariance[at[Math.floor(n / at.length)] * p + at[n % at.length]]);
    const x = Float64Array.from(inputs.estimate);
    for (const d of multivariateTDraws(at.map((r) => inputs.estimate[r]), covariance, Math.min(...dfs), resamples, rng)) {
      at.forEach((r, n) => (x[r] = d[n]));
      const r = nashAverage(evaluationMatrix(g, inputs, x));
      g.forEach((i, n) => (drawn[i].mass.push(r.mass[n]), drawn[i].skill.push(r.skill[n])));
    }
    taken = resamples;
  }
  const componentOf = new Array<number>(k).fill(-1);
  groups.forEach((g, c) => g.forEach((i) => (componentOf[i] = c)));
  const rated = agents
    .map((agent, i) => {
      const [mass_lo, mass_hi] = percentileInterval(drawn[i].mass, level);
      const [skill_lo, skill_hi] = percentileInterval(drawn[i].skill, level);
      return {agent, component: componentOf[i], mass: mass[i], mass_lo, mass_hi, skill: skill[i], skill_lo, skill_hi};
    })
    .filter((a) => a.component >= 0)
    .sort((x, y) => x.component - y.component || y.skill - x.skill || y.mass - x.mass);
  return {matrix, agents: rated, unmet_pairs: unmet, resamples: taken};
}
