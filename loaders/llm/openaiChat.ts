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
import type {ChatMessage, ProviderCall, Sampling} from "./types.js";
import {recordingFetch} from "./transport.js";
import {timerMs} from "./backoff.js";
import {openaiResponseFormat} from "./structuredOutput.js";

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
  return async (messages: ChatMessage[], sampling: Sampling, signal: AbortSignal) => {
    const response = await client.chat.completions.create(
      {
        model,
        messages: messages.map((m) => ({role: m.role, content: m.content})),
        max_tokens: sampling.max_tokens,
        ...(sampling.temperature !== undefined && {temperature: sampling.temperature}),
        ...(sampling.top_p !== undefined && {top_p: sampling.top_p}),
        ...(sampling.seed !== undefined && {seed: sampling.seed}),
        ...(sampling.response_schema && {response_format: openaiResponseFormat(sampling.response_schema)}),
      },
      {signal, maxRetries: 0},
    );
    const choice = response.choices?.[0];
    if (!choice) throw new Error(`openai ${model}: response has no choices`);
    return {
      text: choice.message?.content ?? "",
      usage: {input_tokens: response.usage?.prompt_tokens ?? 0, output_tokens: response.usage?.completion_tokens ?? 0},
      finish_reason: choice.finish_reason ?? null,
      model: response.model ?? null,
    };
  };
}
