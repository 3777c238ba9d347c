/**
 * The pure parts of LLM players: JSON extraction from replies, mapping onto
 * legal actions, private reasoning, backoff, Retry-After, cache keys, and
 * run-config player specs.
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {MAX_CANDIDATES, extractJson, numberField, splitReply} from "../../loaders/llm/parseReply.js";
import {gleeNarrator, toAction} from "../../loaders/papers/glee/narrator.js";
import {bargaining} from "../../loaders/papers/glee/bargaining.js";
import {CHAIN_OF_THOUGHT} from "../../loaders/llm/llmPlayer.js";
import {createRng} from "../../src/lib/rng.js";
import {backoffDelay, maxTimerMs, timerMs} from "../../loaders/llm/backoff.js";
import {newStats} from "../../loaders/llm/stats.js";
import {formatProgress} from "../../loaders/runner/progress.js";
import {parseRetryAfter} from "../../loaders/llm/transport.js";
import {cacheKey} from "../../loaders/llm/cache.js";
import {parseLlmPlayerSpec, samplingOf} from "../../loaders/llm/playerSpec.js";
import {personaText} from "../../loaders/papers/negotiationarena/personas.js";
import type {ActionSpec} from "../../loaders/contract/game.js";
import type {GleeObservation} from "../../loaders/papers/glee/types.js";
import {inSequence} from "../../loaders/runner/chance.js";

const split: ActionSpec = {
  type: "offer",
  numbers: {alice_gain: {min: 0, max: 1000}, bob_gain: {min: 0, max: 1000}},
  sum: {fields: ["alice_gain", "bob_gain"], equals: 1000},
  text: {field: "message", required: false},
  format: "...",
};
const decision: ActionSpec = {type: "decision", choices: {decision: ["accept", "reject"]}, text: null, format: "..."};

test("extractJson reads bare JSON, code fences (as in GLEE's transcripts) and JSON inside prose", () => {
  assert.deepEqual(extractJson('{"decision": "reject"}'), {ok: true, value: {decision: "reject"}});
  assert.deepEqual(extractJson('```json\n{"alice_gain": 900, "bob_gain": 100,\n"message": "Let\'s start fair."}\n```'), {
    ok: true,
    value: {alice_gain: 900, bob_gain: 100, message: "Let's start fair."},
  });
  assert.deepEqual(extractJson('Sure! Here is my answer: {"decision": "accept"} Hope that helps {:'), {ok: true, value: {decision: "accept"}});
  // A brace inside a string does not end the object.
  assert.deepEqual(extractJson('ok {"message": "a } b", "price": 3}'), {ok: true, value: {message: "a } b", price: 3}});
  // The last object wins: reasoning first, answer last.
  assert.deepEqual(extractJson('If I offered {"price": 10} they would refuse. {"price": 20}'), {ok: true, value: {price: 20}});
  // Conservative repairs: trailing comma, typographic quotes.
  assert.deepEqual(extractJson('{"price": 20,}'), {ok: true, value: {price: 20}});
  assert.deepEqual(extractJson("{\u201Cdecision\u201D: \u201Caccept\u201D}"), {ok: true, value: {decision: "accept"}});
  assert.deepEqual(extractJson("My answer: {'decision': 'reject'}"), {ok: true, value: {decision: "reject"}});
});

test("extractJson names what is wrong with unreadable replies", () => {
  assert.deepEqual(extractJson(""), {ok: false, error: "the reply is empty; expected a JSON object"});
  assert.deepEqual(extractJson("I accept."), {ok: false, error: "the reply contains no JSON object"});
  assert.deepEqual(extractJson('{"alice_gain": 900, "bob_gain": }'), {ok: false, error: "the reply contains malformed JSON; expected one valid JSON object"});
  assert.deepEqual(extractJson("[1, 2]"), {ok: false, error: "the reply contains no JSON object"});
});

test("replies of any shape up to the size cap are read in one pass, never throw, and say why they are unreadable", () => {
  const no = {ok: false, error: "the reply contains no JSON object"};
  const malformed = {ok: false, error: "the reply contains malformed JSON; expected one valid JSON object"};
  const tooDeep = {ok: false, error: "the reply's JSON object is nested more than 64 levels deep; expected one flat JSON object"};
  const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
  // Two megabytes of back-ticks: 666,666 empty fences (a regular expression's matches once spread into one call's arguments).
  assert.deepEqual(extractJson("`".repeat(2_000_000)), no);
  // An opening fence and a megabyte of blanks: the fence's pattern backtracked over every split of the blanks.
  assert.deepEqual(extractJson(`\`\`\`json${" \t".repeat(500_000)}`), no);
  // JSON nested 200,000 deep: parsed (V8's JSON.parse does not recurse), refused before anything walks it.
  assert.deepEqual(extractJson(nested(200_000)), tooDeep);
  assert.deepEqual(extractJson(`Here: {"alice_gain": 50, "bob_gain": 50, "message": ${nested(200_000)}}`), tooDeep);
  assert.deepEqual(extractJson(`${"[".repeat(200_000)}${"]".repeat(200_000)}`), no);
  assert.deepEqual(extractJson("{".repeat(1_000_000)), malformed);
  assert.deepEqual(extractJson(nested(63)), {ok: true, value: JSON.parse(nested(63))});
  assert.deepEqual(extractJson(nested(65)), tooDeep);
  // Thousands of fences or spans: the last still wins.
  assert.deepEqual(extractJson(`${"```json\n{broken}\n```\n".repeat(100_000)}\`\`\`json\n{"decision": "accept"}\n\`\`\``), {ok: true, value: {decision: "accept"}});
  assert.deepEqual(extractJson(`${"{x} ".repeat(300_000)}{"decision": "accept"}`), {ok: true, value: {decision: "accept"}});
  // Only the last 64 spans (and fences) are tried: an answer followed by more broken ones is not looked for.
  assert.deepEqual(extractJson(`{"decision": "accept"}${" {x}".repeat(MAX_CANDIDATES - 1)}`), {ok: true, value: {decision: "accept"}});
  assert.deepEqual(extractJson(`{"decision": "accept"}${" {x}".repeat(MAX_CANDIDATES)}`), malformed);
  // Reasoning tags in every shape.
  assert.deepEqual(splitReply("<reasoning>".repeat(200_000)), {json: null, reasoning: "<reasoning>".repeat(199_999), error: "the reply is empty; expected a JSON object"});
  assert.deepEqual(splitReply(`<reasoning>${"{".repeat(100_000)}</reasoning>{"decision": "accept"}`), {json: {decision: "accept"}, reasoning: "{".repeat(100_000), error: null});
});

test("numberField accepts numbers and plain numeric strings with $ and thousands separators", () => {
  assert.equal(numberField(5), 5);
  assert.equal(numberField("$1,000"), 1000);
  assert.equal(numberField(" 250.5 "), 250.5);
  assert.equal(numberField("about 300"), null);
  assert.equal(numberField(Number.NaN), null);
  assert.equal(numberField(null), null);
});

test("toAction takes the type from the legal spec and keeps only its fields", () => {
  assert.deepEqual(toAction({alice_gain: "600", bob_gain: 400, message: "hi", extra: 1}, [split]), {type: "offer", alice_gain: 600, bob_gain: 400, message: "hi"});
  assert.deepEqual(toAction({decision: " Accept "}, [decision]), {type: "decision", decision: "accept"});
  // Invalid values are kept as they are, for validate to name.
  assert.deepEqual(toAction({alice_gain: "lots", bob_gain: -5}, [split]), {type: "offer", alice_gain: "lots", bob_gain: -5});
  // A message in a game without messages is dropped, never relayed.
  assert.deepEqual(toAction({decision: "reject", message: "ha"}, [decision]), {type: "decision", decision: "reject"});
});

test("splitReply keeps reasoning out of the answer", () => {
  const tagged = splitReply('<reasoning>Bob discounts more, so I can ask for more.</reasoning>\n```json\n{"alice_gain": 700, "bob_gain": 300}\n```');
  assert.deepEqual(tagged, {json: {alice_gain: 700, bob_gain: 300}, reasoning: "Bob discounts more, so I can ask for more.", error: null});
  assert.deepEqual(toAction(tagged.json!, [split]), {type: "offer", alice_gain: 700, bob_gain: 300});
  const field = splitReply('{"reasoning": "fair is fine", "decision": "accept"}');
  assert.deepEqual(field, {json: {decision: "accept"}, reasoning: "fair is fine", error: null});
  const bad = splitReply("<reasoning>hmm</reasoning> I reject.");
  assert.deepEqual(bad, {json: null, reasoning: "hmm", error: "the reply contains no JSON object"});
});

test("the system message is the narrator's rules, this turn's format, the persona and chain of thought", () => {
  const params = {delta_a: 0.9, delta_b: 0.9, money: 100, horizon: "inf" as const, complete_information: false, messages: false};
  const obs = bargaining.start(params, {gameId: "s", nSeats: 2, chance: inSequence(createRng(1))}).observe(0) as GleeObservation;
  const system = (extra: string) => gleeNarrator.messages(obs, [], extra)[0]!.content;
  // GLEE's code (bargaining.py, base_player.edit_system_message): rules, a newline, the format; no blank line.
  assert.equal(system("").split("\n\n").length, 1);
  assert.ok(system("").endsWith('\nSend your offer to divide 100$ in the JSON format:\n{"alice_gain": The part that you will receive in your offer,\n"bob_gain": The part that Bob will receive in your offer}'));
  const full = system([gleeNarrator.persona!("cunning", obs), CHAIN_OF_THOUGHT].join("\n\n"));
  assert.ok(full.startsWith(`${system("")}\n\n`), "the LLM player's extras follow the authors' system message");
  assert.ok(full.startsWith("Let's play a game.\nIn this game, there are two players. You are playing as Alice."));
  assert.ok(full.includes("You are cunning and sly in your plan to get more than your opponent. Humiliate your opponent as much as possible. Insult them."));
  assert.ok(full.includes("<reasoning>"));
  // Seed 001 appendix wording.
  assert.equal(personaText("desperate"), "You must fake being desperate. Supplicate and beg to get more dollars.");
});

test("backoff doubles with equal jitter, is capped, and honours Retry-After", () => {
  const opts = {baseMs: 100, maxMs: 1000};
  assert.equal(backoffDelay(1, null, opts, () => 0), 50);
  assert.equal(backoffDelay(1, null, opts, () => 1), 100);
  assert.equal(backoffDelay(3, null, opts, () => 1), 400);
  assert.equal(backoffDelay(10, null, opts, () => 1), 1000);
  assert.equal(backoffDelay(10, null, opts, () => 0), 500);
  assert.equal(backoffDelay(1, 2000, opts, () => 0), 2000);
  assert.equal(backoffDelay(1, 2000, opts, () => 1), 2200);
});

test("parseRetryAfter reads seconds, HTTP dates and retry-after-ms", () => {
  assert.equal(parseRetryAfter(new Headers({"retry-after": "3"})), 3000);
  assert.equal(parseRetryAfter(new Headers({"retry-after-ms": "250", "retry-after": "3"})), 250);
  const now = Date.parse("2026-01-01T00:00:00Z");
  assert.equal(parseRetryAfter(new Headers({"retry-after": "Thu, 01 Jan 2026 00:00:05 GMT"}), now), 5000);
  assert.equal(parseRetryAfter(new Headers({"retry-after": "soon"})), null);
  assert.equal(parseRetryAfter(new Headers()), null);
  // The other two HTTP-date forms (RFC 9110 §5.6.7), and a date in the past.
  assert.equal(parseRetryAfter(new Headers({"retry-after": "Thursday, 01-Jan-26 00:00:10 GMT"}), now), 10_000);
  assert.equal(parseRetryAfter(new Headers({"retry-after": "Thu Jan  1 00:00:20 2026"}), now), 20_000);
  assert.equal(parseRetryAfter(new Headers({"retry-after": "Wed, 31 Dec 2025 00:00:00 GMT"}), now), 0);
  // Garbage is "not said", so the normal backoff applies; Date.parse alone reads "-1" and "7" as years (2001, 2007).
  for (const garbage of ["-1", "7 days", "1e10", "", "   ", "0x10", "Infinity", "12abc", "in a while"]) {
    assert.equal(parseRetryAfter(new Headers({"retry-after": garbage}), now), null, JSON.stringify(garbage));
  }
  assert.equal(parseRetryAfter(new Headers({"retry-after-ms": "-5", "retry-after": "2"})), 2000, "a bad retry-after-ms falls back to Retry-After");
  // An hour, or more than a timer can hold, is returned as asked: complete.ts caps it.
  assert.equal(parseRetryAfter(new Headers({"retry-after": "3600"})), 3_600_000);
  assert.equal(parseRetryAfter(new Headers({"retry-after": "10000000000"})), 1e13);
});

test("timer delays are clamped to what setTimeout holds (2^31 - 1 ms)", () => {
  assert.equal(maxTimerMs, 2147483647);
  assert.deepEqual([1e13, Infinity, -5, NaN, 250].map(timerMs), [maxTimerMs, maxTimerMs, 0, 0, 250]);
});

test("the progress line says when an endpoint asked to wait, for how long, and whether the wait was capped", () => {
  const counts = {total: 10, skipped: 0, finished: 2, failed: 0, ruleBreaks: 0};
  const s = {...newStats(), requests: 5, completions: 4, failedAttempts: {rate_limit: 1}, retryWaits: 1};
  const now = 1_000_000;
  s.retryWait = {askedMs: 3_600_000, waitMs: 60_000, until: now + 60_000};
  assert.equal(formatProgress(counts, s, 4000, now), "games 2/10 · calls 4 (0 cached) · tokens 0 in, 0 out · rule breaks 0 · errors 1 · waiting 60 s (endpoint asked 3600 s, capped) · ETA 16s");
  s.retryWait = {askedMs: 200, waitMs: 200, until: now + 200};
  assert.match(formatProgress(counts, s, 4000, now), /errors 1 · waiting 0.2 s \(endpoint asked 0.2 s\) · ETA/);
  // Once the wait is over the line no longer mentions it.
  assert.doesNotMatch(formatProgress(counts, s, 4000, now + 201), /waiting/);
});

test("cache keys depend on provider, model, sampling, messages and sample, not on key order", () => {
  const base = {provider: "openai" as const, model: "m", sampling: {max_tokens: 10, temperature: 1}, messages: [{role: "user" as const, content: "hi"}], sample: "g/alice"};
  const k = cacheKey(base);
  assert.match(k, /^[0-9a-f]{64}$/);
  assert.equal(cacheKey({...base, sampling: {temperature: 1, max_tokens: 10}}), k);
  assert.notEqual(cacheKey({...base, provider: "anthropic"}), k);
  assert.notEqual(cacheKey({...base, model: "m2"}), k);
  assert.notEqual(cacheKey({...base, sampling: {max_tokens: 10, temperature: 0.5}}), k);
  assert.notEqual(cacheKey({...base, messages: [{role: "user", content: "hi!"}]}), k);
  assert.notEqual(cacheKey({...base, sample: "g/bob"}), k);
});

test("LLM player specs: defaults, key variables, and errors that name the player and field", () => {
  const spec = parseLlmPlayerSpec({id: "mini", provider: "openai", model: "gpt-4o-mini", base_url: "http://127.0.0.1:8000/v1", api_key_env: "OPENAI_API_KEY", temperature: 1.0, max_tokens: 400, persona: null}, "run.json players[0]");
  assert.equal(spec.timeout_ms, 60_000);
  assert.equal(spec.chain_of_thought, false);
  assert.deepEqual(samplingOf(spec), {max_tokens: 400, temperature: 1});
  assert.equal(parseLlmPlayerSpec({id: "c", provider: "anthropic", model: "claude"}, "p").api_key_env, "ANTHROPIC_API_KEY");
  assert.equal(parseLlmPlayerSpec({id: "l", provider: "openai", model: "llama3", base_url: "http://127.0.0.1:11434/v1"}, "p").api_key_env, null);
  assert.throws(() => parseLlmPlayerSpec({id: "x", provider: "mistral", model: "m"}, "run.json players[1]"), /run.json players\[1\] \(x\): "provider" must be one of openai, anthropic, gemini/);
  assert.throws(() => parseLlmPlayerSpec({id: "x", provider: "openai", model: "m", temprature: 1}, "p"), /unknown field "temprature"/);
  assert.throws(() => parseLlmPlayerSpec({id: "x", provider: "openai", model: "m", api_key_env: "sk-abc123-def"}, "p"), /must be an environment variable name/);
  assert.throws(() => parseLlmPlayerSpec({id: "x", provider: "openai", model: "m", persona: "angry"}, "p"), /"persona" must be null or one of cunning, desperate/);
  // prompts: absent (the published runs' words) unless set; "paper" or "code" otherwise.
  assert.equal("prompts" in spec, false);
  assert.equal(parseLlmPlayerSpec({id: "x", provider: "openai", model: "m", prompts: "code"}, "p").prompts, "code");
  assert.throws(() => parseLlmPlayerSpec({id: "x", provider: "openai", model: "m", prompts: "logs"}, "p"), /p \(x\): "prompts" must be null or one of paper, code, got "logs"/);
});

test("every numeric player setting is checked against a sane range, and the error names the key", () => {
  const base = {id: "x", provider: "openai", model: "m"};
  const spec = parseLlmPlayerSpec(base, "players[0]");
  assert.equal(spec.max_response_bytes, 4 * 1024 * 1024);
  assert.equal(spec.max_retry_wait_ms, 60_000);
  // 1e12 ms overflows Node's timer (it then fires after 1 ms and aborts every request).
  assert.throws(() => parseLlmPlayerSpec({...base, timeout_ms: 1e12}, "players[0]"), {message: "players[0].timeout_ms: expected an integer from 1000 to 3600000, got 1000000000000"});
  const bad: Array<[string, unknown, RegExp]> = [
    ["timeout_ms", 5, /players\[0\]\.timeout_ms: expected an integer from 1000 to 3600000, got 5/],
    ["timeout_ms", 1500.5, /timeout_ms: expected an integer/],
    ["max_retry_wait_ms", 2 ** 31, /players\[0\]\.max_retry_wait_ms: expected an integer from 0 to 3600000, got 2147483648/],
    ["max_retry_wait_ms", -1, /max_retry_wait_ms: expected an integer from 0/],
    ["max_response_bytes", 10, /players\[0\]\.max_response_bytes: expected an integer from 1024 to 1073741824, got 10/],
    ["max_response_bytes", "4MB", /max_response_bytes: expected an integer .* got "4MB"/],
    ["requests_per_minute", 1e-9, /requests_per_minute: expected a number from 0.1 to 1000000/],
    ["max_concurrency", 1e9, /max_concurrency: expected an integer from 1 to 10000/],
    ["max_tokens", 1e12, /max_tokens: expected an integer from 1 to 1000000/],
    ["max_retries", 21, /max_retries: expected an integer from 0 to 20/],
    ["seed", 2 ** 40, /seed: expected an integer from -2147483648 to 2147483647/],
    ["temperature", 3, /temperature: expected a number from 0 to 2, got 3/],
    ["top_p", 0, /top_p: expected a number in \(0, 1\], got 0/],
  ];
  for (const [key, value, message] of bad) assert.throws(() => parseLlmPlayerSpec({...base, [key]: value}, "players[0]"), message, `${key} = ${value}`);
  const ok = parseLlmPlayerSpec({...base, timeout_ms: 1000, max_retry_wait_ms: 0, max_response_bytes: 1024, requests_per_minute: 0.5, seed: -1}, "players[0]");
  assert.deepEqual([ok.timeout_ms, ok.max_retry_wait_ms, ok.max_response_bytes, ok.requests_per_minute, ok.seed], [1000, 0, 1024, 0.5, -1]);
});

test("players sharing an endpoint share its limits; conflicting limits are refused", async () => {
  const {checkSharedLimits} = await import("../../loaders/runner/llmPlayers.js");
  const a = parseLlmPlayerSpec({id: "a", provider: "openai", model: "m1", base_url: "http://127.0.0.1:9/v1"}, "p");
  const b = parseLlmPlayerSpec({id: "b", provider: "openai", model: "m2", base_url: "http://127.0.0.1:9/v1", requests_per_minute: 60}, "p");
  checkSharedLimits([a, b]);
  assert.equal(a.requests_per_minute, 60);
  const c = parseLlmPlayerSpec({id: "c", provider: "openai", model: "m3", base_url: "http://127.0.0.1:9/v1", requests_per_minute: 30}, "p");
  assert.throws(() => checkSharedLimits([a, c]), /players a and c share the endpoint openai http:\/\/127.0.0.1:9\/v1 but ask for different requests_per_minute \(60 and 30\)/);
});
