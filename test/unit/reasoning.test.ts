/**
 * Reasoning models, pure parts: the settings a player config may combine
 * (refused before any call, naming player and key), what each provider's
 * request gets (output limits, effort, thinking, cache breakpoints), each
 * API's usage read into ours, thinking taken out of an answer's text, and
 * the cost of recorded usage with cached and reasoning tokens, by hand.
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {parseLlmPlayerSpec, samplingOf} from "../../loaders/llm/playerSpec.js";
import {anthropicThinking, anthropicThinkingForms, isOpenaiReasoningModel, splitThink, thinkingBudgetOf} from "../../loaders/llm/reasoning.js";
import {openaiLimits, openaiUsage, reasoningContent} from "../../loaders/llm/openaiChat.js";
import {anthropicUsage, cachedTurns} from "../../loaders/llm/anthropicMessages.js";
import {geminiUsage} from "../../loaders/llm/geminiGenerate.js";
import {thinkingApart} from "../../loaders/llm/complete.js";
import {cacheKey} from "../../loaders/llm/cache.js";
import {agentCosts, tokenCost} from "../../src/lib/agentCost.js";
import {splitReply} from "../../loaders/llm/parseReply.js";

const spec = (o: Record<string, unknown>) => parseLlmPlayerSpec({id: "p", model: "m", ...o}, "players[1]");
const refused = (o: Record<string, unknown>): string => {
  try {
    spec(o);
  } catch (error) {
    return (error as Error).message;
  }
  assert.fail(`accepted ${JSON.stringify(o)}`);
};

test("impossible combinations are refused when the config is read, naming the player and the key", () => {
  assert.equal(refused({provider: "anthropic", thinking_budget: 2048, temperature: 0.7}), 'players[1] (p): "temperature": Anthropic\'s extended thinking does not allow a temperature (remove it: thinking runs at the default)');
  assert.match(refused({provider: "anthropic", thinking_budget: 512}), /^players\[1\] \(p\): "thinking_budget": .*at least 1024 tokens, got 512$/);
  assert.match(refused({provider: "anthropic", reasoning_effort: "high", top_p: 0.5}), /"top_p": .*from 0\.95 to 1/);
  assert.match(refused({provider: "anthropic", reasoning_effort: "high", thinking_budget: 4096}), /"thinking_budget": give reasoning_effort or thinking_budget, not both/);
  assert.match(refused({provider: "openai", model: "o3-mini", temperature: 0.7}), /"temperature": OpenAI reasoning models accept only the default temperature 1, got 0\.7/);
  assert.match(refused({provider: "openai", model: "gpt-5-mini-2025-08-07", top_p: 0.9}), /"top_p"/);
  assert.match(refused({provider: "openai", model: "local", reasoning_effort: "low", temperature: 0.6}), /"temperature"/, "asking for an effort makes it a reasoning model");
  assert.match(refused({provider: "gemini", model: "gemini-2.5-pro", thinking_budget: 0}), /"thinking_budget": gemini-2\.5-pro cannot turn thinking off/);
  assert.match(refused({provider: "gemini", model: "gemini-2.5-flash", thinking_budget: 30000}), /from 1 to 24576 \(or 0: no thinking\), got 30000/);
  assert.match(refused({provider: "gemini", model: "gemini-2.5-flash-lite", thinking_budget: 100}), /from 512 to 24576/);
  assert.match(refused({provider: "gemini", reasoning_model: true}), /"reasoning_model": only OpenAI-protocol players/);
  assert.match(refused({provider: "openai", model: "o3", reasoning_effort: "minimal"}), /"reasoning_effort": o3 does not take "minimal"/);
  assert.match(refused({provider: "openai", model: "gpt-5.1", reasoning_effort: "minimal"}), /"reasoning_effort"/);
  for (const model of ["gpt-5", "gpt-5-mini", "gpt-5-nano-2025-08-07", "gpt-5-2025-08-07"]) spec({provider: "openai", model, reasoning_effort: "minimal"});
  spec({provider: "openai", model: "qwen3", base_url: "http://127.0.0.1:1/v1", reasoning_effort: "minimal"});
  assert.match(refused({provider: "openai", reasoning_effort: "extreme"}), /"reasoning_effort" must be null or one of minimal, low, medium, high/);
  assert.match(refused({provider: "openai", thinking_budget: -5}), /thinking_budget: expected an integer from 0/);
  // Allowed: temperature 1 on a reasoning model, top_p 0.95 with thinking, a local model declared not a reasoning model.
  spec({provider: "openai", model: "o4-mini", temperature: 1});
  spec({provider: "anthropic", thinking_budget: 1024, top_p: 0.95});
  spec({provider: "openai", model: "qwen3", base_url: "http://127.0.0.1:8000/v1", reasoning_effort: "low", reasoning_model: false, temperature: 0.6});
  spec({provider: "gemini", model: "gemini-2.5-flash", thinking_budget: 0});
});

test("Anthropic's thinking forms by model version: the budget before 4.6, both in 4.6, only adaptive (an effort, no budget) from Opus 4.7 and Claude 5", () => {
  const forms = (m: string) => anthropicThinkingForms(m);
  for (const m of ["claude-3-7-sonnet-20250219", "claude-sonnet-4-5", "claude-sonnet-4-5-20250929", "claude-haiku-4-5-20251001", "claude-opus-4-1", "claude-sonnet-4", "claude-x"]) assert.equal(forms(m), "budget", m);
  for (const m of ["claude-opus-4-6", "claude-sonnet-4-6"]) assert.equal(forms(m), "both", m);
  for (const m of ["claude-opus-4-7", "claude-opus-4-8", "claude-mythos-preview", "claude-sonnet-5", "claude-opus-5-5", "claude-fable-5-1"]) assert.equal(forms(m), "adaptive", m);
  assert.deepEqual(anthropicThinking("claude-opus-4-7", {reasoning_effort: "minimal"}), {effort: "low", room: 1024});
  assert.deepEqual(anthropicThinking("claude-sonnet-4-6", {reasoning_effort: "high"}), {effort: "high", room: 24576});
  assert.deepEqual(anthropicThinking("claude-sonnet-4-6", {thinking_budget: 2048}), {budget: 2048, room: 2048});
  assert.deepEqual(anthropicThinking("claude-sonnet-4-5", {reasoning_effort: "medium"}), {budget: 8192, room: 8192});
  assert.equal(anthropicThinking("claude-sonnet-4-5", {}), null);
  assert.match(refused({provider: "anthropic", model: "claude-opus-4-7", thinking_budget: 4096}), /"thinking_budget": claude-opus-4-7 takes only adaptive thinking/);
  assert.match(refused({provider: "anthropic", model: "claude-sonnet-5", reasoning_effort: "low", temperature: 0.5}), /"temperature"/);
  spec({provider: "anthropic", model: "claude-opus-4-7", reasoning_effort: "high"});
});

test("which OpenAI models are reasoning models: by name, by an effort asked for, or as the config says", () => {
  for (const m of ["o1", "o1-mini", "o3", "o3-mini-2025-01-31", "o4-mini", "gpt-5", "gpt-5-mini", "gpt-5.1", "openai/o3"]) assert.ok(isOpenaiReasoningModel(m, null, null), m);
  for (const m of ["gpt-4o", "gpt-4o-mini", "gpt-4.1", "omni-x", "qwen3:8b", "deepseek-r1"]) assert.ok(!isOpenaiReasoningModel(m, null, null), m);
  assert.ok(isOpenaiReasoningModel("deepseek-r1", "low", null));
  assert.ok(!isOpenaiReasoningModel("o3", null, false));
  assert.ok(isOpenaiReasoningModel("gpt-4o", null, true));
});

test("the requests: output limits, effort and budget per provider; settings absent from old configs stay out of the sampling (and the cache key)", () => {
  const plain = samplingOf(spec({provider: "openai", model: "gpt-4o-mini", temperature: 0.5}));
  assert.deepEqual(plain, {max_tokens: 400, temperature: 0.5});
  assert.deepEqual(openaiLimits(plain), {max_tokens: 400, temperature: 0.5});
  const o3 = samplingOf(spec({provider: "openai", model: "o3", reasoning_effort: "high", max_tokens: 300}));
  assert.deepEqual(o3, {max_tokens: 300, reasoning_effort: "high", reasoning_model: true});
  assert.deepEqual(openaiLimits(o3), {max_completion_tokens: 300 + 24576, reasoning_effort: "high"});
  assert.deepEqual(openaiLimits(samplingOf(spec({provider: "openai", model: "gpt-5", temperature: 1}))), {max_completion_tokens: 400 + 8192}, "no effort: the API's default (medium) budget; temperature 1 is the default, not sent");
  const local = samplingOf(spec({provider: "openai", model: "qwen3", base_url: "http://127.0.0.1:1/v1", thinking_budget: 2000, reasoning_model: false}));
  assert.deepEqual(openaiLimits(local), {max_tokens: 2400}, "a model thinking in its text spends its budget from max_tokens");
  const claude = samplingOf(spec({provider: "anthropic", reasoning_effort: "medium"}));
  assert.equal(thinkingBudgetOf(claude), 8192);
  assert.deepEqual(samplingOf(spec({provider: "gemini", thinking_budget: 0})), {max_tokens: 400, thinking_budget: 0});
  const key = (s: object) => cacheKey({provider: "openai", model: "o3", sampling: s as never, messages: [{role: "user", content: "x"}], sample: "s"});
  assert.notEqual(key(o3), key({...o3, reasoning_effort: "low"}), "the effort is part of the cache key");
  assert.equal(key({max_tokens: 400}), key({max_tokens: 400, reasoning_effort: undefined}));
  // Anthropic's cache breakpoints go on the last two turns (and the system prompt, set by the client).
  assert.deepEqual(cachedTurns([{role: "user", content: "a"}, {role: "assistant", content: "b"}, {role: "user", content: "c"}]), [
    {role: "user", content: "a"},
    {role: "assistant", content: [{type: "text", text: "b", cache_control: {type: "ephemeral"}}]},
    {role: "user", content: [{type: "text", text: "c", cache_control: {type: "ephemeral"}}]},
  ]);
  assert.deepEqual(cachedTurns([{role: "user", content: "a"}]), [{role: "user", content: [{type: "text", text: "a", cache_control: {type: "ephemeral"}}]}]);
});

test("each API's usage in the same sense: all input with its cached part, all output with its thinking part", () => {
  assert.deepEqual(openaiUsage({prompt_tokens: 2000, completion_tokens: 900, total_tokens: 2900, prompt_tokens_details: {cached_tokens: 1792}, completion_tokens_details: {reasoning_tokens: 640}}), {input_tokens: 2000, output_tokens: 900, cached_input_tokens: 1792, reasoning_tokens: 640});
  assert.deepEqual(openaiUsage({prompt_tokens: 20, completion_tokens: 9, total_tokens: 29}), {input_tokens: 20, output_tokens: 9}, "a server that does not say: unknown, not 0");
  // Anthropic's input_tokens leave out the cache: 50 + 3000 read + 200 written.
  assert.deepEqual(anthropicUsage({input_tokens: 50, cache_read_input_tokens: 3000, cache_creation_input_tokens: 200, output_tokens: 900, output_tokens_details: {thinking_tokens: 700}}), {input_tokens: 3250, output_tokens: 900, cached_input_tokens: 3000, cache_write_tokens: 200, reasoning_tokens: 700});
  // Gemini's candidatesTokenCount leaves out the thoughts; a zero count is absent from its JSON.
  assert.deepEqual(geminiUsage({promptTokenCount: 1500, candidatesTokenCount: 40, thoughtsTokenCount: 300, cachedContentTokenCount: 1024}), {input_tokens: 1500, output_tokens: 340, cached_input_tokens: 1024, reasoning_tokens: 300});
  assert.deepEqual(geminiUsage({promptTokenCount: 10, candidatesTokenCount: 4}), {input_tokens: 10, output_tokens: 4, cached_input_tokens: 0, reasoning_tokens: 0});
  assert.equal(reasoningContent({content: "{}", reasoning_content: "let me see"}), "let me see");
  assert.equal(reasoningContent({content: "{}", reasoning: "ollama's field"}), "ollama's field");
  assert.equal(reasoningContent({content: "{}"}), null);
});

test("thinking in the text is taken out before the answer is parsed, an unclosed <think> cut by the token limit included", () => {
  assert.deepEqual(splitThink('<think>\nShe offered 40%.\n</think>\n\n{"decision": "accept"}'), {text: '{"decision": "accept"}', thinking: "She offered 40%."});
  assert.deepEqual(splitThink("<think>I should offer {\"alice_gain\": 6000} or"), {text: "", thinking: 'I should offer {"alice_gain": 6000} or'});
  assert.deepEqual(splitThink('the opening tag was in the template</think>{"x": 1}'), {text: '{"x": 1}', thinking: "the opening tag was in the template"});
  assert.deepEqual(splitThink('<think></think>{"x": 1}'), {text: '{"x": 1}', thinking: null});
  assert.deepEqual(splitThink('{"x": 1}'), {text: '{"x": 1}', thinking: null});
  // The JSON inside the thinking is never the answer; an unclosed one leaves no answer at all (a rule break, not a wrong move).
  const cut = thinkingApart({text: '<think>maybe {"decision": "reject"}', usage: {input_tokens: 1, output_tokens: 1}, finish_reason: "length"});
  assert.equal(cut.text, "");
  assert.equal(splitReply(cut.text).json, null);
  const both = thinkingApart({text: '<think>b</think>{"decision": "accept"}', thinking: "a", usage: {input_tokens: 1, output_tokens: 1}, finish_reason: "stop"});
  assert.deepEqual([both.text, both.thinking], ['{"decision": "accept"}', "a\n\nb"]);
  assert.deepEqual(splitReply(both.text).json, {decision: "accept"});
});

test("thinking tags in any number and shape are taken out in one pass", () => {
  // A megabyte of blanks and no closing tag: the lone-closing-tag pattern once backtracked over every split of them.
  const blanks = " ".repeat(1_000_000);
  assert.deepEqual(splitThink(`${blanks}{"x": 1}`), {text: `${blanks}{"x": 1}`, thinking: null});
  assert.deepEqual(splitThink(`${blanks}</think>{"x": 1}`), {text: '{"x": 1}', thinking: null});
  // A hundred thousand blocks: each once searched from the start of the text rebuilt without the one before.
  assert.deepEqual(splitThink(`${"<think>a</think>".repeat(100_000)}{"x": 1}`), {text: '{"x": 1}', thinking: new Array(100_000).fill("a").join("\n\n")});
  assert.deepEqual(splitThink("<think>".repeat(100_000)), {text: "", thinking: "<think>".repeat(99_999)});
  assert.deepEqual(splitThink(`a</think>${"</think>".repeat(100_000)}b`), {text: `${"</think>".repeat(100_000)}b`, thinking: "a"});
  assert.deepEqual(splitThink(`<THINK>x</Think> ${"<think></think>".repeat(100_000)}{"y": 2}`), {text: '{"y": 2}', thinking: "x"});
});

test("cost of recorded usage with cached and reasoning tokens, by hand", () => {
  const price = {input_per_million: 3, cached_input_per_million: 0.3, output_per_million: 15, as_of: "2026-11-01"};
  // 10,000 input of which 8,000 cached; 1,500 output of which 1,200 thinking (billed as output):
  // 2,000 × 3 + 8,000 × 0.3 + 1,500 × 15 = 6,000 + 2,400 + 22,500 = 30,900 millionths of a dollar.
  assert.ok(Math.abs(tokenCost(price, {input_tokens: 10_000, cached_input_tokens: 8_000, output_tokens: 1_500}) - 0.0309) < 1e-15);
  // Without a cached price every input token is at the input price: 10,000 × 3 + 1,500 × 15 = 52,500.
  assert.ok(Math.abs(tokenCost({...price, cached_input_per_million: null}, {input_tokens: 10_000, cached_input_tokens: 8_000, output_tokens: 1_500}) - 0.0525) < 1e-15);
  // Anthropic's writes to its cache at 1.25 × the input price: 10,000 input of which 6,000 read and 3,000 written, 500 output at $3 / $0.30 / $3.75 / $15:
  // 1,000 × 3 + 6,000 × 0.3 + 3,000 × 3.75 + 500 × 15 = 3,000 + 1,800 + 11,250 + 7,500 = 23,550 millionths.
  assert.ok(Math.abs(tokenCost({...price, cache_write_per_million: 3.75}, {input_tokens: 10_000, cached_input_tokens: 6_000, cache_write_tokens: 3_000, output_tokens: 500}) - 0.02355) < 1e-15);
  // Per game: two games of an agent, 20,000 input (15,000 cached), 3,000 output → (5,000 × 3 + 15,000 × 0.3 + 3,000 × 15) / 1e6 / 2 = 0.03225.
  const [c] = agentCosts([{agent: "claude", games: 2, games_with_tokens: 2, input_tokens: 20_000, cached_input_tokens: 15_000, reasoning_tokens: 2_000, output_tokens: 3_000}], {"anthropic/claude": price});
  assert.ok(Math.abs(c!.cost_per_game! - 0.03225) < 1e-15);
});
