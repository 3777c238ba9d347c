/**
 * Checks of the paths a command is given, made before any work starts, so
 * that an ordinary mistake (a missing path, a file where a directory is
 * expected, an --out that names a file or cannot be written) is one line
 * naming the path and what was expected (a UsageError: exit code 2), never
 * a stack trace from deep inside a reader or writer.
 */
import {accessSync, constants, mkdirSync, statSync, type Stats} from "node:fs";
import {dirname, resolve} from "node:path";
import {RunTablesMissing, withParquetViews, withRunViews} from "../../io/parquet.js";
import type {Db, SqlRow} from "../../io/duckdb.js";
import {UsageError} from "./args.js";

export type PathKind = "file" | "directory" | "file or directory";

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

/**
 * Checks that `path` exists and is of `kind`; returns it. `hint` is added to
 * the message (e.g. how to produce the missing input).
 */
export function inputPath(command: string, path: string, kind: PathKind, hint = ""): string {
  const stats = statOrNull(path);
  const tail = hint ? `; ${hint}` : "";
  if (!stats) throw new UsageError(`parley ${command}: ${path} not found${tail}`);
  if (kind === "file" && !stats.isFile()) throw new UsageError(`parley ${command}: ${path} is a directory, expected a file${tail}`);
  if (kind === "directory" && !stats.isDirectory()) throw new UsageError(`parley ${command}: ${path} is a file, expected a directory${tail}`);
  return path;
}

/**
 * Creates `dir` and its missing parents one level at a time. (Node's
 * recursive mkdirSync retries ENOENT forever on file systems such as /proc
 * that refuse new entries; a single mkdir reports it.)
 */
function makeDirs(dir: string): void {
  const missing: string[] = [];
  for (let d = resolve(dir); !statOrNull(d); d = dirname(d)) {
    missing.push(d);
    if (dirname(d) === d) break;
  }
  for (const d of missing.reverse()) {
    try {
      mkdirSync(d);
    } catch (error) {
      // Another process made it meanwhile (the shards of one run, started together, share their --out).
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || !statOrNull(d)?.isDirectory()) throw error;
    }
  }
}

/**
 * Makes sure `dir` (the value of `flag`, e.g. --out) is a directory this
 * process can write, creating it if needed; returns it. Checked before a run
 * or an ingest does any work, so a mistake costs nothing and writes nothing.
 */
export function outputDir(command: string, flag: string, dir: string): string {
  const stats = statOrNull(dir);
  if (stats && !stats.isDirectory()) throw new UsageError(`parley ${command}: ${flag} ${dir} is a file, expected a directory`);
  if (!stats) {
    try {
      makeDirs(dir);
    } catch (error) {
      throw new UsageError(`parley ${command}: ${flag} ${dir}: cannot create the directory (${(error as Error).message})`);
    }
  }
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch {
    throw new UsageError(`parley ${command}: ${flag} ${dir} is not writable`);
  }
  return dir;
}

/**
 * queryParquet over input tables named by the user: each path must be an
 * existing file (globs are left to DuckDB), and a file DuckDB cannot read as
 * the expected table (not Parquet, truncated, missing columns) is one line
 * naming the files and DuckDB's reason.
 */
export async function queryInputs<T extends SqlRow = SqlRow>(command: string, views: Record<string, string>, sql: string, hint = ""): Promise<T[]> {
  return withInputViews(command, views, (db) => db.query<T>(sql), hint);
}

/** The same checks, with the views opened for `fn`. */
export async function withInputViews<T>(command: string, views: Record<string, string>, fn: (db: Db) => Promise<T>, hint = ""): Promise<T> {
  const paths = Object.values(views);
  for (const path of paths) if (!path.includes("*")) inputPath(command, path, "file", hint);
  try {
    return await withParquetViews(views, fn);
  } catch (error) {
    const reason = (error as Error).message.split("\n")[0];
    throw new UsageError(`parley ${command}: cannot read ${paths.join(", ")}: ${reason}`);
  }
}

/**
 * A run or ingest directory's tables (either layout, io/runTables.ts) opened
 * as views for `fn`: the directory must exist; a directory without the
 * tables, or with files DuckDB cannot read, is one line naming it.
 */
export async function withRunInputs<T>(command: string, dir: string, tables: readonly string[], keep: ((game: string) => boolean) | undefined, hint: string, fn: (db: Db) => Promise<T>): Promise<T> {
  inputPath(command, dir, "directory", hint);
  try {
    return await withRunViews(dir, tables, keep, fn);
  } catch (error) {
    if (error instanceof RunTablesMissing) throw new UsageError(`parley ${command}: ${error.message}${hint ? `; ${hint}` : ""}`);
    if (error instanceof UsageError) throw error;
    const reason = (error as Error).message.split("\n")[0];
    throw new UsageError(`parley ${command}: cannot read the tables of ${dir}: ${reason}`);
  }
}
