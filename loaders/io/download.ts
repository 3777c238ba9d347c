/**
 * One published file brought into place, verified: from an http(s) URL (with
 * resume) or from a file in a local mirror.
 *
 * Bytes arrive in `<target>.part`. An interrupted transfer keeps the part,
 * and the next attempt (in this call, up to `attempts`, or in a later run)
 * asks only for the rest with an HTTP Range request; a server that ignores
 * Range sends everything again and the part starts over. Only when the
 * complete part has the expected size and sha256 is it renamed over the
 * target (atomic on one filesystem), so a target that exists is always a
 * verified file; a part that fails verification is deleted.
 *
 * What a hostile server or a shared folder cannot do:
 * - write anywhere but the part: a part is created exclusively (`wx`) and
 *   resumed only when it is a plain file with one link, opened without
 *   following links (O_NOFOLLOW) and checked to be the file that was looked
 *   at; a part that is a symbolic link is refused, and so is a target, or a
 *   folder on the way to it, that is a link out of `root` (the datasets folder);
 * - send more than the file: a Content-Length above the listed size is
 *   refused before anything is written, and a body that goes past it is cut
 *   there and discarded;
 * - make Parley hold the file in memory: it is hashed as it arrives (a
 *   resumed part is read once, in chunks);
 * - keep a transfer open forever: less than `minRate` bytes a second over
 *   any `stallMs` window (nothing at all included) cuts the connection (the
 *   next attempt resumes), and `deadlineMs` bounds each file, attempts included.
 */
import {createHash, type Hash} from "node:crypto";
import {closeSync, constants, createReadStream, fstatSync, lstatSync, mkdirSync, openSync, readlinkSync, realpathSync, renameSync, rmSync, statSync, writeSync, type Stats} from "node:fs";
import {dirname, isAbsolute, join, relative, resolve, sep} from "node:path";
import {get as httpGet, type ClientRequest, type IncomingMessage} from "node:http";
import {get as httpsGet} from "node:https";
import {tempPathFor} from "./atomic.js";
import {redactUrl} from "./printable.js";

export interface Expected {
  size: number;
  sha256: string;
  /** "lf": CRLF line ends are turned into LF before checking (the expected checksum is of the LF text). */
  newlines?: "lf";
}

/** A transfer that cannot succeed as asked; the message is one line meant for the user. */
export class DownloadError extends Error {
  constructor(
    message: string,
    /** True when the host cannot be reached at all, so trying its other files is pointless. */
    readonly unreachable = false,
  ) {
    super(message);
  }
}

/** The time and rate limits of a transfer (`parley datasets fetch --min-rate --stall --deadline`). */
export interface TransferLimits {
  /** Bytes a second a transfer must average over every `stallMs` window, or it is cut (and resumed by the next attempt). 0: only silence cuts. */
  minRate: number;
  /** The window of `minRate`, and how long a server may take to answer at all. */
  stallMs: number;
  /** Time allowed for one file, every attempt included. */
  deadlineMs: number;
}

export const DEFAULT_LIMITS: TransferLimits = {minRate: 4096, stallMs: 30_000, deadlineMs: 600_000};

export interface DownloadOptions extends Partial<TransferLimits> {
  /** Called with the bytes received so far for this file (a resumed part counts from its start). */
  onBytes?: (bytes: number) => void;
  /** Tries per file, each resuming where the last stopped (default 4). */
  attempts?: number;
  /** The folder the target belongs to (default its own folder): a link out of it, at the target or a folder on the way, is never written through. */
  root?: string;
}

const UNREACHABLE = new Set(["ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ENETUNREACH", "EHOSTUNREACH", "ENETDOWN"]);

export const isUrl = (source: string): boolean => /^https?:\/\//i.test(source);

export const partPath = (target: string): string => `${target}.part`;

const lstatOrNull = (path: string): Stats | null => {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ENOTDIR") return null;
    throw error;
  }
};

const inside = (path: string, realRoot: string): boolean => path === realRoot || path.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep);

/** Where the link at `path` leads (its real path, or for a dangling link the path it names). */
function linkDestination(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const to = readlinkSync(path);
    return isAbsolute(to) ? to : resolve(realpathSync(dirname(path)), to);
  }
}

/** Where `path` leads when it is a symbolic link out of `root`, else null. */
export function linkOutOf(root: string, path: string): string | null {
  const stat = lstatOrNull(path);
  if (!stat?.isSymbolicLink()) return null;
  const destination = linkDestination(path);
  return inside(destination, realpathSync(root)) ? null : destination;
}

/** Refuses a target below `root` whose own path or a folder on the way is a link out of `root`. */
function refuseLinksOut(root: string, target: string): void {
  const steps = relative(root, target).split(sep);
  let at = root;
  for (const [i, step] of steps.entries()) {
    at = join(at, step);
    if (!lstatOrNull(at)) return; // the rest does not exist yet: mkdir creates plain folders
    const out = linkOutOf(root, at);
    if (out) throw new DownloadError(`${relative(root, at)} is a link out of the datasets folder (to ${out}); ${i === steps.length - 1 ? "not touched" : "not written through"}`);
  }
}

/**
 * The sha256 and size of a file's checked bytes, fed as they come: with
 * `lf`, CRLF is turned into LF first (a CR at the end of one chunk waits for
 * the next), and `update` returns the bytes as checked.
 */
class Digest {
  private readonly hash: Hash = createHash("sha256");
  size = 0;
  private cr = false;

  constructor(private readonly lf: boolean) {}

  update(chunk: Buffer): Buffer {
    let out = chunk;
    if (this.lf) {
      let text = (this.cr ? "\r" : "") + chunk.toString("latin1");
      this.cr = text.endsWith("\r");
      if (this.cr) text = text.slice(0, -1);
      out = Buffer.from(text.replaceAll("\r\n", "\n"), "latin1");
    }
    this.hash.update(out);
    this.size += out.length;
    return out;
  }

  /** The checked bytes still held back (a final CR), once the input has ended. */
  end(): Buffer {
    const rest = this.cr ? Buffer.from("\r") : Buffer.alloc(0);
    this.cr = false;
    if (rest.length) this.update(rest);
    return rest;
  }

  digest(): string {
    return this.hash.digest("hex");
  }
}

/** The digest of the file at `path` (read in chunks, never whole), or null when it is not a regular file. */
async function digestFile(path: string, lf: boolean, maxBytes: number): Promise<Digest | null> {
  const stat = statSync(path, {throwIfNoEntry: false});
  if (!stat?.isFile() || stat.size > maxBytes) return null;
  const digest = new Digest(lf);
  for await (const chunk of createReadStream(path)) digest.update(chunk as Buffer);
  digest.end();
  return digest;
}

/** The largest raw size a file may have: its size, or twice it when CRLF line ends are turned into LF. */
const rawLimit = (expected: Expected): number => (expected.newlines === "lf" ? 2 * expected.size : expected.size);

/** Whether `path` already holds the expected file (read in chunks). */
export async function isVerified(path: string, expected: Expected): Promise<boolean> {
  const digest = await digestFile(path, expected.newlines === "lf", rawLimit(expected));
  return digest !== null && digest.size === expected.size && digest.digest() === expected.sha256;
}

/**
 * Brings `source` (an http(s) URL, or a path in a local mirror) to `target`,
 * verified against `expected`. Throws DownloadError with a one-line message
 * when it cannot: HTTP 404, a checksum mismatch or a body past the listed
 * size (the part is deleted), a link where a file or folder should be, a
 * host that cannot be reached (`unreachable`), a transfer cut more often than
 * `attempts` or not done by the deadline (the part is kept for the next run
 * to resume).
 */
export async function download(source: string, target: string, expected: Expected, options: DownloadOptions = {}): Promise<void> {
  const root = options.root ?? dirname(target);
  const part = partPath(target);
  const shown = (path: string) => relative(root, path) || path;
  try {
    refuseLinksOut(root, target);
    mkdirSync(dirname(target), {recursive: true});
    refuseLinksOut(root, target);
    const state = partState(part, shown(part));
    const checked = isUrl(source) ? await httpToPart(source, part, expected, options, state) : await copyToPart(source, part, expected, options, state);
    const lf = expected.newlines === "lf";
    if (!lf) {
      const sha256 = checked.digest();
      if (checked.size !== expected.size || sha256 !== expected.sha256) {
        rmSync(part, {force: true});
        throw new DownloadError(mismatch(source, checked.size, sha256, expected));
      }
      renameSync(part, target);
      return;
    }
    // Newlines are normalised: the checked text (streamed from the raw part) is what goes in place.
    await normaliseInto(source, part, target, expected);
  } catch (error) {
    if (error instanceof DownloadError) throw error;
    // A file-system failure (no space, no permission): one line, the part kept for the next run.
    if ((error as NodeJS.ErrnoException).code) throw new DownloadError((error as Error).message);
    throw error;
  }
}

function mismatch(source: string, size: number, sha256: string, expected: Expected): string {
  return size !== expected.size
    ? `${redactUrl(source)}: ${size} bytes where ${expected.size} were expected; the download was discarded`
    : `${redactUrl(source)}: sha256 ${sha256} where ${expected.sha256} was expected; the download was discarded`;
}

async function normaliseInto(source: string, part: string, target: string, expected: Expected): Promise<void> {
  const tmp = tempPathFor(target);
  const digest = new Digest(true);
  const fd = openSync(tmp, "wx");
  let open = true;
  try {
    const input = openSync(part, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    for await (const chunk of createReadStream("", {fd: input})) writeSync(fd, digest.update(chunk as Buffer));
    writeSync(fd, digest.end());
    closeSync(fd);
    open = false;
    const sha256 = digest.digest();
    if (digest.size !== expected.size || sha256 !== expected.sha256) {
      rmSync(part, {force: true});
      throw new DownloadError(mismatch(source, digest.size, sha256, expected));
    }
    renameSync(tmp, target);
    rmSync(part, {force: true});
  } catch (error) {
    if (open) closeSync(fd);
    rmSync(tmp, {force: true});
    throw error;
  }
}

/** What is known of the part: its size and, for a plain file, its identity (so that the file opened is the one looked at). */
interface PartState {
  path: string;
  shown: string;
  /** Bytes in the part and their digest (recomputed when the part changed under us). */
  digest: Digest | null;
}

/** Refuses a part that is a link, not a plain file, or a file with other names (a hard link planted to a file elsewhere). */
function partState(part: string, shown: string): PartState {
  const stat = lstatOrNull(part);
  if (stat?.isSymbolicLink()) throw new DownloadError(`${shown} is a symbolic link; not written through (remove it and run again)`);
  if (stat && !stat.isFile()) throw new DownloadError(`${shown} is not a file (remove it and run again)`);
  if (stat && stat.nlink > 1) throw new DownloadError(`${shown} has other names (hard links); not written through (remove it and run again)`);
  return {path: part, shown, digest: null};
}

const partSize = (part: string): number => lstatOrNull(part)?.size ?? 0;

/**
 * Opens the part to write: a fresh one exclusively (never through a link
 * or over a file that appeared meanwhile), an existing one for appending,
 * without following a link, and only when it is still the plain file with
 * one name that was looked at.
 */
function openPart(state: PartState, append: boolean): number {
  const {path, shown} = state;
  const before = lstatOrNull(path);
  if (before?.isSymbolicLink() || (before && (!before.isFile() || before.nlink > 1))) partState(path, shown);
  if (!append || !before) {
    if (before) rmSync(path);
    try {
      return openSync(path, "wx");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") throw new DownloadError(`${shown} appeared while it was being created; not written through (remove it and run again)`);
      throw error;
    }
  }
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOOP") partState(path, shown);
    throw error;
  }
  const opened = fstatSync(fd);
  if (opened.ino !== before.ino || opened.dev !== before.dev || opened.nlink > 1) {
    closeSync(fd);
    throw new DownloadError(`${shown} changed while it was being opened; not written through (remove it and run again)`);
  }
  return fd;
}

/** The digest of the part's current bytes: carried over from the last attempt, or read from the part in chunks. */
async function partDigest(state: PartState): Promise<Digest> {
  const size = partSize(state.path);
  if (state.digest && state.digest.size === size) return state.digest;
  const digest = new Digest(false);
  if (size > 0) {
    const fd = openSync(state.path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    for await (const chunk of createReadStream("", {fd})) digest.update(chunk as Buffer);
  }
  return digest;
}

/** Bytes to the part, with the size cap and the running digest (raw bytes for a file whose newlines are checked later). */
class PartWriter {
  bytes: number;

  constructor(
    private readonly fd: number,
    private readonly digest: Digest,
    start: number,
    private readonly limit: number,
    private readonly expected: Expected,
  ) {
    this.bytes = start;
  }

  /** Writes `chunk`, or throws (writing nothing) when it would take the part past the listed size. */
  write(chunk: Buffer): void {
    if (this.bytes + chunk.length > this.limit) {
      const what = this.expected.newlines === "lf" ? `${this.limit} bytes (twice the ${this.expected.size} expected, were every line end CRLF)` : `the ${this.expected.size} bytes expected`;
      throw new DownloadError(`more than ${what}; the download was discarded`);
    }
    writeSync(this.fd, chunk);
    this.digest.update(chunk);
    this.bytes += chunk.length;
  }
}

async function copyToPart(source: string, part: string, expected: Expected, options: DownloadOptions, state: PartState): Promise<Digest> {
  const stat = statSync(source, {throwIfNoEntry: false});
  if (!stat?.isFile()) throw new DownloadError(`${source}: not in the mirror directory`);
  const limit = rawLimit(expected);
  if (stat.size > limit) throw new DownloadError(`${source}: ${stat.size} bytes where ${expected.size} were expected; nothing was written`);
  // Raw bytes are digested as they are (newlines are checked when the part is normalised into place).
  const digest = new Digest(false);
  const fd = openPart(state, false);
  const writer = new PartWriter(fd, digest, 0, limit, expected);
  try {
    for await (const chunk of createReadStream(source)) {
      writer.write(chunk as Buffer);
      options.onBytes?.(writer.bytes);
    }
  } catch (error) {
    closeSync(fd);
    if (!(error instanceof DownloadError)) throw error;
    rmSync(part, {force: true});
    throw new DownloadError(`${source}: ${error.message}`);
  }
  closeSync(fd);
  return digest;
}

/** An attempt stopped by the file's deadline (not retried). */
class DeadlineReached extends Error {}

async function httpToPart(url: string, part: string, expected: Expected, options: DownloadOptions, state: PartState): Promise<Digest> {
  const attempts = options.attempts ?? 4;
  const limits: TransferLimits = {
    minRate: options.minRate ?? DEFAULT_LIMITS.minRate,
    stallMs: options.stallMs ?? DEFAULT_LIMITS.stallMs,
    deadlineMs: options.deadlineMs ?? DEFAULT_LIMITS.deadlineMs,
  };
  const deadline = Date.now() + limits.deadlineMs;
  const limit = rawLimit(expected);
  let last: Error | null = null;
  const late = () => {
    const kept = partSize(part) > 0 ? `; ${partSize(part)} bytes kept in ${part}, run again to resume` : "";
    return new DownloadError(`${redactUrl(url)}: not fetched within the deadline of ${limits.deadlineMs / 1000} s${last ? ` (${last.message})` : ""}${kept}`);
  };
  for (let attempt = 1; ; attempt++) {
    // A part longer than the file cannot be a prefix of it.
    if (partSize(part) > limit) rmSync(part, {force: true});
    if (!expected.newlines && partSize(part) === expected.size) return partDigest(state);
    try {
      return await fetchRest(url, part, expected, options, limits, deadline, state);
    } catch (error) {
      if (error instanceof DeadlineReached) throw late();
      const unreachable = UNREACHABLE.has((error as NodeJS.ErrnoException).code ?? "");
      if (error instanceof DownloadError || unreachable || attempt >= attempts) throw describe(url, error, part);
      last = error as Error;
      const pause = 250 * 2 ** attempt;
      if (Date.now() + pause >= deadline) throw late();
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

/**
 * Appends to the part what the server has beyond its current length (all of
 * it when the part is empty or the server ignores Range), and returns the
 * digest of the whole part (of its raw bytes when newlines are checked later).
 */
async function fetchRest(url: string, part: string, expected: Expected, options: DownloadOptions, limits: TransferLimits, deadline: number, state: PartState, redirects = 0): Promise<Digest> {
  const offset = partSize(part);
  const limit = rawLimit(expected);
  const {response, cancel} = await request(url, offset > 0 ? {Range: `bytes=${offset}-`} : {}, limits, deadline);
  try {
    const {statusCode = 0, headers} = response;
    if ([301, 302, 303, 307, 308].includes(statusCode) && headers.location && redirects < 5) {
      response.resume();
      cancel();
      return await fetchRest(new URL(headers.location, url).href, part, expected, options, limits, deadline, state, redirects + 1);
    }
    if (statusCode === 416) {
      // The part is not a prefix of what the server has now: start over.
      response.resume();
      rmSync(part, {force: true});
      throw new Error("HTTP 416, starting over");
    }
    if (statusCode !== 200 && statusCode !== 206) {
      response.resume();
      const retry = statusCode === 429 || statusCode >= 500;
      const message = `HTTP ${statusCode}${statusCode === 404 ? " (not found)" : ""}`;
      throw retry ? new Error(message) : new DownloadError(message);
    }
    const resumed = statusCode === 206 && new RegExp(`^bytes ${offset}-`).test(String(headers["content-range"] ?? ""));
    if (statusCode === 206 && !resumed) {
      response.resume();
      rmSync(part, {force: true});
      throw new Error(`unexpected Content-Range ${headers["content-range"]}, starting over`);
    }
    const start = resumed ? offset : 0;
    const announced = Number(headers["content-length"]);
    if (headers["content-length"] !== undefined && Number.isFinite(announced) && start + announced > limit) {
      response.destroy();
      throw new DownloadError(`the server announces ${start + announced} bytes where ${expected.size} were expected; nothing was written`);
    }
    // The digest continues over the part's bytes (raw ones: newlines are checked when the part is normalised).
    const digest = resumed ? await partDigest(state) : new Digest(false);
    state.digest = digest;
    options.onBytes?.(start);
    // Written synchronously as each chunk arrives, so every byte received before a cut is in the part
    // (a stream pipeline would drop its buffered writes when the response errors).
    const fd = openPart(state, resumed);
    const writer = new PartWriter(fd, digest, start, limit, expected);
    let window = 0;
    const perWindow = (limits.minRate * limits.stallMs) / 1000;
    const slow = setInterval(() => {
      if (window === 0) response.destroy(new Error(`no data for ${limits.stallMs / 1000} s`));
      else if (window < perWindow) response.destroy(new Error(`slower than ${limits.minRate} bytes/s for ${limits.stallMs / 1000} s`));
      window = 0;
    }, limits.stallMs);
    try {
      await new Promise<void>((resolve, reject) => {
        response.on("data", (chunk: Buffer) => {
          try {
            writer.write(chunk);
          } catch (error) {
            response.destroy();
            return reject(error);
          }
          window += chunk.length;
          options.onBytes?.(writer.bytes);
        });
        response.on("error", reject);
        response.on("close", () => (response.complete ? resolve() : reject(new Error("connection closed before the end of the file"))));
      });
    } catch (error) {
      // A body past the listed size is not the file: nothing of it is kept.
      if (error instanceof DownloadError) rmSync(part, {force: true});
      throw error;
    } finally {
      clearInterval(slow);
      closeSync(fd);
    }
    return digest;
  } finally {
    cancel();
  }
}

/**
 * A GET whose response (headers) must come within the stall window, and
 * which the file's deadline destroys whenever it comes: `cancel` clears the
 * deadline's timer once the caller is done with the response.
 */
function request(url: string, headers: Record<string, string>, limits: TransferLimits, deadline: number): Promise<{response: IncomingMessage; cancel: () => void}> {
  return new Promise((resolve, reject) => {
    const get = url.startsWith("https:") ? httpsGet : httpGet;
    let response: IncomingMessage | null = null;
    const req: ClientRequest = get(url, {headers: {"user-agent": "parley-datasets-fetch", ...headers}}, (res) => {
      response = res;
      // From here the stall window of the body applies (fetchRest), not the wait for an answer.
      req.setTimeout(0);
      resolve({response: res, cancel: () => clearTimeout(timer)});
    });
    const timer = setTimeout(() => {
      const error = new DeadlineReached("deadline");
      if (response) response.destroy(error);
      else req.destroy(error);
    }, Math.max(0, deadline - Date.now()));
    req.setTimeout(limits.stallMs, () => req.destroy(new Error(`no answer for ${limits.stallMs / 1000} s`)));
    req.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** The one line a failed transfer reports (credentials in the URL left out). */
function describe(url: string, error: unknown, part: string): DownloadError {
  const shown = redactUrl(url);
  if (error instanceof DownloadError) return new DownloadError(`${shown}: ${error.message}`, error.unreachable);
  const code = (error as NodeJS.ErrnoException).code;
  if (code && UNREACHABLE.has(code)) {
    const host = new URL(url).host;
    return new DownloadError(`cannot reach ${host} (${code}): no network? (or fetch from a mirror with --mirror <url or dir>)`, true);
  }
  const kept = partSize(part) > 0 ? `; ${partSize(part)} bytes kept in ${part}, run again to resume` : "";
  return new DownloadError(`${shown}: ${(error as Error).message ?? String(error)}${kept}`);
}
