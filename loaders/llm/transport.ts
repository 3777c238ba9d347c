/**
 * What happened on the wire during one attempt, whichever SDK made it.
 *
 * The three SDKs report failures differently (OpenAI and Anthropic throw
 * APIError with headers, @google/genai throws ApiError with a status only,
 * network failures surface as TypeError or APIConnectionError). Each client
 * is given `recordingFetch`, which notes the status, the Retry-After header
 * and network failures of the attempt in progress (tracked with
 * AsyncLocalStorage, so concurrent calls do not mix). `classifyFailure` then
 * decides from that record, not from SDK-specific error classes, whether and
 * when to retry — one policy for every provider.
 */
import {AsyncLocalStorage} from "node:async_hooks";
import type {FailureKind} from "./types.js";
import {redactSecrets} from "./secrets.js";
import {defaultMaxResponseBytes, httpFetch, ResponseTooLarge} from "./httpFetch.js";

export interface AttemptRecord {
  /** HTTP status of the last response seen in this attempt. */
  status: number | null;
  /** Delay the server asked for (Retry-After or retry-after-ms), in ms. */
  retryAfterMs: number | null;
  /** fetch itself rejected (refused, reset, dropped) for a reason other than our abort. */
  networkError: boolean;
  /** Our own per-attempt timer fired. */
  timedOut: boolean;
  /** The largest reply body this attempt reads (the player's max_response_bytes). */
  maxResponseBytes: number;
  /** The reply passed `maxResponseBytes` and the connection was closed. */
  tooLarge: boolean;
}

const current = new AsyncLocalStorage<AttemptRecord>();

export function newAttempt(maxResponseBytes = defaultMaxResponseBytes): AttemptRecord {
  return {status: null, retryAfterMs: null, networkError: false, timedOut: false, maxResponseBytes, tooLarge: false};
}

/** Runs `fn` with `record` as the attempt that `recordingFetch` writes to. */
export function withAttempt<T>(record: AttemptRecord, fn: () => Promise<T>): Promise<T> {
  return current.run(record, fn);
}

/** A fetch for the SDKs' `fetch` option: httpFetch.ts with the attempt's size cap, plus bookkeeping in the current attempt. */
export const recordingFetch: typeof fetch = async (input, init) => {
  const record = current.getStore();
  try {
    const response = await httpFetch(input, init, record?.maxResponseBytes);
    if (record) {
      record.status = response.status;
      record.retryAfterMs = parseRetryAfter(response.headers);
    }
    return response;
  } catch (error) {
    if (record && error instanceof ResponseTooLarge) record.tooLarge = true;
    else if (record && !init?.signal?.aborted) record.networkError = true;
    throw error;
  }
};

/**
 * Milliseconds to wait according to `retry-after-ms` (OpenAI) or
 * `Retry-After` (seconds or an HTTP date); null when absent or unparsable.
 * The result is what the server asked, however long: complete.ts caps it
 * (max_retry_wait_ms). A date must look like one (it starts with a day
 * name, as all three HTTP-date forms do), because Date.parse also accepts
 * strings such as "-1" or "7" (read as years) and would turn garbage into
 * "retry at once".
 */
export function parseRetryAfter(headers: Headers, now = Date.now()): number | null {
  const ms = headers.get("retry-after-ms");
  if (ms !== null && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Number(ms);
  const value = headers.get("retry-after");
  if (value === null) return null;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Number(value) * 1000;
  if (!/^\s*(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? /i.test(value)) return null;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/**
 * A text field of a 2xx reply body (the answer, a thinking block): the
 * string, or "" when the field is absent or null. Anything else (an array,
 * an object nested thousands deep) is not the protocol's reply: thrown, so
 * that the attempt is a bad_response and retried, never joined or walked.
 */
export function bodyText(value: unknown, field: string): string {
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return "";
  throw new Error(`the reply's ${field} is not text (got ${Array.isArray(value) ? "an array" : typeof value})`);
}

/** A string field a reply may leave out (a stop reason, the model's name): the string, else null. */
export const bodyString = (value: unknown): string | null => (typeof value === "string" ? value : null);

export interface Failure {
  kind: FailureKind;
  retryable: boolean;
  status: number | null;
  retryAfterMs: number | null;
  /** One line, key-free, for logs and the errors count. */
  message: string;
}

/**
 * Classifies a failed attempt. Retryable: 429, 408, 409 and 5xx, our
 * timeout, network failures (refused, reset, dropped mid-response), a reply
 * larger than max_response_bytes (whatever the SDK made of the rejection;
 * the message says which limit) and a 2xx whose body could not be read as
 * the protocol's JSON. Not retryable: other
 * 4xx (bad request, auth, unknown model) and configuration errors.
 */
export function classifyFailure(error: unknown, record: AttemptRecord): Failure {
  const status = statusOf(error) ?? record.status;
  const message = redactSecrets(oneLine(error));
  const retryAfterMs = record.retryAfterMs;
  const make = (kind: FailureKind, retryable: boolean): Failure => ({kind, retryable, status, retryAfterMs, message});
  if (record.tooLarge) return {...make("too_large", true), message: new ResponseTooLarge(record.maxResponseBytes).message};
  if (record.timedOut) return make("timeout", true);
  if (status === 429) return make("rate_limit", true);
  if (status !== null && (status >= 500 || status === 408 || status === 409)) return make("server", true);
  if (status !== null && status >= 400) return make("client", false);
  if (record.networkError) return make("connection", true);
  if (status !== null && status < 300) {
    // The response arrived but its body broke off or was not the expected JSON.
    return make(isConnectionError(error) ? "connection" : "bad_response", true);
  }
  if (isConnectionError(error)) return make("connection", true);
  return make("client", false);
}

function statusOf(error: unknown): number | null {
  const status = (error as {status?: unknown} | null)?.status;
  return typeof status === "number" && status >= 100 ? status : null;
}

function isConnectionError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as {cause?: unknown}).cause, depth++) {
    const name = (e as Error).name ?? "";
    const code = (e as {code?: unknown}).code;
    const message = (e as Error).message ?? "";
    if (/Connection|Socket/i.test(name)) return true;
    if (typeof code === "string" && /^(ECONNRESET|ECONNREFUSED|EPIPE|UND_ERR_SOCKET|UND_ERR_CLOSED|ETIMEDOUT)$/.test(code)) return true;
    if (/fetch failed|terminated|other side closed|socket hang up/i.test(message)) return true;
  }
  return false;
}

function oneLine(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 300 ? line.slice(0, 297) + "..." : line;
}
