/**
 * Row-level tables read one key at a time (src/lib/lookups.ts): a keyed
 * question ("the turns of game X") loads only the row groups whose key range
 * holds the key, fetched by HTTP Range requests, into a DuckDB connection of
 * its own, and runs the page's SQL there. Row groups already loaded are kept,
 * so coming back to a game fetches nothing. A server that does not answer
 * Range requests gets the whole file fetched once instead: slower, same rows.
 *
 *   const tables = lookupTables({turns: {url: ...href, index: FileAttachment("data/glee/turns-index.json")}});
 *   const turns = await tables.query({turns: [gameId]}, GLEE_TURNS_SQL, [gameId]);
 */
import {openDatabase, openRowGroups, type Database, type Row} from "./duckdb.js";
import {rowGroupsFor, type KeyValue, type LookupIndex} from "../lib/lookups.js";

export interface LookupSource {
  /** The table's Parquet file. */
  url: string;
  /** Its index (src/lib/lookups.ts LookupIndex). */
  index: {json(): Promise<unknown>};
}

export interface LookupTables {
  /** Loads the rows of each table's key (table -> key values, all or the first few key columns), then runs `sql` on the loaded rows. */
  query(keys: Record<string, readonly KeyValue[]>, sql: string, params?: unknown[]): Promise<Row[]>;
}

interface TableState {
  index: Promise<LookupIndex>;
  file: ReturnType<typeof openRowGroups> | null;
  /** Row groups loaded (all of them once the whole file was). */
  loaded: Set<number>;
  whole: boolean;
}

export function lookupTables(sources: Record<string, LookupSource>): LookupTables {
  let database: Promise<Database> | null = null;
  const db = () => (database ??= openDatabase());
  const states = new Map<string, TableState>();
  const state = (table: string): TableState => {
    const source = sources[table];
    if (!source) throw new Error(`no lookup index for table ${table}`);
    let s = states.get(table);
    if (!s) states.set(table, (s = {index: source.index.json() as Promise<LookupIndex>, file: null, loaded: new Set(), whole: false}));
    return s;
  };
  // Loads run one after another, so that two questions never add the same row group twice.
  let queue: Promise<unknown> = Promise.resolve();
  const load = async (table: string, key: readonly KeyValue[]) => {
    const s = state(table);
    if (s.whole) return;
    const index = await s.index;
    let wanted = rowGroupsFor(index, key).filter((g) => !s.loaded.has(g));
    if (!wanted.length) {
      if (s.loaded.size) return;
      // No row group holds the key: the table is still made (from its smallest fetch) for the SQL to find it empty.
      wanted = index.rowGroups.length ? [0] : [];
    }
    const file = await (s.file ??= openRowGroups(sources[table].url));
    const target = await db();
    const first = !s.loaded.size;
    if ("whole" in file) {
      if (first) await target.append(table, file.whole, true);
      s.whole = true;
      return;
    }
    await target.append(table, await file.read(wanted), first);
    for (const g of wanted) s.loaded.add(g);
    if (!wanted.length) s.whole = true; // an empty file
  };
  return {
    async query(keys, sql, params = []) {
      const loading = queue.then(() => Promise.all(Object.entries(keys).map(([table, key]) => load(table, key))));
      queue = loading.catch(() => {}); // a failed load may be retried by the next question
      await loading;
      return (await db()).query(sql, params);
    },
  };
}
