/**
 * Models fitted beside the Bradley–Terry ratings (ratings.ts), on the same
 * weighted comparisons (ratings.ts ratingComparisons): the model with a
 * ties parameter (davidson.ts) and Nash averaging (nashAveraging.ts), each
 * with percentile intervals over two-stage bootstrap draws (ratingDraws.ts:
 * configurations, then games within them). `parley ratings` and /ratings
 * both call them. Pure: no DOM, no Node API.
 */
import {centre, components, fitBradleyTerry, ranksOf, ratingComparisons, type AgentRating, type RatedGame, type RatingOptions, type WeightedComparison} from "./ratings.js";
import {quantile} from "./ratingIntervals.js";
import {fitDavidson} from "./davidson.js";
import {nashAverage} from "./nashAveraging.js";
import {drawDesign, twoStageDraw} from "./ratingDraws.js";
import {createRng} from "./rng.js";

const ELO = 400 / Math.LN10;

type ModelOptions = Pick<RatingOptions, "weighting" | "resamples" | "seed" | "prior" | "level">;

/** Percentile interval of `values` at `level`; nulls without values. */
export function percentileInterval(values: readonly number[], level: number): [number | null, number | null] {
  if (!values.length) return [null, null];
  const sorted = [...values].sort((x, y) => x - y);
  const alpha = (1 - level) / 2;
  return [quantile(sorted, alpha), quantile(sorted, 1 - alpha)];
}

/** Comparisons in typed arrays (a bootstrap sums them a thousand times): agents i over j in game `game`, weight per copy of the game, outcome. */
interface FlatComparisons {
  i: Int32Array;
  j: Int32Array;
  game: Int32Array;
  w: Float64Array;
  o: Float64Array;
}

function flatten(games: readonly RatedGame[], comparisons: readonly WeightedComparison[]): FlatComparisons {
  const n = comparisons.length;
  const flat = {i: new Int32Array(n), j: new Int32Array(n), game: new Int32Array(n), w: new Float64Array(n), o: new Float64Array(n)};
  comparisons.forEach((c, m) => {
    flat.i[m] = c.i;
    flat.j[m] = c.j;
    flat.game[m] = c.game;
    flat.w[m] = c.weight / (games[c.game].count ?? 1);
    flat.o[m] = c.outcome;
  });
  return flat;
}

/**
 * Per ordered pair, the weighted outcome (wins[i*k+j]: i over j, ties
 * split) and, unless `splitTies`, outcomes of exactly ½ apart as ties
 * (ties[i*k+j] = ties[j*k+i]); each comparison taken times[game] times its
 * weight per copy (its whole weight without a draw).
 */
function pairTables(k: number, c: FlatComparisons, counts: Float64Array, times?: Float64Array, splitTies = true) {
  const wins = new Float64Array(k * k);
  const ties = new Float64Array(k * k);
  const by = times ?? counts;
  for (let m = 0; m < c.i.length; m++) {
    const w = c.w[m] * by[c.game[m]];
    if (w === 0) continue;
    const i = c.i[m];
    const j = c.j[m];
    const o = c.o[m];
    if (!splitTies && o === 0.5) {
      ties[i * k + j] += w;
      ties[j * k + i] += w;
      continue;
    }
    wins[i * k + j] += w * o;
    wins[j * k + i] += w * (1 - o);
  }
  return {wins, ties};
}

const countsOf = (games: readonly RatedGame[]) => Float64Array.from(games, (g) => g.count ?? 1);

/** An agent's rating under Davidson's model, in the ratings' own terms. */
export type DavidsonAgent = Pick<AgentRating, "agent" | "component" | "rating" | "rating_lo" | "rating_hi" | "elo" | "rank" | "rank_lo" | "rank_hi">;

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
  resamples: number;
}

/**
 * Ratings under Davidson's model with ties (davidson.ts), a tie being two
 * seats with equal returns (outcome "win"): strengths centred within each
 * connected set as the ratings', ν with its interval.
 */
export function davidsonRatings(games: readonly RatedGame[], options: ModelOptions = {}): DavidsonResult {
  const {weighting = "families", resamples = 1000, seed = 1, prior = 1, level = 0.95} = options;
  const {agents, comparisons} = ratingComparisons(games, {weighting, outcome: "win"});
  const k = agents.length;
  const flat = flatten(games, comparisons);
  const counts = countsOf(games);
  const {wins, ties} = pairTables(k, flat, counts, undefined, false);
  const groups = components(k, wins.map((w, at) => w + ties[at])).filter((g) => g.length > 1);
  const componentOf = new Array<number>(k).fill(-1);
  groups.forEach((g, c) => g.forEach((i) => (componentOf[i] = c)));
  const fit = fitDavidson(k, wins, ties, prior);
  const point = centre(fit.theta, groups);
  const draws: Float64Array[] = [];
  const nus: number[] = [];
  if (resamples > 0) {
    const rng = createRng(seed);
    const plan = drawDesign(games);
    const times = new Float64Array(games.length);
    for (let r = 0; r < resamples; r++) {
      const t = pairTables(k, flat, counts, twoStageDraw(plan, rng, times), false);
      const d = fitDavidson(k, t.wins, t.ties, prior, fit, 1e-6);
      draws.push(centre(d.theta, groups));
      nus.push(d.nu);
    }
  }
  const rank = ranksOf(point, groups);
  const drawRanks = draws.map((d) => ranksOf(d, groups));
  let tieTotal = 0;
  let total = 0;
  for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) (tieTotal += ties[i * k + j]), (total += wins[i * k + j] + wins[j * k + i] + ties[i * k + j]);
  const [nu_lo, nu_hi] = percentileInterval(nus, level);
  const share = (nu: number | null) => (nu === null ? null : nu / (2 + nu));
  const rated = agents
    .map((agent, i) => {
      const [rating_lo, rating_hi] = percentileInterval(draws.map((d) => d[i]), level);
      const [rank_lo, rank_hi] = percentileInterval(drawRanks.map((d) => d[i]), level);
      return {agent, component: componentOf[i], rating: point[i], rating_lo, rating_hi, elo: 1500 + ELO * point[i], rank: rank[i], rank_lo: rank_lo === null ? null : Math.round(rank_lo), rank_hi: rank_hi === null ? null : Math.round(rank_hi)};
    })
    .filter((a) => a.component >= 0)
    .sort((x, y) => x.component - y.component || x.rank - y.rank);
  return {model: "davidson", nu: fit.nu, nu_lo, nu_hi, tie_probability: fit.nu / (2 + fit.nu), tie_probability_lo: share(nu_lo), tie_probability_hi: share(nu_hi), ties: tieTotal, comparisons: total, agents: rated, resamples: draws.length};
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
  resamples: number;
}

/**
 * The antisymmetric evaluation matrix of one connected set `group`:
 * A[i][j] = logit((W_ij + ½) / (N_ij + 1)) for a pair that met (a half
 * comparison added to each side, as Haldane's and Anscombe's correction
 * does, so a pair that only ever won keeps a finite log-odds), else θ_i − θ_j.
 */
function evaluationMatrix(group: readonly number[], k: number, wins: Float64Array, theta: Float64Array, matrix: "empirical" | "bradley-terry"): {a: number[][]; unmet: number} {
  let unmet = 0;
  const a = group.map((i) =>
    group.map((j) => {
      if (i === j) return 0;
      const n = wins[i * k + j] + wins[j * k + i];
      if (n === 0 && i < j) unmet++;
      if (matrix === "bradley-terry" || n === 0) return theta[i] - theta[j];
      return Math.log((wins[i * k + j] + 0.5) / (wins[j * k + i] + 0.5));
    }),
  );
  return {a, unmet};
}

/**
 * Nash averaging (nashAveraging.ts) of each connected set of agents, on the
 * comparisons under `outcome` (margins included).
 */
export function nashRatings(games: readonly RatedGame[], options: ModelOptions & Pick<RatingOptions, "outcome"> & {matrix?: "empirical" | "bradley-terry"} = {}): NashResult {
  const {weighting = "families", outcome = "win", resamples = 1000, seed = 1, prior = 1, level = 0.95, matrix = "empirical"} = options;
  const {agents, comparisons} = ratingComparisons(games, {weighting, outcome});
  const k = agents.length;
  const flat = flatten(games, comparisons);
  const counts = countsOf(games);
  const solve = (wins: Float64Array, start?: Float64Array) => {
    const theta = fitBradleyTerry(k, wins, prior, start, start ? 1e-6 : 1e-12);
    const mass = new Float64Array(k);
    const skill = new Float64Array(k);
    let unmet = 0;
    for (const g of groups) {
      const e = evaluationMatrix(g, k, wins, theta, matrix);
      unmet += e.unmet;
      const r = nashAverage(e.a);
      g.forEach((i, n) => ((mass[i] = r.mass[n]), (skill[i] = r.skill[n])));
    }
    return {theta, mass, skill, unmet};
  };
  const {wins} = pairTables(k, flat, counts);
  const groups = components(k, wins).filter((g) => g.length > 1);
  const point = solve(wins);
  const draws: {mass: Float64Array; skill: Float64Array}[] = [];
  if (resamples > 0) {
    const rng = createRng(seed);
    const plan = drawDesign(games);
    const times = new Float64Array(games.length);
    for (let r = 0; r < resamples; r++) draws.push(solve(pairTables(k, flat, counts, twoStageDraw(plan, rng, times)).wins, point.theta));
  }
  const componentOf = new Array<number>(k).fill(-1);
  groups.forEach((g, c) => g.forEach((i) => (componentOf[i] = c)));
  const rated = agents
    .map((agent, i) => {
      const [mass_lo, mass_hi] = percentileInterval(draws.map((d) => d.mass[i]), level);
      const [skill_lo, skill_hi] = percentileInterval(draws.map((d) => d.skill[i]), level);
      return {agent, component: componentOf[i], mass: point.mass[i], mass_lo, mass_hi, skill: point.skill[i], skill_lo, skill_hi};
    })
    .filter((a) => a.component >= 0)
    .sort((x, y) => x.component - y.component || y.skill - x.skill || y.mass - x.mass);
  return {matrix, agents: rated, unmet_pairs: point.unmet, resamples: draws.length};
}
