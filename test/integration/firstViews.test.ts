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

const scratch = mkdtempSync(join(tmpdir(), "parley-first-views-"));
after(() => rmSync(scratch, {recursive: true, force: true}));

for (const dataset of [...new Set(FIRST_VIEWS.map((v) => v.dataset))]) {
  test(`first views over dataset ${dataset}: build-time answers equal DuckDB-WASM's`, async () => {
    const at = mkdtempSync(join(scratch, `${dataset}-`));
    await writeDataset(dataset, at);
    for (const view of FIRST_VIEWS.filter((v) => v.dataset === dataset)) {
      const native = await firstView(view, at);
      await assertFirstViewParity(view, native, at);
    }
  });
}
