// Every page's first view, computed at build time in native DuckDB, equals
// what the page computes itself in DuckDB-WASM (loading Parquet as pages do)
// from the same tables: every query's rows and every computation's result.
import {after, test} from "node:test";
import assert from "node:assert/strict";
import {mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {firstView, writeDataset} from "../../loaders/emit.js";
import {FIRST_VIEWS} from "../../src/lib/firstViews.js";
import {recordSnapshot, snapshotAsker, type Snapshot} from "../../src/lib/snapshot.js";
import {openWasm} from "../support/wasmDuckDB.js";
import {rounded} from "../support/rounded.js";

const scratch = mkdtempSync(join(tmpdir(), "parley-first-views-"));
after(() => rmSync(scratch, {recursive: true, force: true}));

for (const dataset of [...new Set(FIRST_VIEWS.map((v) => v.dataset))]) {
  test(`first views over dataset ${dataset}: build-time answers equal DuckDB-WASM's`, async () => {
    const at = mkdtempSync(join(scratch, `${dataset}-`));
    await writeDataset(dataset, at);
    for (const view of FIRST_VIEWS.filter((v) => v.dataset === dataset)) {
      const native = await firstView(view, at);
      const wasm = await openWasm(Object.fromEntries(view.tables.map((t) => [t, join(at, `${t}.parquet`)])));
      try {
        await view.prepare?.((sql, params) => wasm.query(sql, params));
        const browser = await recordSnapshot((sql, params) => wasm.query(sql, params), (ask) => view.script(ask));
        assert.ok(Object.keys(native).length > 0, `/${view.page}: the build answered something`);
        assert.deepEqual(Object.keys(browser).sort(), Object.keys(native).sort(), `/${view.page}: the same questions`);
        for (const key of Object.keys(native)) assert.deepEqual(rounded(browser[key]), rounded(native[key]), `/${view.page}: ${key.replaceAll("\u0000", " ").slice(0, 200)}`);
        // A page reading the snapshot gets exactly what it stored, without asking DuckDB.
        const reader = snapshotAsker(async () => native as Snapshot, () => Promise.reject(new Error("asked DuckDB for an answer the snapshot holds")));
        await view.script(reader);
      } finally {
        wasm.close();
      }
    }
  });
}
