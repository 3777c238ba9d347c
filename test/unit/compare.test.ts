import {test} from "node:test";
import assert from "node:assert/strict";
import {compareAgents, compareRuns, holm, pairedTest, signFlip} from "../../src/lib/compare.js";
import type {SeatRow} from "../../src/lib/ratingsData.js";
import {designNote, manifestChance, sharedChance} from "../../src/lib/sharedChance.js";

const close = (actual: number | null, expected: number, tolerance = 1e-6, what = "") => assert.ok(actual !== null && Math.abs(actual - expected) < tolerance, `${what}: ${actual} vs ${expected}`);

/** Student's t density with 3 degrees of freedom, 2 / (π √3 (1 + x²/3)²), integrated by Simpson's rule: a second method for the p-value. */
function tTwoSided3(t: number): number {
  const f = (x: number) => 2 / (Math.PI * Math.sqrt(3) * (1 + (x * x) / 3) ** 2);
  const n = 20_000;
  const h = t / n;
  let s = f(0) + f(t);
  for (let i = 1; i < n; i++) s += (i % 2 ? 4 : 2) * f(i * h);
  return 1 - 2 * ((s * h) / 3);
}

test("paired statistics of the differences 1, 2, 3, 4 by hand", () => {
  const r = pairedTest([1, 2, 3, 4]);
  // mean 2.5, sd √(5/3), se √(5/3)/2, t = 2.5 / se, df 3.
  const sd = Math.sqrt(5 / 3);
  const se = sd / 2;
  close(r.mean_diff, 2.5, 1e-12, "mean");
  close(r.sd, sd, 1e-12, "sd");
  close(r.t, 2.5 / se, 1e-9, "t");
  close(r.p_t, tTwoSided3(2.5 / se), 1e-7, "p by Simpson");
  // t(0.975, 3) = 3.182446305 (tables).
  close(r.ci_lo, 2.5 - 3.182446305 * se, 1e-6, "ci lo");
  close(r.ci_hi, 2.5 + 3.182446305 * se, 1e-6, "ci hi");
  // Sign flips: of 16 patterns only all-plus and all-minus reach |sum| 10.
  assert.equal(r.p_perm, 2 / 16);
  assert.equal(r.perm_method, "exact");
});

test("sign-flip test by hand with ties in |sum|, and Monte Carlo above 16 pairs", () => {
  // Differences 1, 1, -1: |sum| = 1; patterns with |sum| ≥ 1: all 8 (sums ±1 or ±3).
  assert.equal(signFlip([1, 1, -1]).p, 1);
  // Twenty equal positive differences: only all-plus and all-minus reach 20 of 2^20; Monte Carlo gives (hits + 1) / (draws + 1).
  const mc = signFlip(new Array(20).fill(1), 10_000, 3);
  assert.equal(mc.method, "monte-carlo");
  assert.ok(mc.p <= 3 / 10_001, `${mc.p}`);
});

test("Holm's adjustment by hand", () => {
  // Sorted 0.01, 0.03, 0.04 → 3 × 0.01, max(0.03, 2 × 0.03), max(0.06, 1 × 0.04).
  assert.deepEqual(holm([0.01, 0.04, 0.03]).map((p) => Math.round(p! * 1e12) / 1e12), [0.03, 0.06, 0.06]);
  // Two p-values: 2 × 0.5 = 1, then max(1, 0.9) = 1.
  assert.deepEqual(holm([0.5, null, 0.9]), [1, null, 1]);
});

const seat = (game_id: string, family: string, config: string, repetition: number, seatNo: number, agent: string, score: number): SeatRow => ({game_id, family, cluster: config, config, repetition, seat: seatNo, agent, score});

test("two runs that swap one agent are compared game by game; unmatched games are counted and named", () => {
  const a = [seat("g-0-0-0", "f", "0", 0, 0, "x", 1), seat("g-0-0-0", "f", "0", 0, 1, "y", 2), seat("g-1-0-0", "f", "1", 0, 0, "x", 3), seat("g-1-0-0", "f", "1", 0, 1, "y", 4), seat("g-2-0-0", "f", "2", 0, 0, "x", 0), seat("g-2-0-0", "f", "2", 0, 1, "y", 0)];
  const b = [seat("g-0-0-0", "f", "0", 0, 0, "z", 2), seat("g-0-0-0", "f", "0", 0, 1, "y", 2), seat("g-1-0-0", "f", "1", 0, 0, "z", 5), seat("g-1-0-0", "f", "1", 0, 1, "y", 3), seat("g-9-0-0", "f", "9", 0, 0, "z", 1), seat("g-9-0-0", "f", "9", 0, 1, "y", 1)];
  // Run A's x stands for run B's z: the one agent only one run has.
  const r = compareRuns(a, b);
  const row = (metric: string) => r.rows.find((x) => x.metric === metric)!;
  assert.deepEqual(r.rows.map((x) => x.metric), ["return, seat 0", "return, seat 1", "total return"]);
  close(row("return, seat 0").mean_diff, 1.5, 1e-12, "seat 0: (2 − 1 + 5 − 3) / 2");
  close(row("return, seat 1").mean_diff, -0.5, 1e-12, "seat 1: (0 − 1) / 2");
  close(row("total return").mean_diff, 1, 1e-12, "total: (1 + 1) / 2");
  assert.equal(row("total return").n, 2);
  assert.deepEqual(r.unmatched, {a: 1, b: 1, a_games: ["g-2-0-0"], b_games: ["g-9-0-0"]});
});

test("two agents in the same seat against the same opponents, configuration and repetition", () => {
  const rows = [
    // A and B each as seat 0 against y in configs 0 and 1, and in config 2 only A.
    seat("1", "f", "0", 0, 0, "A", 1), seat("1", "f", "0", 0, 1, "y", 0),
    seat("2", "f", "0", 0, 0, "B", 3), seat("2", "f", "0", 0, 1, "y", 0),
    seat("3", "f", "1", 0, 0, "A", 2), seat("3", "f", "1", 0, 1, "y", 0),
    seat("4", "f", "1", 0, 0, "B", 2.5), seat("4", "f", "1", 0, 1, "y", 0),
    seat("5", "f", "2", 0, 0, "A", 9), seat("5", "f", "2", 0, 1, "y", 0),
    // B against a different opponent: no partner.
    seat("6", "f", "0", 0, 0, "B", 7), seat("6", "f", "0", 0, 1, "w", 0),
  ];
  const r = compareAgents(rows, "A", "B");
  assert.equal(r.rows.length, 1);
  assert.equal(r.rows[0].n, 2);
  close(r.rows[0].mean_diff, 1.25, 1e-12, "(2 + 0.5) / 2");
  assert.equal(r.unmatched.a, 1);
  assert.equal(r.unmatched.b, 1);
});

test("runs differing in more than one agent need a renaming", () => {
  const a = [seat("1", "f", "0", 0, 0, "x", 1), seat("1", "f", "0", 0, 1, "w", 1)];
  const b = [seat("1", "f", "0", 0, 0, "z", 2), seat("1", "f", "0", 0, 1, "v", 1)];
  assert.throws(() => compareRuns(a, b), /differ in more than one agent \(only in A: w, x; only in B: v, z\)/);
  const r = compareRuns(a, b, {rename: new Map([["x", "z"], ["w", "v"]])});
  assert.equal(r.rows.find((x) => x.metric === "return, seat 0")!.mean_diff, 1);
});

test("without shared chance, repetitions are averaged per configuration; with it, games pair by repetition (by hand)", () => {
  // A and B in seat 0 against y, configurations 0 and 1, repetitions 0 and 1.
  const scores = {A: [[1, 3], [2, 2]], B: [[4, 2], [5, 7]]};
  let id = 0;
  const rows = (["A", "B"] as const).flatMap((agent) =>
    scores[agent].flatMap((reps, config) => reps.flatMap((score, rep) => [seat(String(++id), "f", String(config), rep, 0, agent, score), seat(String(id), "f", String(config), rep, 1, "y", 0)])),
  );
  const cells = compareAgents(rows, "A", "B");
  assert.equal(cells.design, "configurations");
  assert.equal(cells.rows[0].n, 2);
  // Cell means: config 0, A 2 and B 3 (+1); config 1, A 2 and B 6 (+4).
  close(cells.rows[0].mean_diff, 2.5, 1e-12, "(1 + 4) / 2");
  close(cells.rows[0].sd, Math.sqrt(4.5), 1e-12, "sd of 1 and 4");
  const matched = compareAgents(rows, "A", "B", {sharedChance: true});
  assert.equal(matched.design, "matched");
  assert.equal(matched.rows[0].n, 4);
  // Pairs: 4 − 1, 2 − 3, 5 − 2, 7 − 2 = 3, −1, 3, 5.
  close(matched.rows[0].mean_diff, 2.5, 1e-12, "(3 − 1 + 3 + 5) / 4");
  close(matched.rows[0].sd, Math.sqrt(((0.5 ** 2) * 2 + 3.5 ** 2 + 2.5 ** 2) / 3), 1e-12, "sd of 3, −1, 3, 5");
  // Two runs: the same by run (A's x is B's z), totals included.
  const run = (agent: string, s: number[][]) => s.flatMap((reps, config) => reps.flatMap((score, rep) => [seat(`${config}-${rep}`, "f", String(config), rep, 0, agent, score), seat(`${config}-${rep}`, "f", String(config), rep, 1, "y", 1)]));
  const runs = compareRuns(run("x", scores.A), run("z", scores.B));
  assert.equal(runs.design, "configurations");
  close(runs.rows.find((r) => r.metric === "return, seat 0")!.mean_diff, 2.5, 1e-12, "runs, seat 0");
  close(runs.rows.find((r) => r.metric === "total return")!.mean_diff, 2.5, 1e-12, "runs, total");
  assert.equal(runs.rows.find((r) => r.metric === "total return")!.n, 2);
  assert.equal(compareRuns(run("x", scores.A), run("z", scores.B), {sharedChance: true}).rows.find((r) => r.metric === "return, seat 0")!.n, 4);
  // A cell only one side played: all its games unmatched.
  const lone = compareAgents([...rows, seat("99", "f", "2", 0, 0, "A", 1), seat("99", "f", "2", 0, 1, "y", 0), seat("98", "f", "2", 1, 0, "A", 1), seat("98", "f", "2", 1, 1, "y", 0)], "A", "B");
  assert.deepEqual([lone.unmatched.a, lone.unmatched.a_games], [2, ["98", "99"]]);
});

test("on simulated studies with a known effect, both designs cover it 95 % of the time, and the matched one is narrower when chance is shared", () => {
  // Per cell a level μ_c, per repetition a chance draw ε that moves both agents' returns alike when shared;
  // B − A = 0.5 plus each game's own noise. Cells 8, repetitions 4, 400 studies.
  const effect = 0.5;
  let u = 12345;
  const uniform = () => ((u = (Math.imul(u, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const normal = () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
  const cover = {cells: 0, matched: 0};
  let [cellsWidth, matchedWidth] = [0, 0];
  const studies = 400;
  for (let k = 0; k < studies; k++) {
    const shared: SeatRow[] = [];
    const apart: SeatRow[] = [];
    let id = 0;
    for (let c = 0; c < 8; c++) {
      const level = 3 * normal();
      for (let r = 0; r < 4; r++) {
        const chance = 2 * normal();
        for (const [agent, shift] of [["A", 0], ["B", effect]] as const) {
          const own = 0.5 * normal();
          shared.push(seat(String(++id), "f", String(c), r, 0, agent, level + chance + shift + own), seat(String(id), "f", String(c), r, 1, "y", 0));
          apart.push(seat(String(id), "f", String(c), r, 0, agent, level + 2 * normal() + shift + own), seat(String(id), "f", String(c), r, 1, "y", 0));
        }
      }
    }
    const m = compareAgents(shared, "A", "B", {sharedChance: true, permutations: 100}).rows[0];
    const a = compareAgents(apart, "A", "B", {permutations: 100}).rows[0];
    if (m.ci_lo! <= effect && effect <= m.ci_hi!) cover.matched++;
    if (a.ci_lo! <= effect && effect <= a.ci_hi!) cover.cells++;
    matchedWidth += (m.ci_hi! - m.ci_lo!) / studies;
    cellsWidth += (a.ci_hi! - a.ci_lo!) / studies;
  }
  for (const [design, n] of Object.entries(cover)) assert.ok(n / studies >= 0.92 && n / studies <= 0.98, `${design}: covered ${n} of ${studies}`);
  assert.ok(matchedWidth < cellsWidth / 2, `mean width matched ${matchedWidth}, configurations ${cellsWidth}`);
});

test("whether paired games shared chance, from the runs' manifests, and why not", () => {
  const run = (extra: Record<string, unknown> = {}) => ({kind: "run", seed: 3, chance: "common", config: {game: "g", grid: {x: [1, 2]}}, ...extra});
  assert.deepEqual(sharedChance([{label: "a", manifest: run()}]), {shared: true, why: "a drew chance by the common scheme (seed 3): games of one configuration and repetition share every draw"});
  assert.equal(sharedChance([{label: "a", manifest: run()}, {label: "b", manifest: run({config: {game: "g", grid: {x: [1, 2]}, players: ["other"]}})}]).shared, true, "other players: still shared");
  const why = (...runs: unknown[]) => sharedChance(runs.map((manifest, i) => ({label: `r${i}`, manifest})));
  assert.deepEqual(why(run(), null), {shared: false, why: "r1 has no manifest, so how its chance was drawn is unknown"});
  assert.match(why(run({chance: undefined})).why, /^r0 drew chance per game/, "a run manifest without a scheme was made per game");
  assert.match(why(run({chance: "per-game"})).why, /^r0 drew chance per game/);
  assert.match(why({kind: "ingest"}).why, /^r0 holds ingested games/);
  assert.equal(why(run(), run({seed: 4})).why, "the runs' seeds differ (r0 3, r1 4)");
  assert.equal(why(run(), run({config: {game: "g", grid: {x: [2, 1]}}})).why, "the runs' configs differ in grid, so one configuration number may name different parameters");
  assert.equal(why().shared, false);
  assert.equal(manifestChance(run({chance: undefined})), "per-game");
  assert.equal(manifestChance({kind: "ingest"}), null);
  assert.match(designNote(why(run(), null)), /did not share their chance \(r1 has no manifest.*repetitions are averaged within each configuration/);
});
