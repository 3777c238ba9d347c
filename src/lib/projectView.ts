/**
 * Views with a fixed set of columns over tables whose columns vary: a run of
 * one game writes only that game's columns, a run of several writes the
 * union, and SQL written for all of them still needs every column to exist.
 *
 * Pure: it takes a `query(sql) => rows` function, so the same code runs in
 * DuckDB-WASM (pages) and native DuckDB (CLI, tests).
 */

export type Query = (sql: string) => Promise<Record<string, unknown>[]>;

/** A column the view must have: [name, DuckDB type]. */
export type ViewColumn = readonly [name: string, type: string];

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Creates (or replaces) view `view` over the relation `source` with exactly
 * `columns`, in that order: a column the source has is cast to the given
 * type, one it lacks is NULL of that type. The source's columns are read with
 * DESCRIBE, so `source` may be a table, a view or a table function call.
 */
export async function projectView(query: Query, source: string, view: string, columns: readonly ViewColumn[]): Promise<void> {
  const have = await columnsOf(query, source);
  const select = columns.map(([name, type]) => (have.has(name.toLowerCase()) ? `CAST(${ident(name)} AS ${type})` : `CAST(NULL AS ${type})`) + ` AS ${ident(name)}`);
  await query(`CREATE OR REPLACE VIEW ${ident(view)} AS SELECT ${select.join(", ")} FROM ${source}`);
}

/** The (lower-cased) column names of the relation `source`: a table, a view, a subquery in parentheses or a table function call. */
export async function columnsOf(query: Query, source: string): Promise<Set<string>> {
  const described = await query(`DESCRIBE SELECT * FROM ${source}`);
  return new Set(described.map((r) => String(r.column_name).toLowerCase()));
}

/**
 * `source` as a relation (a name, or a subquery in parentheses) that has
 * every column of `columns`: each one it lacks is added as NULL of the given
 * type, the columns it has are left as they are. For SQL that reads columns
 * only some games write (a run of one scenario has none of another's).
 */
export async function withMissingColumns(query: Query, source: string, columns: readonly ViewColumn[]): Promise<string> {
  const have = await columnsOf(query, source);
  const missing = columns.filter(([name]) => !have.has(name.toLowerCase()));
  if (!missing.length) return source;
  return `(SELECT *, ${missing.map(([name, type]) => `CAST(NULL AS ${type}) AS ${ident(name)}`).join(", ")} FROM ${source})`;
}

