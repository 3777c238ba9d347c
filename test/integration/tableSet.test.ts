// Tables replaced as a set (loaders/io/tableSet.ts) through the real writer (writeIngest -> DuckDB -> Parquet):
// a failure while writing the second table leaves the old set whole; leftovers of dead writers are removed.
import {test} from "node:test";
import assert from "node:assert/strict";
import {spawnSync} from "node:child_process";
import {existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {writeIngest} from "../../loaders/ingest/write.js";
import {queryParquet, writeParquet} from "../../loaders/io/parquet.js";
import {currentManifest, TablesInUse} from "../../loaders/io/tableSet.js";
import type {Row, TableSchema} from "../../loaders/io/schema.js";

const GAMES: TableSchema = {name: "games", columns: [{name: "game_id", type: "VARCHAR", nullable: false}, {name: "version", type: "VARCHAR"}]};
const TURNS: TableSchema = {name: "turns", columns: [{name: "game_id", type: "VARCHAR", nullable: false}, {name: "turn", type: "INTEGER"}]};

const set = (version: string, turns: Row[]) => ({
  tables: [
    {schema: GAMES, rows: [{game_id: "g1", version}, {game_id: "g2", version}]},
    {schema: TURNS, rows: turns},
  ],
});

async function contents(out: string) {
  const [games] = await queryParquet({games: join(out, "games.parquet")}, "SELECT string_agg(DISTINCT version) AS version, count(*)::INTEGER AS n FROM games");
  const [turns] = await queryParquet({turns: join(out, "turns.parquet")}, "SELECT count(*)::INTEGER AS n FROM turns");
  return {version: games.version, games: games.n, turns: turns.n};
}

/** Every name under `dir`, recursively, with the leftovers a failed write could leave. */
function tree(dir: string): string[] {
  return readdirSync(dir, {recursive: true}).map(String).sort();
}

test("the second table failing leaves the old set whole (both tables old); a good rerun switches both", async () => {
  const out = mkdtempSync(join(tmpdir(), "parley-set-"));
  await writeIngest(set("old", [{game_id: "g1", turn: 0}]), out);
  assert.deepEqual(await contents(out), {version: "old", games: 2, turns: 1});
  const before = tree(out);

  // The turns table fails after games was written: a row the schema rejects.
  await assert.rejects(writeIngest(set("new", [{game_id: "g1", turn: 0}, {game_id: "g2", turn: 1.5}]), out), /turns row 1, column turn: expected INTEGER, got 1.5/);
  assert.deepEqual(await contents(out), {version: "old", games: 2, turns: 1});
  assert.deepEqual(tree(out), before, "nothing of the failed write is left");

  const paths = await writeIngest(set("new", [{game_id: "g1", turn: 0}, {game_id: "g2", turn: 1}, {game_id: "g2", turn: 2}]), out);
  assert.deepEqual(paths, [join(out, "games.parquet"), join(out, "turns.parquet")]);
  assert.deepEqual(await contents(out), {version: "new", games: 2, turns: 3});
  const manifest = currentManifest(out)!;
  assert.deepEqual(manifest.tables, {games: {file: "games.parquet", rows: 2}, turns: {file: "turns.parquet", rows: 3}});
  assert.deepEqual(JSON.parse(readFileSync(join(out, "tables.json"), "utf8")), manifest);
  assert.equal(readdirSync(join(out, ".parley", "tables")).length, 2, "one generation and the current link; the old generation is gone");
  for (const name of ["games.parquet", "turns.parquet", "tables.json"]) assert.ok(lstatSync(join(out, name)).isSymbolicLink(), name);
});

test("dead writers' temp files are removed, live ones kept; plain tables a set did not link (the one-file-at-a-time layout, copied files) are never replaced", async () => {
  const out = mkdtempSync(join(tmpdir(), "parley-set-legacy-"));
  const dead = spawnSync(process.execPath, ["-e", ""]).pid!;
  const stale = [`.games.parquet.tmp-${dead}-0a1b2c3d.jsonl`, `.turns.parquet.tmp-${dead}-0a1b2c3d`];
  const live = `.turns.parquet.tmp-${process.pid}-0a1b2c3d.jsonl`;
  for (const name of [...stale, live]) writeFileSync(join(out, name), "x".repeat(1000));
  const deadGeneration = join(out, ".parley", "tables", `.gen.tmp-${dead}-0a1b2c3d`);
  mkdirSync(deadGeneration, {recursive: true});
  writeFileSync(join(deadGeneration, "games.parquet"), "half");

  await writeIngest(set("new", [{game_id: "g1", turn: 0}]), out);
  assert.deepEqual(await contents(out), {version: "new", games: 2, turns: 1});
  for (const name of stale) assert.equal(existsSync(join(out, name)), false, name);
  assert.equal(existsSync(deadGeneration), false);
  assert.equal(existsSync(join(out, live)), true, "a live writer's file is kept");

  // Plain tables where a set would link: refused before the switch, naming the file; they and the current set stay.
  const plain = mkdtempSync(join(tmpdir(), "parley-set-plain-"));
  await writeParquet(join(plain, "games.parquet"), GAMES, [{game_id: "g0", version: "plain"}]);
  await writeParquet(join(plain, "turns.parquet"), TURNS, []);
  await assert.rejects(writeIngest(set("new", [{game_id: "g1", turn: 0}]), plain), (e) => e instanceof TablesInUse && e.message === `${join(plain, "games.parquet")} is a file that no parley writer of ${plain} made; parley never replaces it: move it out of ${plain}, or use another --out`);
  assert.deepEqual(await contents(plain), {version: "plain", games: 1, turns: 0});
  assert.ok(!lstatSync(join(plain, "games.parquet")).isSymbolicLink());
  assert.deepEqual(readdirSync(join(plain, ".parley", "tables")), [], "the refused generation is gone");
});

test("a data loader removes the scratch directory a killed build left in the temp directory, and leaves none of its own", async () => {
  const {datasetArchive} = await import("../../loaders/datasets/emit.js");
  const dead = spawnSync(process.execPath, ["-e", ""]).pid!;
  const leftover = join(tmpdir(), `parley-dond.tmp-${dead}-0a1b2c3d`);
  mkdirSync(join(leftover, ".parley"), {recursive: true});
  writeFileSync(join(leftover, "games.parquet"), "half");
  const saved = process.env.PARLEY_DATASETS;
  process.env.PARLEY_DATASETS = mkdtempSync(join(tmpdir(), "parley-no-datasets-"));
  try {
    const archive = await datasetArchive("dond");
    assert.ok(archive.includes(Buffer.from("games.parquet")) && archive.includes(Buffer.from("status.json")));
  } finally {
    if (saved === undefined) delete process.env.PARLEY_DATASETS;
    else process.env.PARLEY_DATASETS = saved;
  }
  assert.equal(existsSync(leftover), false);
  assert.deepEqual(readdirSync(tmpdir()).filter((n) => n.startsWith(`parley-dond.tmp-${process.pid}-`)), []);
});
