/**
 * A directory's tables replaced as a set: a reader of <out>/games.parquet and
 * <out>/turns.parquet sees either the whole old set or the whole new one,
 * never new games beside old turns, whatever fails or is killed when.
 *
 * Layout of <out> (readers keep opening <out>/<table>.parquet):
 *
 *   <table>.parquet, tables.json     symlinks to .parley/tables/current/<same name>
 *   .parley/tables/current           symlink to the current generation
 *   .parley/tables/<generation>/     one complete set: <table>.parquet ... and
 *                                    tables.json (generation, time, rows per table)
 *
 * A new set is written into a fresh generation directory (named as a temp
 * file, `.gen.tmp-<pid>-<hex>`, until complete) and made current by one
 * rename(2) of the `current` symlink, which POSIX makes atomic; the previous
 * generation is then deleted. Renaming files one by one, or a manifest beside
 * them, cannot give this: the first rename is visible before the last.
 *
 * Before writing, leftovers of writers that died (temp generations, staged
 * JSON lines, `.tmp-<pid>-` files of the earlier one-file-at-a-time layout)
 * are removed; see staleFiles.ts. A directory written by that earlier layout
 * holds plain files; the first set written into it replaces each with its
 * symlink after the switch, so only that one switch is file by file.
 *
 * A shard of a run (run/shard.ts) keeps its generations in its own state
 * directory and links entries two levels deep (`game=<id>/shard=<i>`), so
 * shards writing into one directory at once never replace each other's links.
 */
import {closeSync, fsyncSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync} from "node:fs";
import {randomBytes} from "node:crypto";
import {basename, dirname, join, relative} from "node:path";
import {writeFileAtomic} from "./atomic.js";
import {removeStaleTemps} from "./staleFiles.js";

/** What <out>/tables.json says about the current set. */
export interface TableManifest {
  generation: string;
  written_at: string;
  tables: Record<string, {file: string; rows: number}>;
}

export interface TableSetWriter {
  /** The generation directory being filled. */
  readonly dir: string;
  /** Where to write table `name` (`games` -> <generation>/games.parquet). */
  path(name: string): string;
  /** Where to write the file `relative` of the set (e.g. `game=glee%2Fbargaining/turns.parquet`); its folder is created. */
  file(relative: string): string;
  /**
   * Makes the written tables the current set of the output directory, all at
   * once; `rows` (table name, or a file's path relative to the set -> row
   * count) names every file of the set and goes into tables.json. Returns the
   * stable paths <out>/<file>.
   */
  commit(rows: Record<string, number>): Promise<string[]>;
  /** Deletes the generation without touching the current set. */
  abandon(): void;
}

/** Where a set keeps its generations, and how deep its linked entries are. */
export interface TableSetOptions {
  /** The state directory holding `tables/` (default <out>/.parley). Given, only it is cleaned of stale writes, not <out>. */
  state?: string;
  /** Path components of each linked entry of <out> (default 1: `games.parquet`, `game=<id>`); tables.json is linked at the top only for 1. */
  depth?: number;
}

const CURRENT = "current";
const MANIFEST = "tables.json";
const token = () => `${process.pid}-${randomBytes(4).toString("hex")}`;

/** Removes what interrupted writes left in `outDir` (temp files, unfinished or superseded generations). */
export function removeStaleWrites(outDir: string, {state}: TableSetOptions = {}): void {
  if (!state) removeStaleTemps(outDir);
  const stateDir = state ?? join(outDir, ".parley");
  removeStaleTemps(stateDir);
  const tables = join(stateDir, "tables");
  removeStaleTemps(tables);
  const current = currentGeneration(tables);
  for (const name of readdirSafe(tables)) {
    // Committed generations other than the current one were superseded (a kill between switch and cleanup).
    if (name !== CURRENT && !name.startsWith(".") && name !== current) rmSync(join(tables, name), {recursive: true, force: true});
  }
}

/** Starts a new generation of tables for `outDir`, after removing stale leftovers there. */
export function beginTableSet(outDir: string, options: TableSetOptions = {}): TableSetWriter {
  removeStaleWrites(outDir, options);
  const tables = join(options.state ?? join(outDir, ".parley"), "tables");
  const depth = options.depth ?? 1;
  let dir = join(tables, `.gen.tmp-${token()}`);
  mkdirSync(dir, {recursive: true});
  let done = false;
  let committed = false; // renamed to its final name: no longer ours to delete
  return {
    get dir() {
      return dir;
    },
    path: (name) => join(dir, `${name}.parquet`),
    file: (relative) => {
      const path = join(dir, relative);
      mkdirSync(dirname(path), {recursive: true});
      return path;
    },
    async commit(rows) {
      if (done) throw new Error(`table set ${dir} was already committed or abandoned`);
      done = true;
      const generation = `${new Date().toISOString().replace(/[-:.]/g, "")}-${randomBytes(4).toString("hex")}`;
      const manifest: TableManifest = {generation, written_at: new Date().toISOString(), tables: {}};
      for (const [name, n] of Object.entries(rows)) manifest.tables[name] = {file: name.includes("/") ? name : `${name}.parquet`, rows: n};
      try {
        for (const t of Object.values(manifest.tables)) fsyncPath(join(dir, t.file));
        await writeFileAtomic(join(dir, MANIFEST), JSON.stringify(manifest, null, 2) + "\n");
        fsyncPath(dir);
        const final = join(tables, generation);
        renameSync(dir, final);
        dir = final;
        committed = true;
      } catch (error) {
        rmSync(dir, {recursive: true, force: true});
        throw error;
      }
      const previous = currentGeneration(tables);
      const previousTables = previous ? readManifest(join(tables, previous))?.tables ?? {} : {};
      // The switch: everything before it leaves the old set current, everything after the new one.
      replaceWithSymlink(join(tables, CURRENT), generation);
      fsyncPath(tables);

      // <out> links each top-level entry of the set (a table file, or a partition folder such as game=<id>).
      const top = (file: string) => file.split("/").slice(0, depth).join("/");
      const names = [...new Set(Object.values(manifest.tables).map((t) => top(t.file)))];
      if (depth === 1) names.push(MANIFEST);
      for (const name of names) {
        const link = join(outDir, name);
        if (depth > 1) mkdirSync(dirname(link), {recursive: true});
        replaceWithSymlink(link, relative(dirname(link), join(tables, CURRENT, name)));
      }
      for (const t of Object.values(previousTables)) if (!names.includes(top(t.file))) rmSync(join(outDir, top(t.file)), {recursive: true, force: true});
      if (previous && previous !== generation) rmSync(join(tables, previous), {recursive: true, force: true});
      return Object.values(manifest.tables).map((t) => join(outDir, t.file));
    },
    abandon() {
      done = true;
      if (committed) return;
      rmSync(dir, {recursive: true, force: true});
    },
  };
}

/** The manifest of the current set of `outDir`, or null when none was written by a table set. */
export function currentManifest(outDir: string): TableManifest | null {
  return readManifest(join(outDir, ".parley", "tables", CURRENT));
}

function readManifest(generationDir: string): TableManifest | null {
  try {
    return JSON.parse(readFileSync(join(generationDir, MANIFEST), "utf8")) as TableManifest;
  } catch {
    return null;
  }
}

function currentGeneration(tables: string): string | null {
  try {
    return readlinkSync(join(tables, CURRENT));
  } catch {
    return null;
  }
}

/**
 * Points `path` at `target` with one rename (an existing file or link at
 * `path` is replaced, atomically). A real folder there (a partition an
 * earlier layout wrote in place) is removed first: that one migration is not atomic.
 */
function replaceWithSymlink(path: string, target: string): void {
  try {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink() && readlinkSync(path) === target) return;
    if (stat.isDirectory()) rmSync(path, {recursive: true, force: true});
  } catch {
    // absent: create it
  }
  const tmp = join(dirname(path), `.${basename(path)}.tmp-${token()}`);
  symlinkSync(target, tmp);
  try {
    renameSync(tmp, path);
  } catch (error) {
    rmSync(tmp, {force: true});
    throw error;
  }
}

/** Flushes a file's or directory's data to disk, so the switch cannot outlive (in a power cut) what it points to. */
function fsyncPath(path: string): void {
  const fd = openSync(path, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
