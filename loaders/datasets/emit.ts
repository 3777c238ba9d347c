/**
 * What the site's data loaders call: ingest one catalog dataset (or record
 * that it is absent) and write a tar archive to stdout holding one Parquet
 * file per table plus status.json, which pages read to say what is there and,
 * when it is not, how to add it.
 */
import {existsSync, mkdirSync, readFileSync, rmSync} from "node:fs";
import {randomBytes} from "node:crypto";
import {tmpdir} from "node:os";
import {basename, join} from "node:path";
import {locateDataset, type DatasetLocation} from "./catalog.js";
import {emptyTables, writeIngest} from "../ingest/write.js";
import {formatProblem, type IngestResult} from "../ingest/types.js";
import {tar} from "../io/tar.js";
import {printable} from "../io/printable.js";
import {removeStaleTemps} from "../io/staleFiles.js";
import type {DatasetStatus} from "../../src/lib/datasetStatus.js";
import {FIRST_VIEWS} from "../registry/firstViews.js";
import {indexName} from "../../src/lib/lookups.js";
import {recordSnapshot, type FirstView, type Snapshot} from "../../src/lib/snapshot.js";
import {withParquetViews} from "../io/parquet.js";
import {buildManifest} from "../runner/manifest.js";
import {projectRoot} from "../projectConfig.js";

/**
 * An ingested catalog dataset's tables (empty when its raw files are absent),
 * with its supplement's rows added. Generated datasets write their own.
 */
export async function datasetTables(id: string): Promise<{location: DatasetLocation; result: IngestResult}> {
  const location = locateDataset(id);
  const {entry} = location;
  let result: IngestResult = {...emptyTables(entry.schemas), summary: {}, problems: []};
  if (location.available && !entry.generate) result = await entry.ingest(location.path!);
  if (entry.supplement) {
    const extra = await entry.supplement();
    for (const table of result.tables) table.rows = [...table.rows, ...(extra[table.schema.name] ?? [])];
    // Games Parley played (a supplement may also add recorded rows, e.g. the human outcomes of Deal or No Deal's 50 points).
    result.summary = {...result.summary, parley_games: extra.games?.filter((g) => g.source === "simulated").length ?? 0};
  }
  return {location, result};
}

/**
 * Writes dataset `id`'s tables into `dir` (one Parquet file per table: the
 * ingest of its raw files, or the generated run) and returns the status pages
 * read and the files written.
 */
export async function writeDataset(id: string, dir: string): Promise<{status: DatasetStatus; paths: string[]}> {
  const started = new Date();
  const {location, result} = await datasetTables(id);
  const {entry} = location;
  for (const p of result.problems) process.stderr.write(`${printable(`${id}: ${formatProblem(p)}`)}\n`);
  let paths: string[];
  if (entry.generate) {
    // Simulated: the generator writes the tables itself (streaming, so big runs stay out of memory).
    result.summary = await entry.generate(dir);
    paths = entry.schemas.flatMap((s) => [join(dir, `${s.name}.parquet`), join(dir, indexName(s.name))]).filter((p) => existsSync(p));
  } else paths = await writeIngest(result, dir);
  const status: DatasetStatus = {
    id,
    title: entry.supplementNote ? `${entry.title}, ${entry.supplementNote}` : entry.title,
    cite: entry.cite,
    available: location.available,
    path: entry.path,
    hint: location.available ? null : location.hint,
    summary: result.summary,
    problems: result.problems.map((p) => formatProblem({...p, file: basename(p.file)})),
    manifest: location.available ? datasetManifest(id, entry.path, Boolean(entry.generate), started, result.summary, result.problems.length) : null,
  };
  return {status, paths};
}

/**
 * The manifest of a built-in dataset, as `parley run` (a generated run: its
 * config file from data/runs/) or `parley ingest` (the adapter and the raw
 * path inside the datasets directory, never the builder's absolute path)
 * would write it, so pages show what produced the data they draw.
 */
function datasetManifest(id: string, path: string, generated: boolean, started: Date, summary: Record<string, number>, problems: number): Record<string, unknown> {
  if (generated) {
    const configText = readFileSync(join(projectRoot, path), "utf8");
    const config = JSON.parse(configText) as {seed?: number};
    return buildManifest({kind: "run", config, configText, seed: config.seed ?? null, started, counts: summary});
  }
  return buildManifest({kind: "ingest", config: {adapter: id, input: path}, started, counts: {...summary, problems}});
}

/** The archive a data loader emits: status.json, the tables, and the first view of every page that reads them. */
export async function datasetArchive(id: string): Promise<Buffer> {
  // Named with the pid so that the next build removes what a killed one left (staleFiles.ts).
  removeStaleTemps(tmpdir(), "parley-");
  const dir = join(tmpdir(), `parley-${id}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`);
  mkdirSync(dir, {mode: 0o700});
  try {
    const {status, paths} = await writeDataset(id, dir);
    const members: Record<string, Uint8Array | string> = {"status.json": JSON.stringify(status, null, 2)};
    for (const path of paths) members[basename(path)] = readFileSync(path);
    for (const view of FIRST_VIEWS.filter((v) => v.dataset === id)) members[`first-${view.page}.json`] = JSON.stringify(await firstView(view, dir));
    return tar(members);
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
}

/**
 * A page's first view (src/lib/snapshot.ts), answered by native DuckDB over
 * the Parquet files in `dir`. A script that fails gives an empty snapshot and
 * one line on stderr: the page then asks DuckDB-WASM for everything.
 */
export async function firstView(view: FirstView, dir: string): Promise<Snapshot> {
  const tables = Object.fromEntries(view.tables.map((t) => [t, join(dir, `${t}.parquet`)]));
  try {
    return await withParquetViews(tables, async (db) => {
      const query = (sql: string, params?: unknown[]) => db.query(sql, params);
      await view.prepare?.(query);
      return recordSnapshot(query, (ask) => view.script(ask));
    });
  } catch (error) {
    process.stderr.write(`${printable(`first view of /${view.page}: ${(error as Error).message} (the page will query in the browser)`)}\n`);
    return {};
  }
}

/** Entry point for src/data/<id>.tar.ts loaders. */
export async function emitDataset(id: string): Promise<void> {
  const archive = await datasetArchive(id);
  await new Promise<void>((resolve, reject) => process.stdout.write(archive, (error) => (error ? reject(error) : resolve())));
}
