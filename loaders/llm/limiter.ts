/**
 * Per-endpoint admission control: at most `maxConcurrency` requests in
 * flight, at most `requestsPerMinute` started per minute (spaced evenly, so a
 * burst never exceeds the rate), and a shared pause when the server answers
 * 429 with Retry-After — every caller of that endpoint waits, not only the
 * one that was told to.
 *
 * One Limiter per (provider, base URL), shared by all players that use it
 * (`limiterFor`).
 */
import {sleep} from "./backoff.js";

export interface LimitOptions {
  maxConcurrency: number;
  /** null: no rate limit beyond concurrency. */
  requestsPerMinute: number | null;
}

export const defaultLimits: LimitOptions = {maxConcurrency: 16, requestsPerMinute: null};

export class Limiter {
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];
  private nextStart = 0;
  private pausedUntil = 0;

  constructor(readonly options: LimitOptions) {
    if (!(options.maxConcurrency >= 1)) throw new Error(`limiter: maxConcurrency must be >= 1, got ${options.maxConcurrency}`);
    if (options.requestsPerMinute !== null && !(options.requestsPerMinute > 0)) {
      throw new Error(`limiter: requestsPerMinute must be > 0 or null, got ${options.requestsPerMinute}`);
    }
  }

  /** Resolves when the caller may send a request; pair every acquire with one release. */
  async acquire(): Promise<void> {
    if (this.inFlight < this.options.maxConcurrency) this.inFlight++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve)); // the slot is handed over by release()
    if (this.options.requestsPerMinute !== null) {
      // Reserve the next start slot before sleeping, so concurrent waiters get successive slots.
      const slot = Math.max(Date.now(), this.nextStart);
      this.nextStart = slot + 60_000 / this.options.requestsPerMinute;
      if (slot > Date.now()) await sleep(slot - Date.now());
    }
    while (Date.now() < this.pausedUntil) await sleep(this.pausedUntil - Date.now());
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.inFlight--;
  }

  /** Holds back every request to this endpoint until `until` (epoch ms). */
  pauseUntil(until: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, until);
  }

  /** Epoch ms until which requests are held back (0: never paused). */
  get pausedUntilMs(): number {
    return this.pausedUntil;
  }

  get active(): number {
    return this.inFlight;
  }
}

const limiters = new Map<string, Limiter>();

/**
 * The shared limiter for `endpoint` (e.g. "openai http://127.0.0.1:8000/v1").
 * The first caller's limits win; later callers asking for different limits
 * get the same limiter, so one endpoint never gets two budgets.
 */
export function limiterFor(endpoint: string, options: Partial<LimitOptions> = {}): Limiter {
  let limiter = limiters.get(endpoint);
  if (!limiter) {
    limiter = new Limiter({...defaultLimits, ...stripUndefined(options)});
    limiters.set(endpoint, limiter);
  }
  return limiter;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
