// GLEE human-vs-LLM games into the common GLEE schema: both discount-factor
// layouts, the outside option, the real sample, and outcomes that match the
// engine's own rules when the same moves are replayed through it.
import {test} from "node:test";
import assert from "node:assert/strict";
import {existsSync, mkdirSync, mkdtempSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {datasetsConfig} from "../../loaders/projectConfig.js";
import {ingestGleeHuman, GLEE_HUMAN_LLM} from "../../loaders/papers/glee/ingest.js";
import {gameDef} from "../../loaders/registry/games.js";
import {createRng} from "../../src/lib/rng.js";
import type {Action, Params} from "../../loaders/contract/game.js";
import {inSequence} from "../../loaders/runner/chance.js";

const real = datasetsConfig().dir ? join(datasetsConfig().dir!, "glee-human") : null;
const skipReal = !real || !existsSync(real) ? `GLEE human-vs-LLM sample not found (${real ?? "no datasets directory configured"}); set PARLEY_DATASETS` : false;

export function gleeFolder(root: string, family: string, id: string, config: unknown, csv: string): string {
  const dir = join(root, family, id);
  mkdirSync(dir, {recursive: true});
  writeFileSync(join(dir, "config.json"), typeof config === "string" ? config : JSON.stringify(config, null, 2));
  writeFileSync(join(dir, "game.csv"), csv);
  return dir;
}

const bargainingConfig = (layout: "game_args" | "player_args") => ({
  name: "bargaining_1",
  game_type: "bargaining",
  player_1_type: "otree",
  player_1_args: {public_name: "Alice", model_name: "otree", ...(layout === "player_args" ? {delta: 0.9} : {})},
  player_2_type: "otree_LLM",
  player_2_args: {public_name: "Bob", model_name: "otree_LLM", ...(layout === "player_args" ? {delta: 0.8} : {})},
  game_args: {money_to_divide: 100, max_rounds: 12, complete_information: true, messages_allowed: true, ...(layout === "game_args" ? {delta_1: 0.9, delta_2: 0.8} : {})},
});

const bargainingCsv = [
  "alice_gain,bob_gain,message,player,round,decision",
  '70.0,30.0,"I want 70, ok?",Alice,1,None',
  ",,None,Bob,1,reject",
  "40.0,60.0,nan,Bob,2,None",
  ",,None,Alice,2,accept",
].join("\n");

test("bargaining: both layouts of discount factors give the same game; utilities discounted by δ^(t−1)", () => {
  const root = mkdtempSync(join(tmpdir(), "parley-glee-"));
  gleeFolder(root, "bargaining", "NEWLAYOUT0000001", bargainingConfig("game_args"), bargainingCsv);
  gleeFolder(root, "bargaining", "OLDLAYOUT0000001", bargainingConfig("player_args"), bargainingCsv);
  const result = ingestGleeHuman(root);
  assert.deepEqual(result.problems, []);
  const [games, turns] = result.tables.map((t) => t.rows);
  assert.equal(games.length, 2);
  for (const g of games) {
    assert.equal(g.source, "glee-human");
    assert.equal(g.alice_agent, "human");
    assert.equal(g.bob_agent, GLEE_HUMAN_LLM);
    assert.equal(g.delta_a, 0.9);
    assert.equal(g.delta_b, 0.8);
    assert.equal(g.horizon, 12);
    assert.equal(g.rounds, 2);
    assert.equal(g.agreement, true);
    assert.equal(g.alice_share, 0.4);
    assert.ok(Math.abs((g.alice_utility as number) - 100 * 0.9 * 0.4) < 1e-9);
    assert.ok(Math.abs((g.bob_utility as number) - 100 * 0.8 * 0.6) < 1e-9);
  }
  const first = turns.filter((t) => t.game_id === games[0].game_id);
  assert.deepEqual(first.map((t) => [t.turn, t.round, t.player, t.role, t.action, t.decision ?? null]), [
    [0, 1, "alice", "proposer", "offer", null],
    [1, 1, "bob", "responder", "decision", "reject"],
    [2, 2, "bob", "proposer", "offer", null],
    [3, 2, "alice", "responder", "decision", "accept"],
  ]);
  assert.equal(first[0].message, "I want 70, ok?");
  assert.equal(first[2].message, null, '"nan" means messages were off');
});

test("negotiation: SellToJhon ends the game with no deal; max_rounds 30 stands for T = ∞", () => {
  const root = mkdtempSync(join(tmpdir(), "parley-glee-"));
  const config = {
    game_type: "negotiation", player_1_type: "otree_LLM", player_1_args: {public_name: "Alice"}, player_2_type: "otree", player_2_args: {public_name: "Bob"},
    game_args: {seller_value: 1.0, buyer_value: 1.2, product_price_order: 100, max_rounds: 30, messages_allowed: false, complete_information: false},
  };
  gleeFolder(root, "negotiation", "JHON000000000001", config, ["message,product_price,player,round,decision", ",130.0,Alice,1,", ",,Bob,1,RejectOffer", ",90.0,Bob,2,", ",,Alice,2,SellToJhon"].join("\n"));
  gleeFolder(root, "negotiation", "DEAL000000000001", config, ["message,product_price,player,round,decision", ",110.0,Alice,1,", ",,Bob,1,AcceptOffer"].join("\n"));
  const result = ingestGleeHuman(root);
  assert.deepEqual(result.problems, []);
  const games = Object.fromEntries(result.tables[0].rows.map((g) => [String(g.game_id).split("/").at(-1), g]));
  assert.equal(games.JHON000000000001.ended_by, "outside_option");
  const jhon = result.tables.find((t) => t.schema.name === "turns")!.rows.filter((t) => String(t.game_id).endsWith("JHON000000000001"));
  assert.deepEqual(jhon.at(-1), {...jhon.at(-1), action: "decision", decision: "outside", raw: "SellToJhon"}, "the played game's decision for the outside option");
  assert.equal(games.JHON000000000001.agreement, false);
  assert.equal(games.JHON000000000001.alice_utility, 0);
  assert.equal(games.JHON000000000001.horizon, null);
  assert.equal(games.JHON000000000001.horizon_cap, 30);
  assert.equal(games.DEAL000000000001.price, 110);
  assert.equal(games.DEAL000000000001.alice_utility, 10);
  assert.equal(games.DEAL000000000001.bob_utility, 10);
  assert.equal(games.DEAL000000000001.alice_agent, GLEE_HUMAN_LLM);
});

test("the shared sample: 25 games per family, one human and gemini-1.5-flash in each", {skip: skipReal}, () => {
  const result = ingestGleeHuman(real!);
  assert.deepEqual(result.problems, []);
  assert.deepEqual(result.summary, {games_read: 75, games_written: 75, games_skipped: 0, bargaining: 25, negotiation: 25, persuasion: 25});
  const games = result.tables[0].rows;
  for (const g of games) assert.deepEqual([g.alice_agent, g.bob_agent].sort(), [GLEE_HUMAN_LLM, "human"].sort(), String(g.game_id));
  const persuasion = games.filter((g) => g.family === "persuasion");
  assert.ok(persuasion.every((g) => g.rounds === 20 && (g.high_quality as boolean[]).length === 20));
  // Both δ layouts occur in the sample (SOURCE.md): every bargaining game has its two discount factors.
  assert.ok(games.filter((g) => g.family === "bargaining").every((g) => typeof g.delta_a === "number" && typeof g.delta_b === "number"));
});

test("bargaining and negotiation outcomes equal the engine's when the logged moves are replayed through it", {skip: skipReal}, () => {
  const result = ingestGleeHuman(real!);
  const [games, turns] = result.tables.map((t) => t.rows);
  let replayed = 0;
  for (const g of games.filter((x) => x.family !== "persuasion" && x.ended_by === "agreement")) {
    const params = (
      g.family === "bargaining"
        ? {delta_a: g.delta_a, delta_b: g.delta_b, money: g.money, horizon: g.horizon ?? "inf", complete_information: g.complete_information, messages: g.messages}
        : {factor_a: g.factor_a, factor_b: g.factor_b, money: g.money, horizon: g.horizon ?? "inf", complete_information: g.complete_information, messages: g.messages}
    ) as unknown as Params;
    const state = gameDef(`glee/${g.family}`).start(params, {gameId: String(g.game_id), nSeats: 2, chance: inSequence(createRng(1))});
    for (const t of turns.filter((x) => x.game_id === g.game_id)) {
      const action = (t.action === "decision"
        ? {type: "decision", decision: t.decision}
        : g.family === "bargaining"
          ? {type: "offer", alice_gain: t.alice_gain, bob_gain: t.bob_gain}
          : {type: "offer", price: t.price}) as Action;
      const seat = t.player === "alice" ? 0 : 1;
      assert.equal(state.validate(seat, action), null, `${g.game_id} turn ${t.turn}`);
      state.apply([action]);
    }
    const o = state.result();
    assert.equal(o.rounds, g.rounds, `${g.game_id} rounds`);
    assert.ok(Math.abs(o.returns[0] - (g.alice_utility as number)) < 1e-6, `${g.game_id} alice_utility`);
    assert.ok(Math.abs(o.returns[1] - (g.bob_utility as number)) < 1e-6, `${g.game_id} bob_utility`);
    replayed++;
  }
  assert.ok(replayed >= 45, `replayed ${replayed} agreed games`);
});

test("GLEE's metric SQL runs unchanged on the ingested human-vs-LLM tables", {skip: skipReal}, async () => {
  const {writeIngest} = await import("../../loaders/ingest/write.js");
  const {queryParquet} = await import("../../loaders/io/parquet.js");
  const {gleeMetricsSQL, gleeStatsSQL} = await import("../../src/lib/gleeMetrics.js");
  const out = mkdtempSync(join(tmpdir(), "parley-glee-human-"));
  await writeIngest(ingestGleeHuman(real!), out);
  const views = {games: join(out, "games.parquet"), turns: join(out, "turns.parquet")};
  const metrics = await queryParquet<{family: string; efficiency: number | null; fairness: number | null}>(views, gleeMetricsSQL("games"));
  assert.equal(metrics.length, 75);
  for (const family of ["bargaining", "negotiation", "persuasion"]) {
    assert.ok(metrics.some((m) => m.family === family && m.fairness !== null), `${family} has fairness values`);
  }
  const stats = await queryParquet<{family: string; games: number; decisions: number}>(views, gleeStatsSQL("games", "turns"));
  assert.deepEqual(stats.map((s) => [s.family, s.games]), [["bargaining", 25], ["negotiation", 25], ["persuasion", 25]]);
  assert.ok(stats.every((s) => s.decisions > 0));
});
