/**
 * Parquet writing and reading through native DuckDB.
 *
 * Rows are checked against the schema, staged as newline-delimited JSON, and
 * copied by DuckDB into a Parquet file with the schema's exact column types
 * (read_json with an explicit `columns` map, so no type is guessed). The
 * Parquet file is written beside its target, its key checked for duplicates
 * (tableKey.ts), and renamed into place.
 */
import {createWriteStream, existsSync, rmSync} from "node:fs";
import {once} from "node:events";
import {checkRow, duckdbColumns, type Row, type TableSchema} from "./schema.js";
import {tempPathFor, writeAtomic} from "./atomic.js";
import {sqlFile, sqlString, withDuckDB, type Db, type SqlRow} from "./duckdb.js";
import {runTableFiles, tableSql} from "./runTables.js";
import {checkUniqueKey} from "./tableKey.js";
import type {KeyValue, Lookup, LookupIndex} from "../../src/lib/lookups.js";

/**
 * DuckDB's JSON reader holds a few buffers of `maximum_object_size` bytes
 * each, whatever the file's size: at the 256 MiB once used here, copying a
 * million games' turns took over a gigabyte. So the limit is set from the
 * staged file's longest line (rows of scripted games are a few hundred
 * bytes; an LLM turn with a long reply may be megabytes), with DuckDB's own
 * default as the floor so that buffers stay large enough to read fast.
 */
const MIN_OBJECT_BYTES = 16 << 20;

/**
 * Rows per Parquet row group. DuckDB's writer holds a row group in memory
 * until it is full; at its default (122,880 rows) that was the larger part of
 * the copy's memory for a run's turns. Half of that keeps files within about
 * a tenth of their size and costs readers nothing they notice.
 */
const ROW_GROUP_ROWS = 61_440;

/** The `maximum_object_size` for a JSON-lines file whose longest line has `longestChars` UTF-16 code units (at most 3 bytes each in UTF-8). */
export function objectSizeLimit(longestChars: number): number {
  return Math.max(MIN_OBJECT_BYTES, 3 * longestChars + 1);
}

/**
 * Has DuckDB copy the JSON-lines file `staged` into the Parquet file `path`
 * with `schema`'s exact column types (an explicit `columns` map, so no type
 * is guessed); `longestChars` is the length of its longest line.
 */
export async function copyJsonLines(db: Db, staged: string, schema: TableSchema, path: string, longestChars: number): Promise<void> {
  await db.run(
    `COPY (SELECT * FROM read_json(${sqlFile(staged)}, format = 'newline_delimited', ` +
      `columns = ${duckdbColumns(schema)}, maximum_object_size = ${objectSizeLimit(longestChars)})) ` +
      `TO ${sqlString(path)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE ${ROW_GROUP_ROWS})`,
  );
}

/** Streams rows as JSON lines to `path`, checking each against the schema. Returns the row count and the longest line's length. */
async function stageJsonLines(path: string, schema: TableSchema, rows: Iterable<Row>): Promise<{n: number; longest: number}> {
  const out = createWriteStream(path);
  let n = 0;
  let longest = 0;
  let chunk: string[] = [];
  const flush = async () => {
    if (!chunk.length) return;
    if (!out.write(chunk.join(""))) await once(out, "drain");
    chunk = [];
  };
  try {
    for (const row of rows) {
      checkRow(schema, row, n);
      const line = JSON.stringify(row, jsonValue) + "\n";
      chunk.push(line);
      if (line.length > longest) longest = line.length;
      n++;
      if (chunk.length >= 4096) await flush();
    }
    await flush();
  } finally {
    out.end();
    await once(out, "close");
  }
  return {n, longest};
}

function jsonValue(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}

/** Writes `rows` to the Parquet file `path` atomically. Returns the number of rows written. */
export async function writeParquet(path: string, schema: TableSchema, rows: Iterable<Row>, db?: Db): Promise<number> {
  const staged = tempPathFor(path) + ".jsonl";
  try {
    const {n, longest} = await stageJsonLines(staged, schema, rows);
    await writeAtomic(path, async (tmp) => {
      const copy = async (d: Db) => {
        await copyJsonLines(d, staged, schema, tmp, longest);
        await checkUniqueKey(d, tmp, schema);
      };
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
      await db.run(`CREATE VIEW ${name} AS SELECT * FROM read_parquet(${existsSync(path) ? sqlFile(path) : sqlString(path)}, union_by_name = true)`);
    }
    return fn(db);
  });
}

/**
 * Runs `sql` over a run directory's tables (either layout, io/runTables.ts):
 * one view per name in `tables`; `keep` selects games by id (partitioned
 * layout). Throws RunTablesMissing naming the directory when a table has no file.
 */
export async function queryRun<T extends SqlRow = SqlRow>(dir: string, tables: readonly string[], sql: string, keep?: (game: string) => boolean): Promise<T[]> {
  return withRunViews(dir, tables, keep, (db) => db.query<T>(sql));
}

/**
 * Opens a fresh DuckDB with one view per table of the run directory `dir`
 * (see queryRun), or of several directories read as one run (each must hold
 * every table), and runs `fn` on it.
 */
export async function withRunViews<T>(dir: string | readonly string[], tables: readonly string[], keep: ((game: string) => boolean) | undefined, fn: (db: Db) => Promise<T>): Promise<T> {
  const dirs = typeof dir === "string" ? [dir] : dir;
  const sources = tables.map((t) => {
    const each = dirs.map((d) => runTableFiles(d, t, keep));
    const empty = each.findIndex((f) => !f.files.length);
    if (empty >= 0) throw new RunTablesMissing(dirs[empty], t);
    return [t, tableSql({files: each.flatMap((f) => f.files), partitioned: each.some((f) => f.partitioned)})] as const;
  });
  return withDuckDB(async (db) => {
    for (const [name, source] of sources) await db.run(`CREATE VIEW ${name} AS SELECT * FROM ${source}`);
    return fn(db);
  });
}

/** A run directory without the table a command needs. */
export class RunTablesMissing extends Error {
  constructor(readonly dir: string, readonly table: string) {
    super(`${dir} holds no ${table} table (expected ${table}.parquet, or game=<id>/${table}.parquet as "parley run" writes)`);
  }
}

/**
 * Copies one table of a run directory (either layout) into a single flat
 * Parquet file with exactly `schema`'s columns in its order (a column no
 * partition has is NULL), e.g. the GLEE tables the site's pages read;
 * `where` (SQL over the table's columns) keeps only some rows. With
 * `lookup`, the rows are sorted by its key in row groups of about
 * LOOKUP_ROW_GROUP_BYTES each, so that a page can fetch one key's rows
 * alone (src/lib/lookups.ts; `lookupIndex` writes the index).
 */
export async function flattenRunTable(dir: string, schema: TableSchema, path: string, keep?: (game: string) => boolean, where?: string, lookup?: Lookup): Promise<void> {
  const files = runTableFiles(dir, schema.name, keep);
  const source = tableSql(files);
  await writeAtomic(path, (tmp) =>
    withDuckDB(async (db) => {
      await db.run("SET threads = 1");
      const present = source ? new Set((await db.query<{column_name: string}>(`SELECT column_name FROM (DESCRIBE SELECT * FROM ${source})`)).map((r) => r.column_name)) : new Set<string>();
      const columns = schema.columns.map((c) => (present.has(c.name) ? `CAST("${c.name}" AS ${c.type}) AS "${c.name}"` : `CAST(NULL AS ${c.type}) AS "${c.name}"`)).join(", ");
      const from = source ?? `(SELECT 1 WHERE false)`;
      let select = `SELECT ${columns} FROM ${from}${where && source ? ` WHERE ${where}` : ""}`;
      let options = "";
      const spill = `${tmp}.spill`;
      if (lookup) {
        select += ` ORDER BY ${[...lookup.key, ...lookup.then].map((c) => `"${c}"`).join(", ")}`;
        options = `, ROW_GROUP_SIZE ${await lookupRowGroupRows(db, files.files, schema)}`;
        // Sorting a million games' turns in memory would take several GB: past this, DuckDB sorts on disk beside the output.
        await db.run(`SET memory_limit = '2GB'`);
        await db.run(`SET temp_directory = ${sqlString(spill)}`);
      }
      try {
        await db.run(`COPY (${select}) TO ${sqlString(tmp)} (FORMAT parquet, COMPRESSION zstd${options})`);
      } finally {
        rmSync(spill, {recursive: true, force: true});
      }
    }),
  );
}

/** About how many compressed bytes one row group of a lookup table holds: one fetch when a page opens one game (a fraction of the file's footer, which is fetched too, for a million games). */
export const LOOKUP_ROW_GROUP_BYTES = 192 * 1024;

/**
 * Rows per row group so that one holds about LOOKUP_ROW_GROUP_BYTES, from
 * the source files' compressed bytes per row of `schema`'s columns (read from
 * their footers only), between one DuckDB vector (2,048 rows) and DuckDB's
 * default row group (122,880 rows).
 */
async function lookupRowGroupRows(db: Db, files: string[], schema: TableSchema): Promise<number> {
  if (!files.length) return 122_880;
  const list = `[${files.map(sqlFile).join(", ")}]`;
  const names = schema.columns.map((c) => sqlString(c.name)).join(", ");
  const [{bytes, rows}] = await db.query<{bytes: number | null; rows: number | null}>(
    `SELECT (SELECT sum(total_compressed_size)::DOUBLE FROM parquet_metadata(${list}) WHERE path_in_schema IN (${names})) AS bytes,
            (SELECT sum(num_rows)::DOUBLE FROM parquet_file_metadata(${list})) AS rows`,
  );
  if (!bytes || !rows) return 122_880;
  const perRow = Math.round(LOOKUP_ROW_GROUP_BYTES / (bytes / rows) / 2048) * 2048;
  return Math.min(122_880, Math.max(2048, perRow));
}

/**
 * The index of a table written with `lookup` (src/lib/lookups.ts): each row
 * group's rows, compressed bytes and first and last key, read back from the
 * file (its row groups from the footer, the keys at their first and last rows).
 */
export async function lookupIndex(path: string, lookup: Lookup): Promise<LookupIndex> {
  return withDuckDB(async (db) => {
    const file = sqlFile(path);
    const groups = await db.query<{rows: number; bytes: number}>(
      `SELECT row_group_id, any_value(row_group_num_rows)::BIGINT AS rows, sum(total_compressed_size)::BIGINT AS bytes FROM parquet_metadata(${file}) GROUP BY row_group_id ORDER BY row_group_id`,
    );
    const bounds: number[] = [];
    let start = 0;
    for (const g of groups) {
      if (g.rows > 0) bounds.push(start, start + g.rows - 1);
      start += g.rows;
    }
    const key = lookup.key.map((c) => `"${c}"`).join(", ");
    const rows = bounds.length
      ? await db.query<Record<string, KeyValue> & {file_row_number: number}>(`SELECT file_row_number, ${key} FROM read_parquet(${file}, file_row_number = true) WHERE file_row_number IN (${bounds.join(", ")})`)
      : [];
    const at = new Map(rows.map((r) => [Number(r.file_row_number), lookup.key.map((c) => r[c] ?? null)]));
    start = 0;
    const rowGroups = groups.map((g) => {
      const entry = {rows: g.rows, bytes: g.bytes, min: at.get(start) ?? [], max: at.get(start + g.rows - 1) ?? []};
      start += g.rows;
      return entry;
    });
    return {key: [...lookup.key], rowGroups};
  });
}
