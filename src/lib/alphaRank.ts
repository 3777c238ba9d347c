/**
 * α-Rank (Omidshafiei et al. 2019, "α-Rank: Multi-Agent Evaluation by
 * Evolution", §3, multi-population form) for a two-player meta-game: a
 * Markov chain over pure strategy profiles in which one population at a
 * time tries a mutant strategy, fixed with the Fermi probability of a
 * population of size m under selection intensity α. The stationary
 * distribution ranks profiles; its marginals rank each population's
 * strategies. Pure: pages and the CLI share it.
 *
 * Payoffs are rescaled by the range of the whole table before α is applied,
 * so α means the same whatever the payoff units. Every fixation probability
 * is floored at 1e-10 (a rare mutation that always has a chance), which
 * keeps the chain irreducible when α is large, so the stationary
 * distribution is unique (with two absorbing profiles, as in a
 * coordination game, the mass splits between them instead of depending on
 * where the chain starts).
 */
const FLOOR = 1e-10;
import type {Bimatrix} from "./bimatrix.js";

export interface AlphaRankOptions {
  alpha?: number;
  populationSize?: number;
}

export interface AlphaRankResult {
  /** Stationary mass of each profile [row][col]. */
  profiles: number[][];
  /** Marginal mass of each row strategy and each column strategy. */
  rowMass: number[];
  colMass: number[];
  alpha: number;
  populationSize: number;
}

/**
 * Fixation probability of a mutant whose payoff exceeds the resident's by
 * `gain`, in a population of `m` (Omidshafiei et al. 2019, eq. 6), written
 * to stay finite when α·m·gain is large either way.
 */
export function fixation(gain: number, alpha: number, m: number): number {
  const x = alpha * gain;
  if (Math.abs(x) < 1e-12) return 1 / m;
  if (x > 0) return -Math.expm1(-x) / -Math.expm1(-m * x);
  // x < 0: (e^{-x} - 1) / (e^{-mx} - 1) = e^{(m-1)x} (1 - e^{x}) / (1 - e^{mx})
  return Math.exp((m - 1) * x) * (-Math.expm1(x) / -Math.expm1(m * x));
}

/** Stationary distribution of a row-stochastic matrix (Gaussian elimination on πP = π, Σπ = 1). */
export function stationary(p: number[][]): number[] {
  const n = p.length;
  // Solve (Pᵀ − I) π = 0 with the last equation replaced by Σπ = 1.
  const a = Array.from({length: n}, (_, i) => Array.from({length: n + 1}, (_, j) => (j === n ? 0 : p[j][i] - (i === j ? 1 : 0))));
  for (let j = 0; j <= n; j++) a[n - 1][j] = 1;
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r][col]) > Math.abs(a[pivot][col])) pivot = r;
    [a[col], a[pivot]] = [a[pivot], a[col]];
    const d = a[col][col];
    if (d === 0) continue;
    for (let r = 0; r < n; r++) {
      if (r === col || a[r][col] === 0) continue;
      const f = a[r][col] / d;
      for (let c = col; c <= n; c++) a[r][c] -= f * a[col][c];
    }
  }
  const pi = a.map((row, i) => (row[i] === 0 ? 0 : Math.max(0, row[n] / row[i])));
  const total = pi.reduce((t, v) => t + v, 0);
  return pi.map((v) => v / total);
}

/** α-Rank of a two-player meta-game (payoffs A for rows, B for columns). */
export function alphaRank(game: Pick<Bimatrix, "a" | "b">, {alpha = 50, populationSize = 50}: AlphaRankOptions = {}): AlphaRankResult {
  const {a: A, b: B} = game;
  const rows = A.length;
  const cols = A[0]?.length ?? 0;
  const values = [...A.flat(), ...B.flat()];
  const range = Math.max(...values) - Math.min(...values) || 1;
  const eta = 1 / (rows - 1 + (cols - 1) || 1);
  const n = rows * cols;
  const at = (r: number, c: number) => r * cols + c;
  const p = Array.from({length: n}, () => new Array<number>(n).fill(0));
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const s = at(r, c);
      for (let r2 = 0; r2 < rows; r2++) if (r2 !== r) p[s][at(r2, c)] = eta * Math.max(FLOOR, fixation((A[r2][c] - A[r][c]) / range, alpha, populationSize));
      for (let c2 = 0; c2 < cols; c2++) if (c2 !== c) p[s][at(r, c2)] = eta * Math.max(FLOOR, fixation((B[r][c2] - B[r][c]) / range, alpha, populationSize));
      p[s][s] = 1 - p[s].reduce((t, v, j) => (j === s ? t : t + v), 0);
    }
  }
  const pi = stationary(p);
  const profiles = Array.from({length: rows}, (_, r) => Array.from({length: cols}, (_, c) => pi[at(r, c)]));
  return {
    profiles,
    rowMass: profiles.map((row) => row.reduce((t, v) => t + v, 0)),
    colMass: Array.from({length: cols}, (_, c) => profiles.reduce((t, row) => t + row[c], 0)),
    alpha,
    populationSize,
  };
}
