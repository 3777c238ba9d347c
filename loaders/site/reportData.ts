/**
 * The data of a report (`parley report`): for each catalog dataset whose
 * games the study's runs played, the flat tables its pages read, written as
 * plain files (`<dir>/<dataset>/<table>.parquet`, `status.json` and the
 * first view of every page that reads it), so the report's pages open them
 * exactly as the site's pages open the archives of their data loaders.
 *
 * The tables hold only the study's games; with `builtin` the built-in rows
 * of the same dataset (the simulated tournament, the paper's logs) come
 * first. When the rows come from more than one source, each study game id
 * is prefixed with its run's name, so ids stay unique.
 */
import {mkdirSync, rmSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {datasetEntry} from "../datasets/catalog.js";
import {firstView, writeDataset} from "../datasets/emit.js";
import {flattenRunTable, lookupIndex} from "../io/parquet.js";
import {DATASET_LOOKUPS, indexName} from "../../src/lib/lookups.js";
import {sqlFile, sqlString, withDuckDB} from "../io/duckdb.js";
import {writeAtomic} from "../io/atomic.js";
import {FIRST_VIEWS} from "../registry/firstViews.js";
import type {DatasetStatus} from "../../src/lib/datasetStatus.js";
import type {StudyRun} from "./reportRuns.js";
import {datasetOfGame, type ReportDataset} from "../datasets/reportDatasets.js";

/**
 * Writes dataset `dataset`'s tables for the study into `dir` (created):
 * one Parquet file per table of the catalog entry's schemas (and the index
 * of each table pages look up by key), status.json
 * and first-<page>.json for the pages that read it. Returns the status.
 */
export async function writeStudyDataset(dataset: ReportDataset, runs: StudyRun[], dir: string, {builtin = false, title}: {builtin?: boolean; title: string}): Promise<DatasetStatus> {
  const entry = datasetEntry(dataset.id);
  mkdirSync(dir, {recursive: true});
  const scratch = join(dir, ".parts");
  mkdirSync(scratch, {recursive: true});
  try {
    const builtinStatus = builtin ? (await writeDataset(dataset.id, scratch)).status : null;
    const members = runs.filter((r) => r.games.some((g) => datasetOfGame(g) === dataset));
    const prefix = builtin || members.length > 1;
    const keep = (game: string) => datasetOfGame(game) === dataset;
    const summary: Record<string, number> = {};
    for (const schema of entry.schemas) {
      const parts: string[] = [];
      for (const [i, run] of members.entries()) {
        const part = join(scratch, `${schema.name}-${i}.parquet`);
        await flattenRunTable(run.dir, schema, part, keep, dataset.where?.[schema.name]);
        parts.push(prefix && schema.columns.some((c) => c.name === "game_id") ? `SELECT * REPLACE (${sqlString(`${run.name}/`)} || game_id AS game_id) FROM read_parquet(${sqlFile(part)})` : `SELECT * FROM read_parquet(${sqlFile(part)})`);
      }
      if (builtinStatus) parts.unshift(`SELECT * FROM read_parquet(${sqlFile(join(scratch, `${schema.name}.parquet`))})`);
      // A table pages look up by key is put together first, then sorted into its row groups with its index beside it (src/lib/lookups.ts).
      const lookup = DATASET_LOOKUPS[dataset.id]?.[schema.name];
      const together = lookup ? join(scratch, "together") : dir;
      mkdirSync(together, {recursive: true});
      const path = join(dir, `${schema.name}.parquet`);
      summary[schema.name] = await withDuckDB(async (db) => {
        await writeAtomic(join(together, `${schema.name}.parquet`), (tmp) => db.run(`COPY (${parts.join("\nUNION ALL BY NAME\n")}) TO ${sqlString(tmp)} (FORMAT parquet, COMPRESSION zstd)`));
        if (lookup) await flattenRunTable(together, schema, path, undefined, undefined, lookup);
        return Number((await db.query<{n: number}>(`SELECT count(*) AS n FROM read_parquet(${sqlFile(path)})`))[0].n);
      });
      if (lookup) writeFileSync(join(dir, indexName(schema.name)), JSON.stringify(await lookupIndex(path, lookup)));
    }
    const names = members.map((r) => r.name).join(", ");
    const status: DatasetStatus = {
      id: dataset.id,
      title: builtinStatus ? (members.length ? `${builtinStatus.title}, with the study "${title}" (${names})` : builtinStatus.title) : `${title}: ${names}`,
      cite: entry.cite,
      available: true,
      path: builtinStatus?.path ?? names,
      hint: null,
      summary: {...builtinStatus?.summary, study_runs: members.length, ...Object.fromEntries(Object.entries(summary).map(([t, n]) => [`${t}_rows`, n]))},
      problems: builtinStatus?.problems ?? [],
    };
    writeFileSync(join(dir, "status.json"), JSON.stringify(status, null, 2));
    for (const view of FIRST_VIEWS.filter((v) => v.dataset === dataset.id)) writeFileSync(join(dir, `first-${view.page}.json`), JSON.stringify(await firstView(view, dir)));
    return status;
  } finally {
    rmSync(scratch, {recursive: true, force: true});
  }
}
