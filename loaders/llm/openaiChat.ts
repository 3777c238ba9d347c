/**
 * OpenAI-compatible chat completions (POST {base_url}/chat/completions)
 * through the official `openai` SDK. One client covers OpenAI itself and the
 * servers that speak its protocol: vLLM, Ollama (base_url
 * http://127.0.0.1:11434/v1), LM Studio, llama.cpp's server, OpenRouter.
 *
 * The SDK's own retries are off (maxRetries 0): complete.ts retries every
 * provider with one policy and counts each attempt.
 */
import OpenAI from "openai";
import type {ChatMessage, ProviderCall, Sampling, Usage} from "./types.js";
import {EFFORT_BUDGET, thinkingBudgetOf} from "./reasoning.js";
import {bodyString, bodyText, recordingFetch} from "./transport.js";
import {timerMs} from "./backoff.js";
import {openaiResponseFormat} from "./structuredOutput.js";
import {fieldsOf, tokenCount, usageWarner, type UsageReport} from "./usage.js";

export interface ClientSettings {
  baseURL: string | null;
  /** null for keyless local servers; a placeholder is sent since the SDK requires one. */
  apiKey: string | null;
  timeoutMs: number;
}

export const openaiDefaultBaseURL = "https://api.openai.com/v1";

/**
 * The SDKs' own timeout, a backstop a second after complete.ts's per-attempt
 * timer, so that a slow answer is always reported (and counted) as our
 * timeout rather than as whichever SDK error fired first.
 */
export const sdkTimeout = (timeoutMs: number) => timerMs(timeoutMs + 1000);

export function openaiChat(model: string, settings: ClientSettings): ProviderCall {
  const client = new OpenAI({
    apiKey: settings.apiKey ?? "no-key",
    baseURL: settings.baseURL ?? openaiDefaultBaseURL,
    organization: null,
    project: null,
    maxRetries: 0,
    timeout: sdkTimeout(settings.timeoutMs),
    fetch: recordingFetch,
    logLevel: "off",
  });
  const warn = usageWarner("openai", model);
  return async (messages: ChatMessage[], sampling: Sampling, signal: AbortSignal) => {
    const response = await client.chat.completions.create(
      {
        model,
        messages: messages.map((m) => ({role: m.role, content: m.content})),
        ...openaiLimits(sampling),
        ...(sampling.seed !== undefined && {seed: sampling.seed}),
        ...(sampling.response_schema && {response_format: openaiResponseFormat(sampling.response_schema)}),
      },
      {signal, maxRetries: 0},
    );
    const choice = response.choices?.[0];
    if (!choice) throw new Error(`openai ${model}: response has no choices`);
    return {
      text: bodyText(choice.message?.content, "message content"),
      thinking: reasoningContent(choice.message),
      usage: openaiUsage(response.usage, warn),
      finish_reason: bodyString(choice.finish_reason),
      model: bodyString(response.model),
    };
  };
}

/**
 * The length and sampling fields of a request. A reasoning model
 * (reasoning.ts) gets `max_completion_tokens`, which counts its reasoning
 * too, so the answer's `max_tokens` plus the thinking budget (given, or the
 * effort's); and no
 * temperature or top_p, which it refuses (playerSpec.ts already refused a
 * config asking for them, so only a default 1 is dropped here).
 */
export function openaiLimits(sampling: Sampling): Record<string, unknown> {
  const effort = sampling.reasoning_effort !== undefined ? {reasoning_effort: sampling.reasoning_effort} : {};
  if (sampling.reasoning_model) {
    return {max_completion_tokens: sampling.max_tokens + (thinkingBudgetOf(sampling) ?? EFFORT_BUDGET.medium), ...effort};
  }
  return {
    // A local model thinking in its text (<think>) spends its thinking from the same limit.
    max_tokens: sampling.max_tokens + (thinkingBudgetOf(sampling) ?? 0),
    ...(sampling.temperature !== undefined && {temperature: sampling.temperature}),
    ...(sampling.top_p !== undefined && {top_p: sampling.top_p}),
    ...effort,
  };
}

/** The thinking an OpenAI-compatible server returns beside the answer: `reasoning_content` (vLLM's reasoning parsers, DeepSeek's API) or `reasoning` (Ollama, OpenRouter). */
export function reasoningContent(message: unknown): string | null {
  const m = message as {reasoning_content?: unknown; reasoning?: unknown} | undefined;
  const v = m?.reasoning_content ?? m?.reasoning;
  return typeof v === "string" && v.trim() ? v : null;
}

/**
 * OpenAI usage to ours: prompt_tokens include `prompt_tokens_details.cached_tokens`, completion_tokens include `completion_tokens_details.reasoning_tokens`.
 * Every count is checked (usage.ts): one that is missing or not a count is unknown and reported.
 */
export function openaiUsage(usage: OpenAI.CompletionUsage | undefined, report: UsageReport = () => {}): Usage {
  const u = fieldsOf(usage);
  const cached = tokenCount(fieldsOf(u.prompt_tokens_details).cached_tokens, "usage.prompt_tokens_details.cached_tokens", report, "unsaid");
  const reasoning = tokenCount(fieldsOf(u.completion_tokens_details).reasoning_tokens, "usage.completion_tokens_details.reasoning_tokens", report, "unsaid");
  return {
    input_tokens: tokenCount(u.prompt_tokens, "usage.prompt_tokens", report) ?? null,
    output_tokens: tokenCount(u.completion_tokens, "usage.completion_tokens", report) ?? null,
    ...(cached !== undefined && {cached_input_tokens: cached}),
    ...(reasoning !== undefined && {reasoning_tokens: reasoning}),
  };
}
