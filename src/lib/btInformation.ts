/**
 * The Bradley–Terry fit's covariance from its Fisher information, for the
 * adaptive planner (adaptivePlan.ts): the inverse of the information
 * (ratings.ts btInformation), what further games would do to it, and the
 * spread of a gap between two strengths. Cheap (no refit), so the planner
 * can weigh every candidate game. Pure: no DOM, no Node API.
 *
 * Under P(i beats j) = 1 / (1 + e^(θ_j − θ_i)) one comparison of i and j
 * adds p(1 − p)·x xᵀ to the information, x = e_i − e_j (a logistic
 * regression's Fisher information; it depends on who met whom and on θ,
 * not on who won, so games not yet played count as soon as they are
 * chosen). This is the model's variance, which plans; the intervals that
 * decide the stop are the design's (ratings.ts: cluster-robust over
 * configurations), which no game not yet played can tell.
 */
import {cholesky} from "./cholesky.js";

/** p(1 − p) for p = 1 / (1 + e^(−d)). */
export const bernoulliVariance = (d: number): number => {
  const p = 1 / (1 + Math.exp(-d));
  return p * (1 - p);
};

/** The inverse of a symmetric positive definite matrix (k×k, flattened), from its Cholesky factor L: (L⁻¹)ᵀ L⁻¹. */
export function invertSymmetric(k: number, matrix: Float64Array): Float64Array {
  const {l, complete} = cholesky(k, matrix, 0);
  if (!complete) throw new RangeError("invertSymmetric: the matrix is not positive definite");
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
