/**
 * The Bradley–Terry model with ties of Davidson (1970, "On extending the
 * Bradley–Terry model to accommodate ties in paired comparison
 * experiments", JASA 65, eq. 2.1): for strengths π_i = e^θ_i and a tie
 * parameter ν ≥ 0,
 *
 *   P(i beats j) = π_i / (π_i + π_j + ν √(π_i π_j)),
 *   P(tie)       = ν √(π_i π_j) / (π_i + π_j + ν √(π_i π_j)),
 *
 * so that with d = θ_i − θ_j a comparison's probabilities are
 * e^{d/2}, e^{−d/2} and ν over their sum D = 2 cosh(d/2) + ν. ν = 0 is the
 * plain Bradley–Terry model (a tie then carries no information); ν / (2 + ν)
 * is the probability of a tie between equally strong agents. The
 * log-likelihood is jointly concave in (θ, log ν) (a linear term minus the
 * logarithm of a sum of exponentials of linear terms), so Newton's method
 * with step halving finds the maximum. Each agent gets the same weak prior
 * as the Bradley–Terry fit (ratings.ts: `prior` virtual half-wins against a
 * reference of strength 1); without it, each connected set's sum of θ is
 * pinned. Pure.
 */
import {components, fitBradleyTerry} from "./ratings.js";
import {solveLinear} from "./supportEnumeration.js";

export interface DavidsonFit {
  /** Log-strengths (not centred). */
  theta: Float64Array;
  /** The tie parameter ν (0 when no comparison was a tie). */
  nu: number;
}

/**
 * Maximum-likelihood fit of the Davidson model: `wins[i*k+j]` the weight of
 * i beating j, `ties[i*k+j]` (= ties[j*k+i]) the weight of their ties.
 * `start` warms the iteration (bootstrap draws start from the point fit).
 */
export function fitDavidson(k: number, wins: Float64Array, ties: Float64Array, prior = 1, start?: DavidsonFit, tolerance = 1e-12): DavidsonFit {
  let tieTotal = 0;
  for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) tieTotal += ties[i * k + j];
  // No tie: ν̂ = 0, and the model is Bradley–Terry's.
  if (tieTotal <= 0) return {theta: fitBradleyTerry(k, wins, prior, start?.theta, tolerance), nu: 0};
  const n = k + 1;
  const x = new Float64Array(n);
  if (start) {
    x.set(start.theta);
    x[k] = Math.log(Math.max(start.nu, 1e-6));
  }
  const pins = prior > 0 ? [] : components(k, wins.map((w, at) => w + ties[at]));
  const loglik = (t: Float64Array): number => {
    const nu = Math.exp(t[k]);
    let l = 0;
    for (let i = 0; i < k; i++) {
      if (prior > 0) l += prior * (0.5 * t[i] - Math.log1p(Math.exp(t[i])));
      for (let j = i + 1; j < k; j++) {
        const [wij, wji, tij] = [wins[i * k + j], wins[j * k + i], ties[i * k + j]];
        const total = wij + wji + tij;
        if (total === 0) continue;
        const d = t[i] - t[j];
        l += ((wij - wji) * d) / 2 + tij * t[k] - total * Math.log(2 * Math.cosh(d / 2) + nu);
      }
    }
    for (const g of pins) {
      const sum = g.reduce((acc, i) => acc + t[i], 0);
      l -= 0.5 * sum * sum;
    }
    return l;
  };
  let current = loglik(x);
  for (let iteration = 0; iteration < 200; iteration++) {
    const nu = Math.exp(x[k]);
    const grad = new Array<number>(n).fill(0);
    // −∇², so that the step solves (−∇²) δ = ∇.
    const hess = Array.from({length: n}, () => new Array<number>(n).fill(0));
    for (let i = 0; i < k; i++) {
      if (prior > 0) {
        const s = 1 / (1 + Math.exp(-x[i]));
        grad[i] += prior * (0.5 - s);
        hess[i][i] += prior * s * (1 - s);
      }
      for (let j = i + 1; j < k; j++) {
        const [wij, wji, tij] = [wins[i * k + j], wins[j * k + i], ties[i * k + j]];
        const total = wij + wji + tij;
        if (total === 0) continue;
        const d = x[i] - x[j];
        const [s, c] = [Math.sinh(d / 2), Math.cosh(d / 2)];
        const big = 2 * c + nu;
        const gd = (wij - wji) / 2 - (total * s) / big;
        const gt = tij - (total * nu) / big;
        const hdd = (total * (1 + (c * nu) / 2)) / (big * big);
        const htt = (total * nu * 2 * c) / (big * big);
        const hdt = -(total * s * nu) / (big * big);
        grad[i] += gd;
        grad[j] -= gd;
        grad[k] += gt;
        hess[i][i] += hdd;
        hess[j][j] += hdd;
        hess[i][j] -= hdd;
        hess[j][i] -= hdd;
        hess[i][k] += hdt;
        hess[k][i] += hdt;
        hess[j][k] -= hdt;
        hess[k][j] -= hdt;
        hess[k][k] += htt;
      }
    }
    for (const g of pins) {
      const sum = g.reduce((acc, i) => acc + x[i], 0);
      for (const i of g) {
        grad[i] -= sum;
        for (const j of g) hess[i][j] += 1;
      }
    }
    const step = solveLinear(hess, grad, 0);
    if (!step) break;
    let scale = 1;
    let next = x.map((v, i) => v + step[i]);
    let value = loglik(next);
    while (!(value >= current - 1e-12 * Math.abs(current)) && scale > 1e-8) {
      scale /= 2;
      next = x.map((v, i) => v + scale * step[i]);
      value = loglik(next);
    }
    const change = step.reduce((m, d) => Math.max(m, Math.abs(scale * d)), 0);
    x.set(next);
    current = value;
    if (change < tolerance) break;
  }
  return {theta: x.slice(0, k), nu: Math.exp(x[k])};
}
