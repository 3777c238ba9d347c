/**
 * Native DuckDB for Node: one in-memory database per call of `withDuckDB`,
 * used to write Parquet, to read it back, and to run the shared metric SQL of
 * src/lib exactly as the pages run it in DuckDB-WASM.
 */
import {createRequire} from "node:module";
import type {DuckDBConnection, DuckDBMaterializedResult, DuckDBValue} from "@duckdb/node-api";

// Loaded with require, not import: importing a CommonJS package from ESM makes Node lex every file it
// re-exports (some 120 here) to find their export names, a third of a second of a short command's time.
const {DuckDBInstance} = createRequire(import.meta.url)("@duckdb/node-api") as typeof import("@duckdb/node-api");

export type SqlRow = Record<string, unknown>;

export class Db {
  constructor(readonly connection: DuckDBConnection) {}

  async run(sql: string): Promise<void> {
    await this.connection.run(sql);
  }

  /** Rows as plain objects; BIGINT and HUGEINT become numbers when they fit exactly, lists become arrays. `params` fill `?` placeholders. */
  async query<T extends SqlRow = SqlRow>(sql: string, params?: unknown[]): Promise<T[]> {
    const values = params?.length ? (params as DuckDBValue[]) : undefined;
    const result = await this.connection.run(sql, values);
    if (plainColumns(result)) {
      const names = result.columnNames();
      const rows: SqlRow[] = Array.from({length: result.rowCount}, () => ({}));
      eachValue(result, (row, column, value) => (rows[row][names[column]] = value));
      return rows as T[];
    }
    const reader = await this.connection.runAndReadAll(sql, values);
    const rows = reader.getRowObjectsJS();
    for (const row of rows) plainInPlace(row);
    return rows as T[];
  }

  /**
   * Column name -> values (converted as by `query`): for wide results, about
   * twice as fast as row objects, and when every column is a number, boolean
   * or text (the regression cells) several times faster again, read straight
   * from the result's vectors rather than through the generic converter.
   */
  async queryColumns(sql: string): Promise<Record<string, unknown[]>> {
    const result = await this.connection.run(sql);
    if (plainColumns(result)) {
      const names = result.columnNames();
      const columns = names.map(() => new Array<unknown>(result.rowCount));
      eachValue(result, (row, column, value) => (columns[column][row] = value));
      return Object.fromEntries(names.map((name, j) => [name, columns[j]]));
    }
    const reader = await this.connection.runAndReadAll(sql);
    const columns = reader.getColumnsObjectJS();
    for (const values of Object.values(columns)) for (let i = 0; i < values.length; i++) if (typeof values[i] === "bigint") values[i] = plain(values[i]) as never;
    return columns;
  }
}

/** Whether every column of `result` is a number, boolean or text (PLAIN_TYPES), which `eachValue` reads. */
const plainColumns = (result: DuckDBMaterializedResult): boolean => result.columnTypes().every((t) => PLAIN_TYPES.has(t.typeId));

/**
 * Each value of such a result, converted by `plain`, read straight from its
 * vectors chunk by chunk: several times faster than the generic converter.
 */
function eachValue(result: DuckDBMaterializedResult, use: (row: number, column: number, value: unknown) => void): void {
  const width = result.columnCount;
  let row = 0;
  for (let c = 0; c < result.chunkCount; c++) {
    const chunk = result.getChunk(c);
    const rows = chunk.rowCount; // a call into the binding each time it is read
    for (let j = 0; j < width; j++) {
      const vector = chunk.getColumnVector(j);
      for (let i = 0; i < rows; i++) use(row + i, j, plain(vector.getItem(i)));
    }
    row += rows;
  }
}

/** Types whose values the vectors hand over as JavaScript numbers, booleans, strings or bigints (which `plain` converts). */
const PLAIN_TYPES = new Set<number>([1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 17]); // DuckDBTypeId: BOOLEAN … UINTEGER, FLOAT, DOUBLE, VARCHAR

function plain(value: unknown): unknown {
  if (typeof value === "bigint") return Number.isSafeInteger(Number(value)) ? Number(value) : value;
  if (value && typeof value === "object") {
    if (Array.isArray(value)) return value.map(plain);
    if (value.constructor === Object) return plainInPlace(value as Record<string, unknown>);
  }
  return value;
}

/** `plain` on each value of an object the converter made (so ours to change): no copy of the row. */
function plainInPlace(row: Record<string, unknown>): Record<string, unknown> {
  for (const key in row) {
    const value = row[key];
    if (typeof value === "bigint" || (value && typeof value === "object")) row[key] = plain(value);
  }
  return row;
}

/**
 * The threads each DuckDB may use: PARLEY_DUCKDB_THREADS when set (the test
 * runner sets 1: it runs a file per core and more, and two threads a
 * database there cost a sixth more CPU for the same answers), else 2.
 */
export function duckdbThreads(env: NodeJS.ProcessEnv = process.env): string {
  const given = env.PARLEY_DUCKDB_THREADS;
  if (given === undefined || given === "") return "2";
  if (!/^[1-9][0-9]{0,2}$/.test(given)) throw new Error(`PARLEY_DUCKDB_THREADS must be a whole number from 1 to 999, got ${JSON.stringify(given)}`);
  return given;
}

/** Opens an in-memory DuckDB, runs `fn`, and closes it whatever happens. */
export async function withDuckDB<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const instance = await DuckDBInstance.create(":memory:", {threads: duckdbThreads()});
  const connection = await instance.connect();
  try {
    return await fn(new Db(connection));
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

import {sqlString} from "../../src/lib/sqlText.js";

export {sqlString};

/**
 * A file's path as a SQL string literal that DuckDB's table functions
 * (read_parquet, read_json, parquet_metadata) take literally. They expand
 * `*`, `?` and `[...]` in a path as globs, so the files of a folder named
 * `run[1]` would be read from `run1`; each of those characters is written
 * as a class of one (`[[]`, `[*]`, `[?]`), which matches only itself.
 */
export const sqlFile = (path: string): string => sqlString(path.replace(/[[*?]/g, "[$&]"));
