/**
 * DuckDB-WASM in Node, loading Parquet exactly as pages do (parquet-wasm ->
 * Arrow IPC -> DuckDB's Arrow reader). Tests use it to check that the shared
 * SQL of src/lib gives the same answer in the browser's engine as in native
 * DuckDB.
 */
import {createRequire} from "node:module";
import {readFileSync} from "node:fs";
import {dirname, join} from "node:path";

const require = createRequire(import.meta.url);
const duckdb = require("@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs");
const parquet = require("parquet-wasm/node");

const dist = dirname(require.resolve("@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs"));

function plain(value: any): any {
  if (typeof value === "bigint") return Number(value);
  if (value === null || typeof value !== "object") return value;
  if (typeof value.toArray === "function" && typeof value.length === "number") return Array.from(value.toArray(), plain);
  if (typeof value.toJSON === "function") value = value.toJSON();
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
}

type Rows = Record<string, unknown>[];

export interface WasmDatabase {
  /** Rows as plain objects; `params` fill `?` placeholders through a prepared statement. */
  query(sql: string, params?: unknown[]): Promise<Rows>;
  close(): void;
}

/**
 * The process's DuckDB-WASM, instantiated once: linking the module costs about
 * a second of CPU, which a test file opening dozens of databases paid each time.
 */
let instance: Promise<any> | undefined;
const wasmInstance = () =>
  (instance ??= (async () => {
    const db = await duckdb.createDuckDB(
      {mvp: {mainModule: join(dist, "duckdb-mvp.wasm"), mainWorker: ""}, eh: {mainModule: join(dist, "duckdb-eh.wasm"), mainWorker: ""}},
      new duckdb.VoidLogger(),
      duckdb.NODE_RUNTIME,
    );
    await db.instantiate();
    return db;
  })());
let opened = 0;

/** An Arrow table's rows as plain objects, read column by column. */
function rows(table: any): Rows {
  const out: Rows = Array.from({length: table.numRows}, () => ({}));
  table.schema.fields.forEach((field: {name: string}, j: number) => {
    const column = table.getChildAt(j);
    for (let i = 0; i < out.length; i++) out[i][field.name] = plain(column.get(i));
  });
  return out;
}

/**
 * DuckDB-WASM with each Parquet file of `tables` (name -> path) loaded as a
 * table, as pages load them: a connection of the process's instance whose
 * default schema is its own, so its tables and views are all it sees by name;
 * `close` drops them.
 */
export async function openWasm(tables: Record<string, string>): Promise<WasmDatabase> {
  const db = await wasmInstance();
  const conn = db.connect();
  const schema = `parity_${++opened}`;
  conn.query(`CREATE SCHEMA ${schema}`);
  conn.query(`USE ${schema}`);
  for (const [name, path] of Object.entries(tables)) {
    const ipc = parquet.readParquet(new Uint8Array(readFileSync(path))).intoIPCStream();
    conn.insertArrowFromIPCStream(ipc, {name, schema});
  }
  return {
    async query(sql, params = []) {
      if (!params.length) return rows(conn.query(sql));
      const statement = conn.prepare(sql);
      try {
        return rows(statement.query(...params));
      } finally {
        statement.close();
      }
    },
    close() {
      conn.query("USE main");
      conn.query(`DROP SCHEMA ${schema} CASCADE`);
      conn.close();
    },
  };
}

/**
 * Runs `sql` in DuckDB-WASM after loading each Parquet file of `tables` (name -> path) as a table.
 * `sql` may be a function that first runs statements of its own through `query` (e.g. to create views) and returns the SQL.
 */
export async function queryWasm(tables: Record<string, string>, sql: string | ((query: (q: string) => Promise<Rows>) => Promise<string>)): Promise<Rows> {
  const db = await openWasm(tables);
  try {
    const run = (q: string) => db.query(q);
    return await run(typeof sql === "string" ? sql : await sql(run));
  } finally {
    db.close();
  }
}
