// gamma-Bench in the common data model (DESIGN.md): what the ingest writes into
// games, players and turns, and that the score SQL reads a table set holding
// one game only (most gamma-Bench columns absent), laid out as `parley run`
// writes it (partitioned by game), as well as it reads the full ingest.
import {test} from "node:test";
import assert from "node:assert/strict";
import {mkdirSync} from "node:fs";
import {join} from "node:path";
import {ingestAndScore, rowsOf, scoreTables, type RawFile} from "../support/gamabenchFiles.js";
import {withDuckDB, sqlString} from "../../loaders/io/duckdb.js";
import {answerOverRuns} from "../../loaders/analyses/overRuns.js";
import {gamabenchAnalysis} from "../../src/analyses/gamabench.js";
import {gameScoresSQL, type GameScoreRow} from "../../src/lib/gamabench.js";

const pick = (rows: Record<string, unknown>[], keys: string[]) => rows.map((r) => keys.map((k) => r[k]));

test("games: the game id in `game`, the raw game name in `variant`, El Farol feedback and auction pricing in `mode`", async () => {
  const {result} = await ingestAndScore([
    {path: "bar_game_explicit/m_bar_game_explicit_v1_1.json", meta: {player_num: 2, min: 0, max: 10, home: 5, ratio: 0.5}, round_records: [{responses: ["go", "stay"]}]},
    {path: "sealed_bid_auction/second_price/m_sealed_bid_auction_v1_1.json", meta: {player_num: 2, mode: "second highest bid"}, round_records: [{responses: [5, 3], valuations: [9, 4]}]},
  ]);
  assert.deepEqual(pick(rowsOf(result, "games"), ["game", "variant", "mode", "source", "n_players", "rounds", "ended_by"]), [
    ["gamabench/el_farol", "bar_game_explicit", "explicit", "gamabench", 2, 1, "recorded"],
    ["gamabench/sealed_bid", "sealed_bid_auction_second_price", "second_price", "gamabench", 2, 1, "recorded"],
  ]);
  const turns = rowsOf(result, "turns");
  assert.deepEqual(pick(turns, ["turn", "round", "seat", "action", "amount", "choice", "valuation", "won", "payoff", "rule_break", "attempt"]), [
    [0, 1, 0, "decide", null, "go", null, null, 10, false, 1],
    [1, 1, 1, "decide", null, "stay", null, null, 5, false, 1],
    [0, 1, 0, "bid", 5, null, 9, true, 6, false, 1],
    [1, 1, 1, "bid", 3, null, 4, false, 0, false, 1],
  ]);
  assert.deepEqual(pick(rowsOf(result, "players"), ["seat", "seat_name", "agent", "return"]), [[0, null, "m", 10], [1, null, "m", 5], [0, null, "m", 6], [1, null, "m", 0]]);
});

test("battle royale: one shoot (or miss) turn per shot with the seats alive and their hit rates; players get hit rate, survived and 1 for the survivor", async () => {
  const alive = (...ps: number[]) => ps.map((p) => [`player_${p}`, [40, 60, 80][p]]);
  const {result} = await ingestAndScore([
    {
      path: "battle_royale/m_battle_royale_v1_1.json",
      meta: {player_num: 3, base_hit_rate: 40, interval: 20},
      round_records: [
        {responses: ["2"], player_shooting: "0", initial_players: alive(0, 1, 2), out: false},
        {responses: ["0"], player_shooting: "1", initial_players: alive(0, 1, 2), out: true},
        {responses: ["null"], player_shooting: "2", initial_players: alive(1, 2), out: false},
        {responses: ["2"], player_shooting: "1", initial_players: alive(1, 2), out: true},
      ],
    },
  ]);
  assert.deepEqual(pick(rowsOf(result, "turns"), ["turn", "round", "seat", "action", "target", "hit_rate", "position", "alive", "alive_rates", "hit"]), [
    [0, 1, 0, "shoot", 2, 40, 1, [0, 1, 2], [40, 60, 80], false],
    [1, 2, 1, "shoot", 0, 60, 2, [0, 1, 2], [40, 60, 80], true],
    [2, 3, 2, "miss", null, 80, 2, [1, 2], [60, 80], false],
    [3, 4, 1, "shoot", 2, 60, 1, [1, 2], [60, 80], true],
  ]);
  assert.deepEqual(pick(rowsOf(result, "players"), ["seat", "hit_rate", "survived", "return"]), [[0, 40, false, 0], [1, 60, true, 1], [2, 80, false, 0]]);
});

test("pirate game: a propose turn with the plan, then a vote turn per pirate aboard; return = gold of the plan that passed, 0 overboard", async () => {
  const {result} = await ingestAndScore([
    {
      path: "pirate_game/m_pirate_game_v1_1.json",
      meta: {player_num: 3, gold: 10},
      round_records: [
        {gold_distribution: [8, 1, 1], responses: ["accept", "reject", "reject"]},
        {gold_distribution: [10, 0], responses: ["accept", "reject"]},
      ],
    },
  ]);
  assert.deepEqual(pick(rowsOf(result, "turns"), ["turn", "round", "seat", "action", "plan", "position", "allocation", "choice", "payoff"]), [
    [0, 1, 0, "propose", [8, 1, 1], 1, null, null, null],
    [1, 1, 0, "vote", null, 1, 8, "accept", null],
    [2, 1, 1, "vote", null, 2, 1, "reject", null],
    [3, 1, 2, "vote", null, 3, 1, "reject", null],
    [4, 2, 1, "propose", [10, 0], 1, null, null, null],
    [5, 2, 1, "vote", null, 1, 10, "accept", 10],
    [6, 2, 2, "vote", null, 2, 0, "reject", 0],
  ]);
  assert.deepEqual(pick(rowsOf(result, "players"), ["seat", "survived", "return"]), [[0, false, 0], [1, true, 10], [2, true, 0]]);
});

test("a table set with one game only (most gamma-Bench columns absent), partitioned by game as runs are, scores as the full ingest does", async () => {
  const guessing: RawFile = {path: "guessing_game/m_guessing_game_v1_1.json", meta: {player_num: 3, min: 0, max: 100, ratio: 2 / 3}, round_records: [{responses: [30, 40, 50]}, {responses: [20, 20, 30]}]};
  const {scores, out} = await ingestAndScore([guessing]);
  const run = join(out, "run");
  const part = join(run, "game=gamabench%2Fguessing");
  mkdirSync(part, {recursive: true});
  // Only the guessing game's columns; `game` comes from the partition path, not the files.
  await withDuckDB(async (db) => {
    await db.run(`COPY (SELECT game_id, source, model, run, n_players, rounds, param_min, param_max, ratio FROM read_parquet(${sqlString(join(out, "games.parquet"))})) TO ${sqlString(join(part, "games.parquet"))} (FORMAT parquet)`);
    await db.run(`COPY (SELECT game_id, turn, round, seat, action, rule_break, amount, won, payoff FROM read_parquet(${sqlString(join(out, "turns.parquet"))})) TO ${sqlString(join(part, "turns.parquet"))} (FORMAT parquet)`);
  });
  const partitioned = (await answerOverRuns(gamabenchAnalysis, "game-scores", run)) as GameScoreRow[];
  assert.deepEqual(partitioned, scores);
  assert.equal(partitioned[0].game, "guessing_game", "the variant follows from the game id when the games table has none");
  assert.ok(Math.abs(partitioned[0].raw - 190 / 6) < 1e-9);
  // And the same through explicit flat files that lack the columns.
  const flat = await scoreTables(run, (v) => gameScoresSQL(v.games, v.turns), {games: join(out, "games.parquet"), turns: join(part, "turns.parquet")});
  assert.deepEqual(flat, scores);
});
