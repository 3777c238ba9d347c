/**
 * Four strict fake endpoints (fakeLlm.ts, fakeLlmRules.ts) and an LLM player
 * with reasoning settings on each, for the tests and the bench of reasoning
 * models: OpenAI's o4-mini with a reasoning effort, Anthropic with extended
 * thinking, Gemini 2.5 Flash with a thinking budget, and a local
 * OpenAI-compatible model (a Qwen3 or DeepSeek-R1 behind vLLM or Ollama)
 * that writes its thinking into the text between <think> tags. Every
 * endpoint refuses what its provider documents it refuses, and reports
 * prompt caching as its provider does.
 *
 * `thinkingReplies` wraps a responder so that every answer comes with
 * thinking where each provider puts it, marked THINKING_MARK, and carrying a
 * decoy JSON answer, so a test can see it never reaches the answer's
 * parsing, the public message or any later prompt.
 */
import {startFakeLlm, type FakeLlmServer, type Reply, type Responder, type Wire} from "./fakeLlm.js";
import type {CacheRules} from "./fakeLlmRules.js";

export const THINKING_MARK = "PRIVATE-THOUGHT";
export const FAKE_KEY_ENV = "PARLEY_FAKE_KEY";

export interface ReasoningFakes {
  openai: FakeLlmServer;
  anthropic: FakeLlmServer;
  gemini: FakeLlmServer;
  local: FakeLlmServer;
  all: FakeLlmServer[];
  close(): Promise<void>;
}

/** An answer's thinking, with a decoy answer in it that must never be read as the move. */
const thought = (n: number) => `${THINKING_MARK} ${n}: weighing the offer. Draft: {"decision": "decoy", "alice_gain": -1}`;

/**
 * `respond`'s text replies with thinking added: apart for the hosted APIs,
 * between <think> tags for the local model, whose first reply is cut off by
 * the token limit inside its thinking when `cutFirst` (no answer: a rule
 * break, asked again).
 */
export function thinkingReplies(respond: Responder, wire: Wire | "local", cutFirst = false): Responder {
  let n = 0;
  return async (request) => {
    const reply: Reply = await respond(request);
    if (!("text" in reply)) return reply;
    n++;
    if (wire !== "local") return {...reply, thinking: thought(n)};
    if (cutFirst && n === 1) return {...reply, text: `<think>\n${thought(n)} and then`};
    return {...reply, text: `<think>\n${thought(n)}\n</think>\n\n${reply.text}`};
  };
}

/** The four endpoints, strict and caching, answering with `respond` (wrapped by `thinkingReplies`). */
export async function startReasoningFakes(respond: Responder, {cutFirst = false, caching = true}: {cutFirst?: boolean; caching?: true | CacheRules} = {}): Promise<ReasoningFakes> {
  const [openai, anthropic, gemini, local] = await Promise.all([
    startFakeLlm("openai", thinkingReplies(respond, "openai"), {strict: true, caching}),
    startFakeLlm("anthropic", thinkingReplies(respond, "anthropic"), {strict: true, caching}),
    startFakeLlm("gemini", thinkingReplies(respond, "gemini"), {strict: true, caching}),
    startFakeLlm("openai", thinkingReplies(respond, "local", cutFirst), {strict: true}),
  ]);
  const all = [openai!, anthropic!, gemini!, local!];
  return {openai: openai!, anthropic: anthropic!, gemini: gemini!, local: local!, all, close: async () => void (await Promise.all(all.map((s) => s.close())))};
}

/** The four LLM players, one per endpoint, each with reasoning settings (ids gpt, claude, gemini, local). */
export function reasoningPlayers(fakes: ReasoningFakes, extra: Record<string, unknown> = {}): Record<string, unknown>[] {
  const common = {api_key_env: FAKE_KEY_ENV, max_tokens: 300, timeout_ms: 5000, max_retries: 0, ...extra};
  return [
    {id: "gpt", provider: "openai", model: "o4-mini", base_url: fakes.openai.baseURL, reasoning_effort: "low", ...common},
    {id: "claude", provider: "anthropic", model: "claude-sonnet-4-5", base_url: fakes.anthropic.baseURL, thinking_budget: 1024, ...common},
    {id: "gemini", provider: "gemini", model: "gemini-2.5-flash", base_url: fakes.gemini.baseURL, reasoning_effort: "medium", ...common},
    {id: "local", provider: "openai", model: "local-qwen3", base_url: fakes.local.baseURL, reasoning_model: false, thinking_budget: 512, temperature: 0.6, ...common},
  ];
}
