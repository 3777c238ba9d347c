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
import {existsSync, readdirSync, readFileSync, statSync} from "node:fs";
import {join} from "node:path";
import {sqlFile} from "./duckdb.js";
import {UsageError} from "./usageError.js";

export interface RunTableFiles {
  files: string[];
  partitioned: boolean;
}

/** The Parquet files of `table` in `dir`, optionally only the partitions of games `keep` accepts. */
export function runTableFiles(dir: string, table: string, keep: (game: string) => boolean = () => true): RunTableFiles {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return {files: [], partitioned: false};
  const flat = join(dir, `${table}.parquet`);
  if (existsSync(flat)) return {files: [flat], partitioned: false};
  const shards = recordedShards(dir);
  const files = readdirSync(dir)
    .filter((name) => name.startsWith("game=") && keep(partitionGame(dir, name)))
    .sort()
    .flatMap((name) => partitionFiles(join(dir, name), table, shards));
  return {files, partitioned: true};
}

/**
 * The game id of the partition folder `name` (`game=<id>`, the id
 * %-encoded) in `dir`. A name that does not decode (`game=%E0%A4%A`, put
 * there by hand or by another tool) is a UsageError naming the folder, not
 * a URIError deep inside a reader.
 */
export function partitionGame(dir: string, name: string): string {
  try {
    return decodeURIComponent(name.slice("game=".length));
  } catch {
    throw new UsageError(`${join(dir, name)}: not a partition folder name (game=<id> with the id %-encoded); move it out of the run directory`);
  }
}

/** The shard count `parley run --shard` recorded in `dir` (run/shard.ts), or null. */
function recordedShards(dir: string): number | null {
  try {
    const count = JSON.parse(readFileSync(join(dir, ".parley", "shards.json"), "utf8")).shards;
    return Number.isInteger(count) ? count : null;
  } catch {
    return null;
  }
}

/**
 * The files of `table` in one game's partition: its own, or each of its
 * shards' (in shard order). A shard beyond the recorded count means shards of
 * differently split runs were put together: refused, naming the folder.
 */
function partitionFiles(partition: string, table: string, shards: number | null): string[] {
  const own = join(partition, `${table}.parquet`);
  if (existsSync(own)) return [own];
  let names: string[];
  try {
    names = readdirSync(partition);
  } catch {
    return [];
  }
  const found = names.filter((name) => /^shard=\d+$/.test(name)).sort((a, b) => Number(a.slice(6)) - Number(b.slice(6)));
  const beyond = shards === null ? undefined : found.find((name) => Number(name.slice(6)) >= shards);
  if (beyond) throw new Error(`${join(partition, beyond)}: the directory holds a run split into ${shards} shards (.parley/shards.json), so shard=0 … shard=${shards! - 1}; shards of runs split differently are mixed here`);
  return found
    .map((name) => join(partition, name, `${table}.parquet`))
    .filter((path) => existsSync(path));
}

/** A DuckDB FROM-expression reading `files` as one table (null when there are none). */
export function tableSql({files, partitioned}: RunTableFiles): string | null {
  if (!files.length) return null;
  return `read_parquet([${files.map(sqlFile).join(", ")}], union_by_name = true, hive_partitioning = ${partitioned})`;
}

/** Whether `dir` holds a run or ingest's tables in either layout. */
export function isRunDirectory(dir: string): boolean {
  return runTableFiles(dir, "games").files.length > 0;
}
