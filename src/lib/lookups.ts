/**
 * Row-level tables that pages read one key at a time (one game's turns, one
 * pair's games) are written sorted by that key in bounded Parquet row
 * groups, with a small index beside them (`<table>-index.json`) giving each
 * row group's first and last key and its row count. A page then fetches, by
 * HTTP Range requests, only the row groups whose key range holds the key it
 * wants (src/components/lookups.ts), never the whole file.
 */

/** How a table is laid out for lookups: sorted by `key` (what pages look up), then by `then` (a stable order within a key). */
export interface Lookup {
  key: readonly string[];
  then: readonly string[];
}

/** The index written beside a table laid out by a Lookup. */
export interface LookupIndex {
  key: string[];
  /** Per row group, in file order: its rows, compressed bytes, and the key tuples of its first and last row. */
  rowGroups: {rows: number; bytes: number; min: KeyValue[]; max: KeyValue[]}[];
}

export type KeyValue = string | number | boolean | null;

/** GLEE's tables: the family pages pick one ordered pair's games, then one game's turns. */
export const GLEE_LOOKUPS: Readonly<Record<string, Lookup>> = {
  games: {key: ["family", "alice_agent", "bob_agent"], then: ["config_id", "repetition", "game_id"]},
  turns: {key: ["game_id"], then: ["turn"]},
};

/** Per catalog dataset, its tables pages look up by key (a run's analysis group of the same id too). */
export const DATASET_LOOKUPS: Readonly<Record<string, Readonly<Record<string, Lookup>>>> = {glee: GLEE_LOOKUPS};

/** The index member's name beside table `table` (in the same archive). */
export const indexName = (table: string) => `${table}-index.json`;

/**
 * Order of key values as DuckDB sorts them (ORDER BY ... ASC NULLS LAST):
 * strings by code point (UTF-8 byte order, not JavaScript's UTF-16 units), numbers and booleans by value.
 */
export function compareKeyValues(a: KeyValue, b: KeyValue): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === "string" && typeof b === "string") {
    const x = [...a];
    const y = [...b];
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      const d = x[i].codePointAt(0)! - y[i].codePointAt(0)!;
      if (d) return d;
    }
    return x.length - y.length;
  }
  return Number(a) < Number(b) ? -1 : Number(a) > Number(b) ? 1 : 0;
}

/** Compares the first `prefix.length` values of `tuple` with `prefix`. */
function comparePrefix(tuple: readonly KeyValue[], prefix: readonly KeyValue[]): number {
  for (let i = 0; i < prefix.length; i++) {
    const d = compareKeyValues(tuple[i], prefix[i]);
    if (d) return d;
  }
  return 0;
}

/**
 * The row groups that may hold rows whose key starts with `prefix` (all or
 * the first few key columns): those whose [first, last] key range contains
 * it. Since the table is sorted by the key, these are consecutive.
 */
export function rowGroupsFor(index: LookupIndex, prefix: readonly KeyValue[]): number[] {
  if (prefix.length > index.key.length) throw new Error(`a lookup by ${prefix.length} values on a table keyed by ${index.key.join(", ")}`);
  const groups: number[] = [];
  index.rowGroups.forEach((g, i) => {
    if (g.rows > 0 && comparePrefix(g.min, prefix) <= 0 && comparePrefix(g.max, prefix) >= 0) groups.push(i);
  });
  return groups;
}
