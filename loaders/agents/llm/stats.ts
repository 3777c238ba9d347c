/**
 * Counters for one process's LLM traffic, read by the progress line and the
 * tests: requests actually sent, cache hits, tokens, failed attempts (by
 * kind), calls that failed for good, and rule breaks reported by LLM players.
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
}

export function newStats(): LlmStats {
  return {requests: 0, completions: 0, cacheHits: 0, inputTokens: 0, outputTokens: 0, failedAttempts: {}, failedCalls: 0, ruleBreaks: 0};
}

export const llmStats: LlmStats = newStats();

export function totalFailedAttempts(s: LlmStats): number {
  return Object.values(s.failedAttempts).reduce((a, b) => a + (b ?? 0), 0);
}
