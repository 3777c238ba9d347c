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
 * are removed; see staleFiles.ts.
 *
 * A writer replaces or removes only the links its directory's table sets
 * made (a symlink into its own `tables/current`), never a real file or
 * folder: shards' folders copied together into one directory, tables of the
 * earlier one-file-at-a-time layout, a user's own files. Such an entry where
 * the set would link is a TablesInUse error naming it, before anything is
 * switched. And the set records its writer (TableWriter) in tables.json, so
 * that `claimTables` can refuse, before any work, a directory whose tables
 * another writer or another run definition wrote, unless told to replace them.
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

/**
 * Who writes a set: the same `key` is the same writer (the same command on
 * the same inputs or run definition), which may replace its own tables.
 */
export interface TableWriter {
  /** The command, e.g. "run", "ingest human", "play". */
  command: string;
  /** What decides the tables besides the command (a run definition's fingerprint, the inputs' paths), as a hash. */
  key: string;
  /** How messages name it: `parley run /home/me/study.json`. */
  label: string;
  /** What `key` stands for, for "another …": "run definition", "input", "experiment". */
  what: string;
}

/** What <out>/tables.json says about the current set. */
export interface TableManifest {
  generation: string;
  written_at: string;
  /** Absent in sets written before writers were recorded, and in a data loader's scratch sets. */
  writer?: TableWriter;
  tables: Record<string, {file: string; rows: number}>;
}

/** Tables a writer may not replace; the message is one line naming the path and what to do. */
export class TablesInUse extends Error {}

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
  /** With depth 2: the name of the linked entry inside each partition folder (a shard's `shard=<i>`). */
  linkName?: string;
  /** Recorded in tables.json. */
  writer?: TableWriter;
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
  const tables = tablesDir(outDir, options);
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
      const manifest: TableManifest = {generation, written_at: new Date().toISOString(), ...(options.writer && {writer: options.writer}), tables: {}};
      for (const [name, n] of Object.entries(rows)) manifest.tables[name] = {file: name.includes("/") ? name : `${name}.parquet`, rows: n};
      // <out> links each top-level entry of the set (a table file, or a partition folder such as game=<id>).
      const top = (file: string) => file.split("/").slice(0, depth).join("/");
      const names = [...new Set(Object.values(manifest.tables).map((t) => top(t.file)))];
      if (depth === 1) names.push(MANIFEST);
      try {
        // Nothing but this directory's own links may stand where the set links: checked before the switch.
        const foreign = foreignEntry(outDir, options);
        if (foreign) throw new TablesInUse(foreign);
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

      for (const name of names) {
        const link = join(outDir, name);
        if (depth > 1) mkdirSync(dirname(link), {recursive: true});
        replaceWithSymlink(link, linkTarget(outDir, tables, name));
      }
      // Entries of the old set that the new one lacks: removed when they are still this directory's links, and only then.
      for (const t of Object.values(previousTables)) {
        const name = top(t.file);
        if (!names.includes(name) && isOwnLink(outDir, tables, name)) rmSync(join(outDir, name), {force: true});
      }
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

/** The manifest of the current set of `outDir` (or of the set kept in `state`), or null when none was written by a table set. */
export function currentManifest(outDir: string, options: TableSetOptions = {}): TableManifest | null {
  return readManifest(join(tablesDir(outDir, options), CURRENT));
}

/**
 * Checks, before any work, that `writer` may write its set into `outDir`:
 * every table entry there is a link this directory's sets made (see
 * foreignEntry), and the current set is `writer`'s own (the same key) or
 * there is none; another writer's set is refused unless `replace`. Throws
 * TablesInUse naming the directory, the writer found and what to do;
 * returns the writer whose tables will be replaced (null: none, or its own).
 */
export function claimTables(outDir: string, writer: TableWriter, options: TableSetOptions & {replace?: boolean} = {}): TableWriter | null {
  const foreign = foreignEntry(outDir, options);
  if (foreign) throw new TablesInUse(foreign);
  const current = currentManifest(outDir, options);
  if (!current || (current.writer?.command === writer.command && current.writer.key === writer.key)) return null;
  const found = current.writer ?? {command: "", key: "", label: "an earlier parley (no writer recorded)", what: ""};
  if (!options.replace) {
    const another = found.command === writer.command ? ` (another ${writer.what})` : "";
    throw new TablesInUse(`${outDir} holds the tables of ${found.label}${another}, written ${current.written_at}; use another --out, or --replace to replace them`);
  }
  return found;
}

/**
 * The first entry of `outDir` where a set would link, or that readers take
 * for tables, which is not a link of this directory's sets, described with
 * what to do; null when there is none. Entries: `game=<id>`,
 * `<name>.parquet` and `tables.json`, or for a set of depth 2 (a shard) each
 * `game=<id>/<linkName>`. A real folder or file there (shards' folders
 * copied together, tables of another tool or of an older layout) is never
 * replaced: only moved away by the user.
 */
export function foreignEntry(outDir: string, options: TableSetOptions = {}): string | null {
  const tables = tablesDir(outDir, options);
  const depth = options.depth ?? 1;
  const entries: string[] = [];
  for (const name of readdirSafe(outDir)) {
    const table = name.startsWith("game=") || name.endsWith(".parquet") || name === MANIFEST;
    if (!table) continue;
    if (depth > 1 && name.startsWith("game=") && isRealDirectory(join(outDir, name))) {
      if (options.linkName && exists(join(outDir, name, options.linkName))) entries.push(`${name}/${options.linkName}`);
    } else entries.push(name);
  }
  for (const name of entries.sort()) {
    if (isOwnLink(outDir, tables, name)) continue;
    const path = join(outDir, name);
    const how = `parley never replaces it: move it out of ${outDir}, or use another --out`;
    if (isRealDirectory(path)) {
      // A sharded run's partition folder holds its shards' links; copied shards are folders.
      const shards = readdirSafe(path).filter((n) => /^shard=\d+$/.test(n) && !isRealDirectory(join(path, n)));
      if (shards.length && depth === 1) return `${outDir} holds a run split into shards (${join(path, shards[0])} …); a writer of whole tables cannot write beside them: use another --out`;
      return `${path} is a folder that no parley writer of ${outDir} made (shards or tables copied in?); ${how}`;
    }
    let target: string | null = null;
    try {
      target = readlinkSync(path);
    } catch {
      // not a link
    }
    return target === null ? `${path} is a file that no parley writer of ${outDir} made; ${how}` : `${path} is a link to ${target}, which no parley writer of ${outDir} made; ${how}`;
  }
  return null;
}

/** Where a set's generations live: <state>/tables (default <out>/.parley/tables). */
function tablesDir(outDir: string, options: TableSetOptions): string {
  return join(options.state ?? join(outDir, ".parley"), "tables");
}

/** What the link of entry `name` (relative to <out>) points at: <tables>/current/<name>, relative to the link's folder. */
function linkTarget(outDir: string, tables: string, name: string): string {
  const link = join(outDir, name);
  return relative(dirname(link), join(tables, CURRENT, name));
}

/** Whether <out>/<name> is the link this directory's set in `tables` makes for it. */
function isOwnLink(outDir: string, tables: string, name: string): boolean {
  try {
    return readlinkSync(join(outDir, name)) === linkTarget(outDir, tables, name);
  } catch {
    return false;
  }
}

function isRealDirectory(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
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
 * Points `path` at `target` with one rename (an existing link at `path` is
 * replaced, atomically). Anything else there is refused: a writer replaces
 * only links (foreignEntry has checked those of <out> before the switch).
 */
function replaceWithSymlink(path: string, target: string): void {
  try {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink() && readlinkSync(path) === target) return;
    if (!stat.isSymbolicLink()) throw new TablesInUse(`${path} is a ${stat.isDirectory() ? "folder" : "file"}, not a link; parley never replaces it`);
  } catch (error) {
    if (error instanceof TablesInUse) throw error;
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
