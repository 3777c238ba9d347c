/**
 * `complete` against real HTTP servers on 127.0.0.1, one per wire protocol:
 * retries on 429 (honouring Retry-After), 500, unreadable bodies, dropped
 * connections and timeouts; no retry on 400; the cache answers repeats
 * without a request and holds no key; concurrency and rate limits hold.
 */
import {test, after} from "node:test";
import assert from "node:assert/strict";
import {mkdtempSync, readdirSync, readFileSync, rmSync, statSync} from "node:fs";
import {join} from "node:path";
import {tmpdir} from "node:os";
import {startFakeLlm, scripted, type FakeLlmServer, type Wire} from "../support/fakeLlm.js";
import {createCompleter, providerCall, type Endpoint} from "../../loaders/llm/complete.js";
import {ResponseCache, cacheKey} from "../../loaders/llm/cache.js";
import {Limiter} from "../../loaders/llm/limiter.js";
import {newStats} from "../../loaders/llm/stats.js";
import {LlmCallError, type ChatMessage} from "../../loaders/llm/types.js";
import {resolveApiKey} from "../../loaders/llm/secrets.js";

const wires: Wire[] = ["openai", "anthropic", "gemini"];
const KEY = "sk-test-" + "7f3a9c1e5b".repeat(3);
// Read the key the way players do, so that redaction knows it.
resolveApiKey("PARLEY_TEST_KEY", "test", {PARLEY_TEST_KEY: KEY});
const servers: FakeLlmServer[] = [];
const dirs: string[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
  for (const d of dirs) rmSync(d, {recursive: true, force: true});
});

const messages: ChatMessage[] = [
  {role: "system", content: "You are playing as Alice."},
  {role: "user", content: "Round 1\nSend your offer."},
];
const sampling = {max_tokens: 50, temperature: 1};
const fastBackoff = {baseMs: 5, maxMs: 20};

function setup(wire: Wire, server: FakeLlmServer, opts: {timeoutMs?: number; maxRetries?: number; cache?: boolean; limiter?: Limiter} = {}) {
  const endpoint: Endpoint = {provider: wire, model: "fake-1", baseURL: server.baseURL, timeoutMs: opts.timeoutMs ?? 2000, maxRetries: opts.maxRetries ?? 4};
  const dir = mkdtempSync(join(tmpdir(), "parley-llm-"));
  dirs.push(dir);
  const stats = newStats();
  const complete = createCompleter(endpoint, providerCall(endpoint, KEY), {
    cache: opts.cache === false ? null : new ResponseCache(dir),
    limiter: opts.limiter ?? new Limiter({maxConcurrency: 8, requestsPerMinute: null}),
    stats,
    backoff: fastBackoff,
  });
  return {complete, stats, dir};
}

for (const wire of wires) {
  test(`${wire}: answers, usage and latency; the key is sent but never cached`, async () => {
    const server = await startFakeLlm(wire, () => ({text: '{"alice_gain": 600, "bob_gain": 400}', delayMs: 20, inputTokens: 11, outputTokens: 7}));
    servers.push(server);
    const {complete, stats, dir} = setup(wire, server);
    const c = await complete(messages, sampling, "g1/alice");
    assert.equal(c.text, '{"alice_gain": 600, "bob_gain": 400}');
    // Gemini's JSON leaves out zero counts (its cached and thinking tokens), which are read as 0; the others say nothing of them here.
    assert.deepEqual(c.usage, {input_tokens: 11, output_tokens: 7, ...(wire === "gemini" && {cached_input_tokens: 0, reasoning_tokens: 0})});
    assert.ok(c.latency_ms >= 15, `latency ${c.latency_ms}`);
    assert.equal(c.cached, false);
    assert.equal(server.requests.length, 1);
    assert.ok(server.requests[0]!.credential?.includes(KEY), "the key is sent to the server");
    assert.equal(server.requests[0]!.system, "You are playing as Alice.");
    assert.deepEqual(server.requests[0]!.turns, [{role: "user", content: "Round 1\nSend your offer."}]);
    // The same call again comes from the cache: no request.
    const again = await complete(messages, sampling, "g1/alice");
    assert.equal(again.text, c.text);
    assert.equal(again.cached, true);
    assert.equal(server.requests.length, 1);
    assert.equal(stats.cacheHits, 1);
    // A different sample key (another game) is a different call.
    await complete(messages, sampling, "g2/alice");
    assert.equal(server.requests.length, 2);
    for (const file of walk(dir)) assert.ok(!readFileSync(file, "utf8").includes(KEY), `${file} contains the key`);
  });

  test(`${wire}: retries 429 (honouring Retry-After), 500, a bad body, dropped connections and a timeout`, async () => {
    const server = await startFakeLlm(
      wire,
      scripted(
        [{status: 429, retryAfter: "1"}, {status: 500}, {malformedBody: true}, {drop: true}, {truncate: true}, {text: "late", delayMs: 1500}],
        () => ({text: "finally"}),
      ),
    );
    servers.push(server);
    const {complete, stats} = setup(wire, server, {timeoutMs: 400, maxRetries: 6});
    const start = Date.now();
    const c = await complete(messages, sampling, "g/alice");
    assert.equal(c.text, "finally");
    assert.equal(c.attempts, 7);
    assert.equal(server.requests.length, 7);
    assert.ok(Date.now() - start >= 1000 + 400, "waited for Retry-After and for the timeout");
    assert.deepEqual(stats.failedAttempts, {rate_limit: 1, server: 1, bad_response: 1, connection: 2, timeout: 1});
    assert.equal(stats.failedCalls, 0);
  });

  test(`${wire}: a 400 is not retried; exhausted retries fail with LlmCallError and no key`, async () => {
    const server = await startFakeLlm(wire, scripted([{status: 400, message: `bad request ${KEY}`}], () => ({status: 503})));
    servers.push(server);
    const {complete, stats} = setup(wire, server, {maxRetries: 2});
    await assert.rejects(complete(messages, sampling, "a"), (e: unknown) => {
      assert.ok(e instanceof LlmCallError);
      assert.equal(e.kind, "client");
      assert.equal(e.status, 400);
      assert.ok(!e.message.includes(KEY), "the error message is redacted");
      return true;
    });
    assert.equal(server.requests.length, 1);
    await assert.rejects(complete(messages, sampling, "b"), (e: unknown) => {
      assert.ok(e instanceof LlmCallError);
      assert.equal(e.kind, "server");
      assert.equal(e.attempts, 3);
      return true;
    });
    assert.equal(server.requests.length, 4);
    assert.equal(stats.failedCalls, 2);
  });
}

test("a 429 with Retry-After pauses every caller of the endpoint, not only the one told", async () => {
  const server = await startFakeLlm("openai", scripted([{status: 429, retryAfter: "1"}], () => ({text: "ok", delayMs: 10})));
  servers.push(server);
  const limiter = new Limiter({maxConcurrency: 4, requestsPerMinute: null});
  const {complete} = setup("openai", server, {limiter});
  const first = complete(messages, sampling, "first");
  for (let i = 0; i < 400 && limiter.pausedUntilMs === 0; i++) await new Promise((r) => setTimeout(r, 5)); // until the 429 has arrived
  const pausedFor = limiter.pausedUntilMs - Date.now();
  assert.ok(pausedFor > 500, `paused for ${pausedFor} ms`);
  const t0 = Date.now();
  await complete(messages, sampling, "second");
  assert.ok(Date.now() - t0 >= pausedFor - 20, `second call waited ${Date.now() - t0} ms of ${pausedFor}`);
  await first;
});

test("concurrency and rate limits hold", async () => {
  let active = 0;
  let peak = 0;
  const server = await startFakeLlm("openai", async () => {
    active++;
    peak = Math.max(peak, active);
    await new Promise((r) => setTimeout(r, 50));
    active--;
    return {text: "ok"};
  });
  servers.push(server);
  const {complete} = setup("openai", server, {limiter: new Limiter({maxConcurrency: 3, requestsPerMinute: null}), cache: false});
  await Promise.all(Array.from({length: 12}, (_, i) => complete(messages, sampling, `c${i}`)));
  assert.equal(peak, 3);

  const rated = setup("openai", server, {limiter: new Limiter({maxConcurrency: 10, requestsPerMinute: 600}), cache: false});
  const t0 = Date.now();
  await Promise.all(Array.from({length: 5}, (_, i) => rated.complete(messages, sampling, `r${i}`)));
  // 600/min = one start every 100 ms: the fifth starts >= 400 ms after the first.
  assert.ok(Date.now() - t0 >= 390, `5 calls at 600/min took ${Date.now() - t0} ms`);
});

test("identical concurrent calls are sent once", async () => {
  const server = await startFakeLlm("anthropic", () => ({text: "shared", delayMs: 50}));
  servers.push(server);
  const {complete} = setup("anthropic", server);
  const [a, b] = await Promise.all([complete(messages, sampling, "same"), complete(messages, sampling, "same")]);
  assert.equal(a.text, "shared");
  assert.equal(b.text, "shared");
  assert.equal(server.requests.length, 1);
});

test("an answer read back from a cache written before replies were scrubbed has the key removed", async () => {
  const server = await startFakeLlm("gemini", () => ({text: "fresh"}));
  servers.push(server);
  const dir = mkdtempSync(join(tmpdir(), "parley-llm-"));
  dirs.push(dir);
  const endpoint: Endpoint = {provider: "gemini", model: "fake-1", baseURL: server.baseURL, timeoutMs: 2000, maxRetries: 0};
  const old = new ResponseCache(dir);
  await old.put(cacheKey({provider: "gemini", model: "fake-1", sampling, messages, sample: "old"}), {provider: "gemini", model: "fake-1", sample: "old"}, {
    text: `{"alice_gain": 600, "bob_gain": 400, "message": "you sent x-goog-api-key: ${KEY}"}`, usage: {input_tokens: 1, output_tokens: 1}, finish_reason: "STOP", latency_ms: 5, cached: false, attempts: 1,
  });
  old.close();
  const complete = createCompleter(endpoint, providerCall(endpoint, KEY), {cache: new ResponseCache(dir), limiter: new Limiter({maxConcurrency: 1, requestsPerMinute: null}), stats: newStats()});
  const c = await complete(messages, sampling, "old");
  assert.equal(c.cached, true);
  assert.equal(server.requests.length, 0);
  assert.equal(c.text, '{"alice_gain": 600, "bob_gain": 400, "message": "you sent x-goog-api-key: [redacted]"}');
});

test("keys come only from the named environment variable, and errors name the variable, not the value", () => {
  assert.equal(resolveApiKey("PARLEY_TEST_KEY", "player x", {PARLEY_TEST_KEY: KEY}), KEY);
  assert.equal(resolveApiKey(null, "player x", {}), null);
  assert.throws(() => resolveApiKey("PARLEY_MISSING_KEY", "player x", {}), /player x: environment variable PARLEY_MISSING_KEY \(api_key_env\) is not set/);
});

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}
