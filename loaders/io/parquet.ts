/**
 * Parquet writing and reading through native DuckDB.
 *
 * Rows are checked against the schema, staged as newline-delimited JSON, and
 * copied by DuckDB into a Parquet file with the schema's exact column types
 * (read_json with an explicit `columns` map, so no type is guessed). The
 * Parquet file is written beside its target and renamed into place.
 */
import {createWriteStream, rmSync} from "node:fs";
import {once} from "node:events";
import {checkRow, duckdbColumns, type Row, type TableSchema} from "./schema.js";
import {tempPathFor, writeAtomic} from "./atomic.js";
import {sqlString, withDuckDB, type Db, type SqlRow} from "./duckdb.js";

/** Streams rows as JSON lines to `path`, checking each against the schema. Returns the row count. */
async function stageJsonLines(path: string, schema: TableSchema, rows: Iterable<Row>): Promise<number> {
  const out = createWriteStream(path);
  let n = 0;
  let chunk: string[] = [];
  const flush = async () => {
    if (!chunk.length) return;
    if (!out.write(chunk.join(""))) await once(out, "drain");
    chunk = [];
  };
  try {
    for (const row of rows) {
      checkRow(schema, row, n);
      chunk.push(JSON.stringify(row, jsonValue) + "\n");
      n++;
      if (chunk.length >= 4096) await flush();
    }
    await flush();
  } finally {
    out.end();
    await once(out, "close");
  }
  return n;
}

function jsonValue(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}

/** Writes `rows` to the Parquet file `path` atomically. Returns the number of rows written. */
export async function writeParquet(path: string, schema: TableSchema, rows: Iterable<Row>, db?: Db): Promise<number> {
  const staged = tempPathFor(path) + ".jsonl";
  try {
    const n = await stageJsonLines(staged, schema, rows);
    await writeAtomic(path, async (tmp) => {
      const copy = async (d: Db) =>
        d.run(
          `COPY (SELECT * FROM read_json(${sqlString(staged)}, format = 'newline_delimited', ` +
            `columns = ${duckdbColumns(schema)}, maximum_object_size = 268435456)) ` +
            `TO ${sqlString(tmp)} (FORMAT parquet, COMPRESSION zstd)`,
        );
      if (db) await copy(db);
      else await withDuckDB(copy);
    });
    return n;
  } finally {
    rmSync(staged, {force: true});
  }
}

/** Runs `sql` in a fresh DuckDB after creating one view per entry of `views` (name -> Parquet path or glob). */
export async function queryParquet<T extends SqlRow = SqlRow>(views: Record<string, string>, sql: string): Promise<T[]> {
  return withParquetViews(views, (db) => db.query<T>(sql));
}

/**
 * Opens a fresh DuckDB, creates one view per entry of `views` (name -> Parquet
 * path or glob; a glob over `key=value/` folders adds those keys as columns),
 * and runs `fn` on it.
 */
export async function withParquetViews<T>(views: Record<string, string>, fn: (db: Db) => Promise<T>): Promise<T> {
  return withDuckDB(async (db) => {
    for (const [name, path] of Object.entries(views)) {
      await db.run(`CREATE VIEW ${name} AS SELECT * FROM read_parquet(${sqlString(path)}, union_by_name = true)`);
    }
    return fn(db);
  });
}
