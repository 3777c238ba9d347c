// The shared SQL of src/lib gives the same rows in DuckDB-WASM (the pages' engine,
// loading Parquet as pages do) as in native DuckDB (the CLI's engine).
import {test} from "node:test";
import assert from "node:assert/strict";
import {mkdtempSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {fileURLToPath} from "node:url";
import {queryParquet} from "../../loaders/io/parquet.js";
import {ingestDond} from "../../loaders/ingest/dond.js";
import {writeIngest} from "../../loaders/ingest/write.js";
import {locateDataset} from "../../loaders/catalog.js";
import {dondGameMetricsSQL, dondStatsSQL} from "../../src/lib/dond.js";
import {queryWasm} from "../support/wasmDuckDB.js";

async function same(tables: Record<string, string>, sql: string) {
  const native = await queryParquet(tables, sql);
  const wasm = await queryWasm(tables, sql);
  assert.ok(native.length > 0, "the query returns rows");
  assert.deepEqual(wasm, native);
}

test("Deal-or-No-Deal metrics agree between DuckDB-WASM and native DuckDB", async () => {
  const at = locateDataset("dond");
  const source = at.available ? at.path! : fileURLToPath(new URL("../fixtures/dond/hand.txt", import.meta.url));
  const dir = mkdtempSync(join(tmpdir(), "parley-parity-"));
  await writeIngest(ingestDond(source), dir);
  const games = {games: join(dir, "games.parquet")};
  await same(games, dondGameMetricsSQL("games"));
  await same(games, dondStatsSQL("games"));
  await same(games, dondStatsSQL("games", {cumulative: true}));
});
