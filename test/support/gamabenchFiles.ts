// Hand-built gamma-Bench raw-result files for tests: write them into a temp
// directory, ingest, and score with the shared SQL of src/lib/gamabench.ts.
import {mkdirSync, mkdtempSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {dirname, join} from "node:path";
import {ingestGamabench} from "../../loaders/papers/gamabench/ingest.js";
import {writeIngest} from "../../loaders/ingest/write.js";
import {withParquetViews} from "../../loaders/io/parquet.js";
import {gamabenchViews, gameScoresSQL, summarySQL, withScoresSQL, type GameScoreRow, type SummaryRow} from "../../src/lib/gamabench.js";
import type {IngestResult} from "../../loaders/ingest/types.js";

export interface RawFile {
  /** Path inside the directory, e.g. "guessing_game/m_guessing_game_v1_1.json". */
  path: string;
  meta?: Record<string, unknown>;
  round_records?: unknown[];
  player_data?: unknown;
  /** Written verbatim instead of the JSON object (for corrupted files). */
  text?: string;
}

export function writeRawFiles(files: RawFile[]): string {
  const dir = mkdtempSync(join(tmpdir(), "parley-gamabench-"));
  for (const f of files) {
    const path = join(dir, f.path);
    mkdirSync(dirname(path), {recursive: true});
    writeFileSync(path, f.text ?? JSON.stringify({meta: f.meta, round_records: f.round_records, player_data: f.player_data ?? []}));
  }
  return dir;
}

export async function ingestAndScore(files: RawFile[]): Promise<{result: IngestResult; scores: GameScoreRow[]; summary: SummaryRow[]; out: string}> {
  const dir = writeRawFiles(files);
  const result = ingestGamabench(dir);
  const out = join(dir, "out");
  await writeIngest(result, out);
  const scores = await scoreTables<GameScoreRow>(out, (v) => gameScoresSQL(v.games, v.turns));
  const summary = await scoreTables<SummaryRow>(out, (v) => withScoresSQL(summarySQL(), v.games, v.turns));
  return {result, scores, summary, out};
}

/**
 * Runs `sql` in native DuckDB over the games and turns of `out` (an ingest
 * directory), through the score views of src/lib/gamabench.ts, as the CLI does.
 * `tables` overrides the Parquet file (or glob) of each table.
 */
export function scoreTables<T>(out: string, sql: (views: {games: string; turns: string}) => string, tables: Partial<Record<"games" | "turns", string>> = {}): Promise<T[]> {
  const files = {games: join(out, "games.parquet"), turns: join(out, "turns.parquet"), ...tables};
  return withParquetViews(files, async (db) => db.query(sql(await gamabenchViews((q) => db.query(q)))) as Promise<T[]>);
}

export function rowsOf(result: IngestResult, table: string): Record<string, unknown>[] {
  return result.tables.find((t) => t.schema.name === table)!.rows;
}
