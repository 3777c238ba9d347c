/**
 * Token counts from an endpoint are untrusted data: a careless or hostile
 * server may send a negative count, a string ("1000"), a fraction, 1e30 or
 * nothing at all. Each provider client (openaiChat.ts, anthropicMessages.ts,
 * geminiGenerate.ts) reads its usage fields through `tokenCount`: a count is
 * an integer from 0 to `MAX_CALL_TOKENS`; anything else is unknown (null),
 * reported once per provider and field in this process (one line on
 * stderr, or wherever `setUsageWarnings` sends it), and from then on is an
 * empty cell in the turns table, never priced (runner/budget.ts keeps the
 * call's reservation as its spend), never summed into another count.
 */
import {printable} from "../io/printable.js";
import type {Provider, Usage} from "./types.js";

/**
 * The most tokens one call can read or write: the largest documented
 * context window is 10 million tokens (Llama 4 Scout), and every provider's
 * output limit is far below it. A count above it is not a count of one call
 * (1e9 or 1e30 tokens, the "absurd" values). It also keeps a
 * decision's sum over its votes (at most 25; playerSpec.ts) inside the
 * turns table's 32-bit INTEGER columns: 25 × 10^7 < 2^31.
 */
export const MAX_CALL_TOKENS = 10_000_000;

/** Told about one unusable usage field: where (e.g. "usage.prompt_tokens") and what the endpoint sent (undefined: nothing). */
export type UsageReport = (field: string, value: unknown) => void;

/** What an absent count means: unknown (reported), zero (Gemini's JSON leaves zeros out), or not said (an optional part, left out). */
export type Absent = "unknown" | "zero" | "unsaid";

/**
 * A token count the endpoint sent in `field`: the integer when it is one
 * (0 to MAX_CALL_TOKENS), else null, reported. An absent field is null
 * and reported, 0, or undefined, as `absent` says.
 */
export function tokenCount(value: unknown, field: string, report: UsageReport, absent: Absent = "unknown"): number | null | undefined {
  if (value === undefined || value === null) {
    if (absent === "unknown") report(field, undefined);
    return absent === "zero" ? 0 : absent === "unknown" ? null : undefined;
  }
  if (typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= MAX_CALL_TOKENS) return value;
  report(field, value);
  return null;
}

/** `a + b` of two counts, unknown when either is. */
export const addCounts = (a: number | null, b: number | null): number | null => (a === null || b === null ? null : a + b);

/** The object at `value` when it is one (a hostile endpoint may send a string or an array where the usage object goes). */
export const fieldsOf = (value: unknown): Record<string, unknown> => (value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {});

/** Whether every count the price reads (input, output, and the cached and cache-write parts when given) is known. */
export const usageKnown = (u: Usage): boolean => u.input_tokens !== null && u.output_tokens !== null && u.cached_input_tokens !== null && u.cache_write_tokens !== null;

let sink: (line: string) => void = (line) => void process.stderr.write(line + "\n");
const reported = new Set<string>();

/** Where the warnings go (runner/resume.ts prints them above its progress line); returns the previous sink. */
export function setUsageWarnings(to: (line: string) => void): (line: string) => void {
  const previous = sink;
  sink = to;
  return previous;
}

/** The report of a provider's client: the first unusable value of each field is one warning line, later ones are silent. */
export function usageWarner(provider: Provider, model: string): UsageReport {
  return (field, value) => {
    const key = `${provider}\u0000${field}`;
    if (reported.has(key)) return;
    reported.add(key);
    const shown = value === undefined ? "is missing" : `is ${printable(shortJson(value))}, not a token count (an integer from 0 to ${MAX_CALL_TOKENS.toLocaleString("en-US")})`;
    sink(`parley: ${provider} endpoint (model ${printable(model)}): ${field} ${shown}: recorded as unknown (null); --max-cost counts such a call at its reservation; later ones are not reported again`);
  };
}

/** A value as JSON, cut short: a hostile endpoint's string could be megabytes. */
function shortJson(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/**
 * A usage read back from a cache entry or written by an earlier version:
 * every count checked again (an entry stored before counts were checked may
 * hold "1000" or 1e30), unknown ones null, silently (they were reported, or
 * not, when they arrived).
 */
export function checkedUsage(stored: unknown): Usage {
  const u = fieldsOf(stored);
  const quiet: UsageReport = () => {};
  const optional = (k: string) => {
    const v = tokenCount(u[k], k, quiet, "unsaid");
    return v === undefined ? {} : {[k]: v};
  };
  return {
    input_tokens: tokenCount(u.input_tokens, "input_tokens", quiet) ?? null,
    output_tokens: tokenCount(u.output_tokens, "output_tokens", quiet) ?? null,
    ...optional("cached_input_tokens"),
    ...optional("cache_write_tokens"),
    ...optional("reasoning_tokens"),
  };
}
