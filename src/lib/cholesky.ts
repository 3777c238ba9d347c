/**
 * Cholesky's factorisation A = L Lᵀ of a symmetric positive (semi)definite
 * matrix, shared by the Bradley–Terry solve (ratings.ts) and the draws of
 * the ratings' joint distribution (clusterRobust.ts). Pure: no DOM, no Node
 * API.
 */

/**
 * L (k×k, row-major, lower triangle) with L Lᵀ = A. A pivot at or below
 * `tiny` (a direction without variance, or a matrix not positive definite
 * to rounding) leaves its column at 0 and `complete` false.
 */
export function cholesky(k: number, matrix: Float64Array, tiny: number): {l: Float64Array; complete: boolean} {
  const l = new Float64Array(k * k);
  let complete = true;
  for (let j = 0; j < k; j++) {
    let d = matrix[j * k + j];
    for (let m = 0; m < j; m++) d -= l[j * k + m] * l[j * k + m];
    if (!(d > tiny)) {
      complete = false;
      continue;
    }
    const root = Math.sqrt(d);
    l[j * k + j] = root;
    for (let i = j + 1; i < k; i++) {
      let v = matrix[i * k + j];
      for (let m = 0; m < j; m++) v -= l[i * k + m] * l[j * k + m];
      l[i * k + j] = v / root;
    }
  }
  return {l, complete};
}
