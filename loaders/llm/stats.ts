/**
 * Counters for one process's LLM traffic, read by the progress line and the
 * tests: requests actually sent, cache hits, tokens, failed attempts (by
 * kind), calls that failed for good, rule breaks reported by LLM players,
 * and the waits endpoints asked for (Retry-After).
 * A plain mutable object; one shared instance (`llmStats`) per process.
 */
import type {FailureKind} from "./types.js";

export interface LlmStats {
  /** HTTP requests sent (every attempt, including retried ones). */
  requests: number;
  /** Completions returned (from the network or the cache). */
  completions: number;
  cacheHits: number;
  inputTokens: number;
  outputTokens: number;
  /** Attempts that failed, by kind; each retryable one was retried unless attempts ran out. */
  failedAttempts: Partial<Record<FailureKind, number>>;
  /** Calls that failed for good (non-retryable, or retries exhausted). */
  failedCalls: number;
  /** Invalid model answers (each re-ask or fallback), counted by LLM players. */
  ruleBreaks: number;
  /** Retries that waited because the endpoint said so (Retry-After). */
  retryWaits: number;
  /** The latest-ending such wait, null before the first. */
  retryWait: RetryWait | null;
}

export interface RetryWait {
  /** What the endpoint asked for. */
  askedMs: number;
  /** What is waited: askedMs capped at the player's max_retry_wait_ms. */
  waitMs: number;
  /** Epoch ms when the wait ends. */
  until: number;
}

export function newStats(): LlmStats {
  return {requests: 0, completions: 0, cacheHits: 0, inputTokens: 0, outputTokens: 0, failedAttempts: {}, failedCalls: 0, ruleBreaks: 0, retryWaits: 0, retryWait: null};
}

export const llmStats: LlmStats = newStats();

export function totalFailedAttempts(s: LlmStats): number {
  return Object.values(s.failedAttempts).reduce((a, b) => a + (b ?? 0), 0);
}
