// Every table writer refuses a table whose key repeats, naming the table and
// the first duplicated key, and leaves the table already on disk untouched.
import {test} from "node:test";
import assert from "node:assert/strict";
import {mkdtempSync, readdirSync, readFileSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {ParquetStage, RunTables} from "../../loaders/runner/write.js";
import {IdHashes} from "../../loaders/runner/idHashes.js";
import {gameDef} from "../../loaders/registry/games.js";
import {writeParquet, queryParquet, queryRun} from "../../loaders/io/parquet.js";
import {DuplicateKeyError} from "../../loaders/io/tableKey.js";
import {writeIngest} from "../../loaders/ingest/write.js";
import type {TableSchema} from "../../loaders/io/schema.js";

const games: TableSchema = {name: "games", key: ["game_id"], columns: [{name: "game_id", type: "VARCHAR", nullable: false}, {name: "score", type: "DOUBLE"}]};
const turns: TableSchema = {
  name: "turns",
  key: ["game_id", "turn"],
  columns: [{name: "game_id", type: "VARCHAR", nullable: false}, {name: "turn", type: "INTEGER", nullable: false}, {name: "text", type: "VARCHAR"}],
};

async function withDir(fn: (dir: string) => Promise<void>) {
  const dir = mkdtempSync(join(tmpdir(), "parley-key-"));
  try {
    await fn(dir);
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
}

test("ParquetStage: a repeated game_id fails the write, names the table and the id, and keeps the old file", () =>
  withDir(async (dir) => {
    const path = join(dir, "games.parquet");
    const ok = new ParquetStage(path, games);
    ok.add({game_id: "g1", score: 1});
    ok.add({game_id: "g2", score: 2});
    assert.equal(await ok.finish(), 2);
    const before = readFileSync(path);

    const bad = new ParquetStage(path, games);
    for (const id of ["g1", "g3", "g2", "g3", "g2"]) bad.add({game_id: id, score: 0});
    await assert.rejects(bad.finish(), (error: Error) => {
      assert.ok(error instanceof DuplicateKeyError);
      assert.equal(error.message, 'games: game_id "g2" occurs 2 times; game_id must be unique, so games was not written');
      return true;
    });
    assert.deepEqual(readFileSync(path), before, "the old table is intact");
    assert.deepEqual(readdirSync(dir), ["games.parquet"], "no temporary file left behind");
    assert.deepEqual((await queryParquet({g: path}, "SELECT game_id FROM g ORDER BY game_id")).map((r) => r.game_id), ["g1", "g2"]);
  }));

test("ParquetStage: a composite key (game_id, turn) may repeat either part, not both", () =>
  withDir(async (dir) => {
    const path = join(dir, "turns.parquet");
    const ok = new ParquetStage(path, turns);
    for (const [g, t] of [["a", 0], ["a", 1], ["b", 0]] as const) ok.add({game_id: g, turn: t});
    assert.equal(await ok.finish(), 3);
    const bad = new ParquetStage(path, turns);
    for (const [g, t] of [["a", 0], ["a", 1], ["a", 1]] as const) bad.add({game_id: g, turn: t});
    await assert.rejects(bad.finish(), /^Error: turns: \(game_id, turn\) \("a", 1\) occurs 2 times/);
    assert.equal((await queryParquet({t: path}, "SELECT count(*) AS n FROM t"))[0].n, 3);
  }));

test("writeParquet and writeIngest refuse a duplicated key the same way", () =>
  withDir(async (dir) => {
    const path = join(dir, "games.parquet");
    await writeParquet(path, games, [{game_id: "x", score: 1}]);
    const before = readFileSync(path);
    await assert.rejects(writeParquet(path, games, [{game_id: "y"}, {game_id: "y"}]), /games: game_id "y" occurs 2 times/);
    await assert.rejects(writeIngest({tables: [{schema: games, rows: [{game_id: "y"}, {game_id: "y"}]}]}, dir), DuplicateKeyError);
    assert.deepEqual(readFileSync(path), before);
  }));

test("a schema without a key is written as before, repeats and all", () =>
  withDir(async (dir) => {
    const path = join(dir, "log.parquet");
    const {key: _key, ...noKey} = games;
    assert.equal(await writeParquet(path, {...noKey, name: "log"}, [{game_id: "y"}, {game_id: "y"}]), 2);
  }));

// RunTables keeps game ids as 64-bit hashes (run/idHashes.ts, issue 18): a
// repeated hash is a duplicate only if the written games files say so.
const defs = [gameDef("glee/bargaining"), gameDef("glee/negotiation")];
const game = (family: "bargaining" | "negotiation", id: string, text = "hello") => ({
  game: `glee/${family}`,
  row: {game_id: id, source: "simulated", family},
  players: [0, 1].map((seat) => ({game_id: id, seat})),
  turns: [{game_id: id, turn: 0, round: 1, seat: 0, player: "alice", message: text}],
});

class CollidingTables extends RunTables {
  // Every id gets the same hash: each new id looks like a repeat until the files are checked.
  protected override readonly ids = new IdHashes(() => [1, 2]);
}

test("RunTables: a game id played twice refuses the whole set, within a game or across games", () =>
  withDir(async (dir) => {
    for (const [first, second] of [["bargaining", "bargaining"], ["bargaining", "negotiation"]] as const) {
      const tables = new RunTables(dir, defs);
      tables.add(game("bargaining", "b-1"));
      tables.add(game(first, "dup"));
      tables.add(game(second, "dup"));
      await assert.rejects(tables.finish(), (error: Error) => {
        assert.ok(error instanceof DuplicateKeyError);
        assert.equal(error.message, 'games: game_id "dup" occurs twice; game_id must be unique, so the tables were not written');
        return true;
      });
      assert.deepEqual(readdirSync(dir).filter((f) => !f.startsWith(".")), [], "no partition made current");
    }
    // A third arrival of an id already seen twice is refused at once.
    const tables = new RunTables(dir, defs);
    tables.add(game("bargaining", "x"));
    tables.add(game("bargaining", "x"));
    assert.throws(() => tables.add(game("bargaining", "x")), /game_id "x" occurs twice/);
    tables.abandon();
  }));

test("RunTables: ids whose hashes collide but differ are written; a true repeat among them is still refused", () =>
  withDir(async (dir) => {
    const ok = new CollidingTables(dir, defs);
    for (const id of ["a", "b", "c"]) ok.add(game("bargaining", id));
    ok.add(game("negotiation", "d"));
    const written = await ok.finish();
    assert.equal(written.games, 4);
    assert.deepEqual((await queryRun(dir, ["games"], "SELECT game_id FROM games ORDER BY game_id")).map((r) => r.game_id), ["a", "b", "c", "d"]);

    const bad = new CollidingTables(dir, defs);
    for (const id of ["a", "b"]) bad.add(game("bargaining", id));
    bad.add(game("negotiation", "a"));
    await assert.rejects(bad.finish(), /games: game_id "a" occurs twice/);
    assert.equal((await queryRun(dir, ["games"], "SELECT count(*) AS n FROM games"))[0].n, 4, "the earlier tables stay current");
  }));

test("RunTables: a turns row longer than DuckDB's default JSON object size (16 MiB) is written whole", () =>
  withDir(async (dir) => {
    const long = "€".repeat(20_000_000) + "x"; // 60 MB of UTF-8 in one JSON line (a fixed 16 MiB limit fails it)
    const tables = new RunTables(dir, defs);
    tables.add(game("bargaining", "long", long));
    await tables.finish();
    const [row] = await queryRun(dir, ["turns"], "SELECT length(message) AS n, right(message, 2) AS tail FROM turns");
    assert.deepEqual(row, {n: long.length, tail: "€x"});
  }));
