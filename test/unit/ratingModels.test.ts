// Ratings v2 beside the Bradley–Terry fit: margin outcomes (by hand, and the
// compact games the page ships), the comparisons the fit exposes, two-stage
// draws, Davidson's ties model (closed form, a second optimiser, simulated
// data with a known ν) and Nash averaging on rated games.
import {test} from "node:test";
import assert from "node:assert/strict";
import {compactGames, fitBradleyTerry, rateAgents, ratingComparisons, type RatedGame} from "../../src/lib/ratings.js";
import {comparisonOutcome, outcomeFallbacks, OUTCOMES} from "../../src/lib/ratingOutcomes.js";
import {drawDesign, twoStageDraw} from "../../src/lib/ratingDraws.js";
import {fitDavidson} from "../../src/lib/davidson.js";
import {davidsonRatings, nashRatings} from "../../src/lib/ratingModels.js";
import {createRng} from "../../src/lib/rng.js";
import {ratedTournament} from "../support/ratedTournament.js";

const duel = (family: string, cluster: string, a: string, sa: number, b: string, sb: number): RatedGame => ({
  family,
  cluster,
  seats: [
    {agent: a, seat: 0, score: sa},
    {agent: b, seat: 1, score: sb},
  ],
});

test("outcomes by hand: win, surplus share, normalised relative advantage", () => {
  assert.deepEqual([comparisonOutcome("win", 3, 1), comparisonOutcome("win", 1, 3), comparisonOutcome("win", 2, 2)], [1, 0, 0.5]);
  assert.equal(comparisonOutcome("surplus-share", 3, 1), 0.75);
  assert.equal(comparisonOutcome("surplus-share", 0, 0), 0.5);
  // A negative return: the share means nothing, the comparison counts as a win or loss.
  assert.equal(comparisonOutcome("surplus-share", -1, 2), 0);
  assert.equal(comparisonOutcome("surplus-share", 2, -1), 1);
  // GTBench's NRA = (x − y) / (|x| + |y|), mapped to (1 + NRA) / 2.
  assert.equal(comparisonOutcome("advantage", 3, 1), 0.75);
  assert.equal(comparisonOutcome("advantage", -1, 3), 0);
  assert.equal(comparisonOutcome("advantage", -1, -3), 0.75);
  assert.equal(comparisonOutcome("advantage", 0, 0), 0.5);
  const rng = createRng(3);
  for (let n = 0; n < 200; n++) {
    const [x, y] = [10 * rng.next() - 3, 10 * rng.next() - 3];
    for (const outcome of OUTCOMES) {
      const o = comparisonOutcome(outcome, x, y);
      assert.ok(o >= 0 && o <= 1);
      assert.ok(Math.abs(o + comparisonOutcome(outcome, y, x) - 1) < 1e-12, "o(x, y) + o(y, x) = 1");
      assert.ok(Math.abs(comparisonOutcome(outcome, o, 1 - o) - o) < 1e-12, "applied to (o, 1 − o) it gives o again");
    }
  }
  assert.equal(outcomeFallbacks([duel("f", "c", "A", -1, "B", 2), {...duel("f", "c", "A", 1, "B", 2), count: 3}, duel("f", "c", "A", -1, "A", 2)]), 1);
});

test("a margin outcome enters the fit as a fractional win: two agents, no prior, the gap is the log-odds of the shares", () => {
  // Each seat order once per configuration (no seat-balance weights): A's shares 0.75, 0.6, 0.2, 0.5.
  const games = [duel("f", "c0", "A", 3, "B", 1), duel("f", "c1", "B", 2, "A", 3), duel("f", "c2", "A", 1, "B", 4), duel("f", "c3", "B", 5, "A", 5)];
  const share = 0.75 + 0.6 + 0.2 + 0.5;
  const r = rateAgents(games, {prior: 0, resamples: 0, outcome: "surplus-share"});
  const [a, b] = ["A", "B"].map((x) => r.agents.find((g) => g.agent === x)!);
  assert.ok(Math.abs(a.wins - share) < 1e-12);
  assert.ok(Math.abs(a.rating - b.rating - Math.log(share / (4 - share))) < 1e-9);
  // By win / tie / loss: 2.5 of 4.
  const w = rateAgents(games, {prior: 0, resamples: 0});
  assert.ok(Math.abs(w.agents.find((g) => g.agent === "A")!.rating - w.agents.find((g) => g.agent === "B")!.rating - Math.log(2.5 / 1.5)) < 1e-9);
});

test("compact games under a margin outcome rate as the games do (seeded bootstrap included)", () => {
  const games = ratedTournament();
  for (const outcome of ["surplus-share", "advantage"] as const) {
    const compact = compactGames(games, outcome);
    assert.equal(compact.reduce((t, g) => t + (g.count ?? 1), 0), games.length);
    const [x, y] = [rateAgents(games, {outcome, resamples: 100, seed: 4}), rateAgents(compact, {outcome, resamples: 100, seed: 4})];
    x.agents.forEach((a, i) => {
      assert.equal(a.agent, y.agents[i].agent);
      for (const key of ["rating", "rating_lo", "rating_hi", "wins"] as const) assert.ok(Math.abs(a[key]! - y.agents[i][key]!) < 1e-9, `${outcome} ${a.agent} ${key}`);
    });
  }
});

test("ratingComparisons exposes exactly what the fit fits: its wins give rateAgents' point ratings", () => {
  const games = ratedTournament();
  for (const weighting of ["families", "games"] as const) {
    const {agents, comparisons} = ratingComparisons(games, {weighting});
    const k = agents.length;
    const wins = new Float64Array(k * k);
    for (const c of comparisons) (wins[c.i * k + c.j] += c.weight * c.outcome), (wins[c.j * k + c.i] += c.weight * (1 - c.outcome));
    const theta = fitBradleyTerry(k, wins, 1);
    const mean = theta.reduce((t, v) => t + v, 0) / k;
    const r = rateAgents(games, {weighting, resamples: 0});
    for (const a of r.agents) assert.ok(Math.abs(a.rating - (theta[agents.indexOf(a.agent)] - mean)) < 1e-9, `${weighting} ${a.agent}`);
  }
});

test("two-stage draws: configurations first, then games within them; each game expected its count", () => {
  // Family f: configuration c0 holds 1 game, c1 holds 3 (one of them standing for 2): a draw holds 2, 4 or 6 copies of f's games... counted by configuration.
  const games: RatedGame[] = [duel("f", "c0", "A", 1, "B", 0), duel("f", "c1", "A", 1, "B", 0), {...duel("f", "c1", "A", 0, "B", 1), count: 2}, duel("g", "only", "A", 1, "B", 0), duel("g", "only", "B", 1, "A", 0)];
  const design = drawDesign(games);
  const rng = createRng(9);
  const mean = new Float64Array(games.length);
  const draws = 4000;
  for (let d = 0; d < draws; d++) {
    const t = twoStageDraw(design, rng);
    const f = t[0] + t[1] + t[2];
    assert.ok([2, 4, 6].includes(f), `family f drew ${f} copies: two configurations of 1 or 3`);
    assert.ok(t[0] === 0 || t[0] === 1 || t[0] === 2);
    assert.equal(t[3] + t[4], 2, "a one-configuration family is resampled by game");
    t.forEach((v, n) => (mean[n] += v / draws));
  }
  [1, 1, 2, 1, 1].forEach((expected, n) => assert.ok(Math.abs(mean[n] - expected) < 0.08, `game ${n}: ${mean[n]} vs ${expected}`));
});

/** Davidson's log-likelihood, for checking the fit with another optimiser. */
function davidsonLoglik(k: number, wins: Float64Array, ties: Float64Array, theta: readonly number[], logNu: number): number {
  let l = 0;
  for (let i = 0; i < k; i++) {
    for (let j = i + 1; j < k; j++) {
      const [a, b] = [Math.exp(theta[i]), Math.exp(theta[j])];
      const mid = Math.exp(logNu) * Math.sqrt(a * b);
      const d = a + b + mid;
      l += wins[i * k + j] * Math.log(a / d) + wins[j * k + i] * Math.log(b / d) + ties[i * k + j] * Math.log(mid / d);
    }
  }
  return l;
}

test("Davidson: two agents in closed form (d = ln W/L, ν = T / √(W L)); with no tie, Bradley–Terry's fit", () => {
  const fit = fitDavidson(2, new Float64Array([0, 6, 2, 0]), new Float64Array([0, 4, 4, 0]), 0);
  assert.ok(Math.abs(fit.theta[0] - fit.theta[1] - Math.log(3)) < 1e-10);
  assert.ok(Math.abs(fit.nu - 4 / Math.sqrt(12)) < 1e-10);
  const wins = new Float64Array([0, 3, 1, 2, 0, 4, 1, 1, 0]);
  const plain = fitDavidson(3, wins, new Float64Array(9), 1);
  assert.equal(plain.nu, 0);
  assert.deepEqual([...plain.theta], [...fitBradleyTerry(3, wins, 1)]);
});

test("Davidson: the same maximum as a derivative-free search (cyclic golden-section coordinate ascent)", () => {
  const k = 4;
  const wins = new Float64Array([0, 5, 3, 2, 1, 0, 4, 3, 2, 1, 0, 5, 1, 2, 1, 0]);
  const tie = [0, 2, 1, 3, 2, 0, 2, 1, 1, 2, 0, 2, 3, 1, 2, 0];
  const ties = Float64Array.from(tie);
  const fit = fitDavidson(k, wins, ties, 0);
  // θ_3 fixed at 0 (the model sees only differences); search θ_0..θ_2 and log ν.
  const x = [0, 0, 0, 0];
  const f = (v: number[]) => davidsonLoglik(k, wins, ties, [v[0], v[1], v[2], 0], v[3]);
  const phi = (Math.sqrt(5) - 1) / 2;
  for (let sweep = 0; sweep < 200; sweep++) {
    for (let c = 0; c < 4; c++) {
      let [lo, hi] = [x[c] - 3, x[c] + 3];
      for (let n = 0; n < 80; n++) {
        const [m1, m2] = [hi - phi * (hi - lo), lo + phi * (hi - lo)];
        const at = (v: number) => f(x.map((y, i) => (i === c ? v : y)));
        if (at(m1) < at(m2)) lo = m1;
        else hi = m2;
      }
      x[c] = (lo + hi) / 2;
    }
  }
  const ours = [...fit.theta].map((t) => t - fit.theta[3]);
  for (let i = 0; i < 3; i++) assert.ok(Math.abs(ours[i] - x[i]) < 1e-5, `θ_${i}: ${ours[i]} vs ${x[i]}`);
  assert.ok(Math.abs(Math.log(fit.nu) - x[3]) < 1e-5, `log ν: ${Math.log(fit.nu)} vs ${x[3]}`);
  assert.ok(davidsonLoglik(k, wins, ties, ours, Math.log(fit.nu)) >= f(x) - 1e-9);
});

test("Davidson on simulated tournaments with a known ν and strengths: recovered, and the interval covers ν in most of them", () => {
  const truth = [0.8, 0.2, -0.3, -0.7];
  const nu = 0.9;
  const names = truth.map((_, i) => `a${i}`);
  const rng = createRng(12);
  let covered = 0;
  let strengths = 0;
  const errors: number[] = [];
  const reps = 12;
  for (let rep = 0; rep < reps; rep++) {
    const games: RatedGame[] = [];
    for (let c = 0; c < 15; c++) {
      for (let i = 0; i < 4; i++) {
        for (let j = 0; j < 4; j++) {
          if (i === j) continue;
          for (let n = 0; n < 3; n++) {
            const [a, b] = [Math.exp(truth[i] / 2), Math.exp(truth[j] / 2)];
            const u = rng.next() * (a * a + b * b + nu * a * b);
            const outcome = u < a * a ? 1 : u < a * a + b * b ? 0 : 0.5;
            games.push(duel("f", `c${c}`, names[i], outcome, names[j], 1 - outcome));
          }
        }
      }
    }
    const r = davidsonRatings(games, {resamples: 60, seed: rep + 1});
    if (r.nu_lo! <= nu && nu <= r.nu_hi!) covered++;
    const mean = truth.reduce((t, v) => t + v, 0) / 4;
    for (const a of r.agents) if (a.rating_lo! <= truth[names.indexOf(a.agent)] - mean && truth[names.indexOf(a.agent)] - mean <= a.rating_hi!) strengths++;
    errors.push(Math.abs(r.nu - nu));
    assert.ok(Math.abs(r.tie_probability - r.nu / (2 + r.nu)) < 1e-12);
  }
  assert.ok(covered >= 9, `ν covered in ${covered} of ${reps}`);
  assert.ok(strengths >= 0.8 * 4 * reps, `strengths covered ${strengths} of ${4 * reps}`);
  assert.ok(errors.reduce((t, e) => t + e, 0) / reps < 0.15, `mean error of ν ${errors}`);
});

test("Nash averaging of rated games: a rock–paper–scissors field gives every agent a third and skill 0; a copy changes no one's skill", () => {
  // R beats S, S beats P, P beats R, 3 games of 4 each, in both seat orders, over 4 configurations.
  const beats: [string, string][] = [["R", "S"], ["S", "P"], ["P", "R"]];
  const field = (extra: (w: string, l: string, c: number, n: number) => RatedGame[] = () => []) => {
    const games: RatedGame[] = [];
    for (let c = 0; c < 4; c++) {
      for (const [w, l] of beats) {
        for (let n = 0; n < 4; n++) {
          const won = n < 3;
          games.push(n % 2 ? duel("rps", `c${c}`, w, won ? 1 : 0, l, won ? 0 : 1) : duel("rps", `c${c}`, l, won ? 0 : 1, w, won ? 1 : 0));
          games.push(...extra(w, l, c, n));
        }
      }
    }
    return games;
  };
  const r = nashRatings(field(), {resamples: 0});
  for (const a of r.agents) assert.ok(Math.abs(a.mass - 1 / 3) < 1e-9 && Math.abs(a.skill) < 1e-9, `${a.agent}: ${a.mass}, ${a.skill}`);
  // R2 plays exactly as R (the same results against P and S, even odds against R).
  const copy = (w: string, l: string, c: number, n: number): RatedGame[] => {
    const won = n < 3;
    if (w === "R") return [duel("rps", `c${c}`, "R2", won ? 1 : 0, l, won ? 0 : 1)];
    if (l === "R") return [duel("rps", `c${c}`, w, won ? 1 : 0, "R2", won ? 0 : 1)];
    return n < 2 ? [duel("rps", `c${c}`, "R", n, "R2", 1 - n)] : [];
  };
  const cloned = nashRatings(field(copy), {resamples: 0, weighting: "games"});
  const plain = nashRatings(field(), {resamples: 0, weighting: "games"});
  for (const a of plain.agents) assert.ok(Math.abs(cloned.agents.find((b) => b.agent === a.agent)!.skill - a.skill) < 1e-9, a.agent);
  const mass = (who: string) => cloned.agents.find((b) => b.agent === who)!.mass;
  assert.ok(Math.abs(mass("R") + mass("R2") - 1 / 3) < 1e-9 && Math.abs(mass("R") - mass("R2")) < 1e-9);
});
