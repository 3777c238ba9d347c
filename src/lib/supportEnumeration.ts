/**
 * Support enumeration (Nisan et al., Algorithmic Game Theory §3.3): for every
 * pair of supports I (rows) and J (columns) of equal size s, solve the
 * indifference conditions
 *   Σ_{j∈J} a[i][j] y_j = u for i ∈ I, Σ y_j = 1, and
 *   Σ_{i∈I} b[i][j] x_i = v for j ∈ J, Σ x_i = 1,
 * and keep solutions that are positive on the support and have no better
 * pure reply outside it. For a nondegenerate game this finds every
 * equilibrium; a degenerate game (ties, continua of equilibria) makes some
 * systems singular, which is reported so callers can say the list may be
 * incomplete. Cost: Σ_s C(m,s)·C(n,s) = C(m+n, m) − 1 support pairs.
 */
import {normalizeGame, rowPayoffs, colPayoffs, type Bimatrix} from "./bimatrix.js";

export interface MixedProfile {
  x: number[];
  y: number[];
}

/** Number of equal-size support pairs, C(m+n, m) − 1. */
export function supportPairs(m: number, n: number): number {
  let c = 1;
  for (let k = 1; k <= Math.min(m, n); k++) c = (c * (m + n - Math.min(m, n) + k)) / k;
  return Math.round(c) - 1;
}

/** Solves the square system M z = r by Gaussian elimination with partial pivoting; null when (numerically) singular. */
export function solveLinear(matrix: number[][], rhs: number[], tolerance = 1e-12): number[] | null {
  const n = rhs.length;
  const a = matrix.map((row, i) => [...row, rhs[i]]);
  const scale = Math.max(1, ...matrix.flat().map(Math.abs));
  for (let c = 0; c < n; c++) {
    let piv = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(a[r][c]) > Math.abs(a[piv][c])) piv = r;
    if (Math.abs(a[piv][c]) <= tolerance * scale) return null;
    if (piv !== c) [a[c], a[piv]] = [a[piv], a[c]];
    for (let r = c + 1; r < n; r++) {
      const f = a[r][c] / a[c][c];
      if (f !== 0) for (let k = c; k <= n; k++) a[r][k] -= f * a[c][k];
    }
  }
  const z = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = a[r][n];
    for (let k = r + 1; k < n; k++) s -= a[r][k] * z[k];
    z[r] = s / a[r][r];
  }
  return z;
}

function* combinations(n: number, k: number): Generator<number[]> {
  const idx = Array.from({length: k}, (_, i) => i);
  if (k > n) return;
  while (true) {
    yield idx.slice();
    let i = k - 1;
    while (i >= 0 && idx[i] === n - k + i) i--;
    if (i < 0) return;
    idx[i]++;
    for (let j = i + 1; j < k; j++) idx[j] = idx[j - 1] + 1;
  }
}

/** The mix on `own` making the opponent indifferent over `other`: payoff[own][other] with rows = own strategies. */
function indifferentMix(payoff: (own: number, other: number) => number, own: number[], other: number[], size: number): number[] | null {
  const s = own.length;
  // Unknowns: mix on `own` (s) and the common value; equations: one per `other` strategy, and Σ = 1.
  const matrix = other.map((o) => [...own.map((w) => payoff(w, o)), -1]);
  matrix.push([...own.map(() => 1), 0]);
  const z = solveLinear(matrix, [...other.map(() => 0), 1]);
  if (!z) return null;
  const mix = new Array<number>(size).fill(0);
  for (let k = 0; k < s; k++) mix[own[k]] = z[k];
  return mix;
}

/**
 * Every equilibrium found by support enumeration, and whether a singular
 * system was met (a sign of degeneracy). Works on the game with payoffs
 * normalized to [0, 1] (same equilibria), so its fixed tolerances mean the
 * same at any payoff scale.
 */
export function supportEnumeration(game: Bimatrix): {equilibria: MixedProfile[]; singular: boolean} {
  const {a, b} = normalizeGame(game);
  const m = a.length;
  const n = a[0].length;
  const tol = 1e-9;
  const eps = 1e-12;
  const equilibria: MixedProfile[] = [];
  let singular = false;
  for (let s = 1; s <= Math.min(m, n); s++) {
    for (const I of combinations(m, s)) {
      for (const J of combinations(n, s)) {
        // Bob's mix y on J makes Alice indifferent over I.
        const y = indifferentMix((j, i) => a[i][j], J, I, n);
        if (!y) {
          singular = true;
          continue;
        }
        if (J.some((j) => y[j] <= eps)) continue;
        const x = indifferentMix((i, j) => b[i][j], I, J, m);
        if (!x) {
          singular = true;
          continue;
        }
        if (I.some((i) => x[i] <= eps)) continue;
        const ra = rowPayoffs(a, y);
        const cb = colPayoffs(b, x);
        const u = ra[I[0]];
        const v = cb[J[0]];
        if (ra.some((p) => p > u + tol) || cb.some((p) => p > v + tol)) continue;
        equilibria.push({x, y});
      }
    }
  }
  return {equilibria, singular};
}
