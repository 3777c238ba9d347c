/**
 * The progress line `parley run` prints on stderr:
 *
 *   games 12/40 · calls 230 (88 cached) · tokens 45.2k in, 3.1k out · rule breaks 4 · errors 2 · ETA 1m20s
 *
 * "calls" counts completions (cached ones included), "errors" failed HTTP
 * attempts (each retried) plus games that failed for good. While an endpoint
 * has asked to wait (Retry-After), the line says so and for how long, e.g.
 * "waiting 60 s (endpoint asked 3600 s, capped)", so that a quiet run is
 * not mistaken for a hung one; a new wait redraws the line at once. On a terminal the
 * line is redrawn in place at most every 200 ms; otherwise (a log file, a
 * test) a full line is written at most every `intervalMs` and once at the
 * end. The ETA extrapolates from games finished by this process only, so
 * games skipped on resume do not make it optimistic.
 */
import type {LlmStats} from "../llm/stats.js";
import {totalFailedAttempts} from "../llm/stats.js";

export interface ProgressCounts {
  total: number;
  /** Games already done before this process started (resume). */
  skipped: number;
  finished: number;
  failed: number;
  ruleBreaks: number;
}

export function formatProgress(c: ProgressCounts, s: LlmStats, elapsedMs: number, now = Date.now()): string {
  const done = c.skipped + c.finished;
  const parts = [`games ${done}/${c.total}`];
  if (s.completions || s.requests) parts.push(`calls ${s.completions} (${s.cacheHits} cached)`, `tokens ${compact(s.inputTokens)} in, ${compact(s.outputTokens)} out`);
  parts.push(`rule breaks ${c.ruleBreaks}`, `errors ${totalFailedAttempts(s) + c.failed}`);
  const wait = s.retryWait;
  if (wait && wait.until > now) {
    const capped = wait.waitMs < wait.askedMs;
    parts.push(`waiting ${seconds(wait.waitMs)} (endpoint asked ${seconds(wait.askedMs)}${capped ? ", capped" : ""})`);
  }
  const remaining = c.total - done - c.failed;
  if (remaining > 0 && c.finished > 0) parts.push(`ETA ${duration((elapsedMs / c.finished) * remaining)}`);
  else if (remaining <= 0) parts.push(`done in ${duration(elapsedMs)}`);
  return parts.join(" · ");
}

function seconds(ms: number): string {
  const s = ms / 1000;
  return `${s < 10 ? Number(s.toFixed(1)) : Math.round(s)} s`;
}

function compact(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : String(n);
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m${String(s % 60).padStart(2, "0")}s` : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, "0")}m`;
}

export class ProgressLine {
  private readonly start = Date.now();
  private last = 0;
  private drawnWaits = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    readonly counts: ProgressCounts,
    private readonly stats: LlmStats,
    private readonly out: NodeJS.WriteStream = process.stderr,
    private readonly intervalMs = out.isTTY ? 200 : 5000,
    /** One more part of the line (the run's cost so far), or null. */
    private readonly extra: (() => string) | null = null,
  ) {
    // A slow LLM game can take minutes: redraw on a clock too, not only when a game ends.
    this.timer = setInterval(() => this.update(), Math.max(this.intervalMs, 1000));
    this.timer.unref();
  }

  /** Redraws if the last draw is older than the interval, or an endpoint has asked to wait since. */
  update(): void {
    if (Date.now() - this.last < this.intervalMs && this.stats.retryWaits === this.drawnWaits) return;
    this.draw();
  }

  private draw(final = false): void {
    this.last = Date.now();
    this.drawnWaits = this.stats.retryWaits;
    const base = formatProgress(this.counts, this.stats, Date.now() - this.start);
    const line = this.extra ? `${base} · ${this.extra()}` : base;
    if (this.out.isTTY) this.out.write(`\r\x1b[2K${line}${final ? "\n" : ""}`);
    else this.out.write(line + "\n");
  }

  /** Prints a line of its own (a warning) above the progress line, which is drawn again below it on a terminal. */
  note(line: string): void {
    if (!this.out.isTTY) {
      this.out.write(line + "\n");
      return;
    }
    this.out.write(`\r\x1b[2K${line}\n`);
    this.draw();
  }

  finish(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.draw(true);
  }
}
