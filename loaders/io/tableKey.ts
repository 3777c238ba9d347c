/**
 * Key uniqueness of a table about to be written. A schema may declare the
 * columns that identify a row (`key: ["game_id"]` for games, `["game_id",
 * "turn"]` for turns); a table in which two rows share a key would count a
 * game twice in every metric and regression, so the writers refuse it.
 *
 * The check runs on the freshly written temporary Parquet file, before it is
 * renamed over the target: DuckDB reads only the key columns, memory stays
 * bounded by the number of distinct keys, and a refused write leaves the old
 * table in place.
 */
import type {TableSchema} from "./schema.js";
import {sqlFile, type Db} from "./duckdb.js";
import {DuplicateKeyError} from "./duplicateKey.js";

export {DuplicateKeyError};

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Throws DuplicateKeyError when two rows of the Parquet file `path` share the
 * key `schema.key`, naming the table, the key columns and the first repeated
 * value (in key order) with how often it occurs. No key declared: no check.
 */
export async function checkUniqueKey(db: Db, path: string, schema: TableSchema): Promise<void> {
  const key = schema.key;
  if (!key?.length) return;
  const columns = key.map(quote).join(", ");
  const [dup] = await db.query(
    `SELECT ${columns}, count(*) AS n FROM read_parquet(${sqlFile(path)}) GROUP BY ALL HAVING count(*) > 1 ORDER BY ${columns} LIMIT 1`,
  );
  if (!dup) return;
  const value = key.length === 1 ? JSON.stringify(dup[key[0]]) : `(${key.map((k) => JSON.stringify(dup[k])).join(", ")})`;
  const names = key.length === 1 ? key[0] : `(${key.join(", ")})`;
  throw new DuplicateKeyError(`${schema.name}: ${names} ${value} occurs ${dup.n} times; ${names} must be unique, so ${schema.name} was not written`);
}
