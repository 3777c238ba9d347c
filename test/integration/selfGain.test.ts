// The worked example's numbers (src/study-discount.md, src/lib/selfGain.ts):
// self-gain by own discount factor on a hand-made table of bargaining games,
// in native DuckDB, against the utilities of GLEE (Shapira et al. 2024) §2.1
// computed here by hand, simple-statistics' mean and standard deviation, and
// the interval with t(0.975, 4) = 2.776445 from a printed t table.
import {test} from "node:test";
import assert from "node:assert/strict";
import {mean, sampleStandardDeviation} from "simple-statistics";
import {withDuckDB} from "../../loaders/io/duckdb.js";
import {selfGainByDiscountSQL, withIntervals} from "../../src/lib/selfGain.js";

// [game, alice, bob, deal, rounds t, Alice's share p, δ_A, δ_B]
const GAMES: [string, string, string, boolean, number, number | null, number, number][] = [
  ["g1", "x", "y", true, 1, 0.5, 0.9, 0.8],
  ["g2", "x", "y", true, 2, 0.6, 0.9, 0.8],
  ["g3", "x", "y", true, 3, 0.4, 0.9, 0.95],
  ["g4", "y", "x", true, 1, 0.3, 0.8, 0.9],
  ["g5", "y", "x", true, 2, 0.5, 0.95, 0.9],
  ["g6", "x", "y", false, 4, null, 0.95, 0.9],
  ["g7", "x", "y", true, 2, 0.7, 0.95, 0.9],
];

test("self-gain by own δ: each seat's §2.1 utility, pooled over seats, with the t interval", async () => {
  const values = GAMES.map(([id, a, b, deal, t, p, da, db]) => `('${id}', 'bargaining', '${a}', '${b}', ${deal}, ${t}, ${p ?? "NULL"}, ${da}, ${db})`).join(", ");
  const rows = await withDuckDB(async (db) => {
    await db.query(`CREATE TABLE raw(game_id VARCHAR, family VARCHAR, alice_agent VARCHAR, bob_agent VARCHAR, agreement BOOLEAN, rounds INTEGER, alice_share DOUBLE, delta_a DOUBLE, delta_b DOUBLE)`);
    await db.query(`INSERT INTO raw VALUES ${values}`);
    // The columns the metric SQL reads for the other families, absent here.
    await db.query(`CREATE TABLE games AS SELECT *, 100.0 AS money, NULL::DOUBLE AS price, NULL::DOUBLE AS value_a, NULL::DOUBLE AS value_b, NULL::DOUBLE AS value_high,
      NULL::INTEGER AS n_high, NULL::INTEGER AS k_high_bought, NULL::INTEGER AS r_low_rejected, NULL::INTEGER AS sales FROM raw`);
    return db.query<{agent: string; delta: number; n: number; mean: number; sd: number | null}>(selfGainByDiscountSQL("games"));
  });
  // By hand: Alice gains p·δ_A^(t−1), Bob (1 − p)·δ_B^(t−1); no deal gains 0 (§2.1).
  const x09 = [0.5 * 0.9 ** 0, 0.6 * 0.9 ** 1, 0.4 * 0.9 ** 2, 0.7 * 0.9 ** 0, 0.5 * 0.9 ** 1];
  const x095 = [0, 0.7 * 0.95];
  const byKey = new Map(withIntervals(rows.map((r) => ({...r, n: Number(r.n)}))).map((r) => [`${r.agent} ${r.delta}`, r]));
  const r = byKey.get("x 0.9")!;
  assert.equal(r.n, 5);
  assert.ok(Math.abs(r.mean - mean(x09)) < 1e-12, `${r.mean} vs ${mean(x09)}`);
  assert.ok(Math.abs(r.sd! - sampleStandardDeviation(x09)) < 1e-12);
  const half = 2.776445 * (sampleStandardDeviation(x09) / Math.sqrt(5));
  assert.ok(Math.abs(r.lo! - (mean(x09) - half)) < 1e-6 && Math.abs(r.hi! - (mean(x09) + half)) < 1e-6, `${r.lo}–${r.hi}`);
  const r2 = byKey.get("x 0.95")!;
  assert.equal(r2.n, 2);
  assert.ok(Math.abs(r2.mean - mean(x095)) < 1e-12);
  // y: as Bob at δ 0.8 twice ((1 − 0.5)·1, (1 − 0.6)·0.8), at 0.95 twice, once as Alice at 0.8 (0.3), and twice as Bob at 0.9 (once without a deal: 0).
  const y08 = [0.5, 0.4 * 0.8, 0.3];
  assert.ok(Math.abs(byKey.get("y 0.8")!.mean - mean(y08)) < 1e-12);
  const one = byKey.get("y 0.9")!;
  assert.equal(one.n, 2);
  assert.deepEqual(withIntervals([{n: 1, mean: 0.5, sd: null}]).map(({lo, hi}) => [lo, hi]), [[null, null]], "one game: no interval");
  assert.deepEqual([...byKey.keys()], ["x 0.9", "x 0.95", "y 0.8", "y 0.9", "y 0.95"], "ordered by agent and δ");
});
