// Ratings v2 beside the Bradley–Terry fit: margin outcomes (by hand, and the
// compact games the page ships), the comparisons the fit exposes, Davidson's
// ties model (closed form, a second optimiser, simulated data with a known
// ν) and Nash averaging on rated games.
import {test} from "node:test";
import assert from "node:assert/strict";
import {compactGames, fitBradleyTerry, rateAgents, ratingComparisons, type RatedGame} from "../../src/lib/ratings.js";
import {comparisonOutcome, outcomeFallbacks, OUTCOMES} from "../../src/lib/ratingOutcomes.js";
import {fitDavidson} from "../../src/lib/davidson.js";
import {davidsonRatings, nashRatings} from "../../src/lib/ratingModels.js";
import {createRng, type Rng} from "../../src/lib/rng.js";
import {studentTQuantile} from "../../src/lib/studentT.js";
import {duel, ratedTournament} from "../support/ratedTournament.js";

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

test("compact games under a margin outcome rate as the games do (intervals and seeded rank draws included)", () => {
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

/**
 * A tournament under Davidson's model whose configurations move the
 * results, with a known truth: `families` families of `configurations`
 * configurations, every ordered pair of agents, DAVIDSON_GAMES games a
 * lineup and configuration. A lineup's win, loss and tie probabilities
 * p_w, p_l, p_t (Davidson's, strengths DAVIDSON_THETA and ν = DAVIDSON_NU)
 * are moved in each configuration without moving their means: ties by
 * V_c m (m = min(p_t, 1 − p_t), V_c uniform on (−1, 1), shared by every
 * lineup of the configuration), taken from or given to wins and losses in
 * proportion, then wins against losses by (U_ac − U_bc) min(q_w, q_l)
 * (U_ac uniform on (−½, ½): the agent's form in that configuration). The
 * expected counts are Davidson's, so the fit's score equations hold at the
 * truth and (θ, ν) is the estimand; results within a configuration are
 * correlated. Each lineup's wins, losses and ties are games with a count.
 */
function clusteredTiesTournament(rng: Rng, families: number, configurations: number): RatedGame[] {
  const games: RatedGame[] = [];
  const k = DAVIDSON_THETA.length;
  for (let f = 0; f < families; f++) {
    for (let c = 0; c < configurations; c++) {
      const v = 2 * rng.next() - 1;
      const u = DAVIDSON_THETA.map(() => rng.next() - 0.5);
      for (let i = 0; i < k; i++) {
        for (let j = 0; j < k; j++) {
          if (i === j) continue;
          const [a, b] = [Math.exp(DAVIDSON_THETA[i] / 2), Math.exp(DAVIDSON_THETA[j] / 2)];
          const total = a * a + b * b + DAVIDSON_NU * a * b;
          const [pw, pl, pt] = [(a * a) / total, (b * b) / total, (DAVIDSON_NU * a * b) / total];
          const qt = pt + v * Math.min(pt, 1 - pt);
          let [qw, ql] = [(pw * (1 - qt)) / (pw + pl), (pl * (1 - qt)) / (pw + pl)];
          const shift = (u[i] - u[j]) * Math.min(qw, ql);
          [qw, ql] = [qw + shift, ql - shift];
          const counts = [0, 0, 0];
          for (let n = 0; n < DAVIDSON_GAMES; n++) {
            const r = rng.next();
            counts[r < qw ? 0 : r < qw + ql ? 1 : 2]++;
          }
          const names = [`a${i}`, `a${j}`];
          [[1, 0], [0, 1], [0.5, 0.5]].forEach(([x, y], r) => counts[r] && games.push({...duel(`f${f}`, `c${c}`, names[0], x, names[1], y), count: counts[r]}));
        }
      }
    }
  }
  return games;
}
const DAVIDSON_THETA = [0.8, 0.2, -0.3, -0.7];
const DAVIDSON_NU = 0.9;
const DAVIDSON_GAMES = 8;

// Two configurations in each of ten families (about ten degrees of
// freedom, as the built-in game-theoretic run), twenty in each of three
// (as controlledRatings.test.ts). Monte Carlo error: ν's coverage over 200
// tournaments has a standard error of about 0.015 at 95 %; the strengths'
// over 800 intervals about 0.01. Fixed seeds; the figures are printed as
// diagnostics. About 2 CPU-seconds.
for (const [families, configurations] of [[10, 2], [3, 20]] as const) {
  test(`Davidson, ${configurations} configurations a family, 200 tournaments with configuration effects: ν's and the strengths' 95 % intervals cover the truth at least 90 % of the time`, (t) => {
    const rng = createRng(configurations === 2 ? 1970 : 197070);
    const mean = DAVIDSON_THETA.reduce((sum, v) => sum + v, 0) / DAVIDSON_THETA.length;
    const found = {tournaments: 200, nu: 0, width: 0, error: 0, strengths: 0, intervals: 0};
    for (let rep = 0; rep < found.tournaments; rep++) {
      const r = davidsonRatings(clusteredTiesTournament(rng, families, configurations), {resamples: 0});
      if (r.nu_lo! <= DAVIDSON_NU && DAVIDSON_NU <= r.nu_hi!) found.nu++;
      found.width += r.nu_hi! - r.nu_lo!;
      found.error += r.nu - DAVIDSON_NU;
      assert.ok(Math.abs(r.tie_probability - r.nu / (2 + r.nu)) < 1e-12);
      for (const a of r.agents) {
        const truth = DAVIDSON_THETA[Number(a.agent.slice(1))] - mean;
        found.intervals++;
        if (a.rating_lo! <= truth && truth <= a.rating_hi!) found.strengths++;
      }
    }
    t.diagnostic(`ν covered ${(found.nu / found.tournaments).toFixed(3)}, mean width ${(found.width / found.tournaments).toFixed(3)}, bias ${(found.error / found.tournaments).toFixed(3)}; strengths covered ${(found.strengths / found.intervals).toFixed(3)}`);
    assert.ok(found.nu / found.tournaments >= 0.9, `ν covered in ${found.nu} of ${found.tournaments}`);
    assert.ok(found.strengths / found.intervals >= 0.9, `strengths covered ${found.strengths} of ${found.intervals}`);
    // ν is recovered: its estimates' mean is within 0.05 of it (their spread is 0.1–0.2).
    assert.ok(Math.abs(found.error / found.tournaments) < 0.05, `bias of ν ${found.error / found.tournaments}`);
  });
}

test("Davidson: with no tie ν is 0 and has no interval; the strengths keep theirs", () => {
  const games = ratedTournament().map((g) => ({...g, seats: g.seats.map((s, n) => ({...s, score: s.score + n * 1e-3}))}));
  const r = davidsonRatings(games, {resamples: 0});
  assert.equal(r.ties, 0);
  assert.deepEqual([r.nu, r.nu_lo, r.nu_hi, r.tie_probability_lo], [0, null, null, null]);
  assert.ok(r.agents.every((a) => a.rating_lo !== null && a.rating_lo < a.rating && a.rating < a.rating_hi!));
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

test("Nash averaging's intervals: two agents, the loser's skill is minus the log-odds, drawn from the t of its cluster-robust fit (by hand for the empirical matrix, the ratings' own interval for the fit's)", () => {
  // A beats B in six configurations of one family, 10 games each, with a count: W_c of 10.
  const won = [8, 9, 7, 10, 8, 6];
  const games = won.flatMap((w, c) => [{...duel("f", `c${c}`, "A", 1, "B", 0), count: w}, ...(w < 10 ? [{...duel("f", `c${c}`, "A", 0, "B", 1), count: 10 - w}] : [])]);
  const draws = 4000;
  const level = 0.95;
  const t5 = studentTQuantile(0.975, won.length - 1);
  const check = (skill: [number | null, number | null], estimate: number, half: number, what: string) => {
    // Percentiles of 4,000 draws: within 15 % of the half-width of the t interval (their Monte Carlo error is about 5 %).
    assert.ok(Math.abs(skill[0]! - (-estimate - half)) < 0.15 * half && Math.abs(skill[1]! - (-estimate + half)) < 0.15 * half, `${what}: [${skill}] vs ${-estimate} ± ${half}`);
  };
  // Empirical: ℓ = logit((W + ½) / (N + 1)); each configuration's score W_c − N_c σ(ℓ); se = √(C/(C − 1) Σ (U_c − Ū)²) / ((N + 1) σ(1 − σ)).
  const [w, n] = [won.reduce((t, x) => t + x, 0), 10 * won.length];
  const ell = Math.log((w + 0.5) / (n - w + 0.5));
  const s = 1 / (1 + Math.exp(-ell));
  const u = won.map((x) => x - 10 * s);
  const mean = u.reduce((t, x) => t + x, 0) / u.length;
  const se = Math.sqrt((u.length / (u.length - 1)) * u.reduce((t, x) => t + (x - mean) ** 2, 0)) / ((n + 1) * s * (1 - s));
  const empirical = nashRatings(games, {resamples: draws, level});
  const loser = (r: ReturnType<typeof nashRatings>) => r.agents.find((a) => a.agent === "B")!;
  assert.equal(empirical.resamples, draws);
  assert.ok(Math.abs(loser(empirical).skill + ell) < 1e-12);
  check([loser(empirical).skill_lo, loser(empirical).skill_hi], ell, t5 * se, "empirical");
  assert.deepEqual([empirical.agents[0].agent, empirical.agents[0].mass_lo, empirical.agents[0].mass_hi], ["A", 1, 1]);
  // The fit's matrix: A's and B's centred ratings are ±d/2, so d's interval is twice A's rating interval about it.
  const bt = nashRatings(games, {resamples: draws, level, matrix: "bradley-terry"});
  const ratings = rateAgents(games, {resamples: 0, level});
  const a = ratings.agents.find((r) => r.agent === "A")!;
  assert.equal(a.df, won.length - 1);
  check([loser(bt).skill_lo, loser(bt).skill_hi], 2 * a.rating, 2 * (a.rating_hi! - a.rating), "bradley-terry");
});
