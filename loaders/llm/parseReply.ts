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
 */

export type Extracted = {ok: true; value: Record<string, unknown>} | {ok: false; error: string};

export function extractJson(text: string): Extracted {
  const trimmed = text.trim();
  if (!trimmed) return {ok: false, error: "the reply is empty; expected a JSON object"};
  const candidates: string[] = [trimmed];
  const fences = [...trimmed.matchAll(/```[ \t]*(?:json|JSON)?[ \t]*\r?\n?([\s\S]*?)```/g)].map((m) => m[1]!.trim());
  candidates.push(...fences.reverse());
  candidates.push(...objectSpans(trimmed).reverse());
  let sawObjectSyntax = false;
  for (const c of candidates) {
    const parsed = tryParse(c) ?? tryParse(repair(c));
    if (parsed === undefined) {
      if (c.startsWith("{")) sawObjectSyntax = true;
      continue;
    }
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) return {ok: true, value: parsed as Record<string, unknown>};
  }
  return {
    ok: false,
    error: sawObjectSyntax ? "the reply contains malformed JSON; expected one valid JSON object" : "the reply contains no JSON object",
  };
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

/** Top-level balanced {...} substrings, ignoring braces inside JSON strings. */
export function objectSpans(text: string): string[] {
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
      if (depth === 0) spans.push(text.slice(start, i + 1));
    }
  }
  return spans;
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
  const answer = tagged ? raw.replace(tagged[0], " ") : raw;
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
