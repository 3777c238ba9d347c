/**
 * Ratings pooled across games: Bradley–Terry strengths from every pairwise
 * comparison the games allow, with intervals that follow the design
 * (configurations sampled within game families), rank intervals, tiers of
 * agents whose order cannot be told apart, and a label for how settled
 * each rating is. Pure: no DOM, no Node API, so pages and `parley ratings`
 * share it.
 *
 * Comparisons. In a game, every two seats held by different agents give one
 * comparison: the seat with the higher return wins, equal returns are half a
 * win each (or, with `outcome`, a fractional win by the margin:
 * ratingOutcomes.ts). Two-seat games are seat-balanced: when an unordered
 * pair of agents met in both seat orders, each order carries half of the
 * pair's weight in that game family, so an agent is not rewarded for having
 * drawn the seat with larger returns more often. Games with more seats compare
 * every pair of seats (ranks within the game).
 *
 * Weights (one pooled rating across every game). By default ("families")
 * no game family (game id) weighs more than the mean family: a family with
 * more comparisons than that is scaled down to it, so one big family does
 * not drown the others, and a small one is never inflated beyond what it
 * shows. "equal" gives every family exactly the mean family's weight, as
 * Kaggle Game Arena's pooled Bradley–Terry divides each game's results by
 * its episode count (scaled to the mean family rather than to 1, so the
 * prior keeps its size). "games" counts every comparison once, so a family
 * weighs as many games as it played.
 *
 * Clones. With `clones: "robust"`, near-identical agents (cloneGroups.ts:
 * their results against every common opponent, configuration by
 * configuration, differ by no more than noise and a tolerance) count as one
 * entrant: a comparison between members of groups of sizes m and n weighs
 * 1/(m·n), each member's prior 1/m, and each member 1/m in the centre. With
 * exact clones every other agent's likelihood then holds the group as it
 * would hold one of its members (its games averaged), so adding a copy of
 * an agent moves the others only by the noise of the copy's games; the
 * default fit, where a copy adds its comparisons and its strength to the
 * centre, moves them by its rating over the number of agents, and more
 * when strengths are not transitive (Liu et al. 2025, "Re-evaluating
 * Open-ended Evaluation of Large Language Models", ICLR, §1). Every member
 * keeps its own rating.
 *
 * Model. P(i beats j) = π_i / (π_i + π_j), fitted by maximum likelihood
 * (Newton's method). Each agent also gets one virtual tie against
 * a reference of strength 1 (a weak prior that keeps an agent with no win,
 * or no loss, finite). Ratings are log-strengths centred within each
 * connected set of agents; agents that never met, directly or through
 * others, are in different components and are never ranked against each
 * other.
 *
 * Intervals. The truth they aim at is the rating an agent would get from
 * every configuration its game families could be played in (the families
 * themselves fixed), infinitely many games each. Configurations (game
 * family × config id, or any cluster the caller names; each game of a
 * family with a single configuration) are the sampled units, families the
 * strata: the variance is the stratified cluster-robust sandwich and an
 * interval is ± Student's t with Satterthwaite's degrees of freedom, about
 * (configurations − families) (clusterRobust.ts, which says why not a
 * bootstrap). With two configurations a family, as the built-in
 * game-theoretic run has, that is 10 degrees of freedom for ten families,
 * and intervals 14 % wider than the normal's. A rank interval is the
 * 2.5 %–97.5 % range of an agent's rank over draws from the multivariate t
 * of the ratings (the smallest degrees of freedom of the connected set).
 *
 * Tiers. Walking down the point ranking, a new tier starts where the next
 * agent is below the one just above it with at least 99 % confidence
 * (one-sided t on their difference); neighbours that cannot be ordered that
 * surely share a tier. Comparing neighbours, not each agent with its
 * tier's first (the rule before issue 37), keeps identical agents
 * together: two copies are never compared with a third that one of them is
 * barely above. The level is set so that, in the simulation of
 * test/unit/ratingsDesign.test.ts, identical agents share a tier in at
 * least 95 % of tournaments (two sided, about 2 % split by chance) while
 * agents 0.5 logit apart with twenty configurations a family are split in
 * more than 80 %.
 *
 * Settledness. Each rating is "established" when its 95 % interval is
 * narrower than 50 Elo points (the win probability against an equal
 * opponent known to within ±3.6 points), "usable" when narrower than 150
 * (±11 points), and "preliminary" otherwise or without an interval, as
 * public leaderboards flag ratings that rest on too few games.
 */
import {ResultProfiles, nearIdenticalGroups} from "./cloneGroups.js";
import {cholesky} from "./cholesky.js";
import {clusterRobust, emptyStrata, type ClusterRobust, type ScoreStratum} from "./clusterRobust.js";
import {ratingIntervals, type Settledness} from "./ratingIntervals.js";
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
  /** The game family (game id), the unit of equal weighting and the stratum of the intervals. */
  family: string;
  /** The sampled unit within the family (e.g. the configuration). */
  cluster: string;
  seats: RatedSeat[];
  /** How many identical games this one stands for (compactGames); 1 when absent. */
  count?: number;
}

/** How game families are weighed in the pooled rating (see the module comment). */
export type Weighting = "families" | "equal" | "games";
export const WEIGHTINGS: readonly Weighting[] = ["families", "equal", "games"];
/** Whether every agent counts as an entrant, or near-identical agents count as one (see the module comment). */
export type CloneHandling = "entrants" | "robust";
export const CLONE_HANDLINGS: readonly CloneHandling[] = ["entrants", "robust"];

export interface RatingOptions {
  weighting?: Weighting;
  clones?: CloneHandling;
  /** What a comparison is worth (ratingOutcomes.ts); "win" by default. */
  outcome?: Outcome;
  /** Draws from the ratings' sampling distribution for the rank intervals (0: no rank intervals; the rating intervals need none). */
  resamples?: number;
  seed?: number;
  /** Virtual ties against the reference player per agent. */
  prior?: number;
  level?: number;
  /** How sure the order of two neighbours must be to put them in different tiers (default 0.99). */
  tierConfidence?: number;
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
  /** The rating's standard error and degrees of freedom (ratingIntervals.ts); null without spread to judge by. */
  rating_se: number | null;
  df: number | null;
  elo: number;
  rank: number;
  rank_lo: number | null;
  rank_hi: number | null;
  tier: number;
  settled: Settledness;
  /** Index into RatingsResult.clone_groups when the agent is one of a group of near-identical agents (clone-robust fits). */
  clone_group: number | null;
}

export interface RatingsResult {
  agents: AgentRating[];
  /** Agents with games but no comparison with another agent (self-play only, say). */
  unrated: {agent: string; games: number}[];
  families: {family: string; games: number; comparisons: number; weight: number; clusters: number}[];
  components: string[][];
  /** Draws behind the rank intervals. */
  resamples: number;
  /** The confidence that the row agent is above the column agent (one-sided t on their difference), same order as `agents`; NaN across connected sets; null without spread to judge by. */
  above: number[][] | null;
  /** Groups of near-identical agents weighed as one entrant (clone-robust fits; empty otherwise). */
  clone_groups: string[][];
  tier_confidence: number;
}

/** Win weights between agents from one cluster of games, sparse: wins[at[n]] += w[n] with at = i*k+j (i beat j). */
export interface Cell {
  family: number;
  at: Int32Array;
  w: Float64Array;
}

const ELO = 400 / Math.LN10;
/** Newton steps longer than this (in log-strength) are checked against the likelihood and halved if need be. */
const LONG_STEP = 0.5;
/** The default confidence for a tier boundary (module comment, "Tiers"). */
export const TIER_CONFIDENCE = 0.99;

/** Sorted distinct agents of a set of games. */
function agentsOf(games: readonly RatedGame[]): string[] {
  const set = new Set<string>();
  for (const g of games) for (const s of g.seats) set.add(s.agent);
  return [...set].sort();
}

/**
 * Per family and cluster, the weighted wins between agents. Seat balancing,
 * clone shares and family weights are applied here, once, so the fit and
 * the intervals only sum cells. `collect`, when given, sees every
 * comparison as it is summed into its cell (ratingComparisons).
 */
function buildCells(games: readonly RatedGame[], index: Map<string, number>, weighting: Weighting, clones: CloneHandling, outcome: Outcome = "win", collect?: (c: WeightedComparison) => void) {
  const k = index.size;
  const families = [...new Set(games.map((g) => g.family))].sort();
  const familyIndex = new Map(families.map((f, i) => [f, i]));
  const familyOf = games.map((g) => familyIndex.get(g.family)!);
  const countOf = games.map((g) => g.count ?? 1);
  const seats = seatTable(games, index);
  const orderWeight = orderWeights(seats, familyOf, countOf, k);
  const {clusterOf, clusters} = clusterIds(games, familyOf, families.length);
  // A family with a single configuration is sampled by game instead (nothing to tell its spread otherwise).
  const singleCluster = clusters.map((c) => c < 2);
  // Every comparison of every game, for the passes below: clone profiles (when asked), counts and each family's total weight, the scaled wins per cell.
  // `x` and `y` are the two seats' places in the seat table (its `seat` holds them).
  const {start, agent, score} = seats;
  const visit = (each: (n: number, i: number, j: number, w: number, win: number, x: number, y: number) => void) => {
    for (let n = 0; n < games.length; n++) {
      for (let x = start[n]; x < start[n + 1]; x++) {
        for (let y = x + 1; y < start[n + 1]; y++) {
          if (agent[x] === agent[y]) continue;
          each(n, agent[x], agent[y], orderWeight[n], comparisonOutcome(outcome, score[x], score[y]), x, y);
        }
      }
    }
  };
  const groups = clones === "robust" ? cloneGroupsOf(k, clusterOf, (n) => start[n + 1] - start[n] > 2, visit, countOf) : [];
  // Each agent's share of an entrant: 1 / its group's size.
  const share = new Array<number>(k).fill(1);
  for (const g of groups) for (const i of g) share[i] = 1 / g.length;
  const familyStats = families.map((family) => ({family, games: 0, comparisons: 0, weight: 0}));
  const agentGames = new Array<number>(k).fill(0);
  const agentComparisons = new Array<number>(k).fill(0);
  for (let n = 0; n < games.length; n++) {
    familyStats[familyOf[n]].games += countOf[n];
    for (let x = start[n]; x < start[n + 1]; x++) {
      let first = true;
      for (let y = start[n]; y < x; y++) if (agent[y] === agent[x]) first = false;
      if (first) agentGames[agent[x]] += countOf[n];
    }
  }
  visit((n, i, j, w) => {
    const stats = familyStats[familyOf[n]];
    const c = countOf[n];
    stats.comparisons += c;
    stats.weight += w * share[i] * share[j] * c;
    agentComparisons[i] += c;
    agentComparisons[j] += c;
  });
  const scale = familyScales(familyStats, weighting);
  // One cell per cluster, or per game of a single-configuration family, in order of first appearance.
  const cells: {family: number; wins: Map<number, number>}[] = [];
  const byCluster = new Map<number, number>();
  const cellOf = games.map((_, n) => {
    const f = familyOf[n];
    let cell = singleCluster[f] ? undefined : byCluster.get(clusterOf[n]);
    if (cell === undefined) {
      cell = cells.push({family: f, wins: new Map()}) - 1;
      if (!singleCluster[f]) byCluster.set(clusterOf[n], cell);
    }
    return cell;
  });
  visit((n, i, j, w, win, x, y) => {
    const {wins} = cells[cellOf[n]];
    const sw = w * share[i] * share[j] * scale[familyOf[n]] * countOf[n];
    collect?.({game: n, cell: cellOf[n], family: familyOf[n], i, j, first: seats.seat[x], second: seats.seat[y], weight: sw, outcome: win});
    if (win > 0) wins.set(i * k + j, (wins.get(i * k + j) ?? 0) + sw * win);
    if (win < 1) wins.set(j * k + i, (wins.get(j * k + i) ?? 0) + sw * (1 - win));
  });
  familyStats.forEach((s, f) => (s.weight *= scale[f]));
  return {cells: cells.map(sparseCell), families: familyStats.map((s, f) => ({...s, clusters: clusters[f]})), scale, agentGames, agentComparisons, groups, share};
}

/** Every game's seats in seat order, end to end: game n's are start[n] … start[n + 1] − 1 (agent indexes, scores and the seats themselves). */
function seatTable(games: readonly RatedGame[], index: Map<string, number>) {
  const start = new Int32Array(games.length + 1);
  games.forEach((g, n) => (start[n + 1] = start[n] + g.seats.length));
  const agent = new Int32Array(start[games.length]);
  const score = new Float64Array(start[games.length]);
  const seat = new Array<RatedSeat>(start[games.length]);
  games.forEach((g, n) =>
    inSeatOrder(g.seats).forEach((s, x) => {
      agent[start[n] + x] = index.get(s.agent)!;
      score[start[n] + x] = s.score;
      seat[start[n] + x] = s;
    }),
  );
  return {start, agent, score, seat};
}

/**
 * Each game's weight for its seat order: a two-seat game whose pair of
 * agents also met in the other order in its family carries half of the
 * pair's games over its order's count (seat balancing); other games 1.
 */
function orderWeights({start, agent}: {start: Int32Array; agent: Int32Array}, familyOf: readonly number[], countOf: readonly number[], k: number): Float64Array {
  const games = familyOf.length;
  const orderCount = new Map<number, number>();
  const orderKey = (f: number, first: number, second: number) => (f * k + first) * k + second;
  const twoSeat = (n: number) => start[n + 1] - start[n] === 2 && agent[start[n]] !== agent[start[n] + 1];
  for (let n = 0; n < games; n++) {
    if (!twoSeat(n)) continue;
    const key = orderKey(familyOf[n], agent[start[n]], agent[start[n] + 1]);
    orderCount.set(key, (orderCount.get(key) ?? 0) + countOf[n]);
  }
  const weight = new Float64Array(games).fill(1);
  for (let n = 0; n < games; n++) {
    if (!twoSeat(n)) continue;
    const here = orderCount.get(orderKey(familyOf[n], agent[start[n]], agent[start[n] + 1])) ?? 0;
    const there = orderCount.get(orderKey(familyOf[n], agent[start[n] + 1], agent[start[n]])) ?? 0;
    if (there > 0) weight[n] = (here + there) / (2 * here);
  }
  return weight;
}

/** Each game's cluster, numbered in order of first appearance across families, and each family's number of clusters. */
function clusterIds(games: readonly RatedGame[], familyOf: readonly number[], families: number): {clusterOf: Int32Array; clusters: number[]} {
  const ids = Array.from({length: families}, () => new Map<string, number>());
  let count = 0;
  const clusterOf = Int32Array.from(games, (g, n) => {
    const own = ids[familyOf[n]];
    let id = own.get(g.cluster);
    if (id === undefined) own.set(g.cluster, (id = count++));
    return id;
  });
  return {clusterOf, clusters: ids.map((m) => m.size)};
}

/** A cell's wins as parallel typed arrays. */
function sparseCell({family, wins}: {family: number; wins: Map<number, number>}): Cell {
  const at = new Int32Array(wins.size);
  const w = new Float64Array(wins.size);
  let n = 0;
  for (const [key, value] of wins) {
    at[n] = key;
    w[n++] = value;
  }
  return {family, at, w};
}

/** Seats sorted by seat index (the same array when they already are). */
function inSeatOrder(seats: RatedSeat[]): RatedSeat[] {
  for (let x = 1; x < seats.length; x++) if (seats[x].seat < seats[x - 1].seat) return [...seats].sort((a, b) => a.seat - b.seat);
  return seats;
}

/**
 * Each family's weight factor: "families", none above the mean family (a
 * small family is not inflated beyond the comparisons it holds); "equal",
 * every family at the mean family's weight; "games", 1.
 */
function familyScales(stats: readonly {weight: number}[], weighting: Weighting): number[] {
  const used = stats.filter((s) => s.weight > 0);
  const target = used.length ? used.reduce((t, s) => t + s.weight, 0) / used.length : 0;
  return stats.map((s) => (weighting === "games" || s.weight === 0 || (weighting === "families" && s.weight <= target) ? 1 : target / s.weight));
}

/**
 * Near-identical agents (cloneGroups.ts), from their results cell by cell:
 * a cell is a cluster, the kind of game (two seats, or more: a matched
 * comparison of self-play games among them, whose results are not
 * head-to-head games) and the seat order (first or second of the two
 * compared seats), so that agents are compared on the same configuration
 * from the same side of the table.
 */
function cloneGroupsOf(k: number, clusterOf: Int32Array, manySeats: (n: number) => boolean, visit: (each: (n: number, i: number, j: number, w: number, win: number, x: number, y: number) => void) => void, countOf: readonly number[]): number[][] {
  const profiles = new ResultProfiles(k);
  visit((n, i, j, _w, win) => {
    const cell = 4 * clusterOf[n] + (manySeats(n) ? 2 : 0);
    profiles.add(i, j, cell, win, countOf[n]);
    profiles.add(j, i, cell + 1, 1 - win, countOf[n]);
  });
  return nearIdenticalGroups(profiles);
}

/**
 * One comparison as the fit counts it: game `game` (an index into the games
 * given), agents `i` over `j` by their seats, in sampled unit `cell` (a
 * configuration, or a game of a single-configuration family) of family
 * `family` (indexes as ratingComparisons numbers them).
 */
export interface WeightedComparison {
  game: number;
  cell: number;
  family: number;
  i: number;
  j: number;
  first: RatedSeat;
  second: RatedSeat;
  /** Seat balance × family weight × the game's count. */
  weight: number;
  /** The first seat's outcome in [0, 1] (ratingOutcomes.ts). */
  outcome: number;
}

/** What the models fitted beside the ratings read: the comparisons, and the design of the intervals (the cells, each family's weight factor). */
export interface RatingComparisons {
  /** Sorted; comparisons' `i` and `j` index them. */
  agents: string[];
  comparisons: WeightedComparison[];
  /** The comparisons summed per cell (sampled unit), as the fit and its intervals read them. */
  cells: Cell[];
  /** Each family's weight factor (the variance of a comparison scaled by s grows as s²: clusterRobust.ts's degrees of freedom). */
  scale: number[];
}

/**
 * Every comparison rateAgents fits, weighted as it weights them, for the
 * models fitted beside it (ratingModels.ts, controlledRatings.ts). Every
 * agent is an entrant here (`clones` is the ratings' option).
 */
export function ratingComparisons(games: readonly RatedGame[], {weighting = "families", outcome = "win"}: Pick<RatingOptions, "weighting" | "outcome"> = {}): RatingComparisons {
  const agents = agentsOf(games);
  const comparisons: WeightedComparison[] = [];
  const built = buildCells(games, new Map(agents.map((a, i) => [a, i])), weighting, "entrants", outcome, (c) => comparisons.push(c));
  return {agents, comparisons, cells: built.cells, scale: built.scale};
}

/**
 * The same games in fewer rows, for shipping to a page: a two-seat game is
 * reduced to its outcome under `outcome` (o and 1 − o per seat: all
 * rateAgents with the same `outcome` reads of it, ratingOutcomes.ts), and
 * identical games of one family and cluster are merged into one with a
 * `count`, placed where the first of them was (so clusters keep their
 * order). Games of a family with a single cluster are left apart: each is a
 * sampled unit of its own for the intervals. rateAgents with the same
 * `outcome` gives the same result on the compact games (sums taken in
 * another order: equal to rounding, about 1e-15); a margin outcome keeps
 * (o, 1 − o), which merge less often.
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
 * i beating j), with `prior` virtual ties per agent (one number for all, or
 * one per agent) against a reference of strength 1, by Newton's method on
 * the log-likelihood with step halving (a few iterations where Hunter's MM
 * iteration needs thousands when the prior is weak). Without a prior the
 * likelihood does not move when every agent of a connected set shifts by
 * the same amount; a penalty on each set's sum pins that direction and
 * leaves the optimum otherwise unchanged. `start` warms the iteration.
 */
export function fitBradleyTerry(k: number, wins: Float64Array, prior: number | ArrayLike<number> = 1, start?: Float64Array, tolerance = 1e-12, maxIterations = 200): Float64Array {
  const theta = new Float64Array(k);
  if (start) theta.set(start);
  const priors = priorsOf(k, prior);
  const pins = unpinned(k, wins, priors);
  const loglik = (t: Float64Array): number => {
    let l = 0;
    for (let i = 0; i < k; i++) {
      if (priors[i] > 0) l += priors[i] * (0.5 * t[i] - Math.log1p(Math.exp(t[i])));
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
    newtonTerms(k, wins, theta, priors, pins, grad, hess);
    // hess holds −∇²: solve (−∇²) δ = ∇ for the ascent step.
    const step = solveSymmetric(k, hess, grad);
    let scale = 1;
    let next = theta.map((t, i) => t + step[i]);
    // The likelihood is concave, so a short Newton step (near the optimum)
    // never needs halving; checking it costs k² logarithms. Long steps are checked.
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
 * The information (−∇² of the log-likelihood) of the Bradley–Terry fit at
 * `theta`, k×k, prior included; a connected set whose agents have no prior
 * gets the penalty that pins its common shift (so the matrix is
 * invertible, and contrasts within the set are unchanged) unless `pin` is
 * false.
 */
export function btInformation(k: number, wins: Float64Array, theta: Float64Array, prior: number | ArrayLike<number>, pin = true): Float64Array {
  const priors = priorsOf(k, prior);
  const hess = new Float64Array(k * k);
  newtonTerms(k, wins, theta, priors, pin ? unpinned(k, wins, priors) : [], new Float64Array(k), hess);
  return hess;
}

function priorsOf(k: number, prior: number | ArrayLike<number>): Float64Array {
  return typeof prior === "number" ? new Float64Array(k).fill(prior) : Float64Array.from(prior);
}

/** The connected sets without any prior: their common shift is not seen by the likelihood. */
function unpinned(k: number, wins: Float64Array, priors: Float64Array): number[][] {
  if (priors.every((p) => p > 0)) return [];
  return components(k, wins).filter((g) => g.every((i) => !(priors[i] > 0)));
}

/** The log-likelihood's gradient and negated Hessian at theta (pinning penalty included), into grad and hess. */
function newtonTerms(k: number, wins: Float64Array, theta: Float64Array, priors: Float64Array, pins: number[][], grad: Float64Array, hess: Float64Array): void {
  grad.fill(0);
  hess.fill(0);
  for (let i = 0; i < k; i++) {
    if (priors[i] > 0) {
      const s = 1 / (1 + Math.exp(-theta[i]));
      grad[i] += priors[i] * (0.5 - s);
      hess[i * k + i] += priors[i] * s * (1 - s);
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
}

/**
 * Solves A x = b for a symmetric positive definite A (k×k, flattened): by
 * Cholesky's factorisation (A = L Lᵀ, half the work of elimination), or by
 * Gaussian elimination with partial pivoting when A is not positive
 * definite to rounding.
 */
export function solveSymmetric(k: number, matrix: Float64Array, b: Float64Array): Float64Array {
  const {l, complete} = cholesky(k, matrix, 1e-300);
  if (!complete) return solveByElimination(k, matrix, b);
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

/** Centres log-strengths within each component: the weighted mean (each agent's share of an entrant; equal without `weight`) is 0. */
export function centre(theta: Float64Array, groups: readonly number[][], weight?: readonly number[]): Float64Array {
  const out = new Float64Array(theta);
  const w = (i: number) => (weight ? weight[i] : 1);
  for (const g of groups) {
    const total = g.reduce((t, i) => t + w(i), 0);
    const mean = g.reduce((t, i) => t + w(i) * theta[i], 0) / total;
    for (const i of g) out[i] = theta[i] - mean;
  }
  return out;
}

/** The k×k win matrix of a set of cells. */
export function sumCells(k: number, cells: readonly Cell[]): Float64Array {
  const wins = new Float64Array(k * k);
  for (const {at, w} of cells) for (let n = 0; n < at.length; n++) wins[at[n]] += w[n];
  return wins;
}

/** Ranks (1 = best) of `theta` within each component. */
export function ranksOf(theta: ArrayLike<number>, groups: readonly number[][]): number[] {
  const rank = new Array<number>(theta.length).fill(0);
  for (const g of groups) [...g].sort((a, b) => theta[b] - theta[a]).forEach((i, r) => (rank[i] = r + 1));
  return rank;
}

/**
 * The design behind the intervals (clusterRobust.ts): each cell (a
 * configuration, or a game of a single-configuration family) is a sampled
 * cluster, each family a stratum.
 */
function designOf(k: number, cells: readonly Cell[], scale: readonly number[], wins: Float64Array, theta: Float64Array, priors: readonly number[]): ClusterRobust {
  return clusterRobust(k, btInformation(k, wins, theta, priors), btScoreStrata(k, cells, scale, theta).strata);
}

/**
 * The Bradley–Terry fit's strata at `theta` (clusterRobust.ts): a cell's
 * score, for every weight w of i beating j, w·P(j beats i) to i and its
 * negative to j; a family's information, its model information times its
 * weight factor (the variance of a comparison scaled by s grows as s²: it
 * sets the degrees of freedom). With p > k, the strengths are the first k
 * of p parameters (the rest for a caller to fill: Nash averaging's pairwise
 * log-odds, ratingModels.ts); `scores` are the cells' scores, in the order
 * of `cells`.
 */
export function btScoreStrata(k: number, cells: readonly Cell[], scale: readonly number[], theta: Float64Array, p = k): {scores: Float64Array[]; strata: ScoreStratum[]} {
  const {scores, strata} = emptyStrata(p, cells.map((c) => c.family), scale.length);
  const wins = scale.map(() => new Float64Array(k * k));
  cells.forEach((cell, c) => {
    const u = scores[c];
    for (let n = 0; n < cell.at.length; n++) {
      const at = cell.at[n];
      const i = Math.floor(at / k);
      const j = at - i * k;
      const gain = cell.w[n] / (1 + Math.exp(theta[i] - theta[j]));
      u[i] += gain;
      u[j] -= gain;
      wins[cell.family][at] += cell.w[n];
    }
  });
  strata.forEach((s, f) => {
    const h = btInformation(k, wins[f], theta, 0, false);
    for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) s.information[i * p + j] = h[i * k + j] * scale[f];
  });
  return {scores, strata};
}

/** Ratings with intervals from a set of played games (see the module comment). */
export function rateAgents(games: readonly RatedGame[], options: RatingOptions = {}): RatingsResult {
  const {weighting = "families", clones = "entrants", outcome = "win", resamples = 1000, seed = 1, prior = 1, level = 0.95, tierConfidence = TIER_CONFIDENCE} = options;
  const names = agentsOf(games);
  const index = new Map(names.map((a, i) => [a, i]));
  const k = names.length;
  const built = buildCells(games, index, weighting, clones, outcome);
  const wins = sumCells(k, built.cells);
  // Agents never compared are left out of the components (and so of ranks).
  const groups = components(k, wins).filter((g) => g.length > 1);
  const componentOf = new Array<number>(k);
  groups.forEach((g, c) => g.forEach((i) => (componentOf[i] = c)));
  const priors = built.share.map((s) => prior * s);
  const fitted = fitBradleyTerry(k, wins, priors);
  const point = centre(fitted, groups, built.share);
  const pointRank = ranksOf(point, groups);
  const design = designOf(k, built.cells, built.scale, wins, fitted, priors);
  const intervals = ratingIntervals(point, design, groups, built.share, {level, tierConfidence, draws: resamples, seed});
  const groupOf = new Map<number, number>();
  built.groups.forEach((g, n) => g.forEach((i) => groupOf.set(i, n)));

  const agents: AgentRating[] = names.map((agent, i) => {
    let w = 0;
    let n = 0;
    for (let j = 0; j < k; j++) {
      w += wins[i * k + j];
      n += wins[i * k + j] + wins[j * k + i];
    }
    const a = intervals.agents[i];
    return {
      agent,
      component: componentOf[i],
      games: built.agentGames[i],
      comparisons: built.agentComparisons[i],
      wins: w,
      weight: n,
      rating: point[i],
      rating_lo: a.lo,
      rating_hi: a.hi,
      rating_se: a.se,
      df: a.df,
      elo: 1500 + ELO * point[i],
      rank: pointRank[i],
      rank_lo: a.rankLo,
      rank_hi: a.rankHi,
      tier: intervals.tier[i],
      settled: a.settled,
      clone_group: groupOf.get(i) ?? null,
    };
  });
  const rated = agents.map((_, i) => i).filter((i) => agents[i].comparisons > 0);
  const order = rated.sort((a, b) => agents[a].component - agents[b].component || agents[a].rank - agents[b].rank);
  const above = intervals.above;
  return {
    agents: order.map((i) => agents[i]),
    unrated: agents.filter((a) => a.comparisons === 0).map(({agent, games}) => ({agent, games})),
    families: built.families,
    components: groups.map((g) => g.map((i) => names[i])),
    resamples: intervals.draws,
    above: above ? order.map((i) => order.map((j) => above[i][j])) : null,
    clone_groups: built.groups.map((g) => g.map((i) => names[i])),
    tier_confidence: tierConfidence,
  };
}
