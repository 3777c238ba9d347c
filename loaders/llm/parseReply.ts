/**
 * Finding the JSON object in a model's reply.
 *
 * Models wrap the requested JSON in code fences (GLEE's own transcripts show
 * ```json ... ```), put prose before or after it, or reason first and answer
 * last. `extractJson` tries, in order: the whole reply; each fenced block,
 * last first; each balanced {...} span outside strings, last first. A span
 * that fails to parse is retried once after conservative repairs (trailing
 * commas, typographic quotes, single quotes when there is no double quote). The last candidate wins because a
 * reply that reasons before answering ends with its answer.
 *
 * Any reply up to the size cap is read in time linear in its length and
 * never throws: fences and spans are found by scanning (no regular
 * expression that can backtrack), only candidates that start with "{" are
 * parsed, at most the last MAX_CANDIDATES fences and spans are tried (a
 * reply with thousands of them is not an answer worth thousands of parses),
 * and an object nested deeper than MAX_ANSWER_DEPTH is refused, since
 * everything that handles an answer afterwards (checking it, quoting it,
 * storing it) may walk it recursively.
 */
import {MAX_ANSWER_DEPTH, deeperThan} from "../../src/lib/untrustedJson.js";

export type Extracted = {ok: true; value: Record<string, unknown>} | {ok: false; error: string};

/** Fenced blocks, and spans, tried at most (the last ones). */
export const MAX_CANDIDATES = 64;

const FENCE = "```";
const OPEN_BRACE = 123;

/** What the candidates tried so far showed, for the error when none is the answer. */
interface Seen {
  malformed: boolean;
  tooDeep: boolean;
}

export function extractJson(text: string): Extracted {
  const trimmed = text.trim();
  if (!trimmed) return {ok: false, error: "the reply is empty; expected a JSON object"};
  const seen: Seen = {malformed: false, tooDeep: false};
  const value = readCandidate(trimmed, seen) ?? lastReadable(fencedObjects(trimmed), seen, trimmed) ?? lastReadable(objectSpans(trimmed, MAX_CANDIDATES), seen, trimmed);
  if (value) return {ok: true, value};
  if (seen.tooDeep) return {ok: false, error: `the reply's JSON object is nested more than ${MAX_ANSWER_DEPTH} levels deep; expected one flat JSON object`};
  return {
    ok: false,
    error: seen.malformed ? "the reply contains malformed JSON; expected one valid JSON object" : "the reply contains no JSON object",
  };
}

/** The last of the last MAX_CANDIDATES `candidates` that reads as an answer, or null; `tried` (the whole reply, read already) is not read again. */
function lastReadable(candidates: readonly string[], seen: Seen, tried: string): Record<string, unknown> | null {
  const stop = Math.max(0, candidates.length - MAX_CANDIDATES);
  for (let i = candidates.length - 1; i >= stop; i--) {
    if (candidates[i].length === tried.length && candidates[i] === tried) continue;
    const value = readCandidate(candidates[i], seen);
    if (value) return value;
  }
  return null;
}

/** `c` as a JSON object (as written, else after repairs), or null; only text starting with "{" can be one. */
function readCandidate(c: string, seen: Seen): Record<string, unknown> | null {
  if (c.charCodeAt(0) !== OPEN_BRACE) return null;
  const parsed = tryParse(c) ?? tryParse(repair(c));
  if (parsed === undefined) {
    seen.malformed = true;
    return null;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return null;
  // n levels take at least 2n characters: a short candidate needs no walk.
  if (c.length > 2 * MAX_ANSWER_DEPTH && deeperThan(parsed, MAX_ANSWER_DEPTH)) {
    seen.tooDeep = true;
    return null;
  }
  return parsed as Record<string, unknown>;
}

function tryParse(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}

function repair(s: string): string {
  let out = s.replace(/[\u201C\u201D]/g, '"').replace(/,\s*([}\]])/g, "$1");
  // Python-style {'decision': 'accept'}: only when no double quote is present, so apostrophes in JSON strings are never touched.
  if (!out.includes('"')) out = out.replace(/'/g, '"');
  return out;
}

/**
 * The contents of the fenced blocks that start with "{", trimmed, in order.
 * A block is an opening ```, an optional `json` (or `JSON`) after spaces or
 * tabs, and the text up to the next ```; scanning resumes after that one.
 */
export function fencedObjects(text: string): string[] {
  const blocks: string[] = [];
  for (let open = text.indexOf(FENCE); open >= 0; ) {
    let i = skipBlanks(text, open + FENCE.length);
    if (text.startsWith("json", i) || text.startsWith("JSON", i)) i += 4;
    const close = text.indexOf(FENCE, i);
    if (close < 0) break;
    const block = text.slice(i, close).trim();
    if (block.charCodeAt(0) === OPEN_BRACE) blocks.push(block);
    open = text.indexOf(FENCE, close + FENCE.length);
  }
  return blocks;
}

/** The index of the first character at or after `i` that is not a space or a tab. */
function skipBlanks(text: string, i: number): number {
  while (i < text.length && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
  return i;
}

/** Top-level balanced {...} substrings, ignoring braces inside JSON strings; with `last`, only the last `last` of them. */
export function objectSpans(text: string, last = Infinity): string[] {
  const spans: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"' && depth > 0) inString = true;
    else if (ch === "{") {
      if (depth === 0) start = i;
      depth++;
    } else if (ch === "}" && depth > 0) {
      depth--;
      if (depth === 0) {
        spans.push(text.slice(start, i + 1));
        // Drop the oldest in batches, so keeping the last ones stays linear.
        if (spans.length >= 2 * last) spans.splice(0, spans.length - last);
      }
    }
  }
  return spans.length > last ? spans.slice(spans.length - last) : spans;
}

/**
 * A number from a JSON field: a number, or a string holding one with an
 * optional currency sign and thousands separators ("$1,000", "250.5").
 * Anything else is null.
 */
export function numberField(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value !== "string") return null;
  const s = value.trim().replace(/^\$/, "").replace(/\$$/, "").replace(/,(?=\d{3}\b)/g, "").trim();
  if (!/^-?\d+(\.\d+)?$/.test(s)) return null;
  return Number(s);
}

/**
 * Splits a raw reply into its JSON answer and private reasoning (inside
 * <reasoning> tags, or a reasoning-like key of the JSON, which is removed
 * from it). Never throws: `error` says why no JSON answer could be read.
 */
export function splitReply(raw: string): {json: Record<string, unknown> | null; reasoning: string | null; error: string | null} {
  const tagged = /<reasoning>([\s\S]*?)(?:<\/reasoning>|$)/i.exec(raw);
  let reasoning = tagged ? tagged[1]!.trim() : null;
  const answer = tagged ? `${raw.slice(0, tagged.index)} ${raw.slice(tagged.index + tagged[0].length)}` : raw;
  const extracted = extractJson(answer);
  if (!extracted.ok) return {json: null, reasoning, error: extracted.error};
  const json = {...extracted.value};
  for (const key of ["reasoning", "reason", "thoughts", "thinking"]) {
    if (typeof json[key] === "string") {
      reasoning = [reasoning, json[key] as string].filter(Boolean).join("\n");
      delete json[key];
    }
  }
  return {json, reasoning, error: null};
}
