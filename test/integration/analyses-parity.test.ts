// Every measure of every paper's analysis (src/analyses/) gives the same
// answer in DuckDB-WASM (the pages' engine, loading Parquet as pages do) as
// in native DuckDB (the command line's), on the real data of the catalog
// dataset whose page shows it: the built-in runs and ../shared/datasets;
// and `parley stats <paper> <archive> --measure <name>` prints that answer
// from the archive the site reads. Generated from the declarations, so a new
// measure is tested by being declared. (Every measure on played runs:
// stats-cli.test.ts.)
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
import {openWasm, type WasmDatabase} from "../support/wasmDuckDB.js";
import {rounded} from "../support/firstViewParity.js";
import {parley} from "../support/cli.js";

const scratch = mkdtempSync(join(tmpdir(), "parley-analyses-parity-"));
after(() => rmSync(scratch, {recursive: true, force: true}));

const measures = ANALYSES.flatMap((analysis) => analysis.measures.map((measure) => ({analysis, measure})));

/** Answers through JSON, as pages and `parley stats` receive them. */
const viaJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/**
 * Native DuckDB's answer (a database per measure, as `parley stats` opens
 * one) and DuckDB-WASM's, from `wasm`: one database per dataset holding its
 * tables, as a page's measures share the page's database.
 */
async function answers(measure: Measure, dir: string, wasm: WasmDatabase): Promise<{native: unknown; wasm: unknown}> {
  const tables = Object.fromEntries(measure.tables.map((t) => [t, join(dir, `${t}.parquet`)]));
  const params = withDefaults(measure);
  const native = await withParquetViews(tables, (db) => measure.answer((sql, args) => db.query(sql, args), params));
  return {native: viaJson(native), wasm: viaJson(await measure.answer((sql, args) => wasm.query(sql, args), params))};
}

/** What `parley stats <paper> <dir> --measure <name>` prints, as JSON. */
async function printed(paper: string, measure: Measure, dir: string): Promise<unknown> {
  const done = await parley(["stats", paper, dir, "--measure", measure.name, "--format", "json"]);
  assert.equal(done.code, 0, `parley stats ${paper} --measure ${measure.name}: ${done.stderr}`);
  return JSON.parse(done.stdout);
}

const isEmpty = (value: unknown) => (Array.isArray(value) ? value.length === 0 : value !== null && typeof value === "object" && Object.keys(value).length === 0);

for (const dataset of [...new Set(measures.map((m) => m.measure.dataset))]) {
  const entry = datasetEntry(dataset);
  const present = locateDataset(dataset).available || Boolean(entry.generate || entry.supplement);
  test(`every measure shown on dataset ${dataset}'s pages: DuckDB-WASM's answer equals native DuckDB's and parley stats'`, {skip: present ? false : `${dataset} is not in the datasets directory`}, async () => {
    const dir = mkdtempSync(join(scratch, `${dataset}-`));
    await writeDataset(dataset, dir);
    const mine = measures.filter((m) => m.measure.dataset === dataset);
    const tables = [...new Set(mine.flatMap((m) => m.measure.tables))];
    const wasmDb = await openWasm(Object.fromEntries(tables.map((t) => [t, join(dir, `${t}.parquet`)])));
    try {
      for (const {analysis, measure} of mine) {
        const {native, wasm} = await answers(measure, dir, wasmDb);
        assert.ok(!isEmpty(native), `${analysis.paper}/${measure.name}: an answer to compare`);
        assert.deepEqual(rounded(wasm), rounded(native), `${analysis.paper}/${measure.name}`);
        assert.deepEqual(rounded(await printed(analysis.paper, measure, dir)), rounded(native), `parley stats ${analysis.paper} --measure ${measure.name}`);
      }
    } finally {
      wasmDb.close();
    }
  });
}
