/**
 * Equilibrium bids of private-value auctions with values drawn independently
 * from a normal distribution N(μ, σ), as Economics Arena (Guo et al. 2024,
 * Appendix A.1) draws them. Pure: used by the auction game (the equilibrium
 * asset a payoff ratio divides by) and by the `rational` bidder.
 *
 * - Second price and English (ascending clock): bidding (or staying in up to)
 *   one's value is weakly dominant (Vickrey 1961; Levin 2004 for the clock).
 * - First price: the risk-neutral symmetric BNE with n bidders,
 *   b(v) = v − ∫_{−∞}^{v} F(x)^{n−1} dx / F(v)^{n−1}
 *   (the expected highest of the other n − 1 values, given that it is below v).
 */

/** Φ(z), the standard normal CDF (Abramowitz and Stegun 7.1.26 for erf: absolute error below 1.5e-7). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/**
 * The first-price BNE bid for value `v` among `n` bidders with values
 * i.i.d. N(mean, sd), by Simpson's rule on [mean − 8 sd, v] (the integrand
 * below is < 1e-15 of its value at v). Never negative; with one bidder, 0.
 */
export function firstPriceBid(v: number, n: number, mean: number, sd: number): number {
  const key = `${v}|${n}|${mean}|${sd}`;
  let bid = bids.get(key);
  if (bid === undefined) {
    if (bids.size >= 100_000) bids.clear();
    bids.set(key, (bid = bneBid(v, n, mean, sd)));
  }
  return bid;
}

/** Values are whole units in practice, so the same few hundred bids are asked for again and again (every run, every session). */
const bids = new Map<string, number>();

function bneBid(v: number, n: number, mean: number, sd: number): number {
  if (n <= 1) return 0;
  const lo = mean - 8 * sd;
  if (!(sd > 0) || v <= lo) return Math.max(0, v);
  const F = (x: number) => normalCdf((x - mean) / sd) ** (n - 1);
  const denominator = F(v);
  if (denominator < 1e-300) return Math.max(0, v);
  const steps = 400;
  const h = (v - lo) / steps;
  let sum = F(lo) + denominator;
  for (let i = 1; i < steps; i++) sum += (i % 2 ? 4 : 2) * F(lo + i * h);
  return Math.max(0, v - (sum * h) / 3 / denominator);
}
