/**
 * The dataset catalog: every dataset the site can show, where its raw files
 * live inside the datasets directory, and the adapter that reads them, read
 * off the list of papers (each paper's manifest declares its datasets as
 * data: loaders/papers/<paper>/index.ts). Adding a dataset is one entry in
 * its paper's manifest (an adapter there for raw logs) and a data loader
 * under src/data/ that calls `emitDataset(id)`. Adapters, generators and
 * supplements are imported when they run, so that listing the catalog
 * (`parley datasets`) loads neither DuckDB nor the runner.
 */
import {existsSync} from "node:fs";
import {join} from "node:path";
import {datasetsConfig} from "../projectConfig.js";
import type {Row, TableSchema} from "../io/schema.js";
import type {IngestResult} from "../ingest/types.js";
import type {PaperDataset, PaperDownload, PaperManifest} from "../contract/paper.js";
import {papers} from "../papers/index.js";

export interface DatasetEntry {
  id: string;
  title: string;
  /** Path inside the datasets directory (file or folder). */
  path: string;
  /**
   * Where its authors publish the raw files: a JSON file under data/sources/
   * listing each file's URL, size and sha256 (`parley datasets fetch`).
   */
  source?: string;
  /** Paper and section the data belongs to. */
  cite: string;
  /** The tables the adapter writes (an absent dataset still yields them, empty). */
  schemas: TableSchema[];
  ingest: (path: string) => IngestResult | Promise<IngestResult>;
  /**
   * For a simulated dataset: writes its tables (<table>.parquet) into
   * `outDir` and returns summary counts. Such an entry is always available;
   * `path` then names its run config inside the project, and `ingest` is unused.
   */
  generate?: (outDir: string) => Promise<Record<string, number>>;
  /**
   * Rows added to the ingested ones (by table name), whether or not the raw
   * files are there: a Parley run shown beside the logs it can be compared with.
   */
  supplement?: () => Promise<Record<string, Row[]>>;
  /** What the supplement is, for the dataset's status. */
  supplementNote?: string;
}

/** A paper's dataset declaration as a catalog entry: the adapter it names, the run it plays, the runs it adds. */
function catalogEntry(paper: Pick<PaperManifest, "id" | "ingest">, d: PaperDataset): DatasetEntry {
  const where = `paper "${paper.id}", dataset "${d.id}"`;
  if (!d.logs === !d.played) throw new Error(`${where}: declare either logs (raw files an adapter reads) or played (a run config played at build time), not ${d.logs ? "both" : "neither"}`);
  const entry: DatasetEntry = {id: d.id, title: d.title, path: "", cite: d.cite, schemas: d.schemas, ingest: () => {
    throw new Error(`dataset "${d.id}" is simulated, not ingested: play it with "parley run ${entry.path} --out <dir>"`);
  }};
  if (d.logs) {
    const adapter = paper.ingest[d.logs.adapter];
    if (!adapter) throw new Error(`${where}: no ingest adapter "${d.logs.adapter}" in the paper's manifest (it has ${Object.keys(paper.ingest).join(", ") || "none"})`);
    entry.path = d.logs.path;
    if (d.logs.source) entry.source = d.logs.source;
    entry.ingest = adapter.ingest;
  }
  if (d.played) {
    const {run, tables} = d.played;
    entry.path = `data/runs/${run}.json`;
    entry.generate = async (outDir) => (await import("../runner/generate.js")).generateRun(run, outDir, process.env, tables);
  }
  if (d.supplement) {
    const {runs, rows} = d.supplement;
    entry.supplement = async () => {
      const {runRows} = await import("../runner/runRows.js");
      const played = [];
      for (const name of runs) played.push(await runRows(name));
      return rows(played);
    };
    entry.supplementNote = d.supplement.note;
  }
  return entry;
}

export const catalog: DatasetEntry[] = papers.flatMap((p) => p.datasets.map((d) => catalogEntry(p, d)));

/** The papers' published files that no page shows, fetched by `parley datasets fetch` beside the catalog's. */
export const downloads: PaperDownload[] = papers.flatMap((p) => [...(p.downloads ?? [])]);

export function datasetEntry(id: string): DatasetEntry {
  const entry = catalog.find((d) => d.id === id);
  if (!entry) throw new Error(`unknown dataset "${id}"; the catalog has: ${catalog.map((d) => d.id).join(", ")}`);
  return entry;
}

export interface DatasetLocation {
  entry: DatasetEntry;
  /** Absolute path of the raw data, or null when no datasets directory is configured. */
  path: string | null;
  available: boolean;
  /** What to do when it is not available. */
  hint: string;
}

export function locateDataset(id: string, env: NodeJS.ProcessEnv = process.env): DatasetLocation {
  const entry = datasetEntry(id);
  if (entry.generate) return {entry, path: null, available: true, hint: ""};
  const config = datasetsConfig(env);
  const path = config.dir ? join(config.dir, entry.path) : null;
  const available = path !== null && existsSync(path);
  // The hint ends up in the built site, so it names no directory of the builder's machine.
  const hint = !config.dir
    ? `No datasets directory is configured. Set PARLEY_DATASETS=/path/to/datasets (or "datasets" in parley.config.json) so that ${entry.path} is inside it, then rebuild.`
    : `${entry.path} was not found in the datasets directory (set by ${config.from === "PARLEY_DATASETS" ? "PARLEY_DATASETS" : "parley.config.json"}). Put it there, or point PARLEY_DATASETS at a directory that has it, then rebuild.`;
  return {entry, path, available, hint};
}
