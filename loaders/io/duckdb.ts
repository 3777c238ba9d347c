/**
 * Native DuckDB for Node: one in-memory database per call of `withDuckDB`,
 * used to write Parquet, to read it back, and to run the shared metric SQL of
 * src/lib exactly as the pages run it in DuckDB-WASM.
 */
import {DuckDBInstance, type DuckDBConnection, type DuckDBValue} from "@duckdb/node-api";

export type SqlRow = Record<string, unknown>;

export class Db {
  constructor(readonly connection: DuckDBConnection) {}

  async run(sql: string): Promise<void> {
    await this.connection.run(sql);
  }

  /** Rows as plain objects; BIGINT and HUGEINT become numbers when they fit exactly, lists become arrays. `params` fill `?` placeholders. */
  async query<T extends SqlRow = SqlRow>(sql: string, params?: unknown[]): Promise<T[]> {
    const reader = await this.connection.runAndReadAll(sql, params?.length ? (params as DuckDBValue[]) : undefined);
    return reader.getRowObjectsJS().map((row) => plain(row) as T);
  }

  /** Column name -> values (converted as by `query`): for wide results, about twice as fast as row objects. */
  async queryColumns(sql: string): Promise<Record<string, unknown[]>> {
    const reader = await this.connection.runAndReadAll(sql);
    const columns = reader.getColumnsObjectJS();
    for (const values of Object.values(columns)) for (let i = 0; i < values.length; i++) if (typeof values[i] === "bigint") values[i] = plain(values[i]) as never;
    return columns;
  }
}

function plain(value: unknown): unknown {
  if (typeof value === "bigint") return Number.isSafeInteger(Number(value)) ? Number(value) : value;
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === "object" && value.constructor === Object) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  }
  return value;
}

/** Opens an in-memory DuckDB, runs `fn`, and closes it whatever happens. */
export async function withDuckDB<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const instance = await DuckDBInstance.create(":memory:", {threads: "2"});
  const connection = await instance.connect();
  try {
    return await fn(new Db(connection));
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** A SQL string literal (single quotes doubled). */
export function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}
