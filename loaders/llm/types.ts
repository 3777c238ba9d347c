/**
 * The data that flows through an LLM call, independent of any provider:
 * chat messages in, text plus token usage and latency out.
 *
 * Every provider client (openaiChat.ts, anthropicMessages.ts,
 * geminiGenerate.ts) turns `ChatMessage[]` + `Sampling` into its own wire
 * format and returns a `ProviderReply`; complete.ts adds caching, rate
 * limits, retries and timing on top and returns a `Completion`.
 */

import type {ResponseSchema} from "./structuredOutput.js";

export type Provider = "openai" | "anthropic" | "gemini";
export const providers: readonly Provider[] = ["openai", "anthropic", "gemini"];

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** Sampling parameters sent with a call; part of the cache key. Absent fields are not sent. */
export interface Sampling {
  max_tokens: number;
  temperature?: number;
  top_p?: number;
  /** Provider-side sampling seed where supported (OpenAI, Gemini); ignored by Anthropic. */
  seed?: number;
  /** OpenAI's `reasoning_effort`, sent as is by the OpenAI protocol (the others receive `thinking_budget`, reasoning.ts maps it). */
  reasoning_effort?: ReasoningEffort;
  /** Thinking tokens: Anthropic's `thinking.budget_tokens`, Gemini's `thinkingConfig.thinkingBudget`; also added to the output limit, so `max_tokens` stays the answer's own. */
  thinking_budget?: number;
  /** OpenAI protocol only: the model is a reasoning model (max_completion_tokens, no temperature or top_p); see reasoning.ts. */
  reasoning_model?: true;
  /** Structured output: the answer is constrained to this schema (structuredOutput.ts; OpenAI response_format, Anthropic a forced tool, Gemini responseSchema). */
  response_schema?: ResponseSchema;
}

/** OpenAI's reasoning effort values that every provider maps (reasoning.ts). */
export const REASONING_EFFORTS = ["minimal", "low", "medium", "high"] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

/**
 * Tokens of one call, in the same sense for every provider: `input_tokens`
 * is all input (Anthropic's input_tokens + cache_read_input_tokens +
 * cache_creation_input_tokens; OpenAI's prompt_tokens and Gemini's
 * promptTokenCount already are), of which `cached_input_tokens` were billed
 * at the cached rate; `output_tokens` is all output (Gemini's
 * candidatesTokenCount + thoughtsTokenCount), of which `reasoning_tokens`
 * were thinking. The two parts are absent when the API did not say. A
 * count the endpoint sent that is not one (negative, a string, a fraction,
 * absurdly large) is null: unknown (usage.ts).
 */
export interface Usage {
  input_tokens: number | null;
  output_tokens: number | null;
  cached_input_tokens?: number | null;
  /** Of input_tokens, those written to the provider's cache (Anthropic's cache_creation_input_tokens), billed at its cache-write price. */
  cache_write_tokens?: number | null;
  reasoning_tokens?: number | null;
}

/** What a provider client returns for one successful HTTP exchange. */
export interface ProviderReply {
  /** The answer, without the model's thinking. */
  text: string;
  /** The model's thinking where the API returns it apart from the answer (thinking blocks, thought parts, reasoning_content); reasoning.ts also takes <think> out of `text`. */
  thinking?: string | null;
  usage: Usage;
  /** Provider's own stop reason ("stop", "end_turn", "STOP", "length", ...), when given. */
  finish_reason: string | null;
  /** The model as the API reports it (a dated snapshot where the request named an alias), when given. */
  model?: string | null;
}

/** One provider request: messages and sampling in, reply out; `signal` aborts it. */
export type ProviderCall = (messages: ChatMessage[], sampling: Sampling, signal: AbortSignal) => Promise<ProviderReply>;

/** The uniform result of `complete`. */
export interface Completion extends ProviderReply {
  /** Wall time of the successful HTTP attempt in milliseconds (not queueing or backoff); for a cache hit, that of the original call. */
  latency_ms: number;
  /** True when the answer came from the response cache and no request was sent. */
  cached: boolean;
  /** HTTP attempts made for this completion (1 without retries, 0 for a cache hit). */
  attempts: number;
}

/** Why a call failed, in terms the retry policy and the progress line understand. */
export type FailureKind = "rate_limit" | "server" | "timeout" | "connection" | "bad_response" | "too_large" | "client" | "config";

/**
 * A call that failed for good: a non-retryable status, or retries exhausted.
 * Its message never contains an API key (see secrets.ts).
 */
export class LlmCallError extends Error {
  constructor(
    message: string,
    readonly kind: FailureKind,
    readonly status: number | null,
    readonly attempts: number,
  ) {
    super(message);
    this.name = "LlmCallError";
  }
}

/** A request as a budget sees it before it is sent: who sends it, to which model, and what. */
export interface BudgetedRequest {
  player: string;
  provider: Provider;
  model: string;
  messages: readonly ChatMessage[];
  sampling: Sampling;
}

/**
 * What `complete` asks before each request it sends and tells after it
 * (runner/budget.ts: `--max-cost` and the run's spend record). A cached
 * answer sends nothing and asks nothing.
 */
export interface CallBudget<Ticket = unknown> {
  /**
   * Resolves once the most the request can cost is recorded as reserved
   * (durably: a kill after it cannot lose it); rejects with BudgetExhausted
   * when that would take the spend past the budget, and then the request is
   * not sent.
   */
  reserve(request: BudgetedRequest): Promise<Ticket>;
  /** The request's real cost: its usage, or null when what it was billed is unknown (the reservation then stays spent). */
  settle(ticket: Ticket, usage: Usage | null): void;
}

/** A call not sent because its reservation would take the run's spend past `--max-cost` (the game ends unrecorded; a rerun resumes it). */
export class BudgetExhausted extends LlmCallError {
  constructor(message: string) {
    super(message, "client", null, 0);
    this.name = "BudgetExhausted";
  }
}
