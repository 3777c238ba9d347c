// The generalisation report (src/lib/generalisation.ts) on seat rows whose
// truth is known: hand-computed examples of its means and its cluster-robust
// intervals, and simulated fields in which the focal agent exploits its seen
// co-players and falls short on held-out configurations by set amounts (and
// a null field), with few and with many configurations: the 95 % intervals
// cover the constructed gaps in at least 90 % of 200 seeds.
import {test} from "node:test";
import assert from "node:assert/strict";
import {generalisationReport, protocolOf, protocolSummary, type CoPlayers, type FocalSeat, type ComparisonRow} from "../../src/lib/generalisation.js";
import {studentTQuantile} from "../../src/lib/studentT.js";
import {createRng, hash32, type Rng} from "../../src/lib/rng.js";

const near = (x: number | null, y: number, what: string) => assert.ok(x !== null && Math.abs(x - y) < 1e-9, `${what}: ${x}, expected ${y}`);

const seat = (game_id: string, cluster: string, agent: string, score: number, co_players: CoPlayers, held_out = false, family = "g", win = 0.5): FocalSeat => ({game_id, family, cluster, seat: 0, agent, score, win, co_players, held_out});

const row = (rows: readonly ComparisonRow[], comparison: string, measure = "return", focal?: string, game?: string) => {
  const found = rows.find((r) => r.comparison === comparison && r.measure === measure && (focal === undefined || r.focal === focal) && (game === undefined || r.game === game));
  assert.ok(found, `no ${comparison} ${measure} row`);
  return found;
};

test("a hand-computed report: group means, gaps and seat counts, and what cannot be compared", () => {
  const seats = [
    seat("a", "c0", "F", 4, "seen", false, "g", 1),
    seat("b", "c0", "F", 2, "seen", false, "g", 1),
    seat("c", "c0", "F", 1, "unseen", false, "g", 0),
    seat("d", "c1", "F", 0, "unseen", true, "g", 0),
  ];
  const r = generalisationReport(seats);
  // Seen co-players: (4 + 2) / 2 = 3; unseen: (1 + 0) / 2 = 0.5.
  const co = row(r.rows, "co-players");
  assert.deepEqual([co.mean_a, co.mean_b, co.gap, co.seats_a, co.seats_b], [3, 0.5, 2.5, 2, 2]);
  // Each stratum has one configuration, so its games are the clusters. The seen stratum's games a, b, c have scores
  // (4 − 3, 0), (2 − 3, 0), (0, 1 − 0.5); the held-out stratum's one game d tells nothing of the spread. With
  // b = H⁻¹(1, −1) = (½, −½) they give 0.5, −0.5, −0.25 (mean −1/12), so the variance is 3/2 · Σ (· + 1/12)² = 0.8125;
  // the degrees of freedom, one stratum of three clusters: 2.
  assert.equal(co.df, 2);
  near(co.gap_se, Math.sqrt(0.8125), "standard error");
  near(co.gap_lo, 2.5 - studentTQuantile(0.975, 2) * Math.sqrt(0.8125), "low");
  near(co.gap_hi, 2.5 + studentTQuantile(0.975, 2) * Math.sqrt(0.8125), "high");
  // Seen configuration c0: (4 + 2 + 1) / 3; held-out c1: 0.
  const configs = row(r.rows, "configurations");
  assert.ok(Math.abs(configs.mean_a - 7 / 3) < 1e-12 && configs.mean_b === 0);
  const wins = row(r.rows, "co-players", "win share");
  assert.deepEqual([wins.mean_a, wins.mean_b], [1, 0]);
  assert.ok(!r.rows.some((x) => x.comparison === "self-play vs cross-play"), "no self-play game: no such row");
  assert.deepEqual(r.seats, {"self-play": 0, seen: 2, unseen: 2, mixed: 0, other: 0});
  assert.deepEqual(r.configurations, {seen: 1, held_out: 1});
  assert.ok(r.notes.some((n) => /^Self-play vs cross-play: no game seated focal agents only/.test(n)));
  assert.ok(r.notes.some((n) => /single seen or held-out configuration/.test(n)));
});

test("several focal agents and games: a row per agent and for all of them; over all games, win share only, each game weighted equally", () => {
  const seats = [
    seat("a", "c0", "F1", 10, "self-play", false, "g1", 1),
    seat("a2", "c0", "F2", 30, "seen", false, "g1", 0),
    seat("b", "c0", "F1", 5, "unseen", false, "g1", 0),
    seat("c", "c0", "F1", 1, "self-play", false, "g2", 0.5),
    seat("d", "c0", "F2", 2, "seen", false, "g2", 0.5),
    seat("d2", "c0", "F2", 2, "seen", false, "g2", 0.5),
    seat("d3", "c0", "F2", 2, "seen", false, "g2", 0.5),
  ];
  const r = generalisationReport(seats);
  const selfCross = r.rows.filter((x) => x.comparison === "self-play vs cross-play");
  assert.deepEqual([...new Set(selfCross.map((x) => x.focal))].sort(), ["F1", "all focal agents"], "F2 never played self-play");
  assert.deepEqual(row(r.rows, "self-play vs cross-play", "return", "F1", "g1").gap, 5);
  // Pooled agents in g1: self 10 vs cross (30 + 5) / 2.
  assert.equal(row(r.rows, "self-play vs cross-play", "return", "all focal agents", "g1").mean_b, 17.5);
  assert.ok(!r.rows.some((x) => x.game === "all games" && x.measure === "return"), "returns are not pooled across games");
  // All games, win share, all focal agents: g1 self 1 vs cross 0; g2 self 0.5 vs cross 0.5 (three seats): means of the two games.
  const all = row(r.rows, "self-play vs cross-play", "win share", "all focal agents", "all games");
  assert.deepEqual([all.mean_a, all.mean_b, all.gap], [0.75, 0.25, 0.5]);
  assert.equal(all.seats_b, 5);
});

test("cluster-robust intervals by hand: configurations as clusters; seen and held-out configurations as disjoint strata whose variances add", () => {
  const seats = [
    seat("a", "c0", "F", 4, "seen"),
    seat("b", "c0", "F", 1, "unseen"),
    seat("c", "c1", "F", 2, "seen"),
    seat("d", "c1", "F", 2, "unseen"),
    seat("e", "c2", "F", 3, "seen"),
    seat("f", "c2", "F", 5, "seen"),
    seat("g", "c2", "F", 0, "unseen"),
    seat("h", "c3", "F", 0, "seen", true),
    seat("i", "c4", "F", 2, "seen", true),
    seat("j", "c4", "F", 4, "seen", true),
  ];
  const r = generalisationReport(seats);
  // Co-players in the seen configurations c0–c2 (one stratum): means 14/4 = 3.5 and 3/3 = 1. The configurations'
  // scores U_c = (S_cA − 3.5·N_cA, S_cB − 1·N_cB): c0 (0.5, 0), c1 (−1.5, 1), c2 (1, −1); with b = H⁻¹(1, −1) =
  // (1/4, −1/3) they give 0.125, −0.708…, 0.583… (mean 0), so the variance is 3/2 · their sum of squares;
  // one stratum of three configurations: 2 degrees of freedom.
  const u = [0.5 / 4, -1.5 / 4 - 1 / 3, 1 / 4 + 1 / 3];
  const coSeen = row(generalisationReport(seats.filter((s) => !s.held_out)).rows, "co-players");
  assert.deepEqual([coSeen.mean_a, coSeen.mean_b, coSeen.df], [3.5, 1, 2]);
  near(coSeen.gap_se ** 2, 1.5 * u.reduce((t, x) => t + x * x, 0), "co-players' variance");
  const co = row(r.rows, "co-players");
  assert.ok(co.seats_a === 7 && co.seats_b === 3, "the held-out configurations' seats with seen co-players count among them");
  // Seen (c0–c2) against held-out (c3, c4) configurations, return: 17/7 and 6/3 = 2.
  // Seen stratum, b = 1/7: scores c0 5 − 2·17/7, c1 4 − 2·17/7, c2 8 − 3·17/7. Held-out, b = −1/3: c3 0 − 2 = −2, c4 6 − 4 = 2.
  const configs = row(r.rows, "configurations");
  near(configs.mean_a, 17 / 7, "seen mean");
  assert.equal(configs.mean_b, 2);
  const seen = [5 - 34 / 7, 4 - 34 / 7, 8 - 51 / 7].map((x) => x / 7);
  const mean = seen.reduce((t, x) => t + x, 0) / 3;
  const vSeen = 1.5 * seen.reduce((t, x) => t + (x - mean) ** 2, 0);
  const vHeld = 2 * ((2 / 3) ** 2 + (2 / 3) ** 2);
  near(configs.gap_se ** 2, vSeen + vHeld, "the two strata's variances add");
  // Satterthwaite on the working model (seats independent): contributions 7/49 = 1/7 (2 df) and 3/9 = 1/3 (1 df).
  near(configs.df, (1 / 7 + 1 / 3) ** 2 / ((1 / 7) ** 2 / 2 + (1 / 3) ** 2), "degrees of freedom");
  near(configs.gap_hi, 3 / 7 + studentTQuantile(0.975, configs.df) * configs.gap_se, "high");
});

test("protocolOf reads a manifest's protocol as data: none, a problem sentence, or the protocol; protocolSummary says it as text", () => {
  assert.equal(protocolOf({kind: "run"}), null);
  assert.equal(protocolOf(null), null);
  const good = {focal: ["F"], seen: ["S"], unseen: [], held_out: {"g/x": {parameters: {rounds: [4, 6]}, config_ids: [1, 3]}}};
  assert.deepEqual(protocolOf({generalisation: good}), good);
  assert.equal(protocolSummary(good), "Focal: F. Seen co-players: S. Unseen co-players: none. Held-out configurations: g/x with rounds 4 or 6 (2 configurations).");
  const problems: [unknown, RegExp][] = [
    ["everyone", /generalisation is not an object/],
    [{...good, focal: "F"}, /generalisation\.focal is not a list of agent ids/],
    [{...good, focal: []}, /generalisation\.focal is empty/],
    [{...good, unseen: [1]}, /generalisation\.unseen is not a list/],
    [{...good, held_out: []}, /generalisation\.held_out is not an object/],
    [{...good, held_out: {"g/x": {parameters: {rounds: 4}, config_ids: [1]}}}, /held_out\.g\/x is not \{parameters/],
    [{...good, held_out: {"g/x": {parameters: {}, config_ids: ["1; DROP"]}}}, /held_out\.g\/x is not \{parameters/],
  ];
  for (const [generalisation, pattern] of problems) {
    const read = protocolOf({generalisation});
    assert.ok(read && "problem" in read && pattern.test(read.problem), `${JSON.stringify(generalisation)}: ${JSON.stringify(read)}`);
  }
});

// ---------------------------------------------------------------- simulated fields

function normal(rng: Rng): number {
  const u = 1 - rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}

/**
 * A field like a run of one two-seat game: `configs` seen and as many held-out
 * configurations, each with its own level (sd `between`); in each, the focal
 * agent F meets two seen co-players, two unseen ones and itself, `reps`
 * games each. F's return: 1 + level + `exploit` against a seen co-player −
 * `shortfall` in a held-out configuration + noise (sd 1).
 */
function field(rng: Rng, {configs = 8, reps = 4, between = 0.5, exploit = 1, shortfall = 1} = {}): FocalSeat[] {
  const seats: FocalSeat[] = [];
  for (let c = 0; c < 2 * configs; c++) {
    const heldOut = c >= configs;
    const level = between * normal(rng);
    for (const co of ["S1", "S2", "U1", "U2", "F"]) {
      for (let r = 0; r < reps; r++) {
        const game = `c${c}-${co}-${r}`;
        const group: CoPlayers = co === "F" ? "self-play" : co.startsWith("S") ? "seen" : "unseen";
        const focalSeats = co === "F" ? 2 : 1;
        const other = 1 + normal(rng);
        for (let s = 0; s < focalSeats; s++) {
          const score = 1 + level + (group === "seen" ? exploit : 0) - (heldOut ? shortfall : 0) + normal(rng);
          seats.push({game_id: game, family: "g", cluster: `c${c}`, seat: s, agent: "F", score, win: score > other ? 1 : 0, co_players: group, held_out: heldOut});
        }
      }
    }
  }
  return seats;
}

/** Over 200 seeds: how often each comparison's 95 % interval covers its true gap, and how often it excludes 0. */
function coverage(truth: {exploit: number; shortfall: number}, configs: number) {
  const tally: Record<string, {covered: number; excludesZero: number}> = {};
  const truths: Record<string, number> = {"co-players": truth.exploit, configurations: truth.shortfall, "self-play vs cross-play": -truth.exploit / 2};
  const seeds = 200;
  for (let seed = 1; seed <= seeds; seed++) {
    // Streams from hashed seeds: mulberry32's streams are shifts of one sequence, so nearby seeds would overlap.
    const r = generalisationReport(field(createRng(hash32(`field/${seed}`)), {...truth, configs}));
    for (const [comparison, value] of Object.entries(truths)) {
      const x = row(r.rows, comparison);
      const t = (tally[comparison] ??= {covered: 0, excludesZero: 0});
      if (x.gap_lo! <= value && value <= x.gap_hi!) t.covered++;
      if (x.gap_lo! > 0 || x.gap_hi! < 0) t.excludesZero++;
    }
  }
  return {tally, seeds};
}

// Measured (200 seeds; 2,000 seeds in brackets), intervals covering the co-player, configurations and
// self-play − cross-play gaps: with 2 configurations a side 187, 192, 191 (95.1 %, 94.8 %, 95.3 %), mean
// widths 1.86, 4.09, 1.59 (about 7.5 times the estimates' standard deviation over seeds: Student's t on 2
// degrees of freedom); with 20 a side 186, 186, 187 (95.6 %, 95.3 %, 94.6 %), widths 0.32, 0.69, 0.28 (4.0
// times it, as t on 38 degrees of freedom gives). The two-stage bootstrap this replaced (200 draws a
// seed, over 2,000 seeds) covered 99.8 %, 91.5 % and 99.8 % with 2 a side (widths 1.82, 2.06, 1.74) and 99.7 %,
// 96.6 %, 99.8 % with 20 (widths 0.49, 0.73, 0.46): it counted the games' own variation twice (the self- and co-player gaps 1.5 to 1.7 times
// too wide with 20 a side) and the configurations gap was too narrow with two. The null field: the same
// coverage (the gaps are additive). 200 seeds take 0.1 s (2 a side) to 0.6 s (20).
for (const configs of [2, 20]) {
  test(`${configs} seen and ${configs} held-out configurations, a focal agent that exploits its seen co-players only (gap 1) and falls short by 1 on held-out configurations: intervals cover the gaps in ≥ 90 % of 200 seeds${configs === 20 ? " and find them" : ""}`, () => {
    const {tally, seeds} = coverage({exploit: 1, shortfall: 1}, configs);
    for (const [comparison, t] of Object.entries(tally)) {
      assert.ok(t.covered / seeds >= 0.9, `${comparison}: the interval covered the true gap in ${t.covered} of ${seeds} seeds`);
    }
    if (configs < 20) return;
    // Power as well as honesty: with many configurations each constructed gap is told apart from zero in most seeds.
    for (const comparison of ["co-players", "configurations", "self-play vs cross-play"]) {
      assert.ok(tally[comparison].excludesZero / seeds >= 0.9, `${comparison}: found in ${tally[comparison].excludesZero} of ${seeds}`);
    }
  });

  test(`${configs} seen and ${configs} held-out configurations, a null field (no exploitation, no shortfall): intervals cover zero in ≥ 90 % of 200 seeds`, () => {
    const {tally, seeds} = coverage({exploit: 0, shortfall: 0}, configs);
    for (const [comparison, t] of Object.entries(tally)) {
      assert.ok(t.covered / seeds >= 0.9, `${comparison}: the interval covered 0 in ${t.covered} of ${seeds} seeds`);
    }
  });
}
