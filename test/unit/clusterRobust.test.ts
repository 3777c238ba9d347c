// The design variance (src/lib/clusterRobust.ts) against closed forms, and
// through rateAgents: for two agents without a prior, the Bradley–Terry gap
// is the log odds of the pooled win share p̂ = ΣW/ΣN, whose variance under
// sampling of configurations is the ratio estimator's, C/(C − 1) Σ (W_c −
// N_c p̂)² / N² (Cochran 1977, "Sampling Techniques", §6.3, with the
// finite-cluster factor), carried to the log odds by the delta method
// (÷ (p̂ q̂)²). Computed here from the games, not from the library's scores.
import {test} from "node:test";
import assert from "node:assert/strict";
import {clusterRobust, confidenceAbove, multivariateTDraws, tInterval} from "../../src/lib/clusterRobust.js";
import {rateAgents, type RatedGame} from "../../src/lib/ratings.js";
import {settledness} from "../../src/lib/ratingIntervals.js";
import {createRng} from "../../src/lib/rng.js";
import {studentTQuantile} from "../../src/lib/studentT.js";

/** `wins` games won by A and `losses` by B in configuration `cluster` of `family`, seat orders alternating (balanced). */
function results(family: string, cluster: string, wins: number, losses: number): RatedGame[] {
  const games: RatedGame[] = [];
  const duel = (n: number, aWins: boolean): RatedGame => {
    const [a, b] = [{agent: "A", score: aWins ? 1 : 0}, {agent: "B", score: aWins ? 0 : 1}];
    return {family, cluster, seats: n % 2 ? [{...a, seat: 0}, {...b, seat: 1}] : [{...b, seat: 0}, {...a, seat: 1}]};
  };
  for (let n = 0; n < wins; n++) games.push(duel(n, true));
  for (let n = 0; n < losses; n++) games.push(duel(n + wins, false));
  return games;
}

/** The ratio estimator's variance of logit(p̂) over the clusters of one stratum, and p̂ (see the file comment). */
function logOddsVariance(clusters: [number, number][]): {variance: number; p: number} {
  const W = clusters.reduce((t, [w]) => t + w, 0);
  const N = clusters.reduce((t, [w, l]) => t + w + l, 0);
  const p = W / N;
  const C = clusters.length;
  const spread = clusters.reduce((t, [w, l]) => t + (w - (w + l) * p) ** 2, 0);
  return {variance: ((C / (C - 1)) * spread) / (N * N) / (p * (1 - p)) ** 2, p};
}

test("two agents, one family: the rating gap's variance is the ratio estimator's through the delta method, on C − 1 degrees of freedom", () => {
  // Each configuration has an even number of games, so seat balancing leaves every weight at 1.
  const clusters: [number, number][] = [[8, 2], [3, 5], [6, 6], [9, 1], [2, 4]];
  const games = clusters.flatMap(([w, l], c) => results("duel", `c${c}`, w, l));
  const r = rateAgents(games, {prior: 0, resamples: 0});
  const [a, b] = ["A", "B"].map((name) => r.agents.find((x) => x.agent === name)!);
  const {variance, p} = logOddsVariance(clusters);
  assert.ok(Math.abs(a.rating - b.rating - Math.log(p / (1 - p))) < 1e-9, "the gap is the log odds");
  // Centred ratings are ±gap/2: each has a quarter of the gap's variance.
  assert.ok(Math.abs(a.rating_se! - Math.sqrt(variance) / 2) < 1e-9, `se ${a.rating_se} vs ${Math.sqrt(variance) / 2}`);
  assert.ok(Math.abs(a.df! - (clusters.length - 1)) < 1e-9, `df ${a.df}`);
  const half = studentTQuantile(0.975, clusters.length - 1) * a.rating_se!;
  assert.ok(Math.abs(a.rating_hi! - a.rating - half) < 1e-9 && Math.abs(a.rating - a.rating_lo! - half) < 1e-9, "± t(0.975, C − 1) · se");
});

test("two families: the variances add stratum by stratum (each about its own mean), and Satterthwaite's degrees of freedom weigh the families by their games", () => {
  // Family x: A strong; family y: A weak. Pooled across them a family's mean is not zero: centring each stratum on its own mean keeps that fixed difference out of the variance.
  const x: [number, number][] = [[8, 2], [7, 3], [9, 1]];
  const y: [number, number][] = [[2, 6], [3, 5]];
  const games = [...x.flatMap(([w, l], c) => results("x", `c${c}`, w, l)), ...y.flatMap(([w, l], c) => results("y", `c${c}`, w, l))];
  const r = rateAgents(games, {prior: 0, resamples: 0, weighting: "games"});
  const a = r.agents.find((g) => g.agent === "A")!;
  const all = [...x, ...y];
  const W = all.reduce((t, [w]) => t + w, 0);
  const N = all.reduce((t, [w, l]) => t + w + l, 0);
  const p = W / N;
  const stratum = (cs: [number, number][]) => {
    const deviations = cs.map(([w, l]) => w - (w + l) * p);
    const mean = deviations.reduce((t, d) => t + d, 0) / cs.length;
    return (cs.length / (cs.length - 1)) * deviations.reduce((t, d) => t + (d - mean) ** 2, 0);
  };
  const variance = (stratum(x) + stratum(y)) / (N * N) / (p * (1 - p)) ** 2;
  assert.ok(Math.abs(a.rating_se! - Math.sqrt(variance) / 2) < 1e-9, `se ${a.rating_se} vs ${Math.sqrt(variance) / 2}`);
  // Model shares ∝ each family's comparisons (30 and 16): (30 + 16)² / (30²/2 + 16²/1).
  const [nx, ny] = [30, 16];
  assert.ok(Math.abs(a.df! - (nx + ny) ** 2 / (nx ** 2 / 2 + ny ** 2 / 1)) < 1e-9, `df ${a.df}`);
});

test("a family of one configuration is sampled by game; a contrast with no stratum of two units has no interval", () => {
  const one = rateAgents(results("solo", "only", 6, 4), {prior: 0, resamples: 0});
  const a = one.agents.find((g) => g.agent === "A")!;
  // Games as the units: ten clusters of one game each.
  const {variance} = logOddsVariance([...Array(6).fill([1, 0]), ...Array(4).fill([0, 1])]);
  assert.ok(Math.abs(a.rating_se! - Math.sqrt(variance) / 2) < 1e-9);
  assert.equal(a.df, 9);
  const design = clusterRobust(2, new Float64Array([2, -1, -1, 2]), [{scores: [new Float64Array([1, -1])], information: new Float64Array(4)}]);
  assert.deepEqual(design.contrast([1, -1]), {variance: 0, df: 0});
  assert.deepEqual(tInterval(0.3, design.contrast([1, -1]), 0.95), {lo: null, hi: null});
  assert.equal(confidenceAbove(0.3, design.contrast([1, -1])), null);
});

test("confidence that a contrast is above zero: Student's t at estimate / se; 0 or 1 without spread", () => {
  assert.ok(Math.abs(confidenceAbove(2.228138851986, {variance: 1, df: 10})! - 0.975) < 1e-9);
  assert.equal(confidenceAbove(0, {variance: 0.3, df: 4}), 0.5);
  assert.equal(confidenceAbove(0.1, {variance: 0, df: 4}), 1);
  assert.equal(confidenceAbove(-0.1, {variance: 0, df: 4}), 0);
});

test("multivariate t draws: the covariance scaled by df / (df − 2), and a direction without variance left fixed", () => {
  // Centred covariance of three ratings (rank 2: their sum never moves).
  const cov = new Float64Array([0.5, -0.3, -0.2, -0.3, 0.4, -0.1, -0.2, -0.1, 0.3]);
  const mean = [1, 0, -1];
  const df = 12;
  const draws = multivariateTDraws(mean, cov, df, 40_000, createRng(3));
  const m = mean.map((_, i) => draws.reduce((t, d) => t + d[i], 0) / draws.length);
  for (let i = 0; i < 3; i++) {
    assert.ok(Math.abs(m[i] - mean[i]) < 0.015, `mean ${i}: ${m[i]}`);
    for (let j = 0; j < 3; j++) {
      const c = draws.reduce((t, d) => t + (d[i] - m[i]) * (d[j] - m[j]), 0) / (draws.length - 1);
      assert.ok(Math.abs(c - (cov[i * 3 + j] * df) / (df - 2)) < 0.02, `cov ${i},${j}: ${c} vs ${(cov[i * 3 + j] * df) / (df - 2)}`);
    }
  }
  for (const d of draws) assert.ok(Math.abs(d[0] + d[1] + d[2]) < 1e-9, "the sum stays at 0");
});

test("settledness: established under 50 Elo across, usable under 150, preliminary otherwise or without an interval", () => {
  const logit = (elo: number) => (elo * Math.LN10) / 400;
  assert.equal(settledness(0, logit(49.9)), "established");
  assert.equal(settledness(0, logit(50.1)), "usable");
  assert.equal(settledness(-logit(74.9), logit(74.9)), "usable");
  assert.equal(settledness(-logit(75.1), logit(75.1)), "preliminary");
  assert.equal(settledness(null, null), "preliminary");
});
