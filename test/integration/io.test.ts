// Parquet/Arrow writers: typed columns, schema errors that name the row and column, atomic replacement.
import {test} from "node:test";
import assert from "node:assert/strict";
import {execFileSync} from "node:child_process";
import {existsSync, mkdtempSync, readdirSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {queryParquet, writeParquet} from "../../loaders/io/parquet.js";
import {readArrow, writeArrow} from "../../loaders/io/arrow.js";
import {tar} from "../../loaders/io/tar.js";
import type {TableSchema} from "../../loaders/io/schema.js";

const schema: TableSchema = {
  name: "things",
  columns: [
    {name: "id", type: "VARCHAR", nullable: false},
    {name: "n", type: "INTEGER"},
    {name: "x", type: "DOUBLE"},
    {name: "ok", type: "BOOLEAN"},
    {name: "v", type: "INTEGER[]"},
  ],
};
const rows = [
  {id: "a", n: 1, x: 0.5, ok: true, v: [1, 2]},
  {id: "b'quote", n: null, x: 1e-9, ok: false, v: []},
  {id: "c", n: 3, x: null, ok: null, v: null},
];

test("Parquet keeps the schema's types and values", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-io-"));
  const path = join(dir, "things.parquet");
  assert.equal(await writeParquet(path, schema, rows), 3);
  const types = await queryParquet({t: path}, "SELECT column_name, column_type FROM (DESCRIBE t)");
  assert.deepEqual(types.map((r) => [r.column_name, r.column_type]), [
    ["id", "VARCHAR"],
    ["n", "INTEGER"],
    ["x", "DOUBLE"],
    ["ok", "BOOLEAN"],
    ["v", "INTEGER[]"],
  ]);
  assert.deepEqual(await queryParquet({t: path}, "SELECT * FROM t ORDER BY id"), rows);
  assert.deepEqual(readdirSync(dir), ["things.parquet"], "no temporary file is left behind");
});

test("a row that does not fit is rejected by table, row and column, and the old file survives", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-io-"));
  const path = join(dir, "things.parquet");
  await writeParquet(path, schema, rows);
  await assert.rejects(writeParquet(path, schema, [...rows, {id: "d", n: 1.5}]), /things row 3, column n: expected INTEGER, got 1.5/);
  await assert.rejects(writeParquet(path, schema, [{id: null}]), /things row 0, column id: missing value/);
  await assert.rejects(writeParquet(path, schema, [{id: "e", extra: 1}]), /unknown column extra/);
  assert.equal((await queryParquet({t: path}, "SELECT count(*) AS n FROM t"))[0].n, 3);
  assert.deepEqual(readdirSync(dir), ["things.parquet"]);
});

test("Arrow IPC round trip", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-io-"));
  const path = join(dir, "things.arrow");
  await writeArrow(path, schema, rows);
  const table = readArrow(path);
  assert.equal(table.numRows, 3);
  assert.deepEqual(table.schema.fields.map((f) => String(f.type)), ["Utf8", "Int32", "Float64", "Bool", "List<Int32>"]);
  assert.deepEqual(Array.from(table.getChild("v")!.get(0)!.toArray()), [1, 2]);
  assert.equal(table.getChild("n")!.get(1), null);
});

test("tar archives unpack with the system tar", () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-tar-"));
  writeFileSync(join(dir, "a.tar"), tar({"status.json": '{"ok":true}', "games.parquet": new Uint8Array(1000).fill(7)}));
  execFileSync("tar", ["-xf", "a.tar"], {cwd: dir});
  assert.ok(existsSync(join(dir, "status.json")));
  assert.equal(execFileSync("cat", [join(dir, "status.json")]).toString(), '{"ok":true}');
  assert.equal(execFileSync("wc", ["-c", join(dir, "games.parquet")]).toString().trim().split(" ")[0], "1000");
});
