/**
 * Ratings pooled across games: Bradley–Terry strengths from every pairwise
 * comparison the games allow, with bootstrap intervals over whole
 * configurations, rank intervals and groups of agents whose ranks cannot be
 * told apart. Pure: no DOM, no Node API, so pages and `parley ratings` share
 * it.
 *
 * Comparisons. In a game, every two seats held by different agents give one
 * comparison: the seat with the higher return wins, equal returns are half a
 * win each (or, with `outcome`, a fractional win by the margin:
 * ratingOutcomes.ts). Two-seat games are seat-balanced: when an unordered pair of
 * agents met in both seat orders, each order carries half of the pair's
 * weight in that game family, so an agent is not rewarded for having drawn
 * the seat with larger returns more often. Games with more seats compare
 * every pair of seats (ranks within the game).
 *
 * Weights. By default no game family (game id) weighs more than the mean
 * family: a family with more comparisons than that is scaled down to it, so
 * one big family does not drown the others, and a small one is never
 * inflated beyond what it shows. `weighting: "games"` counts every
 * comparison once.
 *
 * Model. P(i beats j) = π_i / (π_i + π_j), fitted by maximum likelihood
 * (Newton's method). Each agent also gets one virtual tie against
 * a reference of strength 1 (a weak prior that keeps an agent with no win,
 * or no loss, finite). Ratings are log-strengths centred within each
 * connected set of agents; agents that never met, directly or through
 * others, are in different components and are never ranked against each
 * other.
 *
 * Intervals. Resampling unit: a configuration (game family × config id, or
 * any cluster the caller names); each bootstrap draw resamples the clusters
 * of every family with replacement, so games that share a configuration
 * move together. A family with a single configuration is resampled by
 * game. Rating intervals are percentile intervals; the rank
 * interval is the 2.5 %–97.5 % range of an agent's rank over draws. Tiers:
 * walking down the point ranking, an agent starts a new tier when it ranks
 * below the current tier's first agent in at least 97.5 % of draws.
 */
import {createRng} from "./rng.js";
import {comparisonOutcome, type Outcome} from "./ratingOutcomes.js";

export interface RatedSeat {
  agent: string;
  score: number;
  /** Seat index; two-seat games are balanced by seat order. */
  seat: number;
  /** Carried for the controlled ranking (controlledRatings.ts), not read here: the seat's covariates and the entrant it counts for. */
  x?: readonly number[];
  entrant?: string;
}

export interface RatedGame {
  /** The game family (game id), the unit of equal weighting. */
  family: string;
  /** The resampling unit within the family (e.g. the configuration). */
  cluster: string;
  seats: RatedSeat[];
  /** How many identical games this one stands for (compactGames); 1 when absent. */
  count?: number;
}

export interface RatingOptions {
  weighting?: "families" | "games";
  /** What a comparison is worth (ratingOutcomes.ts); "win" by default. */
  outcome?: Outcome;
  /** Bootstrap draws (0: no intervals). */
  resamples?: number;
  seed?: number;
  /** Virtual ties against the reference player per agent. */
  prior?: number;
  level?: number;
}

export interface AgentRating {
  agent: string;
  /** Connected set of agents it can be compared with (0 is the largest). */
  component: number;
  games: number;
  comparisons: number;
  /** Weighted wins (ties count half) and comparisons after weighting. */
  wins: number;
  weight: number;
  /** Centred log-strength, and on the Elo scale (400 / ln 10 per unit, 1500 at the centre). */
  rating: number;
  rating_lo: number | null;
  rating_hi: number | null;
  elo: number;
  rank: number;
  rank_lo: number | null;
  rank_hi: number | null;
  tier: number;
}

export interface RatingsResult {
  agents: AgentRating[];
  /** Agents with games but no comparison with another agent (self-play only, say). */
  unrated: {agent: string; games: number}[];
  families: {family: string; games: number; comparisons: number; weight: number; clusters: number}[];
  components: string[][];
  resamples: number;
  /** P(row agent rated above column agent) over draws, same order as `agents`; null without resamples. */
  above: number[][] | null;
}

/** Win weights between agents from one cluster of games, sparse: wins[at[n]] += w[n] with at = i*k+j (i beat j). */
interface Cell {
  family: number;
  at: Int32Array;
  w: Float64Array;
}

const ELO = 400 / Math.LN10;
/**
 * A bootstrap draw stops when Newton's step is below this: its error is then
 * of the order of the step squared (Newton converges quadratically), about
 * 1e-12, far below the intervals' resolution, one iteration sooner.
 */
const DRAW_TOLERANCE = 1e-6;
/** Newton steps longer than this (in log-strength) are checked against the likelihood and halved if need be. */
const LONG_STEP = 0.5;

/** Sorted distinct agents of a set of games. */
function agentsOf(games: readonly RatedGame[]): string[] {
  const set = new Set<string>();
  for (const g of games) for (const s of g.seats) set.add(s.agent);
  return [...set].sort();
}

/**
 * Per family and cluster, the weighted wins between agents. Seat balancing
 * and family weights are applied here, once, so a bootstrap draw only sums
 * cells.
 */
function buildCells(games: readonly RatedGame[], index: Map<string, number>, weighting: "families" | "games", outcome: Outcome = "win", collect?: (c: WeightedComparison) => void) {
  const k = index.size;
  const families = [...new Set(games.map((g) => g.family))].sort();
  const familyIndex = new Map(families.map((f, i) => [f, i]));
  const familyOf = games.map((g) => familyIndex.get(g.family)!);
  // Seats in seat order, as agent indexes (one pass, reused below).
  const seatsOf = games.map((g) => [...g.seats].sort((x, y) => x.seat - y.seat).map((s) => ({i: index.get(s.agent)!, score: s.score, seat: s})));
  // Seat-order counts per family and ordered pair (first seat, second seat), for balancing.
  const orderCount = new Map<number, number>();
  const orderKey = (f: number, first: number, second: number) => (f * k + first) * k + second;
  const countOf = games.map((g) => g.count ?? 1);
  seatsOf.forEach((seats, n) => {
    if (seats.length !== 2 || seats[0].i === seats[1].i) return;
    const key = orderKey(familyOf[n], seats[0].i, seats[1].i);
    orderCount.set(key, (orderCount.get(key) ?? 0) + countOf[n]);
  });
  const orderWeight = (f: number, first: number, second: number): number => {
    const here = orderCount.get(orderKey(f, first, second)) ?? 0;
    const there = orderCount.get(orderKey(f, second, first)) ?? 0;
    return there === 0 ? 1 : (here + there) / (2 * here);
  };
  const clustersOf = families.map(() => new Set<string>());
  games.forEach((g, n) => clustersOf[familyOf[n]].add(g.cluster));
  // A family with a single configuration is resampled by game instead (nothing to resample otherwise).
  const singleCluster = families.map((_, f) => clustersOf[f].size < 2);
  const familyStats = families.map((family) => ({family, games: 0, comparisons: 0, weight: 0}));
  const agentGames = new Array<number>(k).fill(0);
  const agentComparisons = new Array<number>(k).fill(0);
  // First pass: counts and each family's total weight; second: the scaled wins per cell.
  const visit = (each: (n: number, i: number, j: number, w: number, win: number, first: RatedSeat, second: RatedSeat) => void) => {
    seatsOf.forEach((seats, n) => {
      const f = familyOf[n];
      for (let x = 0; x < seats.length; x++) {
        for (let y = x + 1; y < seats.length; y++) {
          const [sx, sy] = [seats[x], seats[y]];
          if (sx.i === sy.i) continue;
          const w = seats.length === 2 ? orderWeight(f, sx.i, sy.i) : 1;
          each(n, sx.i, sy.i, w, comparisonOutcome(outcome, sx.score, sy.score), sx.seat, sy.seat);
        }
      }
    });
  };
  seatsOf.forEach((seats, n) => {
    familyStats[familyOf[n]].games += countOf[n];
    const seen = new Set<number>();
    for (const s of seats) if (!seen.has(s.i)) seen.add(s.i), (agentGames[s.i] += countOf[n]);
  });
  visit((n, i, j, w) => {
    const stats = familyStats[familyOf[n]];
    const c = countOf[n];
    stats.comparisons += c;
    stats.weight += w * c;
    agentComparisons[i] += c;
    agentComparisons[j] += c;
  });
  // Equal weight: no family weighs more than the mean family; a small
  // family is not inflated beyond the comparisons it holds.
  const used = familyStats.filter((s) => s.weight > 0);
  const target = used.length ? used.reduce((t, s) => t + s.weight, 0) / used.length : 0;
  const scale = familyStats.map((s) => (weighting === "games" || s.weight <= target ? 1 : target / s.weight));
  const cells = new Map<string, {family: number; wins: Map<number, number>}>();
  const cellOf = games.map((g, n) => {
    const f = familyOf[n];
    const key = singleCluster[f] ? `${f}\u0000game\u0000${n}` : `${f}\u0000${g.cluster}`;
    let cell = cells.get(key);
    if (!cell) cells.set(key, (cell = {family: f, wins: new Map()}));
    return cell;
  });
  visit((n, i, j, w, win, first, second) => {
    const {wins} = cellOf[n];
    const sw = w * scale[familyOf[n]] * countOf[n];
    collect?.({game: n, i, j, first, second, weight: sw, outcome: win});
    if (win > 0) wins.set(i * k + j, (wins.get(i * k + j) ?? 0) + sw * win);
    if (win < 1) wins.set(j * k + i, (wins.get(j * k + i) ?? 0) + sw * (1 - win));
  });
  familyStats.forEach((s, f) => (s.weight *= scale[f]));
  const sparse: Cell[] = [...cells.values()].map(({family, wins}) => ({family, at: Int32Array.from(wins.keys()), w: Float64Array.from(wins.values())}));
  return {cells: sparse, families: familyStats.map((s, f) => ({...s, clusters: clustersOf[f].size})), agentGames, agentComparisons};
}

/** One comparison as the fit counts it: game `game` (an index into the games given), agents `i` over `j` by their seats. */
export interface WeightedComparison {
  game: number;
  i: number;
  j: number;
  first: RatedSeat;
  second: RatedSeat;
  /** Seat balance × family weight × the game's count. */
  weight: number;
  /** The first seat's outcome in [0, 1] (ratingOutcomes.ts). */
  outcome: number;
}

/**
 * Every comparison rateAgents fits, weighted as it weights them, for the
 * models fitted beside it (ratingModels.ts): agents are indexes into
 * `agents` (sorted).
 */
export function ratingComparisons(games: readonly RatedGame[], {weighting = "families", outcome = "win"}: Pick<RatingOptions, "weighting" | "outcome"> = {}): {agents: string[]; comparisons: WeightedComparison[]} {
  const agents = agentsOf(games);
  const comparisons: WeightedComparison[] = [];
  buildCells(games, new Map(agents.map((a, i) => [a, i])), weighting, outcome, (c) => comparisons.push(c));
  return {agents, comparisons};
}

/**
 * The same games in fewer rows, for shipping to a page: a two-seat game is
 * reduced to its outcome under `outcome` (o and 1 − o per seat: all
 * rateAgents reads of it, ratingOutcomes.ts),
 * and identical games of one family and cluster are merged into one with a
 * `count`, placed where the first of them was (so clusters keep their order
 * and a seeded bootstrap draws the same configurations). Games of a family
 * with a single cluster are left apart: the bootstrap resamples those one
 * by one. rateAgents with the same `outcome` gives the same result on the
 * compact games (sums taken in another order: equal to rounding, about
 * 1e-15); a margin outcome keeps (o, 1 − o), which merge less often.
 */
export function compactGames(games: readonly RatedGame[], outcome: Outcome = "win"): RatedGame[] {
  const clusters = new Map<string, Set<string>>();
  for (const g of games) {
    if (!clusters.has(g.family)) clusters.set(g.family, new Set());
    clusters.get(g.family)!.add(g.cluster);
  }
  const merged = new Map<string, RatedGame>();
  const out: RatedGame[] = [];
  for (const g of games) {
    let seats = [...g.seats].sort((x, y) => x.seat - y.seat);
    if (seats.length === 2) {
      const win = comparisonOutcome(outcome, seats[0].score, seats[1].score);
      seats = [{...seats[0], score: win}, {...seats[1], score: 1 - win}];
    }
    const game = {family: g.family, cluster: g.cluster, seats: seats.map(({agent, seat, score}) => ({agent, seat, score}))};
    if (clusters.get(g.family)!.size < 2) {
      out.push({...game, count: g.count ?? 1});
      continue;
    }
    const key = JSON.stringify([g.family, g.cluster, game.seats.map((s) => [s.agent, s.seat, s.score])]);
    const seen = merged.get(key);
    if (seen) seen.count! += g.count ?? 1;
    else {
      const first = {...game, count: g.count ?? 1};
      merged.set(key, first);
      out.push(first);
    }
  }
  return out;
}

/** Connected sets of agents (an edge wherever two agents were compared), largest first. */
export function components(k: number, wins: Float64Array): number[][] {
  const parent = Array.from({length: k}, (_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) if (wins[i * k + j] + wins[j * k + i] > 0) parent[find(i)] = find(j);
  const groups = new Map<number, number[]>();
  for (let i = 0; i < k; i++) {
    const r = find(i);
    if (!groups.has(r)) groups.set(r, []);
    groups.get(r)!.push(i);
  }
  return [...groups.values()].sort((a, b) => b.length - a.length || a[0] - b[0]);
}

/**
 * Bradley–Terry log-strengths from a k×k win matrix (wins[i*k+j]: weight of
 * i beating j), with `prior` virtual ties per agent against a reference of
 * strength 1, by Newton's method on the log-likelihood with step halving
 * (a few iterations where Hunter's MM iteration needs thousands when the
 * prior is weak). Without a prior the likelihood does not move when every
 * agent of a connected set shifts by the same amount; a penalty on each
 * set's sum pins that direction and leaves the optimum otherwise unchanged.
 * `start` warms the iteration (bootstrap draws start from the point
 * estimate).
 */
export function fitBradleyTerry(k: number, wins: Float64Array, prior = 1, start?: Float64Array, tolerance = 1e-12, maxIterations = 200): Float64Array {
  const theta = new Float64Array(k);
  if (start) theta.set(start);
  const pins = prior > 0 ? [] : components(k, wins);
  const loglik = (t: Float64Array): number => {
    let l = 0;
    for (let i = 0; i < k; i++) {
      if (prior > 0) l += prior * (0.5 * t[i] - Math.log1p(Math.exp(t[i])));
      for (let j = 0; j < k; j++) {
        const w = wins[i * k + j];
        if (w > 0) l -= w * Math.log1p(Math.exp(t[j] - t[i]));
      }
    }
    for (const g of pins) {
      const sum = g.reduce((acc, i) => acc + t[i], 0);
      l -= 0.5 * sum * sum;
    }
    return l;
  };
  const grad = new Float64Array(k);
  const hess = new Float64Array(k * k);
  let current: number | undefined;
  for (let iteration = 0; iteration < maxIterations; iteration++) {
    grad.fill(0);
    hess.fill(0);
    for (let i = 0; i < k; i++) {
      if (prior > 0) {
        const s = 1 / (1 + Math.exp(-theta[i]));
        grad[i] += prior * (0.5 - s);
        hess[i * k + i] += prior * s * (1 - s);
      }
      for (let j = i + 1; j < k; j++) {
        const n = wins[i * k + j] + wins[j * k + i];
        if (n === 0) continue;
        const p = 1 / (1 + Math.exp(theta[j] - theta[i]));
        const g = wins[i * k + j] - n * p;
        const h = n * p * (1 - p);
        grad[i] += g;
        grad[j] -= g;
        hess[i * k + i] += h;
        hess[j * k + j] += h;
        hess[i * k + j] -= h;
        hess[j * k + i] -= h;
      }
    }
    for (const g of pins) {
      const sum = g.reduce((acc, i) => acc + theta[i], 0);
      for (const i of g) {
        grad[i] -= sum;
        for (const j of g) hess[i * k + j] += 1;
      }
    }
    // hess holds −∇²: solve (−∇²) δ = ∇ for the ascent step.
    const step = solveSymmetric(k, hess, grad);
    let scale = 1;
    let next = theta.map((t, i) => t + step[i]);
    // The likelihood is concave, so a short Newton step (near the optimum, as
    // every warm-started bootstrap draw is) never needs halving; checking it
    // costs k² logarithms, most of a draw's time. Long steps are checked.
    if (step.reduce((m, d) => Math.max(m, Math.abs(d)), 0) > LONG_STEP) {
      current ??= loglik(theta);
      let value = loglik(next);
      while (value < current - 1e-12 * Math.abs(current) && scale > 1e-6) {
        scale /= 2;
        next = theta.map((t, i) => t + scale * step[i]);
        value = loglik(next);
      }
      current = value;
    } else current = undefined;
    const change = step.reduce((m, d) => Math.max(m, Math.abs(scale * d)), 0);
    theta.set(next);
    if (change < tolerance) break;
  }
  return theta;
}

/**
 * Solves A x = b for a symmetric positive definite A (k×k, flattened): by
 * Cholesky's factorisation (A = L Lᵀ, half the work of elimination, and
 * the bootstrap solves thousands of these), or by Gaussian elimination with
 * partial pivoting when A is not positive definite to rounding.
 */
export function solveSymmetric(k: number, matrix: Float64Array, b: Float64Array): Float64Array {
  const l = new Float64Array(k * k);
  for (let j = 0; j < k; j++) {
    let d = matrix[j * k + j];
    for (let m = 0; m < j; m++) d -= l[j * k + m] * l[j * k + m];
    if (!(d > 1e-300)) return solveByElimination(k, matrix, b);
    const root = Math.sqrt(d);
    l[j * k + j] = root;
    for (let i = j + 1; i < k; i++) {
      let v = matrix[i * k + j];
      for (let m = 0; m < j; m++) v -= l[i * k + m] * l[j * k + m];
      l[i * k + j] = v / root;
    }
  }
  const x = new Float64Array(k);
  for (let i = 0; i < k; i++) {
    let v = b[i];
    for (let m = 0; m < i; m++) v -= l[i * k + m] * x[m];
    x[i] = v / l[i * k + i];
  }
  for (let i = k - 1; i >= 0; i--) {
    let v = x[i];
    for (let m = i + 1; m < k; m++) v -= l[m * k + i] * x[m];
    x[i] = v / l[i * k + i];
  }
  return x;
}

/** Gaussian elimination with partial pivoting (a singular direction gets 0). */
function solveByElimination(k: number, matrix: Float64Array, b: Float64Array): Float64Array {
  const a = Array.from({length: k}, (_, i) => [...matrix.subarray(i * k, i * k + k), b[i]]);
  for (let col = 0; col < k; col++) {
    let pivot = col;
    for (let r = col + 1; r < k; r++) if (Math.abs(a[r][col]) > Math.abs(a[pivot][col])) pivot = r;
    [a[col], a[pivot]] = [a[pivot], a[col]];
    const d = a[col][col];
    if (Math.abs(d) < 1e-300) continue;
    for (let r = col + 1; r < k; r++) {
      const f = a[r][col] / d;
      if (f !== 0) for (let c = col; c <= k; c++) a[r][c] -= f * a[col][c];
    }
  }
  const x = new Float64Array(k);
  for (let r = k - 1; r >= 0; r--) {
    let v = a[r][k];
    for (let c = r + 1; c < k; c++) v -= a[r][c] * x[c];
    x[r] = Math.abs(a[r][r]) < 1e-300 ? 0 : v / a[r][r];
  }
  return x;
}

/** Centres log-strengths within each component (mean 0). */
export function centre(theta: Float64Array, groups: number[][]): Float64Array {
  const out = new Float64Array(theta);
  for (const g of groups) {
    const mean = g.reduce((t, i) => t + theta[i], 0) / g.length;
    for (const i of g) out[i] = theta[i] - mean;
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

/**
 * The win matrix of `cells`, each taken `times[c]` times (once each without
 * it). The cells' entries are laid end to end (`flat`) because a bootstrap
 * sums them a thousand times: one pass over two typed arrays.
 */
function sumCells(k: number, flat: FlatCells, times?: Int32Array): Float64Array {
  const wins = new Float64Array(k * k);
  const {start, at, w} = flat;
  for (let c = 0; c + 1 < start.length; c++) {
    const t = times ? times[c] : 1;
    if (t === 0) continue;
    for (let n = start[c]; n < start[c + 1]; n++) wins[at[n]] += t * w[n];
  }
  return wins;
}

interface FlatCells {
  /** Cell c's entries are start[c] … start[c + 1] − 1 of `at` and `w`. */
  start: Int32Array;
  at: Int32Array;
  w: Float64Array;
}

function flatten(cells: readonly Cell[]): FlatCells {
  const start = new Int32Array(cells.length + 1);
  cells.forEach((cell, c) => (start[c + 1] = start[c] + cell.at.length));
  const at = new Int32Array(start[cells.length]);
  const w = new Float64Array(start[cells.length]);
  cells.forEach((cell, c) => (at.set(cell.at, start[c]), w.set(cell.w, start[c])));
  return {start, at, w};
}

/** Ranks (1 = best) of `theta` within each component. */
export function ranksOf(theta: Float64Array, groups: number[][]): number[] {
  const rank = new Array<number>(theta.length).fill(0);
  for (const g of groups) [...g].sort((a, b) => theta[b] - theta[a]).forEach((i, r) => (rank[i] = r + 1));
  return rank;
}

/** Ratings with intervals from a set of played games (see the module comment). */
export function rateAgents(games: readonly RatedGame[], options: RatingOptions = {}): RatingsResult {
  const {weighting = "families", outcome = "win", resamples = 1000, seed = 1, prior = 1, level = 0.95} = options;
  const names = agentsOf(games);
  const index = new Map(names.map((a, i) => [a, i]));
  const k = names.length;
  const built = buildCells(games, index, weighting, outcome);
  const flat = flatten(built.cells);
  const wins = sumCells(k, flat);
  // Agents never compared are left out of the components (and so of ranks).
  const groups = components(k, wins).filter((g) => g.length > 1);
  const componentOf = new Array<number>(k);
  groups.forEach((g, c) => g.forEach((i) => (componentOf[i] = c)));
  const point = centre(fitBradleyTerry(k, wins, prior), groups);
  const pointRank = ranksOf(point, groups);

  const draws: Float64Array[] = [];
  if (resamples > 0) {
    const rng = createRng(seed);
    const byFamily = built.families.map((_, f) => built.cells.flatMap((c, i) => (c.family === f ? [i] : [])));
    const times = new Int32Array(built.cells.length);
    for (let b = 0; b < resamples; b++) {
      times.fill(0);
      for (const cells of byFamily) for (let n = 0; n < cells.length; n++) times[cells[rng.int(cells.length)]]++;
      draws.push(centre(fitBradleyTerry(k, sumCells(k, flat, times), prior, point, DRAW_TOLERANCE), groups));
    }
  }
  const alpha = (1 - level) / 2;
  let above: number[][] | null = null;
  if (draws.length) {
    const counts = new Float64Array(k * k);
    for (const d of draws) for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) if (d[i] > d[j]) counts[i * k + j]++;
    above = names.map((_, i) => names.map((_, j) => (i === j || componentOf[i] !== componentOf[j] ? NaN : counts[i * k + j] / draws.length)));
  }
  const drawRanks = draws.map((d) => ranksOf(d, groups));

  // Tiers within each component, walking down the point ranking.
  const tier = new Array<number>(k).fill(1);
  for (const g of groups) {
    const order = [...g].sort((a, b) => pointRank[a] - pointRank[b]);
    let head = order[0];
    let t = 1;
    for (const i of order) {
      if (i !== head && above && above[head][i] >= 1 - alpha) {
        t++;
        head = i;
      }
      tier[i] = t;
    }
  }

  const agents: AgentRating[] = names.map((agent, i) => {
    const r = draws.map((d) => d[i]).sort((a, b) => a - b);
    const rk = drawRanks.map((d) => d[i]).sort((a, b) => a - b);
    let w = 0;
    let n = 0;
    for (let j = 0; j < k; j++) {
      w += wins[i * k + j];
      n += wins[i * k + j] + wins[j * k + i];
    }
    return {
      agent,
      component: componentOf[i],
      games: built.agentGames[i],
      comparisons: built.agentComparisons[i],
      wins: w,
      weight: n,
      rating: point[i],
      rating_lo: r.length ? quantile(r, alpha) : null,
      rating_hi: r.length ? quantile(r, 1 - alpha) : null,
      elo: 1500 + ELO * point[i],
      rank: pointRank[i],
      rank_lo: rk.length ? Math.round(quantile(rk, alpha)) : null,
      rank_hi: rk.length ? Math.round(quantile(rk, 1 - alpha)) : null,
      tier: tier[i],
    };
  });
  const rated = agents.map((_, i) => i).filter((i) => agents[i].comparisons > 0);
  const order = rated.sort((a, b) => agents[a].component - agents[b].component || agents[a].rank - agents[b].rank);
  return {
    agents: order.map((i) => agents[i]),
    unrated: agents.filter((a) => a.comparisons === 0).map(({agent, games}) => ({agent, games})),
    families: built.families,
    components: groups.map((g) => g.map((i) => names[i])),
    resamples: draws.length,
    above: above ? order.map((i) => order.map((j) => above[i][j])) : null,
  };
}
