/**
 * A page's data: answers from the page's first-view snapshot (computed at
 * build time in native DuckDB, src/lib/snapshot.ts) when it has them, else
 * from DuckDB-WASM, which is opened (and its tables fetched) only when a
 * question is not in the snapshot.
 *
 * `pageData({first: FileAttachment("data/dond/first-dond.json"), tables: {games: ...href}})`
 * starts loading DuckDB (its module, Apache Arrow, and compiling its 34 MB
 * wasm in a worker) as soon as the visitor moves the pointer, focuses or
 * types anywhere, or 2 s after the page has loaded, so that the first changed
 * input finds it ready; not before, because on a small machine the compile
 * takes every core the first view needs. Each table is fetched on the first
 * question the snapshot cannot answer whose SQL names it (which also starts
 * DuckDB at once), so a question about a big run's games never fetches its
 * turns. `prepare` (the page's FirstView.prepare) runs once on the opened
 * database, with every table loaded (its views may read any of them).
 * A snapshot that cannot be read is treated as empty (everything is asked of
 * DuckDB).
 *
 * While any answer is on the way, a "Loading data…" badge (class
 * parley-loading) shows in the corner, so that a cell waiting on data is
 * never silent, and globalThis.__parleyPending counts it (tests and the bench
 * wait for it to reach 0).
 */
import type {Database, Row} from "./duckdb.js";
import type {LookupTables} from "./lookups.js";
import {snapshotAsker, type Asker, type Query, type Snapshot} from "../lib/snapshot.js";
import type {KeyValue} from "../lib/lookups.js";

type Source = string | URL | {href: string};
const urlOf = (source: Source) => (typeof source === "string" ? source : source.href);

export interface PageData extends Asker {
  /** Tagged template: values are bound as parameters (same keys as `query(sql, params)`). */
  sql(strings: TemplateStringsArray, ...values: unknown[]): Promise<Row[]>;
  /** The DuckDB database with the page's tables (opened on first call). */
  database(): Promise<Database>;
  /**
   * A keyed question: `sql` (with `params`) asked of only the rows of `keys`
   * (table -> key values, e.g. {turns: [gameId]}), which are fetched by row
   * group (lookups.ts) when the page has an index for each of those tables;
   * otherwise asked of the whole tables, as `query` does. Answered from the
   * snapshot first, like `query`.
   */
  lookup(keys: Record<string, readonly KeyValue[]>, sql: string, params?: unknown[]): Promise<Row[]>;
}

const state = globalThis as typeof globalThis & {__parleyPending?: number};
let waiting = 0;
let badge: HTMLElement | null = null;

/** Counts `work` as pending while it runs, with the badge shown. */
async function busy<T>(work: () => Promise<T>): Promise<T> {
  state.__parleyPending = (state.__parleyPending ?? 0) + 1;
  if (waiting++ === 0) {
    badge ??= Object.assign(document.createElement("div"), {className: "parley-loading parley-busy", textContent: "Loading data…", role: "status"});
    document.body.append(badge);
  }
  try {
    return await work();
  } finally {
    state.__parleyPending!--;
    if (--waiting === 0) badge?.remove();
  }
}

/** Calls `start` once: on the visitor's first sign of interaction, or `delay` ms after the page has loaded. */
function soon(start: () => void, delay = 2000): void {
  const events = ["pointermove", "pointerdown", "focusin", "keydown", "touchstart"];
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    for (const e of events) document.removeEventListener(e, once, true);
    start();
  };
  for (const e of events) document.addEventListener(e, once, {capture: true, passive: true});
  const later = () => setTimeout(once, delay);
  if (document.readyState === "complete") later();
  else addEventListener("load", later, {once: true});
}

/** `lookups`: per table, the index of its row groups (src/lib/lookups.ts), for `lookup`. */
export function pageData({first, tables, lookups = {}, prepare}: {first?: {json(): Promise<unknown>}; tables: Record<string, Source>; lookups?: Record<string, {json(): Promise<unknown>}>; prepare?: (query: Query) => Promise<void>}): PageData {
  let module: Promise<typeof import("./duckdb.js")> | null = null;
  const duckdb = () => (module ??= import("./duckdb.js"));
  soon(() => duckdb().then((d) => d.startDuckDB(), () => {})); // a failure is reported to whoever queries
  let snapshot: Promise<Snapshot> | null = null;
  const known = () => (snapshot ??= first ? first.json().then((s) => (s ?? {}) as Snapshot, () => ({})) : Promise.resolve({}));
  let connection: Promise<Database> | null = null;
  const registered = new Map<string, Promise<void>>();
  /** The page's connection with `names` loaded, each table fetched once, by the first question that names it. */
  const withTables = async (names: readonly string[]) => {
    const opened = await (connection ??= duckdb().then((d) => d.openDatabase({})));
    await Promise.all(names.map((name) => registered.get(name) ?? registered.set(name, opened.register(name, tables[name])).get(name)));
    return opened;
  };
  let db: Promise<Database> | null = null;
  const database = () => (db ??= withTables(Object.keys(tables)).then(async (opened) => {
    await prepare?.((sql, params) => opened.query(sql, params));
    return opened;
  }));
  // Without `prepare` (whose views may read any table), a question loads only the tables its SQL names:
  // a big run's turns are never fetched for a question about its games.
  const named = (sql: string) => Object.keys(tables).filter((name) => new RegExp(`\\b${name}\\b`).test(sql));
  const fallback: Query = async (sql, params = []) => (await (prepare ? database() : withTables(named(sql)))).query(sql, params);
  const asker = snapshotAsker(known, fallback);
  const query: Query = (sql, params) => busy(() => asker.query(sql, params));
  let keyed: Promise<LookupTables> | null = null;
  const lookupTables = () => (keyed ??= import("./lookups.js").then((l) => l.lookupTables(Object.fromEntries(Object.entries(lookups).map(([t, index]) => [t, {url: urlOf(tables[t]), index}])))));
  return {
    query,
    memo: (computation, input) => busy(() => asker.memo(computation, input)),
    sql: (strings, ...values) => query(strings.join("?"), values),
    database: () => busy(database),
    lookup(keys, sql, params) {
      if (!Object.keys(keys).every((t) => t in lookups && t in tables)) return query(sql, params);
      const byRowGroup = snapshotAsker(known, async (s, p) => (await lookupTables()).query(keys, s, p));
      return busy(() => byRowGroup.query(sql, params));
    },
  };
}
