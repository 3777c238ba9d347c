/**
 * How long to wait before retry number `attempt` (1 = first retry).
 *
 * Exponential backoff with "equal jitter": half of base·2^(attempt-1), capped
 * at `maxMs`, plus a uniformly random other half, so that concurrent callers
 * that failed together do not retry together. When the server said how long
 * to wait (Retry-After), that wait is honoured as a floor and only a small
 * jitter (up to 10%) is added on top.
 */
export interface BackoffOptions {
  /** First retry's nominal delay. */
  baseMs: number;
  /** Cap on the exponential part (a longer Retry-After is still honoured). */
  maxMs: number;
}

export const defaultBackoff: BackoffOptions = {baseMs: 500, maxMs: 30_000};

export function backoffDelay(attempt: number, retryAfterMs: number | null, options: BackoffOptions = defaultBackoff, random: () => number = Math.random): number {
  if (retryAfterMs !== null) return retryAfterMs + Math.min(retryAfterMs * 0.1, 1000) * random();
  const nominal = Math.min(options.maxMs, options.baseMs * 2 ** Math.max(0, attempt - 1));
  return nominal / 2 + (nominal / 2) * random();
}

/**
 * The longest delay a Node timer holds: setTimeout turns anything longer
 * (or NaN) into 1 ms and prints a TimeoutOverflowWarning, so a wait loop
 * given an enormous delay spins and floods stderr instead of waiting.
 */
export const maxTimerMs = 2 ** 31 - 1;

/** `ms` made safe for setTimeout: within [0, maxTimerMs], 0 for NaN. */
export function timerMs(ms: number): number {
  return ms > 0 ? Math.min(ms, maxTimerMs) : 0;
}

/** Resolves after `ms` (at most maxTimerMs; callers that must wait longer loop). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, timerMs(ms)));
}
