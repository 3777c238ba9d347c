/**
 * Where each public dataset of the catalog is published, and fetching it.
 *
 * A catalog entry's `source` names a JSON file under data/sources/ listing
 * every file of the dataset: its path inside the datasets directory, the
 * URL its authors publish it at (pinned to a commit), its size and sha256.
 * A mirror (`--mirror`) holds the same files at the same paths as a
 * datasets directory, so a mirror URL or directory replaces every file's
 * URL by `<mirror>/<path>`; a datasets directory is itself a mirror.
 */
import {existsSync, lstatSync, readdirSync, readFileSync, rmdirSync, statSync} from "node:fs";
import {dirname, isAbsolute, join, resolve, sep} from "node:path";
import {projectRoot} from "../projectConfig.js";
import {UsageError} from "../io/usageError.js";
import {JsonInputError, parseJsonStrict} from "../io/configJson.js";
import {download, DownloadError, isUrl, isVerified, linkOutOf, type Expected, type TransferLimits} from "../io/download.js";

export interface SourceFile extends Expected {
  /** Path inside the datasets directory, e.g. "dealornodeal/val.txt". */
  path: string;
  url: string;
}

export interface DatasetSource {
  dataset: string;
  title: string;
  repository: string;
  commit: string | null;
  license: string;
  /** How the sizes and checksums were obtained (and what could not be checked). */
  checked: string;
  newlines?: "lf";
  files: SourceFile[];
}

/** Reads and checks data/sources/<file>; errors name the file and the key. */
export function readSource(file: string): DatasetSource {
  const path = resolve(projectRoot, file);
  let raw: Record<string, unknown>;
  try {
    raw = parseJsonStrict(readFileSync(path, "utf8")) as Record<string, unknown>;
  } catch (error) {
    throw new UsageError(`${file}: ${error instanceof JsonInputError ? error.message : `not readable (${(error as Error).message})`}`);
  }
  const bad = (key: string, expected: string) => new UsageError(`${file}: ${key}: expected ${expected}`);
  if (!Array.isArray(raw?.files)) throw bad("files", "a list of {path, url, size, sha256}");
  const files = raw.files.map((f: Record<string, unknown>, i: number): SourceFile => {
    const key = `files[${i}]`;
    if (typeof f?.path !== "string" || !f.path || isAbsolute(f.path) || f.path.split(/[\\/]/).some((s) => s === ".." || s === "")) throw bad(`${key}.path`, "a relative path without '..'");
    if (typeof f.url !== "string" || !isUrl(f.url)) throw bad(`${key}.url`, "an http(s) URL");
    if (!Number.isSafeInteger(f.size) || (f.size as number) < 0) throw bad(`${key}.size`, "a byte count");
    if (typeof f.sha256 !== "string" || !/^[0-9a-f]{64}$/.test(f.sha256)) throw bad(`${key}.sha256`, "64 hex digits");
    return {path: f.path, url: f.url, size: f.size as number, sha256: f.sha256, ...(raw.newlines === "lf" ? {newlines: "lf" as const} : {})};
  });
  return {...(raw as unknown as DatasetSource), files};
}

/** Where one file comes from: its published URL, or the same path in a mirror (URL or directory). */
export function fileOrigin(file: SourceFile, mirror?: string): string {
  if (!mirror) return file.url;
  if (isUrl(mirror)) return new URL(file.path.split("/").map(encodeURIComponent).join("/"), mirror.endsWith("/") ? mirror : `${mirror}/`).href;
  return join(mirror, file.path);
}

export interface FetchSummary {
  id: string;
  files: number;
  /** Already in place and verified, so not transferred. */
  present: number;
  fetched: number;
  failed: number;
  bytes: number;
}

export interface FetchOptions {
  mirror?: string;
  /** Files transferred at once. */
  concurrency?: number;
  /** Progress lines; `final` marks the dataset's last one. */
  progress?: (line: string, final: boolean) => void;
  /** One line per file that could not be fetched. */
  problem?: (line: string) => void;
  /** Minimum rate, stall window and deadline per file (io/download.ts DEFAULT_LIMITS when absent). */
  limits?: Partial<TransferLimits>;
}

/**
 * Fetches every file of `source` into `datasetsDir` that is not already
 * there and verified. A file that exists but differs from the published one
 * is left alone and reported (it may be the user's). Throws DownloadError
 * at once when the origin's host cannot be reached at all.
 */
export async function fetchSource(id: string, source: DatasetSource, datasetsDir: string, options: FetchOptions = {}): Promise<FetchSummary> {
  const summary: FetchSummary = {id, files: source.files.length, present: 0, fetched: 0, failed: 0, bytes: 0};
  const total = source.files.reduce((n, f) => n + f.size, 0);
  const inFlight = new Map<string, number>();
  let done = 0;
  const report = (final = false) => {
    const bytes = summary.bytes + [...inFlight.values()].reduce((a, b) => a + b, 0);
    options.progress?.(`fetch ${id}: ${done}/${source.files.length} files, ${megabytes(bytes)} of ${megabytes(total)} MB${summary.present ? ` (${summary.present} already present)` : ""}${summary.failed ? `, ${summary.failed} failed` : ""}`, final);
  };
  const queue = [...source.files];
  let unreachable: DownloadError | null = null;
  const worker = async () => {
    for (let file = queue.shift(); file && !unreachable; file = queue.shift()) {
      const target = join(datasetsDir, file.path);
      let linkedOut: string | null;
      let verified: boolean;
      try {
        // A file that is a link out of the datasets folder may be read (it may hold the published file), never replaced.
        linkedOut = linkOutOf(datasetsDir, target);
        verified = await isVerified(target, file);
      } catch (error) {
        // The file or a folder on its way cannot be read (no permission, a loop of links): one line, the other files go on.
        if (!(error as NodeJS.ErrnoException).code) throw error;
        summary.failed++;
        options.problem?.(`${id}: ${file.path}: ${(error as Error).message}`);
        done++;
        report();
        continue;
      }
      if (verified) {
        summary.present++;
        summary.bytes += file.size;
      } else if (linkedOut) {
        summary.failed++;
        options.problem?.(`${id}: ${file.path} is a link out of the datasets folder (to ${linkedOut}); not touched`);
      } else if (existsSync(target)) {
        summary.failed++;
        const size = statSync(target, {throwIfNoEntry: false})?.size;
        options.problem?.(`${id}: ${file.path} exists and differs from the published file (size ${size ?? "unknown"}, expected ${file.size}); delete it to fetch it again`);
      } else {
        try {
          await download(fileOrigin(file, options.mirror), target, file, {...options.limits, root: datasetsDir, onBytes: (n) => (inFlight.set(file.path, n), report())});
          summary.fetched++;
          summary.bytes += file.size;
        } catch (error) {
          if (!(error instanceof DownloadError)) throw error;
          if (error.unreachable) unreachable = error;
          else {
            summary.failed++;
            options.problem?.(`${id}: ${file.path}: ${error.message}`);
          }
        } finally {
          inFlight.delete(file.path);
        }
      }
      done++;
      if (!unreachable) report();
    }
  };
  await Promise.all(Array.from({length: Math.max(1, options.concurrency ?? 6)}, worker));
  // Folders made for files that never arrived would make an absent dataset look present.
  for (const file of source.files) removeEmptyParents(join(datasetsDir, file.path), datasetsDir);
  if (unreachable) throw unreachable;
  report(true);
  return summary;
}

function removeEmptyParents(path: string, top: string): void {
  // lstat: a folder that is a link (refused by download) is not ours to remove, nor is what it points to.
  const emptyFolder = (dir: string) => lstatSync(dir, {throwIfNoEntry: false})?.isDirectory() && !readdirSync(dir).length;
  for (let dir = dirname(path); dir.startsWith(top + sep) && emptyFolder(dir); dir = dirname(dir)) rmdirSync(dir);
}

const megabytes = (bytes: number): string => (bytes / 1e6).toFixed(1);
