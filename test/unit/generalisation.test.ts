// The generalisation report (src/lib/generalisation.ts) on seat rows whose
// truth is known: a hand-computed example, the two-stage draw's shape, and
// simulated fields in which the focal agent exploits its seen co-players and
// falls short on held-out configurations by set amounts (and a null field):
// the 95 % intervals cover the constructed gaps in at least 90 % of 200 seeds.
import {test} from "node:test";
import assert from "node:assert/strict";
import {expandedTail, generalisationReport, protocolOf, protocolSummary, twoStageDraw, type CoPlayers, type FocalSeat, type ComparisonRow} from "../../src/lib/generalisation.js";
import {createRng, hash32, type Rng} from "../../src/lib/rng.js";

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
  const r = generalisationReport(seats, {resamples: 0});
  // Seen co-players: (4 + 2) / 2 = 3; unseen: (1 + 0) / 2 = 0.5.
  const co = row(r.rows, "co-players");
  assert.deepEqual([co.mean_a, co.mean_b, co.gap, co.seats_a, co.seats_b], [3, 0.5, 2.5, 2, 2]);
  assert.equal(co.gap_lo, null, "no draws, no interval");
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
  const r = generalisationReport(seats, {resamples: 0});
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

test("twoStageDraw: each stratum keeps its number of configurations, each drawn configuration its number of games, and draws stay inside their strata", () => {
  const design = [
    [[0, 1, 2], [3]],
    [[4, 5]],
  ];
  const rng = createRng(3);
  for (let b = 0; b < 200; b++) {
    const times = twoStageDraw(design, 6, rng);
    // The second stratum has one configuration of two games: two draws among games 4 and 5.
    assert.equal(times[4] + times[5], 2);
    // The first stratum: two configurations drawn, each contributing its own size.
    const first = times[0] + times[1] + times[2] + times[3];
    assert.ok([2, 4, 6].includes(first), `the first stratum drew ${first} games`);
    assert.ok(times[3] === 0 || times[3] === 1 || times[3] === 2);
  }
});

test("expandedTail: a t interval's width from the percentiles of few units; the plain percentile without two", () => {
  // Eight units in one stratum: z = t(0.975, 7) · √(8/7) = 2.364624 · 1.069045 = 2.527893, so the tail is 1 − Φ(2.527893) ≈ 0.005737.
  assert.ok(Math.abs(expandedTail(0.95, 7, 8) - 0.005737) < 2e-5, String(expandedTail(0.95, 7, 8)));
  assert.ok(Math.abs(expandedTail(0.95, 0, 1) - 0.025) < 1e-12, "one unit: the plain percentile interval");
  // Many units: close to the plain 2.5 %.
  assert.ok(Math.abs(expandedTail(0.95, 10_000, 10_001) - 0.025) < 1e-4);
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
function coverage(truth: {exploit: number; shortfall: number}) {
  const tally: Record<string, {covered: number; excludesZero: number; width: number}> = {};
  const truths: Record<string, number> = {"co-players": truth.exploit, configurations: truth.shortfall, "self-play vs cross-play": -truth.exploit / 2};
  const seeds = 200;
  for (let seed = 1; seed <= seeds; seed++) {
    // Streams from hashed seeds: mulberry32's streams are shifts of one sequence, so nearby seeds would overlap.
    const r = generalisationReport(field(createRng(hash32(`field/${seed}`)), truth), {resamples: 200, seed: hash32(`draws/${seed}`)});
    for (const [comparison, value] of Object.entries(truths)) {
      const x = row(r.rows, comparison);
      const t = (tally[comparison] ??= {covered: 0, excludesZero: 0, width: 0});
      if (x.gap_lo! <= value && value <= x.gap_hi!) t.covered++;
      if (x.gap_lo! > 0 || x.gap_hi! < 0) t.excludesZero++;
      t.width += (x.gap_hi! - x.gap_lo!) / seeds;
    }
  }
  return {tally, seeds};
}

// Measured (200 seeds, 200 draws each): the intervals covered the co-player gap in 200, the
// configurations gap in 189 and self-play − cross-play in 200; mean widths 0.83, 1.20 and 0.79
// (the configurations gap's standard error is 0.28 over 400 seeds, so a t interval's width is
// about 1.1; the co-player gap's is about 0.5: the two-stage draw counts the games' own
// variation twice). The null field: 199, 190 and 200 seeds.
test("a focal agent that exploits its seen co-players only (gap 1) and falls short by 1 on held-out configurations: intervals cover the gaps in ≥ 90 % of 200 seeds and find them", () => {
  const {tally, seeds} = coverage({exploit: 1, shortfall: 1});
  for (const [comparison, t] of Object.entries(tally)) {
    assert.ok(t.covered / seeds >= 0.9, `${comparison}: the interval covered the true gap in ${t.covered} of ${seeds} seeds`);
  }
  // Power as well as honesty: each constructed gap is told apart from zero in most seeds.
  assert.ok(tally["co-players"].excludesZero / seeds >= 0.9, `co-players: found in ${tally["co-players"].excludesZero} of ${seeds}`);
  assert.ok(tally.configurations.excludesZero / seeds >= 0.8, `configurations: found in ${tally.configurations.excludesZero} of ${seeds}`);
});

test("a null field (no exploitation, no shortfall): intervals cover zero in ≥ 90 % of 200 seeds", () => {
  const {tally, seeds} = coverage({exploit: 0, shortfall: 0});
  for (const [comparison, t] of Object.entries(tally)) {
    assert.ok(t.covered / seeds >= 0.9, `${comparison}: the interval covered 0 in ${t.covered} of ${seeds} seeds`);
  }
});
