/**
 * A page's first view, computed ahead of time.
 *
 * A page asks its tables questions through `query(sql, params)` (DuckDB) and
 * `memo(computation, input)` (work done in JavaScript on query results, such
 * as a regression fit; a named Computation, so the build runs the same code). A snapshot maps each question to its answer, so
 * that a page can draw what every visitor sees first without waiting for
 * DuckDB-WASM: the build runs the page's default path (its `FirstView`
 * script) once in native DuckDB over the same Parquet files and records every
 * answer; the page looks its questions up and asks DuckDB-WASM only for the
 * ones that are not there (a changed input, a link to another view).
 *
 * Both sides build keys with `snapshotKey`, so the same SQL text and
 * parameters (or computation name and input) find the same answer. Answers
 * are JSON; a computation's own queries are not stored (only its result).
 */
export type Row = Record<string, any>;
export type Query = (sql: string, params?: unknown[]) => Promise<Row[]>;

/** Work done on query results, named so that its answer can be looked up (the result must survive JSON). */
export interface Computation<I, T> {
  name: string;
  compute(query: Query, input: I): Promise<T>;
}

/** What a page script (or a page) may ask. */
export interface Asker {
  query: Query;
  /** Runs `computation` on `input` only when the snapshot has no answer for (its name, input). */
  memo<I, T>(computation: Computation<I, T>, input: I): Promise<T>;
}

export type Snapshot = Record<string, unknown>;

/**
 * A page's default path: the questions it asks before any input is touched.
 * `dataset` is the catalog dataset whose tables it reads (the snapshot is
 * written into that dataset's archive as `first-<page>.json`); `tables` are
 * the tables it queries; `prepare`, if any, creates tables or views that its
 * questions read (run once, before the script, and by the page's DuckDB).
 */
export interface FirstView {
  page: string;
  dataset: string;
  tables: string[];
  prepare?: (query: Query) => Promise<void>;
  script(ask: Asker): Promise<void>;
}

export function snapshotKey(kind: "query" | "memo", name: string, args: unknown): string {
  return `${kind}\u0000${name}\u0000${JSON.stringify(args ?? [])}`;
}

/** Answers as the page will read them: through JSON (so NaN becomes null on both sides). */
const viaJson = <T>(value: T): T => (value === undefined ? value : JSON.parse(JSON.stringify(value)));

/** Query answers are stored column names first, then one array per row: half the JSON of row objects. */
interface StoredRows {
  columns: string[];
  rows: unknown[][];
}

function storeRows(rows: Row[]): StoredRows {
  const columns = rows.length ? Object.keys(rows[0]) : [];
  return {columns, rows: rows.map((r) => columns.map((c) => r[c]))};
}

function readRows({columns, rows}: StoredRows): Row[] {
  return rows.map((values) => {
    const row: Row = {};
    for (let j = 0; j < columns.length; j++) row[columns[j]] = values[j];
    return row;
  });
}

/** Runs `script` with `query` and returns every answer it was given, keyed for lookup by a page. */
export async function recordSnapshot(query: Query, script: (ask: Asker) => Promise<void>): Promise<Snapshot> {
  const snapshot: Snapshot = {};
  const asker: Asker = {
    async query(sql, params = []) {
      const rows = viaJson(await query(sql, params));
      snapshot[snapshotKey("query", sql, params)] = storeRows(rows);
      return rows;
    },
    async memo(computation, input) {
      const value = viaJson(await computation.compute(query, input));
      snapshot[snapshotKey("memo", computation.name, input)] = value;
      return value;
    },
  };
  await script(asker);
  return snapshot;
}

/**
 * An Asker that answers from `snapshot` when it can and from `fallback`
 * (DuckDB) otherwise. Fallback answers are kept (the tables never change
 * while a page is open), so computations that share a query run it once.
 */
export function snapshotAsker(snapshot: () => Promise<Snapshot>, fallback: Query): Asker {
  const asked = new Map<string, Promise<Row[]>>();
  const query: Query = async (sql, params = []) => {
    const key = snapshotKey("query", sql, params);
    const known = await snapshot();
    if (key in known) return readRows(known[key] as StoredRows);
    let answer = asked.get(key);
    if (!answer) {
      asked.set(key, (answer = fallback(sql, params)));
      answer.catch(() => asked.delete(key)); // a failure may be retried
    }
    return answer;
  };
  return {
    query,
    async memo(computation, input) {
      const key = snapshotKey("memo", computation.name, input);
      const known = await snapshot();
      return key in known ? (known[key] as any) : viaJson(await computation.compute(query, input));
    },
  };
}
