/**
 * What the fake LLM servers (fakeLlm.ts) know of each provider beyond the
 * wire format, when started `strict` or with `caching`: the request
 * constraints each API documents, refused with that API's error shape, and
 * its prompt caching, counted the way its usage reports it.
 *
 * Constraints (the same documents as loaders/llm/reasoning.ts):
 * - OpenAI reasoning models (o1, o3, o4-mini, gpt-5...): `max_tokens` is an
 *   unsupported parameter (use `max_completion_tokens`); `temperature` and
 *   `top_p` only at their default 1; `reasoning_effort` one of minimal
 *   (gpt-5 only, not 5.1), low, medium, high; a model that is not a reasoning model
 *   does not take `reasoning_effort` (OpenAI's own chat models; a local
 *   server, the fake's models named "local-...", takes what it is sent).
 *   Error body {"error": {message, type: "invalid_request_error", param, code}}.
 * - Anthropic with `thinking`: budget_tokens ≥ 1024 and < max_tokens; no
 *   temperature but 1; top_p from 0.95 to 1; at most 4 cache_control
 *   breakpoints; adaptive thinking (`output_config.effort`) only from
 *   Claude 4.6 on, and only it from Opus 4.7, Mythos Preview and Claude 5. Error body {"type": "error", "error": {"type":
 *   "invalid_request_error", message}}.
 * - Gemini `thinkingConfig.thinkingBudget`: 2.5 Pro 128–32768 (no 0), 2.5
 *   Flash 0–24576, 2.5 Flash-Lite 512–24576 or 0. Error body {"error":
 *   {code: 400, message, status: "INVALID_ARGUMENT"}}.
 *
 * Caching (tokens are the fake's: a quarter of the characters), each
 * provider's minimum prefix per model as its documentation gives it
 * (`documentedMinimum`, read in November 2026):
 * - OpenAI (https://platform.openai.com/docs/guides/prompt-caching):
 *   automatic for prompts of 1,024 tokens or more, every model; hits in
 *   increments of 128 tokens (1,024, 1,152, 1,280, ...) of the longest prefix
 *   seen before; reported as usage.prompt_tokens_details.cached_tokens (part
 *   of prompt_tokens).
 * - Gemini implicit caching (https://ai.google.dev/gemini-api/docs/caching,
 *   last updated 2026-10-13): a prefix seen before of at least 2,048 tokens
 *   for Gemini 2.5 Flash and 2.5 Pro (2.5 Flash-Lite with them), 4,096 for
 *   the Gemini 3 models and later; no increments;
 *   usageMetadata.cachedContentTokenCount (part of promptTokenCount).
 * - Anthropic (https://docs.claude.com/en/docs/build-with-claude/prompt-caching):
 *   only up to `cache_control` breakpoints; a request reads the longest
 *   prefix, ending at a block boundary at most 20 blocks before one of its
 *   breakpoints, that an earlier request wrote at one of its breakpoints, and
 *   writes its own breakpoints' prefixes of at least the model's minimum:
 *   4,096 tokens for Claude Opus 4.5, Opus 4.6 and Haiku 4.5; 2,048 for
 *   Haiku 3 and 3.5; 1,024 for Sonnet 3.7, Sonnet 4, 4.5 and 4.6, Opus 4 and
 *   4.1 (and for a model the table does not name); no increments;
 *   usage.cache_read_input_tokens, cache_creation_input_tokens and
 *   input_tokens (the rest) add up to the input.
 */
import type {Wire} from "./fakeLlm.js";

export const fakeTokens = (chars: number): number => Math.ceil(chars / 4);

/** An HTTP refusal in the provider's documented error shape. */
export interface Refusal {
  status: number;
  body: unknown;
}

const OPENAI_REASONING = /^(?:o\d|gpt-5)(?:[-.:]|$)/i;

function openaiError(message: string, param: string, code: string): Refusal {
  return {status: 400, body: {error: {message, type: "invalid_request_error", param, code}}};
}
const anthropicError = (message: string): Refusal => ({status: 400, body: {type: "error", error: {type: "invalid_request_error", message}}});
const geminiError = (message: string): Refusal => ({status: 400, body: {error: {code: 400, message, status: "INVALID_ARGUMENT"}}});

/** The refusal the provider documents for this request, or null. */
export function refusal(wire: Wire, model: string, body: Record<string, any>): Refusal | null {
  if (wire === "openai") {
    const reasoning = OPENAI_REASONING.test(model);
    const local = model.startsWith("local-");
    if (reasoning) {
      if (body.max_tokens !== undefined) return openaiError("Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", "max_tokens", "unsupported_parameter");
      for (const p of ["temperature", "top_p"]) {
        if (body[p] !== undefined && body[p] !== 1) return openaiError(`Unsupported value: '${p}' does not support ${body[p]} with this model. Only the default (1) value is supported.`, p, "unsupported_value");
      }
    }
    if (body.reasoning_effort !== undefined && !local) {
      if (!reasoning) return openaiError("Unrecognized request argument supplied: reasoning_effort", "reasoning_effort", "unsupported_parameter");
      const allowed = /^gpt-5(?!\.)/i.test(model) ? ["minimal", "low", "medium", "high"] : ["low", "medium", "high"];
      if (!allowed.includes(body.reasoning_effort)) return openaiError(`Unsupported value: 'reasoning_effort' does not support '${body.reasoning_effort}' with this model. Supported values are: ${allowed.map((a) => `'${a}'`).join(", ")}.`, "reasoning_effort", "unsupported_value");
    }
    return null;
  }
  if (wire === "anthropic") {
    const blocks = [...(Array.isArray(body.system) ? body.system : []), ...(body.messages ?? []).flatMap((m: any) => (Array.isArray(m.content) ? m.content : []))];
    if (blocks.filter((b: any) => b?.cache_control).length > 4) return anthropicError("A maximum of 4 blocks with cache_control may be provided. Found " + blocks.filter((b: any) => b?.cache_control).length + ".");
    const thinking = body.thinking;
    // Adaptive thinking: Claude 4.6 takes both forms, Opus 4.7, Mythos Preview and Claude 5 only adaptive, earlier models only the budget.
    const m = model.toLowerCase();
    const adaptiveOnly = /mythos-preview|claude-opus-4-[7-9]|claude-(?:opus|sonnet|haiku|fable|mythos)-[5-9]/.test(m);
    const adaptiveToo = adaptiveOnly || /claude-(?:opus|sonnet)-4-6/.test(m);
    if (thinking?.type === "enabled" && adaptiveOnly) return anthropicError('"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.');
    if (thinking?.type === "adaptive" && !adaptiveToo) return anthropicError("adaptive thinking is not supported on this model");
    const effort = body.output_config?.effort;
    if (effort !== undefined && !["low", "medium", "high", "xhigh", "max"].includes(effort)) return anthropicError(`output_config.effort: Input should be 'low', 'medium', 'high', 'xhigh' or 'max'`);
    if (thinking && thinking.type !== "disabled" && (body.tool_choice?.type === "tool" || body.tool_choice?.type === "any")) return anthropicError("Thinking may not be enabled when tool_choice forces tool use.");
    if (thinking?.type === "adaptive" && body.temperature !== undefined && body.temperature !== 1) return anthropicError("`temperature` may only be set to 1 when thinking is enabled. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#feature-compatibility");
    if (thinking?.type === "enabled") {
      if (!(thinking.budget_tokens >= 1024)) return anthropicError("thinking.enabled.budget_tokens: Input should be greater than or equal to 1024");
      if (!(body.max_tokens > thinking.budget_tokens)) return anthropicError("`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size");
      if (body.temperature !== undefined && body.temperature !== 1) return anthropicError("`temperature` may only be set to 1 when thinking is enabled. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#feature-compatibility");
      if (body.top_k !== undefined) return anthropicError("`top_k` cannot be set when thinking is enabled.");
      if (body.top_p !== undefined && (body.top_p < 0.95 || body.top_p > 1)) return anthropicError("`top_p` must be between 0.95 and 1 when thinking is enabled.");
    }
    return null;
  }
  const budget = body.generationConfig?.thinkingConfig?.thinkingBudget;
  if (budget === undefined || budget === -1) return null;
  const m = model.toLowerCase();
  const range = /gemini-2\.5-pro/.test(m) ? {min: 128, max: 32768, off: false} : /flash-lite/.test(m) ? {min: 512, max: 24576, off: true} : /gemini-2\.5-flash/.test(m) ? {min: 0, max: 24576, off: true} : null;
  if (!range) return null;
  if (budget === 0 && !range.off) return geminiError("Budget 0 is invalid. This model only works in thinking mode.");
  if (budget !== 0 && (budget < range.min || budget > range.max)) return geminiError(`The thinking budget ${budget} is invalid. Please choose a value between ${range.min} and ${range.max}.`);
  return null;
}

/** True when this OpenAI request is to a reasoning model, whose reasoning the API never returns as text (only its token count). */
export const hidesReasoning = (model: string): boolean => OPENAI_REASONING.test(model);

/** One block of a prompt as caching sees it: its serialized text, and whether a cache_control breakpoint ends it. */
interface Block {
  text: string;
  breakpoint: boolean;
}

/** The prompt of a request as a sequence of blocks (system first), for prefix caching. */
export function promptBlocks(wire: Wire, body: Record<string, any>): Block[] {
  const out: Block[] = [];
  const add = (role: string, b: any) => out.push({text: `${role}\u0000${typeof b === "string" ? b : b?.text ?? ""}\u0001`, breakpoint: !!b?.cache_control});
  if (wire === "openai") for (const m of body.messages ?? []) add(m.role, typeof m.content === "string" ? m.content : (m.content ?? []).map((c: any) => c.text ?? "").join(""));
  else if (wire === "anthropic") {
    for (const b of typeof body.system === "string" ? [body.system] : body.system ?? []) add("system", b);
    for (const m of body.messages ?? []) for (const b of typeof m.content === "string" ? [m.content] : m.content) add(m.role, b);
  } else {
    const si = body.systemInstruction;
    if (si) for (const p of typeof si === "string" ? [si] : si.parts ?? []) add("system", typeof p === "string" ? p : p.text);
    for (const c of body.contents ?? []) for (const p of c.parts ?? []) add(c.role, p.text ?? "");
  }
  return out;
}

export interface CacheCount {
  /** Input tokens read from the cache. */
  read: number;
  /** Input tokens written to the cache (Anthropic only). */
  written: number;
  /** All input tokens of the request. */
  input: number;
}

/** OpenAI's cache hits come in steps of this many tokens (from its 1,024-token minimum on). */
export const OPENAI_CACHE_STEP = 128;

/** The shortest prefix `wire`'s provider caches for `model`, in tokens, as documented (see the top of this file). */
export function documentedMinimum(wire: Wire, model: string): number {
  const m = model.toLowerCase();
  if (wire === "openai") return 1024;
  if (wire === "gemini") return /gemini-2\.5-/.test(m) ? 2048 : /gemini-[3-9]/.test(m) ? 4096 : 2048;
  if (/claude-(?:opus-4-[56]|haiku-4-5)/.test(m)) return 4096;
  if (/claude-(?:3-5-haiku|3-haiku|haiku-3)/.test(m)) return 2048;
  return 1024;
}

/** How a fake's cache counts: the minimum prefix for a model, and OpenAI's hit increment. */
export interface CacheRules {
  minTokens: (model: string) => number;
  /** OpenAI's hit increment, in tokens. */
  openaiStep: number;
}

/** The rules `wire`'s provider documents. */
export const documentedCache = (wire: Wire): CacheRules => ({minTokens: (model) => documentedMinimum(wire, model), openaiStep: OPENAI_CACHE_STEP});

/** A server's prompt cache (per model), counting each request's cached tokens the way its provider does. */
export class PromptCache {
  /** Earlier prompts' texts (OpenAI, Gemini), per model. */
  private readonly seen = new Map<string, string[]>();
  /** Prefix texts written at breakpoints (Anthropic), per model. */
  private readonly written = new Map<string, Set<string>>();

  constructor(
    readonly wire: Wire,
    readonly rules: CacheRules = documentedCache(wire),
  ) {}

  count(model: string, blocks: Block[]): CacheCount {
    const text = blocks.map((b) => b.text).join("");
    const input = fakeTokens(text.length);
    if (this.wire !== "anthropic") {
      const earlier = this.seen.get(model) ?? [];
      let common = 0;
      for (const e of earlier) common = Math.max(common, commonPrefix(e, text));
      earlier.push(text);
      this.seen.set(model, earlier);
      const tokens = Math.floor(common / 4);
      if (tokens < this.rules.minTokens(model) || tokens === 0) return {read: 0, written: 0, input};
      const step = this.rules.openaiStep;
      return {read: this.wire === "openai" ? Math.floor(tokens / step) * step : tokens, written: 0, input};
    }
    const entries = this.written.get(model) ?? new Set<string>();
    this.written.set(model, entries);
    const ends: number[] = [];
    let at = 0;
    for (const b of blocks) ends.push((at += b.text.length));
    const breakpoints = blocks.map((b, i) => (b.breakpoint ? i : -1)).filter((i) => i >= 0);
    let readChars = 0;
    for (const bp of breakpoints) {
      for (let i = bp; i >= Math.max(0, bp - 20); i--) {
        if (entries.has(text.slice(0, ends[i]))) {
          readChars = Math.max(readChars, ends[i]!);
          break;
        }
      }
    }
    let writtenChars = 0;
    for (const bp of breakpoints) {
      if (fakeTokens(ends[bp]!) < this.rules.minTokens(model)) continue;
      entries.add(text.slice(0, ends[bp]));
      writtenChars = Math.max(writtenChars, ends[bp]!);
    }
    const read = fakeTokens(readChars);
    const written = writtenChars > readChars ? fakeTokens(writtenChars) - read : 0;
    return {read, written, input};
  }
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
