/**
 * A `fetch` for the provider SDKs built on node:http / node:https with
 * keep-alive agents, used instead of the global fetch (undici).
 *
 * Why: the SDKs take any WHATWG fetch (their documented `fetch` option), and
 * for many small concurrent JSON calls the global fetch's stream machinery
 * costs about twice the CPU per call of a plain keep-alive http request
 * (bench/llm.bench.ts); a tournament at concurrency 32-64 is CPU-bound on
 * that. LLM calls here are never streamed, so the body is buffered and
 * handed back as a `Response`.
 *
 * Behaviour the retry policy relies on: a connection failure or a response
 * cut off mid-body rejects with `TypeError("fetch failed", {cause})` like the
 * global fetch; an aborted request rejects with an AbortError. Request bodies
 * that are not a string or bytes (never sent by the chat endpoints) go to
 * the global fetch.
 *
 * A reply is read up to `maxBytes` after decompression (and on the wire):
 * beyond that the connection is closed and the call rejects with
 * `ResponseTooLarge`. Bodies are inflated as they stream in, so a gzip bomb
 * (a few MB that inflate to gigabytes) or an endless body costs at most
 * about `maxBytes` of memory, never the whole thing.
 */
import http from "node:http";
import https from "node:https";
import type {Transform} from "node:stream";
import {createBrotliDecompress, createGunzip, createInflate} from "node:zlib";

/** Default cap on a reply body: chat answers are a few kB; 4 MiB leaves ample room. */
export const defaultMaxResponseBytes = 4 * 1024 ** 2;

/** The rejection of a fetch whose reply body passed the caller's limit. */
export class ResponseTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`the reply body is larger than max_response_bytes (${limit} bytes after decompression); the connection was closed`);
    this.name = "ResponseTooLarge";
  }
}

const agents = {
  "http:": new http.Agent({keepAlive: true, scheduling: "lifo"}),
  "https:": new https.Agent({keepAlive: true, scheduling: "lifo"}),
};

function abortError(signal: AbortSignal | null | undefined): Error {
  const reason = signal?.reason;
  return reason instanceof Error ? reason : new DOMException("This operation was aborted", "AbortError");
}

/** A streaming decoder for `content-encoding`, or null for an identity body. */
function decoderFor(encoding: string | undefined): Transform | null {
  switch ((encoding ?? "").trim().toLowerCase()) {
    case "gzip":
    case "x-gzip":
      return createGunzip();
    case "deflate":
      return createInflate();
    case "br":
      return createBrotliDecompress();
    default:
      return null;
  }
}

/**
 * The global fetch (for what httpFetch does not send itself), with the same
 * cap: the body is read through a counting reader and cancelled, which
 * closes the connection, once it passes `maxBytes`.
 */
async function cappedGlobalFetch(input: RequestInfo | URL, init: RequestInit | undefined, maxBytes: number): Promise<Response> {
  const response = await fetch(input, init);
  if (!response.body) return response;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    size += r.value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new ResponseTooLarge(maxBytes);
    }
    chunks.push(r.value);
  }
  return new Response(Buffer.concat(chunks), {status: response.status, statusText: response.statusText, headers: response.headers});
}

export function httpFetch(input: RequestInfo | URL, init?: RequestInit, maxBytes = defaultMaxResponseBytes): Promise<Response> {
  const body = init?.body;
  const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
  const agent = agents[url.protocol as keyof typeof agents];
  if (!agent || (body != null && typeof body !== "string" && !(body instanceof Uint8Array)) || input instanceof Request) return cappedGlobalFetch(input, init, maxBytes);
  const signal = init?.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(abortError(signal));
  const headers: Record<string, string> = {};
  new Headers(init?.headers).forEach((value, key) => (headers[key] = value));
  headers["accept-encoding"] = "gzip, deflate, br";
  const payload = body == null ? undefined : typeof body === "string" ? Buffer.from(body) : body;
  if (payload) headers["content-length"] = String(payload.byteLength);

  return new Promise<Response>((resolve, reject) => {
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener("abort", onAbort);
      if (signal?.aborted) reject(abortError(signal));
      else reject(error instanceof ResponseTooLarge ? error : new TypeError("fetch failed", {cause: error}));
    };
    const transport = url.protocol === "https:" ? https : http;
    const req = transport.request(url, {method: init?.method ?? "GET", headers, agent}, (res) => {
      const chunks: Buffer[] = [];
      let received = 0; // bytes on the wire
      let size = 0; // bytes after decoding
      const decoder = decoderFor(res.headers["content-encoding"] as string | undefined);
      const tooLarge = () => {
        req.destroy();
        decoder?.destroy();
        fail(new ResponseTooLarge(maxBytes));
      };
      const keep = (chunk: Buffer) => {
        if (settled) return;
        size += chunk.length;
        if (size > maxBytes) tooLarge();
        else chunks.push(chunk);
      };
      res.on("data", (chunk: Buffer) => {
        if (settled) return;
        received += chunk.length;
        if (received > maxBytes) tooLarge();
        else if (decoder) decoder.write(chunk);
        else keep(chunk);
      });
      res.on("error", fail);
      res.on("close", () => {
        if (res.complete) return;
        decoder?.destroy();
        fail(new Error("terminated: the connection closed before the response ended"));
      });
      if (decoder) {
        decoder.on("data", keep);
        decoder.on("error", fail);
        decoder.on("end", () => done());
        // An empty body (204, HEAD) labelled gzip has nothing to inflate.
        res.on("end", () => {
          if (received > 0) return decoder.end();
          decoder.destroy();
          done();
        });
      } else res.on("end", () => done());
      const done = () => {
        if (settled) return;
        const data = Buffer.concat(chunks);
        settled = true;
        signal?.removeEventListener("abort", onAbort);
        const responseHeaders = new Headers();
        for (const [key, value] of Object.entries(res.headers)) {
          if (value === undefined || key === "content-encoding" || key === "content-length") continue;
          for (const v of Array.isArray(value) ? value : [value]) responseHeaders.append(key, v);
        }
        const status = res.statusCode ?? 0;
        const nullBody = status === 204 || status === 205 || status === 304;
        resolve(new Response(nullBody ? null : new Uint8Array(data), {status, statusText: res.statusMessage, headers: responseHeaders}));
      };
    });
    const onAbort = () => {
      req.destroy(abortError(signal));
      fail(abortError(signal));
    };
    signal?.addEventListener("abort", onAbort, {once: true});
    req.on("error", fail);
    req.end(payload);
  });
}
