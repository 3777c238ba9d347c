/**
 * Scripted fake LLM servers for tests and benches: real HTTP on 127.0.0.1,
 * one wire protocol per server (OpenAI chat completions, Anthropic Messages,
 * Gemini generateContent).
 *
 * A `respond` function sees each request, normalised to system text plus
 * chat turns, and returns what to do: answer with text (optionally slowly),
 * answer with an HTTP status (and Retry-After), send a body that is not JSON,
 * drop the connection before answering or halfway through the body, hold
 * the request open forever, send a body given as is (a shape no SDK type
 * describes), or send a body without bound (a gzip bomb, an endless chunked
 * body; written with backpressure, so only the client's memory is at stake,
 * until the client hangs up). The server counts
 * every request and keeps the list of those it answered with text, keyed by a
 * hash of the request body, so tests can assert that no answered call was
 * ever sent again.
 *
 * Started `strict`, a server refuses what its provider documents it refuses
 * (reasoning models' parameters, thinking budgets; fakeLlmRules.ts) before
 * the responder sees the request; with `caching`, its usage reports the
 * prompt-cache hits the provider would (fakeLlmRules.ts PromptCache). A
 * text reply's `thinking` comes back where the provider puts it: an
 * Anthropic thinking block, a Gemini thought part, an OpenAI-compatible
 * server's `reasoning_content` (OpenAI's own reasoning models return none,
 * only usage.completion_tokens_details.reasoning_tokens).
 */
import {createServer, type IncomingMessage, type Server, type ServerResponse} from "node:http";
import {createHash} from "node:crypto";
import {gzipSync} from "node:zlib";
import type {AddressInfo} from "node:net";
import {PromptCache, fakeTokens, hidesReasoning, promptBlocks, refusal, type CacheCount, type CacheRules} from "./fakeLlmRules.js";
import {nonConforming, requestedSchema, structuredProblem} from "./fakeStructured.js";

export type Wire = "openai" | "anthropic" | "gemini";

export type Reply =
  /** `usage`: sent in place of the usage object the counts would make (usage / usageMetadata), as is: a hostile endpoint's counts. */
  | {text: string; delayMs?: number; inputTokens?: number; outputTokens?: number; thinking?: string; usage?: unknown}
  | {status: number; retryAfter?: string; delayMs?: number; message?: string}
  | {malformedBody: true; delayMs?: number}
  | {drop: true; delayMs?: number}
  | {truncate: true; delayMs?: number}
  | {hold: true}
  /** 200 with `content-encoding: gzip`: concatenated gzip members of 1 MiB of zeros, inflating to `gzipBomb` bytes. */
  | {gzipBomb: number; delayMs?: number}
  /** 200 with a chunked body of spaces that never ends. */
  | {endless: true; delayMs?: number}
  /** 200 with this JSON body as is: a reply the provider's types do not describe (an answer that is not text, fields nested beyond any stack). */
  | {body: string; delayMs?: number};

export interface FakeRequest {
  wire: Wire;
  /** 0-based arrival index. */
  index: number;
  path: string;
  model: string;
  system: string;
  turns: Array<{role: "user" | "assistant"; content: string}>;
  /** The last user turn (what the player is being asked now). */
  lastUser: string;
  body: Record<string, unknown>;
  /** sha256 of the raw request body: the identity of a call. */
  bodyHash: string;
  /** Authorization / x-api-key / x-goog-api-key header value, for key-handling tests. */
  credential: string | null;
  /** Body bytes written for a gzipBomb or endless reply before the client hung up (or the body ended). */
  bodyBytesSent?: number;
  /** Structured output (fakeStructured.ts): the schema the answer must conform to, as sent, and Anthropic's forced tool; null for free text. */
  structured: {schema: Record<string, any>; tool: string | null} | null;
}

export type Responder = (request: FakeRequest) => Reply | Promise<Reply>;

export interface FakeLlmServer {
  wire: Wire;
  /** Base URL to give the SDK (includes /v1 for the OpenAI protocol). */
  baseURL: string;
  /** Every request received, in arrival order. */
  requests: FakeRequest[];
  /** Requests answered with text (status 200 and a well-formed body). */
  answered: FakeRequest[];
  /** Replace the responder (e.g. between phases of a test). */
  setResponder(respond: Responder): void;
  close(): Promise<void>;
}

export interface FakeLlmOptions {
  /** Refuse what the provider documents it refuses, with its error shape (fakeLlmRules.ts). */
  strict?: boolean;
  /** Report prompt-cache hits as the provider does (fakeLlmRules.ts), by its documented rules or by `CacheRules` given. */
  caching?: boolean | CacheRules;
}

/** Starts a fake server for `wire` on 127.0.0.1 with an ephemeral port. */
export async function startFakeLlm(wire: Wire, respond: Responder, options: FakeLlmOptions = {}): Promise<FakeLlmServer> {
  const cache = options.caching ? new PromptCache(wire, options.caching === true ? undefined : options.caching) : null;
  const requests: FakeRequest[] = [];
  const answered: FakeRequest[] = [];
  let responder = respond;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let request: FakeRequest;
      try {
        request = normalise(wire, req, raw, requests.length);
      } catch (error) {
        res.writeHead(400, {"content-type": "application/json"});
        res.end(JSON.stringify({error: {message: (error as Error).message}}));
        return;
      }
      requests.push(request);
      const refused = options.strict ? refusal(wire, request.model, request.body) : null;
      if (refused) {
        res.writeHead(refused.status, {"content-type": "application/json"});
        res.end(JSON.stringify(refused.body));
        return;
      }
      Promise.resolve(responder(request))
        .then((reply) => serve(wire, request, reply, req, res, () => answered.push(request), cache))
        .catch((error) => {
          if (!res.headersSent) res.writeHead(500, {"content-type": "application/json"});
          res.end(JSON.stringify({error: {message: String(error)}}));
        });
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const {port} = server.address() as AddressInfo;
  const root = `http://127.0.0.1:${port}`;
  return {
    wire,
    baseURL: wire === "openai" ? `${root}/v1` : root,
    requests,
    answered,
    setResponder(r) {
      responder = r;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function normalise(wire: Wire, req: IncomingMessage, raw: string, index: number): FakeRequest {
  const url = req.url ?? "";
  const body = JSON.parse(raw) as Record<string, any>;
  let model: string;
  let system = "";
  let turns: FakeRequest["turns"] = [];
  const text = (c: unknown): string =>
    typeof c === "string" ? c : Array.isArray(c) ? c.map((b: any) => b?.text ?? "").join("") : "";
  if (wire === "openai") {
    if (!url.endsWith("/chat/completions")) throw new Error(`unexpected path ${url}`);
    model = body.model;
    for (const m of body.messages ?? []) {
      if (m.role === "system") system += text(m.content);
      else turns.push({role: m.role, content: text(m.content)});
    }
  } else if (wire === "anthropic") {
    if (!url.endsWith("/v1/messages")) throw new Error(`unexpected path ${url}`);
    model = body.model;
    system = text(body.system);
    turns = (body.messages ?? []).map((m: any) => ({role: m.role, content: text(m.content)}));
  } else {
    const match = /\/models\/([^/:]+):generateContent/.exec(url);
    if (!match) throw new Error(`unexpected path ${url}`);
    model = decodeURIComponent(match[1]!);
    const si = body.systemInstruction;
    system = typeof si === "string" ? si : text(si?.parts);
    turns = (body.contents ?? []).map((c: any) => ({role: c.role === "model" ? "assistant" : "user", content: text(c.parts)}));
  }
  const users = turns.filter((t) => t.role === "user");
  // A structured-output request the provider refuses is a 400, as for any malformed request.
  const problem = structuredProblem(wire, body);
  if (problem) throw new Error(problem);
  const h = req.headers;
  const credential = (h["authorization"] ?? h["x-api-key"] ?? h["x-goog-api-key"] ?? null) as string | null;
  return {
    wire,
    index,
    path: url,
    model,
    system,
    turns,
    lastUser: users[users.length - 1]?.content ?? "",
    body,
    bodyHash: createHash("sha256").update(raw).digest("hex"),
    credential,
    structured: requestedSchema(wire, body),
  };
}

async function serve(wire: Wire, request: FakeRequest, reply: Reply, req: IncomingMessage, res: ServerResponse, onAnswered: () => void, cache: PromptCache | null = null) {
  if ("hold" in reply) return; // never answer; the client times out or is killed
  if (reply.delayMs) {
    await new Promise((r) => setTimeout(r, reply.delayMs));
    if (res.destroyed || !res.socket || res.socket.destroyed) return; // client gave up (timeout)
  }
  if ("drop" in reply) {
    req.socket.destroy();
    return;
  }
  if ("truncate" in reply) {
    // Headers and half a body, then the connection drops.
    res.writeHead(200, {"content-type": "application/json", "content-length": "400"});
    res.write('{"id": "x", "choices": [');
    setTimeout(() => req.socket.destroy(), 10);
    return;
  }
  if ("gzipBomb" in reply || "endless" in reply) {
    const bomb = "gzipBomb" in reply;
    const chunk = bomb ? gzipMebibyte() : Buffer.alloc(64 * 1024, " ");
    const count = bomb ? Math.ceil(reply.gzipBomb / 2 ** 20) : Infinity;
    res.writeHead(200, {"content-type": "application/json", ...(bomb && {"content-encoding": "gzip"})});
    request.bodyBytesSent = 0;
    for (let i = 0; i < count && !res.destroyed; i++) {
      request.bodyBytesSent += chunk.length;
      if (!res.write(chunk)) await drainedOrClosed(res);
    }
    res.end();
    return;
  }
  if ("body" in reply) {
    res.writeHead(200, {"content-type": "application/json"});
    res.end(reply.body);
    return;
  }
  if ("malformedBody" in reply) {
    res.writeHead(200, {"content-type": "application/json"});
    res.end('{"id": "x", "choices": [ {"message": ');
    return;
  }
  if ("status" in reply) {
    const headers: Record<string, string> = {"content-type": "application/json"};
    if (reply.retryAfter !== undefined) headers["retry-after"] = reply.retryAfter;
    res.writeHead(reply.status, headers);
    res.end(JSON.stringify(errorBody(wire, reply.status, reply.message ?? `scripted ${reply.status}`)));
    return;
  }
  const cached = cache?.count(request.model, promptBlocks(wire, request.body)) ?? null;
  const input = reply.inputTokens ?? cached?.input ?? Math.ceil((request.system.length + request.turns.reduce((n, t) => n + t.content.length, 0)) / 4);
  const output = reply.outputTokens ?? Math.max(1, Math.ceil(reply.text.length / 4));
  if (request.structured) {
    let value: unknown;
    try {
      value = JSON.parse(reply.text);
    } catch {
      throw new Error(`fake ${wire}: the scripted answer to a structured-output request is not JSON: ${reply.text.slice(0, 80)}`);
    }
    const wrong = nonConforming(request.structured.schema, value);
    if (wrong) throw new Error(`fake ${wire}: the scripted answer does not conform to the requested schema: ${wrong}`);
  }
  res.writeHead(200, {"content-type": "application/json"});
  const thinking = reply.thinking === undefined ? null : {text: reply.thinking, tokens: fakeTokens(reply.thinking.length)};
  const body: Record<string, unknown> = successBody(wire, request.model, reply.text, input, output, thinking, cached, request.structured?.tool ?? null);
  if ("usage" in reply) body[wire === "gemini" ? "usageMetadata" : "usage"] = reply.usage;
  res.end(JSON.stringify(body));
  onAnswered();
}

let mebibyte: Buffer | null = null;
/** One gzip member holding 1 MiB of zeros (about 1 kB); gunzip reads concatenated members as one stream. */
function gzipMebibyte(): Buffer {
  return (mebibyte ??= gzipSync(Buffer.alloc(2 ** 20)));
}

function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

function errorBody(wire: Wire, status: number, message: string) {
  if (wire === "anthropic") return {type: "error", error: {type: status === 429 ? "rate_limit_error" : "api_error", message}};
  if (wire === "gemini") return {error: {code: status, message, status: status === 429 ? "RESOURCE_EXHAUSTED" : "INTERNAL"}};
  return {error: {message, type: status === 429 ? "rate_limit_exceeded" : "server_error", code: null}};
}

/**
 * A 200 body as the provider's SDK types describe it. `output` is the
 * answer's tokens; thinking adds its own (billed as output by every
 * provider); `cached` splits the input as the provider's usage does.
 */
function successBody(wire: Wire, model: string, text: string, input: number, output: number, thinking: {text: string; tokens: number} | null = null, cached: CacheCount | null = null, tool: string | null = null) {
  const thought = thinking?.tokens ?? 0;
  if (wire === "anthropic") {
    const read = cached?.read ?? 0;
    const written = cached?.written ?? 0;
    return {
      id: "msg_fake",
      type: "message",
      role: "assistant",
      model,
      // A forced tool (structured output) is answered by a tool_use block holding the input object.
      content: [...(thinking ? [{type: "thinking", thinking: thinking.text, signature: "fake-signature"}] : []), ...(tool ? [{type: "tool_use", id: "toolu_fake", name: tool, input: JSON.parse(text)}] : [{type: "text", text}])],
      stop_reason: tool ? "tool_use" : "end_turn",
      stop_sequence: null,
      usage: {
        input_tokens: input - read - written,
        output_tokens: output + thought,
        ...(cached && {cache_read_input_tokens: read, cache_creation_input_tokens: written}),
        ...(thinking && {output_tokens_details: {thinking_tokens: thought}}),
      },
    };
  }
  if (wire === "gemini") {
    return {
      candidates: [{content: {role: "model", parts: [...(thinking ? [{text: thinking.text, thought: true}] : []), {text}]}, finishReason: "STOP", index: 0}],
      // Zero counts are left out, as the API's JSON does.
      usageMetadata: {promptTokenCount: input, candidatesTokenCount: output, totalTokenCount: input + output + thought, ...(thought && {thoughtsTokenCount: thought}), ...(cached?.read && {cachedContentTokenCount: cached.read})},
      modelVersion: model,
    };
  }
  const hidden = hidesReasoning(model);
  return {
    id: "chatcmpl-fake",
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{index: 0, message: {role: "assistant", content: text, ...(thinking && !hidden && {reasoning_content: thinking.text})}, finish_reason: "stop"}],
    usage: {
      prompt_tokens: input,
      completion_tokens: output + thought,
      total_tokens: input + output + thought,
      ...(cached && {prompt_tokens_details: {cached_tokens: cached.read}}),
      ...((thinking || cached) && {completion_tokens_details: {reasoning_tokens: hidden || thinking ? thought : 0}}),
    },
  };
}

/** A responder that plays `script` in order, then falls back to `rest`. */
export function scripted(script: Reply[], rest: Responder): Responder {
  let i = 0;
  return (request) => (i < script.length ? script[i++]! : rest(request));
}
