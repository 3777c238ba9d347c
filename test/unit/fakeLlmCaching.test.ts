// The fake LLM servers' prompt caching (test/support/fakeLlmRules.ts), which the caching tests and the
// promptCaching bench rely on, against each provider's documented rule, by hand: OpenAI caches a repeated
// prefix from 1,024 tokens on, in steps of 128; Gemini's implicit caching from its model's minimum (2,048
// tokens for 2.5 Flash and Pro, 4,096 for Gemini 3), without steps; Anthropic only what a cache_control
// breakpoint wrote, from its model's minimum (1,024 for Sonnet 4.5, 4,096 for Haiku 4.5 and Opus 4.5, 2,048
// for Haiku 3.5). The fake counts a token as four characters; a block's text is its role, a NUL, its
// content and a \u0001, so a message "user" + content shares 5 + n characters with another that begins
// with the same n characters of content.
import {test} from "node:test";
import assert from "node:assert/strict";
import {PromptCache, documentedMinimum, promptBlocks} from "../support/fakeLlmRules.js";
import type {Wire} from "../support/fakeLlm.js";

/** A content whose block shares exactly `tokens` tokens (4 × tokens characters) with another of the same start. */
const sharing = (tokens: number, tail: string) => "a".repeat(4 * tokens - 5) + tail;

/** The tokens the second of two one-message prompts reads from the cache, when the two share a prefix of `tokens` tokens. */
function readAfter(wire: Exclude<Wire, "anthropic">, model: string, tokens: number): number {
  const cache = new PromptCache(wire);
  const body = (content: string) => (wire === "openai" ? {messages: [{role: "user", content}]} : {contents: [{role: "user", parts: [{text: content}]}]});
  const first = cache.count(model, promptBlocks(wire, body(sharing(tokens, "x".repeat(400)))));
  assert.equal(first.read, 0, "nothing cached before the first request");
  return cache.count(model, promptBlocks(wire, body(sharing(tokens, "y".repeat(400))))).read;
}

test("OpenAI: a repeated prefix of at least 1,024 tokens, cached in steps of 128 tokens", () => {
  assert.equal(readAfter("openai", "gpt-4o-mini", 1023), 0);
  assert.equal(readAfter("openai", "gpt-4o-mini", 1024), 1024);
  assert.equal(readAfter("openai", "gpt-4o-mini", 1151), 1024);
  assert.equal(readAfter("openai", "gpt-4o-mini", 1152), 1152);
  assert.equal(readAfter("openai", "o4-mini", 3000), 2944, "23 × 128");
});

test("Gemini: a repeated prefix of at least the model's minimum (2,048 for 2.5, 4,096 for 3), as long as it is", () => {
  assert.equal(readAfter("gemini", "gemini-2.5-flash", 2047), 0);
  assert.equal(readAfter("gemini", "gemini-2.5-flash", 2048), 2048);
  assert.equal(readAfter("gemini", "gemini-2.5-flash", 2101), 2101, "no steps");
  assert.equal(readAfter("gemini", "gemini-2.5-pro", 2048), 2048);
  assert.equal(readAfter("gemini", "gemini-3-pro-preview", 4095), 0);
  assert.equal(readAfter("gemini", "gemini-3-pro-preview", 4096), 4096);
});

test("Anthropic: only prefixes a breakpoint wrote, of at least the model's minimum, are read", () => {
  // A conversation of two turns, a breakpoint on the system prompt and one on the last turn, as parley sends it.
  const request = (system: string, turns: string[]) => ({
    system: [{type: "text", text: system, cache_control: {type: "ephemeral"}}],
    messages: turns.map((text, i) => ({role: i % 2 ? "assistant" : "user", content: i === turns.length - 1 ? [{type: "text", text, cache_control: {type: "ephemeral"}}] : text})),
  });
  const system = "s".repeat(4000); // 1,002 tokens with its role and separators: under every minimum alone
  const first = request(system, ["u".repeat(6000)]);
  const second = request(system, ["u".repeat(6000), "reply", "next"]);
  const blocks = (body: object) => promptBlocks("anthropic", body as Record<string, unknown>);
  const sonnet = new PromptCache("anthropic");
  const wrote = sonnet.count("claude-sonnet-4-5", blocks(first));
  assert.deepEqual([wrote.read, wrote.written], [0, Math.ceil((4000 + 8 + 6000 + 6) / 4)], "the first request writes its whole prompt (system + turn: 2,504 tokens)");
  const read = sonnet.count("claude-sonnet-4-5", blocks(second));
  assert.equal(read.read, wrote.written, "the second reads what the first wrote");
  assert.equal(sonnet.count("claude-opus-4-1", blocks(second)).read, 0, "a cache per model");
  // Haiku 4.5's minimum is 4,096 tokens: the same prompts write and read nothing.
  const haiku = new PromptCache("anthropic");
  assert.deepEqual(haiku.count("claude-haiku-4-5", blocks(first)), {read: 0, written: 0, input: wrote.written});
  assert.equal(haiku.count("claude-haiku-4-5", blocks(second)).read, 0);
  // A system prompt alone under the minimum is never written, even with a breakpoint.
  const short = new PromptCache("anthropic");
  short.count("claude-sonnet-4-5", blocks(request(system, ["q"])));
  assert.equal(short.count("claude-sonnet-4-5", blocks(request(system, ["other question"]))).read, 0);
});

test("the minimums as each provider's documentation tables them", () => {
  const table: [Wire, string, number][] = [
    ["openai", "gpt-4o-mini", 1024], ["openai", "o4-mini", 1024], ["openai", "gpt-5", 1024],
    ["anthropic", "claude-sonnet-4-5", 1024], ["anthropic", "claude-sonnet-4-6", 1024], ["anthropic", "claude-opus-4-1", 1024], ["anthropic", "claude-3-7-sonnet-latest", 1024],
    ["anthropic", "claude-opus-4-5", 4096], ["anthropic", "claude-opus-4-6", 4096], ["anthropic", "claude-haiku-4-5", 4096], ["anthropic", "claude-3-5-haiku-latest", 2048],
    ["gemini", "gemini-2.5-flash", 2048], ["gemini", "gemini-2.5-pro", 2048], ["gemini", "gemini-2.5-flash-lite", 2048], ["gemini", "gemini-3-pro-preview", 4096], ["gemini", "gemini-3.1-pro-preview", 4096],
  ];
  for (const [wire, model, tokens] of table) assert.equal(documentedMinimum(wire, model), tokens, `${wire} ${model}`);
});
