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

/** One pair's share of the log-likelihood's derivatives, in d = θ_i − θ_j and t = log ν. */
export interface PairTerms {
  /** ∂l/∂d and ∂l/∂t. */
  gd: number;
  gt: number;
  /** −∂²l/∂d², −∂²l/∂t², −∂²l/∂d∂t. */
  hdd: number;
  htt: number;
  hdt: number;
}

/**
 * The derivatives of wij·log P(i wins) + wji·log P(j wins) + tij·log P(tie)
 * = (wij − wji) d/2 + tij t − (wij + wji + tij) log(2 cosh(d/2) + ν): the
 * fit's Newton step and the sandwich's scores (ratingModels.ts) both read
 * them, so the two cannot disagree.
 */
export function pairTerms(d: number, nu: number, wij: number, wji: number, tij: number): PairTerms {
  const total = wij + wji + tij;
  const [s, c] = [Math.sinh(d / 2), Math.cosh(d / 2)];
  const big = 2 * c + nu;
  return {
    gd: (wij - wji) / 2 - (total * s) / big,
    gt: tij - (total * nu) / big,
    hdd: (total * (1 + (c * nu) / 2)) / (big * big),
    htt: (total * nu * 2 * c) / (big * big),
    hdt: -(total * s * nu) / (big * big),
  };
}

/**
 * The log-likelihood's gradient and negated Hessian at x = (θ, log ν) (n =
 * k + 1 numbers), prior and pinning penalty included; without `withNu`, in
 * θ alone (k numbers, ν fixed at 0: Bradley–Terry's).
 */
function newtonTerms(k: number, wins: Float64Array, ties: Float64Array, x: ArrayLike<number>, prior: number, pins: readonly number[][], withNu = true): {grad: number[]; hess: number[][]} {
  const n = withNu ? k + 1 : k;
  const nu = withNu ? Math.exp(x[k]) : 0;
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
      if (wij + wji + tij === 0) continue;
      const {gd, gt, hdd, htt, hdt} = pairTerms(x[i] - x[j], nu, wij, wji, tij);
      grad[i] += gd;
      grad[j] -= gd;
      hess[i][i] += hdd;
      hess[j][j] += hdd;
      hess[i][j] -= hdd;
      hess[j][i] -= hdd;
      if (!withNu) continue;
      grad[k] += gt;
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
  return {grad, hess};
}

/**
 * Maximum-likelihood fit of the Davidson model: `wins[i*k+j]` the weight of
 * i beating j, `ties[i*k+j]` (= ties[j*k+i]) the weight of their ties.
 * `start` warms the iteration.
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
  const pins = pinned(k, wins, ties, prior);
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
    const {grad, hess} = newtonTerms(k, wins, ties, x, prior, pins);
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

/** The connected sets whose common shift a fit without a prior pins. */
function pinned(k: number, wins: Float64Array, ties: Float64Array, prior: number): number[][] {
  return prior > 0 ? [] : components(k, wins.map((w, at) => w + ties[at]));
}

/**
 * The information (−∇² of the log-likelihood, prior and pinning included)
 * at `fit`, row-major: in (θ, log ν), k + 1 square, when ν > 0; in θ alone
 * when ν is 0 (no tie: ν is at its bound, where log ν has no information).
 */
export function davidsonInformation(k: number, wins: Float64Array, ties: Float64Array, fit: DavidsonFit, prior = 1): Float64Array {
  const withNu = fit.nu > 0;
  const x = withNu ? [...fit.theta, Math.log(fit.nu)] : [...fit.theta];
  return Float64Array.from(newtonTerms(k, wins, ties, x, prior, pinned(k, wins, ties, prior), withNu).hess.flat());
}
