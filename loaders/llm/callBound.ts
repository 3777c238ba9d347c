/**
 * The most tokens one request can be billed for, known before it is sent:
 * what `--max-cost` reserves (runner/budget.ts), so that no call can take a
 * run's spend past its budget, however many are in flight.
 *
 * Output: the limit the request itself sends (`outputLimit`, which the
 * provider clients send as is): OpenAI's `max_tokens`, or a reasoning
 * model's `max_completion_tokens`, which counts its reasoning; Anthropic's
 * `max_tokens`, which counts thinking (budget_tokens must be below it);
 * Gemini's `maxOutputTokens`, which counts thoughts (reasoning.ts cites the
 * providers' pages). Every player has one: `max_tokens` defaults to 400.
 *
 * Input: the request's UTF-8 bytes, not an estimate. Every tokenizer these
 * providers use splits text into tokens of at least one byte each —
 * byte-level BPE (OpenAI's tiktoken, Llama 3, Qwen, DeepSeek, Claude) or
 * SentencePiece with byte fallback (Gemini, Gemma, Mistral) — so a text of
 * n bytes is at most n tokens, whatever its language or content (the usual
 * "4 characters a token" of English prose is an average, and
 * characters / 2 is exceeded by Chinese or by digits and punctuation). On
 * top of the text: `PER_MESSAGE` tokens for each message's chat-template
 * markers (OpenAI's cookbook counts 3 a message and 3 for the reply; open
 * models' templates up to about 10), `PER_REQUEST` for a template's own
 * default text, and with structured output the schema's bytes plus
 * `SCHEMA_PROMPT` (Anthropic's tool-use system prompt is 346 tokens, its
 * "Tool use" pricing table). English prose is 3 to 4 bytes a token, so the
 * bound is about 3 to 4 times what the call will be billed: the price of a
 * guarantee that holds for any prompt.
 */
import type {ChatMessage, Provider, Sampling} from "./types.js";
import {anthropicThinking, thinkingBudgetOf} from "./reasoning.js";
import {openaiLimits} from "./openaiChat.js";

export const PER_MESSAGE = 16;
export const PER_REQUEST = 64;
export const SCHEMA_PROMPT = 512;

/** The most tokens of output a request allows (thinking included), as its client sends it; null if it sends none. */
export function outputLimit(provider: Provider, model: string, sampling: Sampling): number | null {
  if (provider === "openai") {
    const limits = openaiLimits(sampling);
    const limit = limits.max_completion_tokens ?? limits.max_tokens;
    return typeof limit === "number" ? limit : null;
  }
  if (provider === "anthropic") return sampling.max_tokens + (anthropicThinking(model, sampling)?.room ?? 0);
  return sampling.max_tokens + (thinkingBudgetOf(sampling) ?? 0);
}

/** The most input tokens a request can be billed for (see the file's comment). */
export function inputBound(messages: readonly ChatMessage[], sampling: Sampling): number {
  let bytes = PER_REQUEST;
  for (const m of messages) bytes += Buffer.byteLength(m.content, "utf8") + PER_MESSAGE;
  if (sampling.response_schema) bytes += Buffer.byteLength(JSON.stringify(sampling.response_schema), "utf8") + SCHEMA_PROMPT;
  return bytes;
}
