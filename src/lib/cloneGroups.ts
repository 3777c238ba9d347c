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
 * agent o (same family, configuration, o, and the same seat order) gives
 * d = mean result of a − mean result of b (results 1, ½, 0 as the
 * comparisons count them). d² overstates the squared difference of the
 * expected results by d's noise, v = s²_a/n_a + s²_b/n_b, so
 *   D² = mean over common cells of (d² − v)
 * estimates the mean squared difference net of noise (it can fall below
 * 0). s² is the cell's sample variance when it has two results or more,
 * else the agent's variance pooled over its cells that have, else the
 * bound m(1 − m) of a result in [0, 1] with mean m.
 *
 * Groups. a and b are near-identical when D ≤ CLONE_TOLERANCE, 0.1: their
 * expected results against common opponents differ by at most ten points
 * of score in root mean square, net of noise. Agents 0.5 logit apart with
 * no other difference are at D ≈ 0.09 in a tournament without ties: near
 * the line, and grouping them only reweighs (every agent keeps a rating of
 * its own); agents that differ by configuration are far above it. Groups
 * are complete (every two members within the tolerance), built greedily
 * from the closest pair.
 */

/** The results of one agent against one opponent in one cell (family, configuration, seat order). */
interface CellResults {
  opponent: number;
  n: number;
  sum: number;
  squares: number;
}

/** Most that two entrants' expected results against common opponents may differ, root mean square over cells net of noise, to count as one. */
export const CLONE_TOLERANCE = 0.1;

/** Each agent's results per cell against each opponent, filled by `add`. */
export class ResultProfiles {
  readonly cells: Map<number, CellResults>[];
  private readonly k: number;
  constructor(k: number) {
    this.k = k;
    this.cells = Array.from({length: k}, () => new Map());
  }

  /** `count` results `result` (in [0, 1]) of `agent` against `opponent` in `cell` (a number naming family, configuration and seat order). */
  add(agent: number, opponent: number, cell: number, result: number, count: number): void {
    const key = cell * this.k + opponent;
    const map = this.cells[agent];
    let c = map.get(key);
    if (!c) map.set(key, (c = {opponent, n: 0, sum: 0, squares: 0}));
    c.n += count;
    c.sum += count * result;
    c.squares += count * result * result;
  }

  /** D² of agents a and b (see the module comment); null when they have no common cell. */
  distance2(a: number, b: number): number | null {
    const [pa, pb] = [this.pooledVariance(a), this.pooledVariance(b)];
    let total = 0;
    let cells = 0;
    for (const [key, x] of this.cells[a]) {
      if (x.opponent === b) continue;
      const y = this.cells[b].get(key);
      if (!y) continue;
      const d = x.sum / x.n - y.sum / y.n;
      total += d * d - variance(x, pa) / x.n - variance(y, pb) / y.n;
      cells++;
    }
    return cells ? total / cells : null;
  }

  private pooledVariance(agent: number): number | null {
    let squares = 0;
    let df = 0;
    for (const c of this.cells[agent].values()) {
      if (c.n < 2) continue;
      squares += c.squares - (c.sum * c.sum) / c.n;
      df += c.n - 1;
    }
    return df > 0 ? Math.max(0, squares / df) : null;
  }
}

/** A cell's variance of one result: its own sample variance, else the agent's pooled one, else the bound m(1 − m). */
function variance(c: CellResults, pooled: number | null): number {
  if (c.n >= 2) return Math.max(0, (c.squares - (c.sum * c.sum) / c.n) / (c.n - 1));
  if (pooled !== null) return pooled;
  const m = c.sum / c.n;
  return m * (1 - m);
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
      const d2 = profiles.distance2(a, b);
      if (d2 === null || d2 > limit) continue;
      close.set(a * k + b, d2);
      pairs.push({a, b, d2});
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
