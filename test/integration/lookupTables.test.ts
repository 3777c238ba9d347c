// Tables read one key at a time (src/lib/lookups.ts): flattenRunTable with a
// lookup writes a run's table sorted by the key in bounded row groups,
// keeping every row, and lookupIndex gives each row group's rows and first
// and last key, as native DuckDB's parquet_metadata() and the rows
// themselves say; rowGroupsFor then picks exactly the row groups holding a key.
import {test} from "node:test";
import assert from "node:assert/strict";
import {mkdirSync} from "node:fs";
import {join} from "node:path";
import {scratch} from "../support/cli.js";
import {flattenRunTable, lookupIndex, LOOKUP_ROW_GROUP_BYTES} from "../../loaders/io/parquet.js";
import {sqlString, withDuckDB} from "../../loaders/io/duckdb.js";
import {GLEE_GAMES, GLEE_TURNS} from "../../loaders/papers/glee/tables.js";
import {compareKeyValues, GLEE_LOOKUPS, rowGroupsFor, type KeyValue} from "../../src/lib/lookups.js";

const {dir: tempDir} = scratch("parley-lookups-");

/**
 * A partitioned run directory (two game partitions, rows in shuffled order)
 * whose turns carry incompressible messages, so that the table spans several
 * row groups of LOOKUP_ROW_GROUP_BYTES.
 */
async function runDirectory(): Promise<string> {
  const dir = tempDir();
  await withDuckDB(async (db) => {
    for (const [i, family] of ["bargaining", "negotiation"].entries()) {
      const partition = join(dir, `game=${encodeURIComponent(`glee/${family}`)}`);
      mkdirSync(partition, {recursive: true});
      // 1,500 games of 20 turns per family; the game ids are not zero-padded, so text order differs from number order.
      await db.run(`COPY (SELECT '${family}-' || (n // 20) || '-x' AS game_id, (n % 20)::INTEGER AS turn, ((n % 20) // 2 + 1)::INTEGER AS round,
          CASE WHEN n % 2 = 0 THEN 'alice' ELSE 'bob' END AS player, 'message' AS action, md5(n::VARCHAR || '${i}') AS message
        FROM range(30000) t(n) ORDER BY hash(n + ${i})) TO ${sqlString(join(partition, "turns.parquet"))} (FORMAT parquet)`);
      await db.run(`COPY (SELECT '${family}-' || g || '-x' AS game_id, '${family}' AS family, (['fair', 'greedy', 'anchor'])[1 + g % 3] AS alice_agent,
          (['fair', 'greedy'])[1 + (g // 3) % 2] AS bob_agent, (g // 6)::INTEGER AS config_id, 0 AS repetition, md5(g::VARCHAR) AS ended_by
        FROM range(1500) t(g) ORDER BY hash(g)) TO ${sqlString(join(partition, "games.parquet"))} (FORMAT parquet)`);
    }
  });
  return dir;
}

test("a lookup table keeps every row, sorted by its key in bounded row groups, and its index agrees with parquet_metadata()", async () => {
  const run = await runDirectory();
  const out = join(tempDir(), "turns.parquet");
  await flattenRunTable(run, GLEE_TURNS, out, undefined, undefined, GLEE_LOOKUPS.turns);
  const index = await lookupIndex(out, GLEE_LOOKUPS.turns);
  await withDuckDB(async (db) => {
    const source = `read_parquet(${sqlString(join(run, "*", "turns.parquet"))})`;
    const file = `read_parquet(${sqlString(out)}, file_row_number = true)`;
    const columns = "game_id, turn, round, player, action, message";
    // Every row kept, none added: the same multiset both ways.
    const [{total}] = await db.query<{total: number}>(`SELECT count(*)::INTEGER AS total FROM ${source}`);
    assert.equal(total, 60_000);
    for (const [a, b] of [[source, file], [file, source]]) {
      const [{n}] = await db.query<{n: number}>(`SELECT count(*)::INTEGER AS n FROM (SELECT ${columns} FROM ${a} EXCEPT ALL SELECT ${columns} FROM ${b})`);
      assert.equal(n, 0);
    }
    // Sorted by game_id (byte order), then turn, in file order.
    const order = await db.query<{game_id: string; turn: number}>(`SELECT game_id, turn FROM ${file} ORDER BY file_row_number`);
    assert.equal(order.length, total);
    for (let i = 1; i < order.length; i++) {
      const d = compareKeyValues(order[i - 1].game_id, order[i].game_id);
      assert.ok(d < 0 || (d === 0 && order[i - 1].turn < order[i].turn), `row ${i} out of order`);
    }
    // Bounded row groups, and the index says what the footer says.
    const meta = await db.query<{rows: number; bytes: number; min: string; max: string}>(
      `SELECT row_group_id, any_value(row_group_num_rows)::INTEGER AS rows, sum(total_compressed_size)::INTEGER AS bytes,
              any_value(stats_min) FILTER (WHERE path_in_schema = 'game_id') AS min, any_value(stats_max) FILTER (WHERE path_in_schema = 'game_id') AS max
       FROM parquet_metadata(${sqlString(out)}) GROUP BY row_group_id ORDER BY row_group_id`,
    );
    assert.ok(meta.length >= 4, `several row groups: ${meta.length}`);
    for (const g of meta) assert.ok(g.bytes <= 1.5 * LOOKUP_ROW_GROUP_BYTES, `a row group of ${g.bytes} bytes`);
    assert.deepEqual(index.key, ["game_id"]);
    assert.deepEqual(index.rowGroups.map((g) => ({rows: g.rows, bytes: g.bytes, min: g.min, max: g.max})), meta.map((g) => ({rows: g.rows, bytes: g.bytes, min: [g.min], max: [g.max]})));
    // Each game's rows are exactly in the row groups rowGroupsFor picks (checked on every game).
    const starts = index.rowGroups.map((_, i) => index.rowGroups.slice(0, i).reduce((s, g) => s + g.rows, 0));
    const groupOf = (row: number) => starts.findLastIndex((s) => s <= row);
    const holding = new Map<string, Set<number>>();
    order.forEach((r, row) => holding.set(r.game_id, (holding.get(r.game_id) ?? new Set()).add(groupOf(row))));
    for (const [game, groups] of holding) assert.deepEqual(rowGroupsFor(index, [game]), [...groups].sort((a, b) => a - b), game);
    assert.deepEqual(rowGroupsFor(index, ["no-such-game"]), []);
  });
});

test("a composite key: each pair's games are in the row groups rowGroupsFor picks for (family, alice_agent, bob_agent)", async () => {
  const run = await runDirectory();
  const out = join(tempDir(), "games.parquet");
  await flattenRunTable(run, GLEE_GAMES, out, undefined, undefined, GLEE_LOOKUPS.games);
  const index = await lookupIndex(out, GLEE_LOOKUPS.games);
  assert.deepEqual(index.key, ["family", "alice_agent", "bob_agent"]);
  const rows = await withDuckDB((db) => db.query<{family: string; alice_agent: string; bob_agent: string; file_row_number: number}>(
    `SELECT family, alice_agent, bob_agent, file_row_number FROM read_parquet(${sqlString(out)}, file_row_number = true) ORDER BY file_row_number`,
  ));
  assert.equal(rows.length, 3000);
  let start = 0;
  const groupOf = index.rowGroups.map((g) => [start, (start += g.rows)]);
  for (const [i, g] of index.rowGroups.entries()) {
    const first = rows[groupOf[i][0]];
    const last = rows[groupOf[i][1] - 1];
    assert.deepEqual(g.min, [first.family, first.alice_agent, first.bob_agent]);
    assert.deepEqual(g.max, [last.family, last.alice_agent, last.bob_agent]);
  }
  for (const r of rows) {
    const key: KeyValue[] = [r.family, r.alice_agent, r.bob_agent];
    const groups = rowGroupsFor(index, key);
    assert.ok(groups.some((g) => groupOf[g][0] <= r.file_row_number && r.file_row_number < groupOf[g][1]), `${key.join(" ")} row ${r.file_row_number}`);
    assert.ok(groups.every((g) => rowGroupsFor(index, [r.family]).includes(g)), "a shorter prefix picks a superset");
  }
});

test("key order is DuckDB's: strings by code point (UTF-8 bytes), nulls last", async () => {
  const values: KeyValue[] = ["b", "a", "B", "é", "😀", "\uffff", "ab", "", null, "a-10", "a-9"];
  const rows = values.map((v) => `(${v === null ? "NULL" : sqlString(v as string)})`).join(", ");
  const duck = await withDuckDB((db) => db.query<{v: string | null}>(`SELECT v FROM (VALUES ${rows}) t(v) ORDER BY v NULLS LAST`));
  assert.deepEqual([...values].sort(compareKeyValues), duck.map((r) => r.v));
});
