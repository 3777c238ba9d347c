// Every measure of every paper's analysis (src/analyses/) gives the same
// answer in DuckDB-WASM (the pages' engine, loading Parquet as pages do) as
// in native DuckDB (the command line's), on the real data of the catalog
// dataset whose page shows it: the built-in runs and ../shared/datasets.
// Generated from the declarations, so a new measure is tested by being declared.
import {after, test} from "node:test";
import assert from "node:assert/strict";
import {mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {writeDataset} from "../../loaders/datasets/emit.js";
import {datasetEntry, locateDataset} from "../../loaders/datasets/catalog.js";
import {withParquetViews} from "../../loaders/io/parquet.js";
import {ANALYSES} from "../../loaders/registry/analyses.js";
import {withDefaults, type Measure} from "../../src/analyses/analysis.js";
import {openWasm} from "../support/wasmDuckDB.js";
import {rounded} from "../support/firstViewParity.js";

const scratch = mkdtempSync(join(tmpdir(), "parley-analyses-parity-"));
after(() => rmSync(scratch, {recursive: true, force: true}));

const measures = ANALYSES.flatMap((analysis) => analysis.measures.map((measure) => ({analysis, measure})));

/** Answers through JSON, as pages and `parley stats` receive them. */
const viaJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

async function answers(measure: Measure, dir: string): Promise<{native: unknown; wasm: unknown}> {
  const tables = Object.fromEntries(measure.tables.map((t) => [t, join(dir, `${t}.parquet`)]));
  const params = withDefaults(measure);
  const native = await withParquetViews(tables, (db) => measure.answer((sql, args) => db.query(sql, args), params));
  const wasmDb = await openWasm(tables);
  try {
    return {native: viaJson(native), wasm: viaJson(await measure.answer((sql, args) => wasmDb.query(sql, args), params))};
  } finally {
    wasmDb.close();
  }
}

const isEmpty = (value: unknown) => (Array.isArray(value) ? value.length === 0 : value !== null && typeof value === "object" && Object.keys(value).length === 0);

for (const dataset of [...new Set(measures.map((m) => m.measure.dataset))]) {
  const entry = datasetEntry(dataset);
  const present = locateDataset(dataset).available || Boolean(entry.generate || entry.supplement);
  test(`every measure shown on dataset ${dataset}'s pages: DuckDB-WASM's answer equals native DuckDB's`, {skip: present ? false : `${dataset} is not in the datasets directory`}, async () => {
    const dir = mkdtempSync(join(scratch, `${dataset}-`));
    await writeDataset(dataset, dir);
    for (const {analysis, measure} of measures.filter((m) => m.measure.dataset === dataset)) {
      const {native, wasm} = await answers(measure, dir);
      assert.ok(!isEmpty(native), `${analysis.paper}/${measure.name}: an answer to compare`);
      assert.deepEqual(rounded(wasm), rounded(native), `${analysis.paper}/${measure.name}`);
    }
  });
}
