/**
 * Replies without a size bound, through each provider's SDK (all three are
 * given httpFetch.ts as their fetch): a gzip bomb that inflates to 1 GiB and
 * an endless chunked body fail the attempt with the size error, the
 * connection is closed, and the process's peak memory grows by far less
 * than the bomb. Kept in its own file so the peak-memory baseline is this
 * process's and not left over from other tests.
 */
import {test, after} from "node:test";
import assert from "node:assert/strict";
import {startFakeLlm, scripted, type FakeLlmServer, type Wire} from "../support/fakeLlm.js";
import {createCompleter, providerCall, type Endpoint} from "../../loaders/llm/complete.js";
import {Limiter} from "../../loaders/llm/limiter.js";
import {newStats} from "../../loaders/llm/stats.js";
import {LlmCallError, type ChatMessage} from "../../loaders/llm/types.js";

const GiB = 1024 ** 3;
const MB = 1e6;
const servers: FakeLlmServer[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** Peak resident memory of this process so far, in bytes (getrusage's ru_maxrss). */
const peakRss = () => process.resourceUsage().maxRSS * 1024;
const baseline = peakRss();

const messages: ChatMessage[] = [{role: "user", content: "Send your offer."}];
const sampling = {max_tokens: 50};

function completer(wire: Wire, server: FakeLlmServer, extra: Partial<Endpoint> = {}) {
  // A long timeout, so that only the size cap can end an endless body.
  const endpoint: Endpoint = {provider: wire, model: "fake-1", baseURL: server.baseURL, timeoutMs: 120_000, maxRetries: 0, ...extra};
  const stats = newStats();
  const complete = createCompleter(endpoint, providerCall(endpoint, null), {cache: null, limiter: new Limiter({maxConcurrency: 4, requestsPerMinute: null}), stats, backoff: {baseMs: 5, maxMs: 20}});
  return {complete, stats};
}

const tooLarge = (limit: number) => (e: unknown) => {
  assert.ok(e instanceof LlmCallError, String(e));
  assert.equal(e.kind, "too_large");
  assert.ok(e.message.includes(`the reply body is larger than max_response_bytes (${limit} bytes after decompression); the connection was closed`), e.message);
  return true;
};

for (const wire of ["openai", "anthropic", "gemini"] as const) {
  test(`${wire}: a 1 GiB gzip bomb and an endless body fail with the size error, the connection is closed, memory stays bounded`, async () => {
    const server = await startFakeLlm(wire, scripted([{gzipBomb: GiB}, {endless: true}], () => ({text: "fine"})));
    servers.push(server);
    const {complete, stats} = completer(wire, server);
    await assert.rejects(complete(messages, sampling, "bomb"), tooLarge(4 * 1024 ** 2));
    await assert.rejects(complete(messages, sampling, "endless"), tooLarge(4 * 1024 ** 2));
    assert.deepEqual(stats.failedAttempts, {too_large: 2});
    // The client hung up: the endless body stopped within a few MiB of the cap (what the socket buffers held).
    // (The bomb is only ~1 MB of gzip, which those buffers take whole; what it inflates to is what must not be kept.)
    const endless = server.requests[1]!;
    assert.ok(endless.bodyBytesSent! < 32 * MB, `endless: ${endless.bodyBytesSent} bytes sent`);
    // The same client still works.
    assert.equal((await complete(messages, sampling, "after")).text, "fine");
    const growth = peakRss() - baseline;
    assert.ok(growth < 200 * MB, `peak memory grew by ${Math.round(growth / MB)} MB`);
  });
}

test("a reply over a player's max_response_bytes is retried; the next answer is used", async () => {
  const server = await startFakeLlm("openai", scripted([{endless: true}, {gzipBomb: 8 * 1024 ** 2}], () => ({text: "small enough"})));
  servers.push(server);
  const {complete, stats} = completer("openai", server, {maxResponseBytes: 64 * 1024, maxRetries: 3});
  const c = await complete(messages, sampling, "retry");
  assert.equal(c.text, "small enough");
  assert.equal(c.attempts, 3);
  assert.deepEqual(stats.failedAttempts, {too_large: 2});
});
