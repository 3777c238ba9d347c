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
 */
import http from "node:http";
import https from "node:https";
import {brotliDecompressSync, gunzipSync, inflateSync} from "node:zlib";

const agents = {
  "http:": new http.Agent({keepAlive: true, scheduling: "lifo"}),
  "https:": new https.Agent({keepAlive: true, scheduling: "lifo"}),
};

function abortError(signal: AbortSignal | null | undefined): Error {
  const reason = signal?.reason;
  return reason instanceof Error ? reason : new DOMException("This operation was aborted", "AbortError");
}

function decode(body: Buffer, encoding: string | undefined): Buffer {
  switch ((encoding ?? "").trim().toLowerCase()) {
    case "gzip":
    case "x-gzip":
      return gunzipSync(body);
    case "deflate":
      return inflateSync(body);
    case "br":
      return brotliDecompressSync(body);
    default:
      return body;
  }
}

export const httpFetch: typeof fetch = (input, init) => {
  const body = init?.body;
  const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
  const agent = agents[url.protocol as keyof typeof agents];
  if (!agent || (body != null && typeof body !== "string" && !(body instanceof Uint8Array)) || input instanceof Request) return fetch(input, init);
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
      reject(signal?.aborted ? abortError(signal) : new TypeError("fetch failed", {cause: error}));
    };
    const transport = url.protocol === "https:" ? https : http;
    const req = transport.request(url, {method: init?.method ?? "GET", headers, agent}, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", fail);
      res.on("close", () => {
        if (!res.complete) fail(new Error("terminated: the connection closed before the response ended"));
      });
      res.on("end", () => {
        if (settled) return;
        let data: Buffer;
        try {
          data = decode(Buffer.concat(chunks), res.headers["content-encoding"] as string | undefined);
        } catch (error) {
          fail(error);
          return;
        }
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
      });
    });
    const onAbort = () => {
      req.destroy(abortError(signal));
      fail(abortError(signal));
    };
    signal?.addEventListener("abort", onAbort, {once: true});
    req.on("error", fail);
    req.end(payload);
  });
};
