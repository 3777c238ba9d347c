/**
 * The Bradley–Terry fit's uncertainty from its Fisher information, for the
 * adaptive planner (adaptivePlan.ts): the covariance of the log-strengths,
 * what further games would do to it, and the rank intervals it implies.
 * Cheap (no resampling), so the planner can weigh every candidate game.
 * Pure: no DOM, no Node API.
 *
 * Under P(i beats j) = 1 / (1 + e^(θ_j − θ_i)) one comparison of i and j
 * adds p(1 − p)·x xᵀ to the information, x = e_i − e_j (a logistic
 * regression's Fisher information; it depends on who met whom and on θ,
 * not on who won, so games not yet played count as soon as they are
 * chosen). The ratings' prior (src/lib/ratings.ts: one virtual tie per agent
 * against a reference of strength 0) adds prior·¼ on the diagonal, which
 * also keeps the matrix invertible before every agent has met another.
 */

/** Information matrix (k×k, flattened) of `pairs` comparisons at log-strengths `theta`. */
export function btInformation(theta: ArrayLike<number>, pairs: Iterable<{a: number; b: number; n: number}>, prior: number): Float64Array {
  const k = theta.length;
  const info = new Float64Array(k * k);
  for (let i = 0; i < k; i++) info[i * k + i] = prior / 4;
  for (const {a, b, n} of pairs) addComparisons(info, k, a, b, n * bernoulliVariance(theta[a] - theta[b]));
  return info;
}

/** p(1 − p) for p = 1 / (1 + e^(−d)). */
export const bernoulliVariance = (d: number): number => {
  const p = 1 / (1 + Math.exp(-d));
  return p * (1 - p);
};

function addComparisons(info: Float64Array, k: number, a: number, b: number, h: number): void {
  info[a * k + a] += h;
  info[b * k + b] += h;
  info[a * k + b] -= h;
  info[b * k + a] -= h;
}

/** The inverse of a symmetric positive definite matrix (k×k, flattened), by Cholesky's factorisation. */
export function invertSymmetric(k: number, matrix: Float64Array): Float64Array {
  const l = new Float64Array(k * k);
  for (let j = 0; j < k; j++) {
    let d = matrix[j * k + j];
    for (let m = 0; m < j; m++) d -= l[j * k + m] ** 2;
    if (!(d > 0)) throw new RangeError("invertSymmetric: the matrix is not positive definite");
    const root = Math.sqrt(d);
    l[j * k + j] = root;
    for (let i = j + 1; i < k; i++) {
      let v = matrix[i * k + j];
      for (let m = 0; m < j; m++) v -= l[i * k + m] * l[j * k + m];
      l[i * k + j] = v / root;
    }
  }
  // Columns of L⁻¹ by forward substitution, then (L⁻¹)ᵀ L⁻¹.
  const inv = new Float64Array(k * k);
  for (let c = 0; c < k; c++) {
    for (let i = c; i < k; i++) {
      let v = i === c ? 1 : 0;
      for (let m = c; m < i; m++) v -= l[i * k + m] * inv[m * k + c];
      inv[i * k + c] = v / l[i * k + i];
    }
  }
  const out = new Float64Array(k * k);
  for (let i = 0; i < k; i++) {
    for (let j = i; j < k; j++) {
      let v = 0;
      for (let m = j; m < k; m++) v += inv[m * k + i] * inv[m * k + j];
      out[i * k + j] = v;
      out[j * k + i] = v;
    }
  }
  return out;
}

/**
 * The covariance after `h` more units of information between a and b
 * (Sherman–Morrison: Σ' = Σ − h·v vᵀ / (1 + h·xᵀΣx), v = Σx, x = e_a − e_b),
 * in place.
 */
export function addInformation(cov: Float64Array, k: number, a: number, b: number, h: number): void {
  const v = new Float64Array(k);
  for (let i = 0; i < k; i++) v[i] = cov[i * k + a] - cov[i * k + b];
  const scale = h / (1 + h * (v[a] - v[b]));
  for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) cov[i * k + j] -= scale * v[i] * v[j];
}

/** Standard deviation of θ_i − θ_j under covariance `cov`. */
export function gapSd(cov: Float64Array, k: number, i: number, j: number): number {
  return Math.sqrt(Math.max(0, cov[i * k + i] + cov[j * k + j] - 2 * cov[i * k + j]));
}

/**
 * Rank intervals of the normal approximation: agent j counts as possibly
 * above i unless θ_i − θ_j ≥ z·sd(θ_i − θ_j), and as possibly below unless
 * θ_j − θ_i ≥ z·sd. With z the two-sided level's quantile this resolves
 * a pair where the bootstrap's percentile rank interval does when one
 * neighbour is in doubt (each tail holds (1 − level) / 2 of the draws).
 * Agents in `unseen` have compared with no one yet: every rank is open.
 */
export function normalRankIntervals(theta: ArrayLike<number>, cov: Float64Array, z: number, unseen: ReadonlySet<number> = new Set()): {lo: number; hi: number}[] {
  const k = theta.length;
  return Array.from({length: k}, (_, i) => {
    if (unseen.has(i)) return {lo: 1, hi: k};
    let above = 0;
    let below = 0;
    for (let j = 0; j < k; j++) {
      if (j === i || unseen.has(j)) continue;
      const margin = z * gapSd(cov, k, i, j);
      if (theta[j] - theta[i] >= margin) above++;
      else if (theta[i] - theta[j] >= margin) below++;
    }
    return {lo: 1 + above, hi: k - below};
  });
}
