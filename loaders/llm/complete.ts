/**
 * `complete(messages, sampling)` for any provider: the one place where an
 * LLM call is cached, rate-limited, timed out, retried and counted.
 *
 * Order of events for one call:
 *   1. cache lookup (a hit returns at once, sends nothing);
 *   2. an identical call already in flight in this process is shared;
 *   3. per attempt: wait for the endpoint's limiter (concurrency, rate,
 *      Retry-After pause), reserve the most the request can cost with the
 *      run's budget (`budget`: runner/budget.ts; a refusal ends the call
 *      unsent), send with a per-attempt timeout, release, and settle the
 *      reservation with the usage (an answer lost on the way may have been
 *      billed: its reservation stays spent; an HTTP error was not billed);
 *   4. on a retryable failure (429, 408/409, 5xx, timeout, dropped
 *      connection, unreadable or oversized body) back off exponentially with jitter,
 *      or for as long as Retry-After asks up to `maxRetryWaitMs` (an hour
 *      asked is not an hour stalled), up to `maxRetries` retries;
 *   5. on success write the cache entry (atomically) and return.
 * Every reply, from the network or the cache, is scrubbed of API keys here,
 * the one place where model text enters the system (secrets.ts), so that
 * an echoing endpoint cannot put a key into the cache, turns, checkpoints
 * or the other player's prompt. A call that fails for good throws
 * `LlmCallError` (never containing a key).
 */
import {recordCall} from "./promptLog.js";
import {performance} from "node:perf_hooks";
import type {CallBudget, ChatMessage, Completion, FailureKind, Provider, ProviderCall, ProviderReply, Sampling} from "./types.js";
import {joinThinking, splitThink} from "./reasoning.js";
import {BudgetExhausted, LlmCallError} from "./types.js";
import {ResponseCache, cacheKey} from "./cache.js";
import {Limiter, limiterFor} from "./limiter.js";
import {backoffDelay, defaultBackoff, sleep, timerMs, type BackoffOptions} from "./backoff.js";
import {classifyFailure, newAttempt, withAttempt, type Failure} from "./transport.js";
import {llmStats, type LlmStats} from "./stats.js";
import {redactSecrets, resolveApiKey} from "./secrets.js";
import {openaiChat, type ClientSettings} from "./openaiChat.js";
import {anthropicMessages} from "./anthropicMessages.js";
import {geminiGenerate} from "./geminiGenerate.js";
import {defaultMaxRetryWaitMs, type LlmPlayerSpec} from "./playerSpec.js";

export interface Endpoint {
  provider: Provider;
  model: string;
  baseURL: string | null;
  timeoutMs: number;
  maxRetries: number;
  /** Largest reply body read (decompressed); default httpFetch.ts's 4 MiB. */
  maxResponseBytes?: number;
  /** Longest wait a Retry-After may impose; default spec.ts's 60 s. */
  maxRetryWaitMs?: number;
}

export interface CompleterOptions {
  /** null: no cache (every call goes to the network). */
  cache: ResponseCache | null;
  limiter: Limiter;
  stats?: LlmStats;
  backoff?: BackoffOptions;
  /** Told about each failed attempt (already key-free; a Retry-After wait is already in `stats.retryWait`), e.g. to redraw the progress line. */
  onFailure?: (failure: Failure, attempt: number) => void;
  /** The run's budget, asked before every request sent (runner/budget.ts); none: calls are not counted. */
  budget?: CallBudget | null;
  /** Whose calls these are, for the budget's spend per player. */
  player?: string;
}

/** Failures after which the endpoint may have answered, and billed, what was not read: their reservation stays spent. */
const MAYBE_BILLED: ReadonlySet<FailureKind> = new Set(["timeout", "connection", "bad_response", "too_large"]);

export type Complete = (messages: ChatMessage[], sampling: Sampling, sample: string) => Promise<Completion>;

const clients: Record<Provider, (model: string, s: ClientSettings) => ProviderCall> = {
  openai: openaiChat,
  anthropic: anthropicMessages,
  gemini: geminiGenerate,
};

/** The provider client for `endpoint`, given the key (or null for keyless servers). */
export function providerCall(endpoint: Endpoint, apiKey: string | null): ProviderCall {
  return clients[endpoint.provider](endpoint.model, {baseURL: endpoint.baseURL, apiKey, timeoutMs: endpoint.timeoutMs});
}

/** Builds `complete` over a provider call; `call` is injectable for tests. */
export function createCompleter(endpoint: Endpoint, call: ProviderCall, options: CompleterOptions): Complete {
  const stats = options.stats ?? llmStats;
  const backoff = options.backoff ?? defaultBackoff;
  const inFlight = new Map<string, Promise<Completion>>();
  const maxRetryWaitMs = endpoint.maxRetryWaitMs ?? defaultMaxRetryWaitMs;
  const budget = options.budget ?? null;

  /** A limiter slot and, with a budget, the request's reservation (the slot is given back when the budget refuses). */
  async function admitted(messages: ChatMessage[], sampling: Sampling): Promise<unknown> {
    await options.limiter.acquire();
    if (!budget) return null;
    try {
      return await budget.reserve({player: options.player ?? endpoint.model, provider: endpoint.provider, model: endpoint.model, messages, sampling});
    } catch (error) {
      options.limiter.release();
      throw error;
    }
  }

  async function network(messages: ChatMessage[], sampling: Sampling): Promise<Completion> {
    for (let attempt = 1; ; attempt++) {
      const record = newAttempt(endpoint.maxResponseBytes);
      const controller = new AbortController();
      const ticket = await admitted(messages, sampling);
      const timer = setTimeout(() => {
        record.timedOut = true;
        controller.abort();
      }, timerMs(endpoint.timeoutMs));
      const start = performance.now();
      let failure: Failure;
      try {
        stats.requests++;
        const reply = thinkingApart(await withAttempt(record, () => call(messages, sampling, controller.signal)));
        budget?.settle(ticket, reply.usage);
        return scrubbed({...reply, latency_ms: Math.round(performance.now() - start), cached: false, attempts: attempt});
      } catch (error) {
        failure = classifyFailure(error, record);
        budget?.settle(ticket, MAYBE_BILLED.has(failure.kind) ? null : {input_tokens: 0, output_tokens: 0});
      } finally {
        clearTimeout(timer);
        options.limiter.release();
      }
      stats.failedAttempts[failure.kind] = (stats.failedAttempts[failure.kind] ?? 0) + 1;
      const giveUp = !failure.retryable || attempt > endpoint.maxRetries;
      const retryAfterMs = failure.retryAfterMs === null ? null : Math.min(failure.retryAfterMs, maxRetryWaitMs);
      if (!giveUp && retryAfterMs !== null) {
        const until = Date.now() + retryAfterMs;
        options.limiter.pauseUntil(until);
        stats.retryWaits++;
        if (!stats.retryWait || until >= stats.retryWait.until) stats.retryWait = {askedMs: failure.retryAfterMs!, waitMs: retryAfterMs, until};
      }
      options.onFailure?.(failure, attempt);
      if (giveUp) {
        const why = failure.retryable ? `gave up after ${attempt} attempts` : "not retryable";
        throw new LlmCallError(`${endpoint.provider} ${endpoint.model}: ${failure.message} (${why})`, failure.kind, failure.status, attempt);
      }
      await sleep(backoffDelay(attempt, retryAfterMs, backoff));
    }
  }

  return async (messages, sampling, sample) => {
    const key = cacheKey({provider: endpoint.provider, model: endpoint.model, sampling, messages, sample});
    const hit = options.cache ? await options.cache.get(key) : null;
    if (hit) {
      stats.completions++;
      stats.cacheHits++;
      // A cache written before replies were scrubbed may hold a key, and one written before thinking was kept apart a <think>.
      return scrubbed(thinkingApart(hit));
    }
    const pending = inFlight.get(key);
    if (pending) return pending;
    const promise = (async () => {
      try {
        const completion = await network(messages, sampling);
        stats.inputTokens += completion.usage.input_tokens ?? 0;
        stats.outputTokens += completion.usage.output_tokens ?? 0;
        stats.completions++;
        if (options.cache) await options.cache.put(key, {provider: endpoint.provider, model: endpoint.model, sample}, completion);
        return completion;
      } catch (error) {
        if (!(error instanceof BudgetExhausted)) stats.failedCalls++;
        if (error instanceof LlmCallError) throw error;
        throw new LlmCallError(redactSecrets(String(error)), "client", null, 0);
      } finally {
        inFlight.delete(key);
      }
    })();
    inFlight.set(key, promise);
    return promise;
  };
}

/** `c` with every known API key removed from the text the endpoint sent. */
function scrubbed(c: Completion): Completion {
  const text = redactSecrets(c.text);
  const finish_reason = c.finish_reason === null ? null : redactSecrets(c.finish_reason);
  const thinking = c.thinking ? redactSecrets(c.thinking) : c.thinking;
  return text === c.text && finish_reason === c.finish_reason && thinking === c.thinking ? c : {...c, text, finish_reason, thinking};
}

/** A reply with `<think>` blocks of its text moved to its thinking (reasoning.ts), after any the API returned apart. */
export function thinkingApart<R extends ProviderReply>(reply: R): R {
  const split = splitThink(reply.text);
  if (split.thinking === null && split.text === reply.text) return reply;
  return {...reply, text: split.text, thinking: joinThinking(reply.thinking, split.thinking)};
}

/**
 * `complete` for a player spec: reads the key from the environment variable
 * the spec names (throwing, by name, if unset), builds the provider client
 * and shares the endpoint's limiter with every other player on it.
 */
export function completerForSpec(spec: LlmPlayerSpec, cache: ResponseCache | null, extra: Partial<CompleterOptions> = {}): Complete {
  const apiKey = resolveApiKey(spec.api_key_env, `player ${spec.id}`);
  const endpoint: Endpoint = {
    provider: spec.provider, model: spec.model, baseURL: spec.base_url, timeoutMs: spec.timeout_ms, maxRetries: spec.max_retries,
    maxResponseBytes: spec.max_response_bytes, maxRetryWaitMs: spec.max_retry_wait_ms,
  };
  const limiter = limiterFor(`${spec.provider} ${spec.base_url ?? "default"}`, {
    ...(spec.max_concurrency !== null && {maxConcurrency: spec.max_concurrency}),
    ...(spec.requests_per_minute !== null && {requestsPerMinute: spec.requests_per_minute}),
  });
  const complete = createCompleter(endpoint, providerCall(endpoint, apiKey), {cache, limiter, player: spec.id, ...extra});
  return async (messages, sampling, sample) => {
    const completion = await complete(messages, sampling, sample);
    recordCall(spec.id, messages, completion);
    return completion;
  };
}
