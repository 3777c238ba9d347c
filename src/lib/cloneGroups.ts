/**
 * Near-identical entrants: agents whose results against every common
 * opponent, configuration by configuration, differ by no more than noise
 * (and a small tolerance). The clone-robust ratings (ratings.ts, `clones:
 * "robust"`) weigh each such group as one entrant. Pure: no DOM, no Node API.
 *
 * Why it matters: a Bradley–Terry rating is not invariant to duplicated
 * entrants. A copy of an agent adds its comparisons to every opponent's
 * likelihood and its strength to the centre, so the others move (Liu et al.
 * 2025, "Re-evaluating Open-ended Evaluation of Large Language Models",
 * ICLR, §1: Elo's sensitivity to redundant entrants, and invariance to
 * clones as the property wanted).
 *
 * Distance. For agents a and b, each cell where both met the same third
 * agent o (same family, configuration, kind of game, o, and the same seat
 * order) at least twice gives d = mean result of a − mean result of b (results 1, ½,
 * 0 as the comparisons count them). d² overstates the squared difference
 * of the expected results by d's noise, v = s²_a/n_a + s²_b/n_b (the
 * cell's sample variances), so
 *   D² = Σ h (d² − v) / Σ h,  h = n_a n_b / (n_a + n_b),
 * estimates the mean squared difference net of noise (it can fall below
 * 0), cells weighed by how many results they hold; its standard error is
 * that of a weighted mean of independent cells. A cell with a single
 * result of either agent has no noise to subtract and is left out, so data
 * with one game per lineup and configuration find no clones.
 *
 * Groups. a and b are near-identical when the data show D ≤
 * CLONE_TOLERANCE, 0.1, at 95 % (D² + 1.645 se ≤ 0.01): their expected
 * results against common opponents differ by at most ten points of score
 * in root mean square, net of noise. Agents 0.5 logit apart with no other
 * difference are at D ≈ 0.1 in a tournament without ties, so grouped at
 * most 5 % of the time; agents that differ configuration by configuration
 * are far above it. Too few results to show it leave agents apart (the default
 * fit). Groups are complete (every two members within the tolerance),
 * built greedily from the closest pair. Grouping only reweighs: every
 * agent keeps a rating of its own.
 */

/** The results of one agent against one opponent in one cell (family, configuration, kind of game, seat order). */
interface CellResults {
  opponent: number;
  n: number;
  sum: number;
  squares: number;
}

/** Most that two entrants' expected results against common opponents may differ, root mean square over cells net of noise, to count as one. */
const CLONE_TOLERANCE = 0.1;
/** The data must show it: D²'s one-sided 95 % upper bound (D² + 1.645 se) within the tolerance, from at least 20 common cells (fewer give a standard error too rough to trust). */
const CLONE_CONFIDENCE_Z = 1.645;
const CLONE_MIN_CELLS = 20;

/** Each agent's results per cell against each opponent, filled by `add`. */
export class ResultProfiles {
  readonly cells: Map<number, CellResults>[];
  private readonly k: number;
  constructor(k: number) {
    this.k = k;
    this.cells = Array.from({length: k}, () => new Map());
  }

  /** `count` results `result` (in [0, 1]) of `agent` against `opponent` in `cell` (a number naming family, configuration, kind of game and seat order). */
  add(agent: number, opponent: number, cell: number, result: number, count: number): void {
    const key = cell * this.k + opponent;
    const map = this.cells[agent];
    let c = map.get(key);
    if (!c) map.set(key, (c = {opponent, n: 0, sum: 0, squares: 0}));
    c.n += count;
    c.sum += count * result;
    c.squares += count * result * result;
  }

  /** D² of agents a and b, its standard error and the cells behind it (see the module comment); null when they have no common cell with two results each. */
  distance2(a: number, b: number): {d2: number; se: number; cells: number} | null {
    const terms: number[] = [];
    const weights: number[] = [];
    for (const [key, x] of this.cells[a]) {
      if (x.opponent === b || x.n < 2) continue;
      const y = this.cells[b].get(key);
      if (!y || y.n < 2) continue;
      const d = x.sum / x.n - y.sum / y.n;
      terms.push(d * d - variance(x) / x.n - variance(y) / y.n);
      weights.push((x.n * y.n) / (x.n + y.n));
    }
    if (!terms.length) return null;
    const total = weights.reduce((t, w) => t + w, 0);
    const d2 = terms.reduce((t, v, c) => t + weights[c] * v, 0) / total;
    const se = Math.sqrt(terms.reduce((t, v, c) => t + (weights[c] * (v - d2)) ** 2, 0)) / total;
    return {d2, se, cells: terms.length};
  }
}

/** The sample variance of one result in a cell of two results or more. */
function variance(c: CellResults): number {
  return Math.max(0, (c.squares - (c.sum * c.sum) / c.n) / (c.n - 1));
}

/**
 * Groups of two or more near-identical agents (indexes, each group sorted,
 * groups by their first member): complete linkage at `tolerance`, merging
 * the closest pairs first.
 */
export function nearIdenticalGroups(profiles: ResultProfiles, tolerance = CLONE_TOLERANCE): number[][] {
  const k = profiles.cells.length;
  const limit = tolerance * tolerance;
  const close = new Map<number, number>();
  const pairs: {a: number; b: number; d2: number}[] = [];
  for (let a = 0; a < k; a++) {
    for (let b = a + 1; b < k; b++) {
      const distance = profiles.distance2(a, b);
      if (distance === null || distance.cells < CLONE_MIN_CELLS || distance.d2 + CLONE_CONFIDENCE_Z * distance.se > limit) continue;
      close.set(a * k + b, distance.d2);
      pairs.push({a, b, d2: distance.d2});
    }
  }
  pairs.sort((x, y) => x.d2 - y.d2 || x.a - y.a || x.b - y.b);
  const groupOf = Array.from({length: k}, (_, i) => [i]);
  const near = (i: number, j: number) => close.has(Math.min(i, j) * k + Math.max(i, j));
  for (const {a, b} of pairs) {
    const [ga, gb] = [groupOf[a], groupOf[b]];
    if (ga === gb || !ga.every((i) => gb.every((j) => near(i, j)))) continue;
    const merged = [...ga, ...gb].sort((x, y) => x - y);
    for (const i of merged) groupOf[i] = merged;
  }
  return [...new Set(groupOf)].filter((g) => g.length > 1).sort((x, y) => x[0] - y[0]);
}
