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
 */
import {createHash} from "node:crypto";
import {closeSync, createReadStream, createWriteStream, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync} from "node:fs";
import {dirname} from "node:path";
import {get as httpGet, type IncomingMessage} from "node:http";
import {get as httpsGet} from "node:https";
import {pipeline} from "node:stream/promises";
import {Transform} from "node:stream";
import {writeFileAtomic} from "./atomic.js";

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

export interface DownloadOptions {
  /** Called with the bytes received so far for this file (a resumed part counts from its start). */
  onBytes?: (bytes: number) => void;
  /** Tries per file, each resuming where the last stopped (default 4). */
  attempts?: number;
  /** Milliseconds without data after which a connection counts as cut (default 30 s). */
  idleMs?: number;
}

const UNREACHABLE = new Set(["ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ENETUNREACH", "EHOSTUNREACH", "ENETDOWN"]);

export const isUrl = (source: string): boolean => /^https?:\/\//i.test(source);

export const partPath = (target: string): string => `${target}.part`;

const sizeOf = (path: string): number => (existsSync(path) ? statSync(path).size : 0);

/** Whether `path` already holds the expected file. */
export function isVerified(path: string, expected: Expected): boolean {
  if (!existsSync(path) || !statSync(path).isFile()) return false;
  if (!expected.newlines && statSync(path).size !== expected.size) return false;
  return verify(readFileSync(path), expected).ok;
}

function verify(raw: Buffer, expected: Expected): {ok: boolean; data: Buffer; sha256: string} {
  const data = expected.newlines === "lf" ? Buffer.from(raw.toString("latin1").replaceAll("\r\n", "\n"), "latin1") : raw;
  const sha256 = createHash("sha256").update(data).digest("hex");
  return {ok: data.length === expected.size && sha256 === expected.sha256, data, sha256};
}

/**
 * Brings `source` (an http(s) URL, or a path in a local mirror) to `target`,
 * verified against `expected`. Throws DownloadError with a one-line message
 * when it cannot: HTTP 404, a checksum mismatch (the part is deleted), a host
 * that cannot be reached (`unreachable`), or a transfer cut more often than
 * `attempts` (the part is kept for the next run to resume).
 */
export async function download(source: string, target: string, expected: Expected, options: DownloadOptions = {}): Promise<void> {
  const part = partPath(target);
  mkdirSync(dirname(target), {recursive: true});
  if (isUrl(source)) await httpToPart(source, part, expected, options);
  else await copyToPart(source, part, options);
  const raw = readFileSync(part);
  const checked = verify(raw, expected);
  if (!checked.ok) {
    rmSync(part, {force: true});
    throw new DownloadError(
      checked.data.length !== expected.size
        ? `${source}: ${checked.data.length} bytes where ${expected.size} were expected; the download was discarded`
        : `${source}: sha256 ${checked.sha256} where ${expected.sha256} was expected; the download was discarded`,
    );
  }
  if (checked.data === raw) renameSync(part, target);
  else {
    // Newlines were normalised: the checked text is what goes in place.
    await writeFileAtomic(target, checked.data);
    rmSync(part, {force: true});
  }
}

async function copyToPart(source: string, part: string, {onBytes}: DownloadOptions): Promise<void> {
  if (!existsSync(source) || !statSync(source).isFile()) throw new DownloadError(`${source}: not in the mirror directory`);
  let bytes = 0;
  await pipeline(createReadStream(source), counter((n) => onBytes?.((bytes += n))), createWriteStream(part));
}

function counter(onChunk: (n: number) => void): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      onChunk(chunk.length);
      done(null, chunk);
    },
  });
}

async function httpToPart(url: string, part: string, expected: Expected, options: DownloadOptions): Promise<void> {
  const attempts = options.attempts ?? 4;
  for (let attempt = 1; ; attempt++) {
    // A part longer than the file cannot be a prefix of it (newline-normalised files have no known raw size).
    if (!expected.newlines && sizeOf(part) > expected.size) rmSync(part, {force: true});
    if (!expected.newlines && sizeOf(part) === expected.size) return;
    try {
      await fetchRest(url, part, options);
      return;
    } catch (error) {
      const unreachable = UNREACHABLE.has((error as NodeJS.ErrnoException).code ?? "");
      if (error instanceof DownloadError || unreachable || attempt >= attempts) throw describe(url, error, part);
      await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt));
    }
  }
}

/** Appends to `part` what the server has beyond its current length (all of it when the part is empty or the server ignores Range). */
async function fetchRest(url: string, part: string, options: DownloadOptions, redirects = 0): Promise<void> {
  const offset = sizeOf(part);
  const response = await request(url, offset > 0 ? {Range: `bytes=${offset}-`} : {}, options.idleMs ?? 30_000);
  const {statusCode = 0, headers} = response;
  if ([301, 302, 303, 307, 308].includes(statusCode) && headers.location && redirects < 5) {
    response.resume();
    return fetchRest(new URL(headers.location, url).href, part, options, redirects + 1);
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
  let bytes = resumed ? offset : 0;
  options.onBytes?.(bytes);
  // Written synchronously as each chunk arrives, so every byte received before a cut is in the part
  // (a stream pipeline would drop its buffered writes when the response errors).
  const fd = openSync(part, resumed ? "a" : "w");
  try {
    await new Promise<void>((resolve, reject) => {
      response.on("data", (chunk: Buffer) => {
        writeSync(fd, chunk);
        options.onBytes?.((bytes += chunk.length));
      });
      response.on("error", reject);
      response.on("close", () => (response.complete ? resolve() : reject(new Error("connection closed before the end of the file"))));
    });
  } finally {
    closeSync(fd);
  }
}

function request(url: string, headers: Record<string, string>, idleMs: number): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const get = url.startsWith("https:") ? httpsGet : httpGet;
    const req = get(url, {headers: {"user-agent": "parley-datasets-fetch", ...headers}}, (response) => {
      response.setTimeout(idleMs, () => response.destroy(new Error(`no data for ${idleMs / 1000} s`)));
      resolve(response);
    });
    req.setTimeout(idleMs, () => req.destroy(new Error(`no answer for ${idleMs / 1000} s`)));
    req.on("error", reject);
  });
}

/** The one line a failed transfer reports. */
function describe(url: string, error: unknown, part: string): DownloadError {
  if (error instanceof DownloadError) return new DownloadError(`${url}: ${error.message}`, error.unreachable);
  const code = (error as NodeJS.ErrnoException).code;
  if (code && UNREACHABLE.has(code)) {
    const host = new URL(url).host;
    return new DownloadError(`cannot reach ${host} (${code}): no network? (or fetch from a mirror with --mirror <url or dir>)`, true);
  }
  const kept = sizeOf(part) > 0 ? `; ${sizeOf(part)} bytes kept in ${part}, run again to resume` : "";
  return new DownloadError(`${url}: ${(error as Error).message ?? String(error)}${kept}`);
}
