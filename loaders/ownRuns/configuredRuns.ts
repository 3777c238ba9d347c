/**
 * A researcher's own runs as configuration: `"runs"` in parley.config.json
 * (or the file PARLEY_CONFIG names) lists directories written by `parley run`
 * or `parley ingest`, relative to the config file, so that the site shows
 * them beside the built-in datasets with no code.
 *
 *   {"datasets": "../shared/datasets",
 *    "runs": ["runs/mini", "runs/sweep-*", {"path": "runs/big", "name": "GPT vs Claude", "description": "..."}]}
 *
 * An entry is a path string or {path, name?, description?}; `*`, `?` and
 * `[...]` in a path segment are globs (matching directories only), unless
 * the path exists as written: a folder named `run[1]` is that folder, not
 * `run1` (`parley runs add` writes such a name as `run[[]1]`, a glob
 * matching only it). A run's
 * name defaults to its directory's name; its `slug` (lower-case letters,
 * digits, `-`) names its files in the site (src/data/runs/[run].tar.ts).
 *
 * API (for the site build, `parley runs` and `parley report`):
 * - `readRuns(env)`: the configured runs and, apart, every entry that could
 *   not be used (bad shape, no such directory, not a run) as a RunProblem;
 *   never throws for an entry, so a build skips a bad run and reports it
 *   (`formatRunProblem`), only an unreadable config file throws.
 * - `addRun(dir, options, env)`: adds or updates one entry, writing the file
 *   atomically and keeping its other keys.
 * - `runDirectoryProblem(dir)`: why a directory is not a usable run, or null.
 * loaders/ownRuns/describe.ts says what a run holds (games, agents, manifest, whether it is still going).
 */
import {existsSync, readdirSync, statSync} from "node:fs";
import {basename, dirname, isAbsolute, join, relative, resolve, sep} from "node:path";
import {configFilePath, readConfigFile} from "../projectConfig.js";
import {writeFileAtomic} from "../io/atomic.js";
import {isRunDirectory} from "../io/runTables.js";
import {keyNames, type ConfigKey} from "../io/configKeys.js";

export interface RunEntry {
  /** Shown in dataset selectors. */
  name: string;
  /** Names the run's files in the site: unique, [a-z0-9-]. */
  slug: string;
  description: string | null;
  /** Absolute directory. */
  dir: string;
  /** The directory as the config writes it (relative to the config file): what the site may show. */
  path: string;
  /** Index of the entry in "runs". */
  index: number;
}

export interface RunProblem {
  /** Index of the entry in "runs" (null: the key itself). */
  index: number | null;
  /** The entry's path as written, when it has one. */
  path: string | null;
  message: string;
}

export interface RunsConfig {
  configPath: string;
  runs: RunEntry[];
  problems: RunProblem[];
}

const ENTRY_SHAPE = 'a directory path string or {"path": "...", "name": "...", "description": "..."}';
/** The keys of an entry of "runs" given as an object: the table readRuns checks entries against and the site's Reference prints. */
export const RUN_ENTRY_KEYS: readonly ConfigKey[] = [
  {key: "path", type: "a non-empty directory path, relative to the config file; *, ? and [...] in a segment are globs matching directories, unless the path exists as written", default: "required", meaning: "the run's directory, written by parley run or parley ingest"},
  {key: "name", type: "a non-empty string, unique among the runs", default: "the directory's name", meaning: "the run's name in dataset selectors (a glob matching several directories names each by its directory)"},
  {key: "description", type: "a string", default: "none", meaning: "shown with the run"},
];
const ENTRY_KEYS = new Set(keyNames(RUN_ENTRY_KEYS));
/** `"path", "name" and "description"`. */
const ENTRY_KEY_LIST = ((names: string[]) => `${names.slice(0, -1).map((n) => JSON.stringify(n)).join(", ")} and ${JSON.stringify(names.at(-1))}`)(keyNames(RUN_ENTRY_KEYS));

/** One line naming the config file and the entry: `parley.config.json: runs[2] "runs/x": directory not found`. */
export function formatRunProblem(problem: RunProblem, file: string): string {
  const where = problem.index === null ? '"runs"' : `runs[${problem.index}]${problem.path === null ? "" : ` ${JSON.stringify(problem.path)}`}`;
  return `${file}: ${where}: ${problem.message}`;
}

const hasGlob = (segment: string) => /[*?[]/.test(segment);

/** A literal path written as a glob that matches only it: `*`, `?` and `[` each as a class of one (`[*]`, `[?]`, `[[]`). */
export const escapeGlob = (path: string): string => path.replace(/[*?[]/g, "[$&]");

/** Whether an entry's path is a glob: it has *, ? or [ and is not itself an existing path (which is taken literally). */
const isGlob = (base: string, path: string): boolean => path.split(/[\\/]/).some(hasGlob) && !existsSync(resolve(base, path));

function globSegment(pattern: string): RegExp {
  let re = "^";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else if (c === "[") {
      const end = pattern.indexOf("]", i + 1);
      if (end < 0) re += "\\[";
      else {
        const body = pattern.slice(i + 1, end).replace(/\\/g, "\\\\");
        re += `[${body.startsWith("!") ? `^${body.slice(1)}` : body}]`;
        i = end;
      }
    } else re += c.replace(/[.+^${}()|\\]/g, "\\$&");
  }
  return new RegExp(`${re}$`);
}

const isDirectory = (path: string) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** Directories matching `pattern` (relative to `base`; globs in any segment, hidden names only when the segment starts with "."), sorted. */
export function expandRunGlob(base: string, pattern: string): string[] {
  const absolute = resolve(base, pattern);
  const root = absolute.startsWith(sep) ? sep : absolute.slice(0, absolute.indexOf(sep) + 1);
  let found = [root];
  for (const segment of absolute.slice(root.length).split(sep).filter(Boolean)) {
    if (!hasGlob(segment)) {
      found = found.map((d) => join(d, segment));
      continue;
    }
    const re = globSegment(segment);
    found = found.flatMap((d) => {
      let names: string[];
      try {
        names = readdirSync(d);
      } catch {
        return [];
      }
      return names
        .filter((n) => re.test(n) && (segment.startsWith(".") || !n.startsWith(".")))
        .sort()
        .map((n) => join(d, n));
    });
  }
  return found.filter(isDirectory);
}

/** Why `dir` is not a usable run directory (one phrase), or null. */
export function runDirectoryProblem(dir: string): string | null {
  let stats;
  try {
    stats = statSync(dir);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? "directory not found" : `cannot be read (${(error as Error).message})`;
  }
  if (!stats.isDirectory()) return "is a file, expected a directory written by parley run or parley ingest";
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    return `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
  // A run still playing has its state (and checkpoints) before any table.
  if (names.includes(".parley") || names.some((n) => n.startsWith("manifest"))) return null;
  try {
    if (isRunDirectory(dir)) return null;
  } catch (error) {
    return (error as Error).message;
  }
  return "not a run directory (no game=<id>/ tables, games.parquet or manifest.json; write one with parley run or parley ingest)";
}

/** A slug for file names: lower case, [a-z0-9-], never empty. */
export function runSlug(name: string): string {
  return name.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60) || "run";
}

/** The configured runs (resolved, globs expanded) and the entries that could not be used. */
export function readRuns(env: NodeJS.ProcessEnv = process.env): RunsConfig {
  const {path: configPath, config} = readConfigFile(env);
  const result: RunsConfig = {configPath, runs: [], problems: []};
  if (!config || config.runs === undefined) return result;
  if (!Array.isArray(config.runs)) {
    result.problems.push({index: null, path: null, message: `expected a list of run entries (each ${ENTRY_SHAPE})`});
    return result;
  }
  const base = dirname(configPath);
  const slugs = new Set<string>();
  const names = new Set<string>();
  const dirs = new Set<string>();
  config.runs.forEach((raw: unknown, index: number) => {
    const entry = typeof raw === "string" ? {path: raw} : raw;
    const bad = (message: string, path: string | null = null) => result.problems.push({index, path, message});
    if (entry === null || typeof entry !== "object" || Array.isArray(entry)) return bad(`expected ${ENTRY_SHAPE}; got ${JSON.stringify(raw)}`);
    const {path, name, description} = entry as Record<string, unknown>;
    const unknown = Object.keys(entry).filter((k) => !ENTRY_KEYS.has(k));
    if (typeof path !== "string" || !path) return bad(`"path" must be a non-empty directory path string; got ${JSON.stringify(path ?? null)}`);
    if (unknown.length) return bad(`unknown key${unknown.length > 1 ? "s" : ""} ${unknown.map((k) => JSON.stringify(k)).join(", ")} (an entry has ${ENTRY_KEY_LIST})`, path);
    if (name !== undefined && (typeof name !== "string" || !name.trim())) return bad(`"name" must be a non-empty string; got ${JSON.stringify(name)}`, path);
    if (description !== undefined && typeof description !== "string") return bad(`"description" must be a string; got ${JSON.stringify(description)}`, path);
    const globbed = isGlob(base, path);
    const matches = globbed ? expandRunGlob(base, path) : [resolve(base, path)];
    if (!matches.length) return bad("no directory matches", path);
    for (const dir of matches) {
      const shown = globbed ? relative(base, dir).split(sep).join("/") : path;
      const problem = runDirectoryProblem(dir);
      if (problem) {
        bad(problem, shown);
        continue;
      }
      if (dirs.has(dir)) continue; // listed twice (e.g. by a glob and by name): shown once
      // A name given to a glob names the one directory it matches; with several, each is named by its directory.
      const label = (typeof name === "string" && (!globbed || matches.length === 1) ? name.trim() : basename(dir)) || shown;
      if (names.has(label)) {
        bad(`a run named ${JSON.stringify(label)} is listed already; give this one another "name"`, shown);
        continue;
      }
      let slug = runSlug(label);
      for (let i = 2; slugs.has(slug); i++) slug = `${runSlug(label)}-${i}`;
      dirs.add(dir);
      names.add(label);
      slugs.add(slug);
      result.runs.push({name: label, slug, description: typeof description === "string" && description ? description : null, dir, path: shown, index});
    }
  });
  return result;
}

export interface AddRunOptions {
  name?: string;
  description?: string;
}

/** Thrown for a run that cannot be added; the message is one line naming the config file or directory. */
export class RunConfigError extends Error {}

/**
 * Adds `dir` to "runs" (relative to the config file), or updates the entry
 * that already names it; writes the file atomically, keeping every other
 * key. Returns the entry as written and whether it was new.
 */
export async function addRun(dir: string, options: AddRunOptions = {}, env: NodeJS.ProcessEnv = process.env): Promise<{configPath: string; entry: string | Record<string, string>; added: boolean}> {
  const configPath = configFilePath(env);
  let config: Record<string, unknown>;
  try {
    config = readConfigFile(env).config ?? {};
  } catch (error) {
    throw new RunConfigError((error as Error).message);
  }
  const runs = config.runs ?? [];
  if (!Array.isArray(runs)) throw new RunConfigError(formatRunProblem({index: null, path: null, message: `expected a list of run entries (each ${ENTRY_SHAPE}); fix it before adding one`}, configPath));
  const base = dirname(configPath);
  const target = resolve(dir);
  // A directory that exists is taken literally, glob characters in its name and all ("runs/run[1]").
  const globbed = isGlob(process.cwd(), dir);
  if (!globbed) {
    const problem = runDirectoryProblem(target);
    if (problem) throw new RunConfigError(`${dir}: ${problem}`);
  } else if (!expandRunGlob(process.cwd(), dir).length) throw new RunConfigError(`${dir}: no directory matches`);
  const written = relative(base, target).split(sep).join("/") || ".";
  // Written so that readRuns matches this directory only, even once another one fits its name as a glob.
  const path = globbed ? (isAbsolute(written) ? target : written) : escapeGlob(isAbsolute(written) ? target : written);
  const name = options.name?.trim();
  if (options.name !== undefined && !name) throw new RunConfigError("--name must not be empty");
  const entryPath = (e: unknown) => (typeof e === "string" ? e : e && typeof e === "object" ? (e as {path?: unknown}).path : undefined);
  const at = runs.findIndex((e: unknown) => typeof entryPath(e) === "string" && resolve(base, entryPath(e) as string) === resolve(base, path));
  const previous = at >= 0 && typeof runs[at] === "object" ? (runs[at] as Record<string, string>) : {};
  if (name) {
    const clash = runs.findIndex((e: unknown, i: number) => i !== at && e && typeof e === "object" && (e as {name?: unknown}).name === name);
    if (clash >= 0) throw new RunConfigError(formatRunProblem({index: clash, path: String(entryPath(runs[clash])), message: `already has the name ${JSON.stringify(name)}; choose another --name`}, configPath));
  }
  const merged: Record<string, string> = {path, ...(name ?? previous.name ? {name: name ?? previous.name} : {}), ...(options.description ?? previous.description ? {description: options.description ?? previous.description} : {})};
  const entry = Object.keys(merged).length === 1 ? path : merged;
  const next = [...runs];
  if (at >= 0) next[at] = entry;
  else next.push(entry);
  await writeFileAtomic(configPath, JSON.stringify({...config, runs: next}, null, 2) + "\n");
  return {configPath, entry, added: at < 0};
}
