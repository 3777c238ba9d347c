/**
 * Generated (simulated) catalog datasets: a run config under data/runs/
 * played into a directory, for loaders/datasets/emit.ts to pack like an ingested one.
 *
 * Playing the default run takes seconds of CPU at every site build, so the
 * result is kept in node_modules/.cache/parley/ under a fingerprint of
 * everything that decides it: the run config and the source of the games,
 * agents, runner and Parquet writer. A change to any of them plays the run
 * again, so the cache is never stale; PARLEY_GENERATE_CACHE=0 turns it off.
 */
import {copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync} from "node:fs";
import {createHash} from "node:crypto";
import {join, relative} from "node:path";
import {projectRoot} from "../projectConfig.js";
import {parseRunConfig} from "./runConfig.js";
import {writeTournament} from "./tournament.js";
import {flattenRunTable, lookupIndex} from "../io/parquet.js";
import {GLEE_GAMES, GLEE_TURNS} from "../papers/glee/tables.js";
import type {TableSchema} from "../io/schema.js";
import {GLEE_LOOKUPS, indexName, type Lookup} from "../../src/lib/lookups.js";

/**
 * Source that decides a generated run's tables: every folder the runner's
 * code imports from (test/unit/generateInputs.test.ts follows the imports
 * of this file and checks that each one is in a folder listed here), the
 * data games and Deal or No Deal points, and the locked dependencies.
 */
export const INPUTS = [
  "loaders/papers",
  "loaders/runner",
  "loaders/contract",
  "loaders/registry",
  "loaders/io",
  "loaders/llm",
  "loaders/ingest",
  "loaders/projectConfig.ts",
  "src/lib",
  "src/analyses",
  "data/games",
  "data/dond",
  "package-lock.json",
];
/** What a generated dataset writes: the flat tables (GLEE's two by default), optionally only some rows of each. */
export interface GeneratedTables {
  schemas: readonly TableSchema[];
  /** Per table name, a SQL condition on its rows (e.g. only the rows a page reads). */
  where?: Record<string, string>;
  /** Per table name, the key pages look its rows up by: the table is sorted by it, with its index beside it (src/lib/lookups.ts). */
  lookups?: Readonly<Record<string, Lookup>>;
}

const GLEE_TABLES: GeneratedTables = {schemas: [GLEE_GAMES, GLEE_TURNS], lookups: GLEE_LOOKUPS};

/** The files a generated dataset writes: one Parquet file per table, and the index of each table with a lookup. */
export function generatedFiles(tables: GeneratedTables): string[] {
  return tables.schemas.flatMap((s) => [`${s.name}.parquet`, ...(tables.lookups?.[s.name] ? [indexName(s.name)] : [])]);
}

function files(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).sort().flatMap((name) => files(join(path, name)));
}

/** sha256 of the run config and every input file (path and content). */
export function runFingerprint(configText: string): string {
  const hash = createHash("sha256").update(configText);
  for (const file of INPUTS.flatMap((p) => files(join(projectRoot, p)))) hash.update(relative(projectRoot, file)).update("\0").update(readFileSync(file)).update("\0");
  return hash.digest("hex").slice(0, 20);
}

/** Plays data/runs/<name>.json into `outDir` (one flat <table>.parquet per schema, and the lookup tables' indexes: generatedFiles), or copies a cached result; returns summary counts. */
export async function generateRun(name: string, outDir: string, env: NodeJS.ProcessEnv = process.env, tables: GeneratedTables = GLEE_TABLES): Promise<Record<string, number>> {
  const TABLES = generatedFiles(tables);
  const path = join(projectRoot, "data", "runs", `${name}.json`);
  const text = readFileSync(path, "utf8");
  const config = parseRunConfig(JSON.parse(text), name);
  const useCache = env.PARLEY_GENERATE_CACHE !== "0";
  const cached = join(projectRoot, "node_modules", ".cache", "parley", `${name}-${runFingerprint(text + JSON.stringify(tables))}`);
  if (useCache && existsSync(join(cached, "summary.json"))) {
    for (const t of TABLES) copyFileSync(join(cached, t), join(outDir, t));
    return JSON.parse(readFileSync(join(cached, "summary.json"), "utf8"));
  }
  // Play into a scratch run directory (partitioned by game), then flatten the tables the pages read.
  const runDir = join(outDir, `.run-${process.pid}`);
  let summary: Record<string, number>;
  try {
    const files = await writeTournament(config, runDir);
    summary = {games: files.games, turns: files.turns};
    for (const schema of tables.schemas) {
      const path = join(outDir, `${schema.name}.parquet`);
      const lookup = tables.lookups?.[schema.name];
      await flattenRunTable(runDir, schema, path, undefined, tables.where?.[schema.name], lookup);
      if (lookup) writeFileSync(join(outDir, indexName(schema.name)), JSON.stringify(await lookupIndex(path, lookup)));
    }
  } finally {
    rmSync(runDir, {recursive: true, force: true});
  }
  if (useCache) {
    // Fill a scratch directory and rename it into place, so a concurrent build never sees half a cache entry.
    const scratch = `${cached}.tmp-${process.pid}`;
    try {
      mkdirSync(scratch, {recursive: true});
      for (const t of TABLES) copyFileSync(join(outDir, t), join(scratch, t));
      writeFileSync(join(scratch, "summary.json"), JSON.stringify(summary));
      if (!existsSync(cached)) renameSync(scratch, cached);
    } catch {
      // A cache that cannot be written only costs time next build.
    } finally {
      rmSync(scratch, {recursive: true, force: true});
    }
  }
  return summary;
}
