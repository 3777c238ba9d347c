// Every page's first view, computed at build time in native DuckDB, equals
// what the page computes itself in DuckDB-WASM (loading Parquet as pages do)
// from the same tables: every query's rows and every computation's result.
import {after, test} from "node:test";
import {mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {firstView, writeDataset} from "../../loaders/datasets/emit.js";
import {FIRST_VIEWS} from "../../loaders/registry/firstViews.js";
import {assertFirstViewParity} from "../support/firstViewParity.js";
import {openWasm} from "../support/wasmDuckDB.js";

const scratch = mkdtempSync(join(tmpdir(), "parley-first-views-"));
after(() => rmSync(scratch, {recursive: true, force: true}));

for (const dataset of [...new Set(FIRST_VIEWS.map((v) => v.dataset))]) {
  test(`first views over dataset ${dataset}: build-time answers equal DuckDB-WASM's`, async () => {
    const at = mkdtempSync(join(scratch, `${dataset}-`));
    await writeDataset(dataset, at);
    const views = FIRST_VIEWS.filter((v) => v.dataset === dataset);
    // The views that only ask questions share one DuckDB-WASM database with the dataset's tables; one that prepares tables or views gets its own.
    const tables = [...new Set(views.filter((v) => !v.prepare).flatMap((v) => v.tables))];
    const shared = tables.length ? await openWasm(Object.fromEntries(tables.map((t) => [t, join(at, `${t}.parquet`)]))) : undefined;
    try {
      for (const view of views) {
        const native = await firstView(view, at);
        await assertFirstViewParity(view, native, at, shared);
      }
    } finally {
      shared?.close();
    }
  });
}
