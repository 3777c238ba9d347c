/**
 * Reading a run directory's tables, whichever layout wrote them:
 * - partitioned by game (`parley run` today; run/tables.ts):
 *   <dir>/game=<id>/<table>.parquet, the `game` column coming from the path;
 * - partitioned by game and shard (`parley run --shard i/n`, run/shard.ts):
 *   <dir>/game=<id>/shard=<i>/<table>.parquet, all shards read as one run
 *   (a `shard` column comes from the path too);
 * - flat (ingests and runs of earlier versions): <dir>/<table>.parquet.
 * `runTableSql` gives a FROM-expression for DuckDB that reads either as one
 * table (union by column name, so each game's own columns are kept).
 */
import {existsSync, readdirSync, statSync} from "node:fs";
import {join} from "node:path";
import {sqlString} from "./duckdb.js";

export interface RunTableFiles {
  files: string[];
  partitioned: boolean;
}

/** The Parquet files of `table` in `dir`, optionally only the partitions of games `keep` accepts. */
export function runTableFiles(dir: string, table: string, keep: (game: string) => boolean = () => true): RunTableFiles {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return {files: [], partitioned: false};
  const flat = join(dir, `${table}.parquet`);
  if (existsSync(flat)) return {files: [flat], partitioned: false};
  const files = readdirSync(dir)
    .filter((name) => name.startsWith("game=") && keep(decodeURIComponent(name.slice("game=".length))))
    .sort()
    .flatMap((name) => partitionFiles(join(dir, name), table));
  return {files, partitioned: true};
}

/** The files of `table` in one game's partition: its own, or each of its shards' (in shard order). */
function partitionFiles(partition: string, table: string): string[] {
  const own = join(partition, `${table}.parquet`);
  if (existsSync(own)) return [own];
  let names: string[];
  try {
    names = readdirSync(partition);
  } catch {
    return [];
  }
  return names
    .filter((name) => /^shard=\d+$/.test(name))
    .sort((a, b) => Number(a.slice(6)) - Number(b.slice(6)))
    .map((name) => join(partition, name, `${table}.parquet`))
    .filter((path) => existsSync(path));
}

/** A DuckDB FROM-expression reading `files` as one table (null when there are none). */
export function tableSql({files, partitioned}: RunTableFiles): string | null {
  if (!files.length) return null;
  return `read_parquet([${files.map(sqlString).join(", ")}], union_by_name = true, hive_partitioning = ${partitioned})`;
}

/** Whether `dir` holds a run or ingest's tables in either layout. */
export function isRunDirectory(dir: string): boolean {
  return runTableFiles(dir, "games").files.length > 0;
}
