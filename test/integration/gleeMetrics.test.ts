// GLEE metric SQL (src/lib/gleeMetrics.ts) on hand-built games, run by native DuckDB.
import {test} from "node:test";
import assert from "node:assert/strict";
import {mkdtempSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {writeParquet, queryParquet} from "../../loaders/io/parquet.js";
import {GLEE_GAMES, GLEE_TURNS} from "../../loaders/papers/glee/tables.js";
import {persuasionOutcome} from "../../loaders/papers/glee/persuasion.js";
import {gleeMetricsSQL, gleeStatsSQL, type GleeConventions, type GleeMetricsRow} from "../../src/lib/gleeMetrics.js";
import type {Quality} from "../../loaders/papers/glee/types.js";

async function metrics(rows: Record<string, unknown>[], turns: Record<string, unknown>[] = [], conventions?: GleeConventions) {
  const dir = mkdtempSync(join(tmpdir(), "parley-glee-metrics-"));
  await writeParquet(join(dir, "games.parquet"), GLEE_GAMES, rows);
  await writeParquet(join(dir, "turns.parquet"), GLEE_TURNS, turns);
  const views = {games: join(dir, "games.parquet"), turns: join(dir, "turns.parquet")};
  const m = await queryParquet<GleeMetricsRow & Record<string, unknown>>(views, `${gleeMetricsSQL("games", {conventions})} ORDER BY game_id`);
  const stats = await queryParquet(views, gleeStatsSQL("games", "turns"));
  return {byId: Object.fromEntries(m.map((r) => [r.game_id, r])), stats};
}

const near = (a: number | null, b: number, what: string) => assert.ok(a !== null && Math.abs(a - b) < 1e-12, `${what}: ${a} vs ${b}`);

test("bargaining: efficiency, fairness and discounted self-gain; no deal is efficiency 0, fairness 1", async () => {
  const base = {source: "test", family: "bargaining", delta_a: 0.9, delta_b: 0.8, money: 100, horizon_cap: 12};
  const {byId} = await metrics([
    {...base, game_id: "deal", agreement: true, rounds: 3, alice_share: 0.7},
    {...base, game_id: "none", agreement: false, rounds: 12},
  ]);
  const d = byId.deal;
  near(d.efficiency, 0.81 * 0.7 + 0.64 * 0.3, "efficiency");
  near(d.fairness, 1 - 4 * 0.2 * 0.2, "fairness");
  near(d.alice_self_gain, 0.7 * 0.81, "alice");
  near(d.bob_self_gain, 0.3 * 0.64, "bob");
  assert.deepEqual([byId.none.efficiency, byId.none.fairness, byId.none.alice_self_gain, byId.none.bob_self_gain], [0, 1, 0, 0]);
});

test("negotiation efficiency: V_A ≥ V_B and no trade → 1; trade at V_A ≤ p ≤ V_B → 1; otherwise 0", async () => {
  const neg = (id: string, fa: number, fb: number, price: number | null) => ({
    game_id: id, source: "test", family: "negotiation", money: 100, factor_a: fa, factor_b: fb, value_a: 100 * fa, value_b: 100 * fb,
    agreement: price !== null, price: price ?? undefined, rounds: 1,
  });
  const {byId} = await metrics([
    neg("a-no-trade-ok", 1.2, 1, null),
    neg("b-equal-no-trade", 1, 1, null),
    neg("c-trade-inside", 1, 1.5, 120),
    neg("d-trade-at-edge", 1, 1.5, 150),
    neg("e-trade-above", 1, 1.5, 160),
    neg("f-missed-trade", 0.8, 1.2, null),
    neg("g-loss-for-seller", 1.2, 1.5, 100),
    neg("h-far-price", 1, 1, 300),
  ]);
  assert.deepEqual(Object.values(byId).map((r) => r.efficiency), [1, 1, 1, 1, 0, 0, 0, 0]);
  near(byId["c-trade-inside"].fairness, 1 - 4 * ((120 - 125) / 100) ** 2, "fairness at 120");
  near(byId["c-trade-inside"].alice_self_gain, 0.2, "alice gain");
  near(byId["c-trade-inside"].bob_self_gain, 0.3, "bob gain");
  near(byId["g-loss-for-seller"].alice_self_gain, -0.2, "seller's loss is not clipped");
  assert.equal(byId["f-missed-trade"].fairness, 1);
  assert.equal(byId["h-far-price"].fairness, 0, "clipped at 0");
  near(byId["h-far-price"].fairness_unclipped, 1 - 4 * 4, "unclipped");
});

test("persuasion: efficiency k/n and fairness r/(T−n) on hand-built histories", async () => {
  const Q = (s: string) => [...s].map((c) => (c === "H" ? "high" : "low") as Quality);
  const B = (s: string) => [...s].map((c) => c === "1");
  // 5 rounds: quality H H L L H, bought 1 0 1 0 0 → n = 3, k = 1, r = 1, sales = 2.
  const o = persuasionOutcome({money: 100, value_high: 2}, Q("HHLLH"), B("10100"), "completed");
  assert.deepEqual([o.n_high, o.k_high_bought, o.r_low_rejected, o.sales], [3, 1, 1, 2]);
  const allHigh = persuasionOutcome({money: 100, value_high: 2}, Q("HHHH"), B("1111"), "completed");
  const allLow = persuasionOutcome({money: 100, value_high: 2}, Q("LLLL"), B("0000"), "completed");
  const row = (id: string, x: typeof o) => ({game_id: id, source: "test", family: "persuasion", money: 100, value_high: 2, prior: 0.5, ...Object.fromEntries(Object.entries(x).filter(([, v]) => v !== null))});
  const {byId} = await metrics([row("hand", o), row("all-high", allHigh), row("all-low", allLow)]);
  near(byId.hand.efficiency, 1 / 3, "efficiency k/n");
  near(byId.hand.fairness, 1 / 2, "fairness r/(T−n)");
  near(byId.hand.alice_self_gain, 2 / 5, "alice: share of rounds sold");
  near(byId.hand.bob_self_gain, (1 * (2 - 1) - 1) / 5, "bob: (k(v−1) − low purchases)/T");
  assert.deepEqual([byId["all-high"].efficiency, byId["all-high"].fairness], [1, null]);
  assert.deepEqual([byId["all-low"].efficiency, byId["all-low"].fairness], [null, 1]);
});

/** The four metrics of each game, scored in both conventions. */
async function bothConventions(rows: Record<string, unknown>[]) {
  const pick = (r: GleeMetricsRow) => [r.efficiency, r.fairness, r.alice_self_gain, r.bob_self_gain];
  const score = async (c: GleeConventions) => Object.fromEntries(Object.entries((await metrics(rows, [], c)).byId).map(([id, r]) => [id, pick(r)]));
  return {paper: await score("paper"), code: await score("glee-code")};
}

const close = (a: (number | null)[], b: (number | null)[], what: string) =>
  assert.ok(a.length === b.length && a.every((x, i) => (x === null ? b[i] === null : b[i] !== null && Math.abs(x - b[i]!) < 1e-12)), `${what}: [${a}] vs [${b}]`);

test("GLEE's code conventions (a): bargaining without a deal is a deal on p = 0 in its last round", async () => {
  const base = {source: "test", family: "bargaining", delta_a: 0.9, delta_b: 0.8, money: 100, horizon: 12, horizon_cap: 12};
  const {paper, code} = await bothConventions([
    {...base, game_id: "deal", agreement: true, rounds: 3, alice_share: 0.7},
    {...base, game_id: "none", agreement: false, rounds: 12, ended_by: "horizon"},
    {...base, game_id: "none-round-1", agreement: false, rounds: 1, ended_by: "rule_break"},
  ]);
  // A deal: 0.9² · 0.7 + 0.8² · 0.3 = 0.567 + 0.192 = 0.759; fairness 1 − 4 · 0.2² = 0.84; gains 0.567 and 0.192, in both.
  close(paper.deal, [0.759, 0.84, 0.567, 0.192], "deal, paper");
  close(code.deal, paper.deal, "deal, GLEE's code");
  // No deal after 12 rounds: the paper's (efficiency 0, fairness 1, gains 0); the code's p = 0 gives
  // fairness 1 − 4 · ½² = 0, Alice 0, Bob 1 · 0.8¹¹ = 0.08589934592, efficiency 0 · 0.9¹¹ + 0.8¹¹.
  close(paper.none, [0, 1, 0, 0], "no deal, paper");
  close(code.none, [0.08589934592, 0, 0, 0.08589934592], "no deal, GLEE's code");
  // Ended in round 1 (δ⁰ = 1): the code credits Bob the whole sum.
  close(code["none-round-1"], [1, 0, 0, 1], "no deal in round 1, GLEE's code");
});

test("GLEE's code conventions (b): negotiation efficiency ignores whether the price lies between the values", async () => {
  const neg = (id: string, fa: number, fb: number, price: number | null) => ({
    game_id: id, source: "test", family: "negotiation", money: 100, factor_a: fa, factor_b: fb, value_a: 100 * fa, value_b: 100 * fb,
    agreement: price !== null, price: price ?? undefined, rounds: 1,
  });
  const {paper, code} = await bothConventions([
    neg("a-inside", 1, 1.5, 120), // V_A = 100 ≤ 120 ≤ 150: efficient in both
    neg("b-above", 1, 1.5, 160), // above V_B: the paper 0, the code 1
    neg("c-below", 1, 1.5, 90), // below V_A: the paper 0, the code 1
    neg("d-equal-values", 1, 1, 130), // V_A = V_B = 100, p = 130: the paper 0, the code 1
    neg("e-seller-values-more", 1.2, 1, 110), // V_A > V_B, trade: 0 in both
    neg("f-missed", 0.8, 1.2, null), // no trade though V_A < V_B: 0 in both
    neg("g-kept", 1.2, 1, null), // no trade, V_A ≥ V_B: 1 in both
  ]);
  assert.deepEqual(Object.values(paper).map((m) => m[0]), [1, 0, 0, 0, 0, 0, 1]);
  assert.deepEqual(Object.values(code).map((m) => m[0]), [1, 1, 1, 1, 0, 0, 1]);
  // Fairness and self-gains are the same: at 160, 1 − 4 · ((160 − 125)/100)² = 0.51, Alice 0.6, Bob −0.1.
  close(paper["b-above"].slice(1), [0.51, 0.6, -0.1], "trade above V_B, paper");
  for (const id of Object.keys(paper)) close(code[id].slice(1), paper[id].slice(1), `${id}: fairness and gains`);
});

test("GLEE's code conventions (c): Bob's persuasion self-gain subtracts the low-quality rounds not bought", async () => {
  const Q = (s: string) => [...s].map((c) => (c === "H" ? "high" : "low") as Quality);
  const B = (s: string) => [...s].map((c) => c === "1");
  // 5 rounds, v = 3: quality H L L L H, bought 1 1 0 0 0 → n = 2, k = 1, s = 2 (one low-quality purchase), r = 2.
  const o = persuasionOutcome({money: 100, value_high: 3}, Q("HLLLH"), B("11000"), "completed");
  assert.deepEqual([o.n_high, o.k_high_bought, o.r_low_rejected, o.sales], [2, 1, 2, 2]);
  const row = {game_id: "hand", source: "test", family: "persuasion", money: 100, value_high: 3, prior: 0.5, ...Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null))};
  const {paper, code} = await bothConventions([row]);
  // efficiency k/n = 1/2, fairness r/(T − n) = 2/3, Alice s/T = 2/5 in both; Bob: the paper (1 · (3 − 1) − 1)/5 = 0.2, the code (1 · 2 − 2)/5 = 0.
  close(paper.hand, [1 / 2, 2 / 3, 2 / 5, 0.2], "paper");
  close(code.hand, [1 / 2, 2 / 3, 2 / 5, 0], "GLEE's code");
});

test("Table 6 statistics: games, decisions, messages, words", async () => {
  const {stats} = await metrics(
    [{game_id: "g1", source: "t", family: "bargaining"}, {game_id: "g2", source: "t", family: "bargaining"}, {game_id: "p", source: "t", family: "persuasion"}],
    [
      {game_id: "g1", turn: 0, round: 1, player: "alice", action: "offer", message: "split  it\nevenly", rule_break: false},
      {game_id: "g1", turn: 1, round: 1, player: "bob", action: "decision", decision: "accept", rule_break: false},
      {game_id: "g2", turn: 0, round: 1, player: "alice", action: "offer", message: "   ", rule_break: true},
      {game_id: "p", turn: 0, round: 1, player: "alice", action: "message", message: "high quality", rule_break: false},
      {game_id: "p", turn: 1, round: 1, player: "bob", action: "decision", decision: "accept", rule_break: false},
      {game_id: "p", turn: 2, round: 2, player: "alice", action: "message", claim: "low", rule_break: false},
    ],
  );
  assert.deepEqual(stats, [
    {family: "bargaining", games: 2, decisions: 2, messages: 1, words: 3, rule_breaks: 1},
    {family: "persuasion", games: 1, decisions: 2, messages: 1, words: 2, rule_breaks: 0}, // the purchase and the binary claim; the free-text message is not a decision
  ]);
});
