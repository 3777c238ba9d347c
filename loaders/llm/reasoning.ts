/**
 * Reasoning models' settings and thinking, provider by provider: which
 * OpenAI models are reasoning models, what `reasoning_effort` means to the
 * providers that take a token budget instead, which combinations each API
 * refuses (checked when a config is read, so that no call is ever sent to
 * be refused), and the thinking that open models write into their text.
 *
 * The providers' documented rules this follows:
 * - OpenAI (https://platform.openai.com/docs/guides/reasoning; the `openai`
 *   SDK's ChatCompletionCreateParams): reasoning models (o1, o3, o4-mini,
 *   gpt-5 and their dated snapshots) take `max_completion_tokens`, which
 *   counts the reasoning tokens too, and refuse `max_tokens`; they accept no
 *   `temperature` or `top_p` but the default 1. `reasoning_effort` is one of
 *   minimal, low, medium, high (`minimal`: gpt-5 only).
 * - Anthropic (https://docs.claude.com/en/docs/build-with-claude/extended-thinking;
 *   the SDK's ThinkingConfigEnabled): `thinking.budget_tokens` must be ≥ 1024
 *   and less than `max_tokens`; thinking is incompatible with `temperature`
 *   (other than unset), and `top_p` may only be from 0.95 to 1. Claude 4.6
 *   models also take adaptive thinking (`thinking: {type: "adaptive"}` with
 *   `output_config.effort` low, medium or high; the SDK's
 *   ThinkingConfigAdaptive and OutputConfig), and Opus 4.7, Mythos Preview
 *   and the Claude 5 models only that: the budget form is refused with a 400
 *   (https://platform.claude.com/docs/en/build-with-claude/adaptive-thinking).
 *   Models before 4.6 know only the budget form.
 * - Gemini (https://ai.google.dev/gemini-api/docs/thinking): 2.5 Pro takes a
 *   `thinkingBudget` from 128 to 32768 and cannot turn thinking off; 2.5
 *   Flash 0 to 24576 (0 = off); 2.5 Flash-Lite 512 to 24576 or 0. Thinking
 *   tokens count against `maxOutputTokens`. Google's OpenAI compatibility
 *   layer (https://ai.google.dev/gemini-api/docs/openai) maps
 *   `reasoning_effort` low, medium, high to budgets of 1024, 8192 and 24576
 *   tokens: the map used here for Anthropic and Gemini, with `minimal` at
 *   1024 (Anthropic's minimum).
 *
 * A player's `max_tokens` is the answer's own length: with thinking, each
 * provider's output limit is `max_tokens` plus the thinking budget. The
 * OpenAI protocol has no budget field: there `thinking_budget` only sizes
 * that limit (`max_completion_tokens` of a reasoning model, which counts
 * its reasoning; `max_tokens` of a local model that thinks in its text),
 * and a reasoning model without one gets the budget of its effort
 * (medium by default, the API's own default effort).
 */
import type {ReasoningEffort, Sampling} from "./types.js";

/** OpenAI's reasoning model families by name (a dated snapshot or a routed "openai/o3" included). */
const OPENAI_REASONING_MODEL = /^(?:[\w.-]+\/)?(?:o\d|gpt-5)(?:[-.:]|$)/i;

/**
 * Whether an OpenAI-protocol model is a reasoning model: the player's
 * `reasoning_model` when given, else its name (o1, o3, o4-mini, gpt-5...),
 * else whether it asks for a `reasoning_effort`.
 */
export function isOpenaiReasoningModel(model: string, reasoningEffort: ReasoningEffort | null, override: boolean | null): boolean {
  if (override !== null) return override;
  return OPENAI_REASONING_MODEL.test(model) || reasoningEffort !== null;
}

/** Thinking tokens per effort for the providers that take a budget (Google's OpenAI compatibility map; `minimal` at Anthropic's minimum). */
export const EFFORT_BUDGET: Record<ReasoningEffort, number> = {minimal: 1024, low: 1024, medium: 8192, high: 24576};

/** Anthropic's smallest `budget_tokens`. */
export const ANTHROPIC_MIN_BUDGET = 1024;

/** The thinking budget a call asks for: the explicit budget, else the effort's, else none. */
export function thinkingBudgetOf(sampling: Pick<Sampling, "reasoning_effort" | "thinking_budget">): number | null {
  if (sampling.thinking_budget !== undefined) return sampling.thinking_budget;
  return sampling.reasoning_effort !== undefined ? EFFORT_BUDGET[sampling.reasoning_effort] : null;
}

/**
 * Which thinking forms an Anthropic model takes, by its name's version
 * (claude-opus-4-7, claude-sonnet-4-6, claude-haiku-4-5-20251001,
 * claude-3-7-sonnet-20250219, claude-mythos-preview): "budget" (before
 * 4.6), "both" (4.6), "adaptive" (4.7 and later, Mythos Preview). A name
 * without a version keeps the budget form.
 */
export function anthropicThinkingForms(model: string): "budget" | "both" | "adaptive" {
  const m = model.toLowerCase();
  if (/mythos-preview/.test(m)) return "adaptive";
  const v = /claude-(?:opus|sonnet|haiku|fable|mythos)-(\d+)(?:-(\d{1,2})(?!\d))?/.exec(m);
  if (!v) return "budget";
  const major = Number(v[1]);
  const minor = v[2] === undefined ? 0 : Number(v[2]);
  if (major > 4 || (major === 4 && minor >= 7)) return "adaptive";
  return major === 4 && minor === 6 ? "both" : "budget";
}

/** Anthropic's output_config.effort for an effort (it has no "minimal"). */
export const ANTHROPIC_EFFORT: Record<ReasoningEffort, "low" | "medium" | "high"> = {minimal: "low", low: "low", medium: "medium", high: "high"};

/**
 * What an Anthropic request asks of thinking: the budget form (a
 * budget, or an effort's budget, on a model that takes it), or adaptive
 * thinking at an effort (models that take only that, and 4.6 models asked
 * for an effort rather than a budget); `room` is the output the thinking may
 * take on top of the answer's max_tokens. Null without thinking settings.
 */
export function anthropicThinking(model: string, sampling: Pick<Sampling, "reasoning_effort" | "thinking_budget">): {budget: number; room: number} | {effort: "low" | "medium" | "high"; room: number} | null {
  const forms = anthropicThinkingForms(model);
  if (sampling.reasoning_effort !== undefined && (forms === "adaptive" || (forms === "both" && sampling.thinking_budget === undefined))) {
    return {effort: ANTHROPIC_EFFORT[sampling.reasoning_effort], room: EFFORT_BUDGET[sampling.reasoning_effort]};
  }
  const budget = thinkingBudgetOf(sampling);
  return budget === null ? null : {budget, room: budget};
}

/** Gemini's documented thinkingBudget range for a model, by name; null for models it does not document (the widest range is allowed). */
export function geminiBudgetRange(model: string): {min: number; max: number; off: boolean} | null {
  const m = model.toLowerCase();
  if (/gemini-2\.5-pro/.test(m)) return {min: 128, max: 32768, off: false};
  if (/gemini-2\.5-flash-lite/.test(m)) return {min: 512, max: 24576, off: true};
  if (/gemini-2\.5-flash/.test(m)) return {min: 1, max: 24576, off: true};
  return null;
}

/** What `reasoningProblem` reads of a player. */
export interface ReasoningSettings {
  provider: "openai" | "anthropic" | "gemini";
  model: string;
  temperature: number | null;
  top_p: number | null;
  max_tokens: number;
  reasoning_effort: ReasoningEffort | null;
  thinking_budget: number | null;
  reasoning_model: boolean | null;
}

/**
 * The first combination of settings the player's API would refuse, as
 * {key, message}, or null. Checked when the config is read.
 */
export function reasoningProblem(s: ReasoningSettings): {key: string; message: string} | null {
  if (s.provider !== "openai" && s.reasoning_effort !== null && s.thinking_budget !== null) {
    return {key: "thinking_budget", message: `give reasoning_effort or thinking_budget, not both (${s.provider} takes a budget; reasoning_effort ${s.reasoning_effort} stands for ${EFFORT_BUDGET[s.reasoning_effort]} tokens)`};
  }
  if (s.provider !== "openai" && s.reasoning_model !== null) return {key: "reasoning_model", message: `only OpenAI-protocol players have it (${s.provider} models are told by their thinking settings)`};
  if (s.provider === "openai") {
    // `minimal` is gpt-5's (and its mini, nano and snapshots'): the o-series and gpt-5.1 and later refuse it (the SDK's ReasoningEffort).
    if (s.reasoning_effort === "minimal" && OPENAI_REASONING_MODEL.test(s.model) && !/^(?:[\w.-]+\/)?gpt-5(?:-(?:mini|nano|\d{4}-\d{2}-\d{2})(?:-\d{4}-\d{2}-\d{2})?)?$/i.test(s.model)) {
      return {key: "reasoning_effort", message: `${s.model} does not take "minimal" (gpt-5's only): use low, medium or high`};
    }
    if (isOpenaiReasoningModel(s.model, s.reasoning_effort, s.reasoning_model)) {
      if (s.temperature !== null && s.temperature !== 1) return {key: "temperature", message: `OpenAI reasoning models accept only the default temperature 1, got ${s.temperature} (remove it, or set "reasoning_model": false for a server that is not OpenAI's)`};
      if (s.top_p !== null && s.top_p !== 1) return {key: "top_p", message: `OpenAI reasoning models accept only the default top_p 1, got ${s.top_p}`};
    }
    return null;
  }
  const budget = thinkingBudgetOf({...(s.reasoning_effort !== null && {reasoning_effort: s.reasoning_effort}), ...(s.thinking_budget !== null && {thinking_budget: s.thinking_budget})});
  if (budget === null) return null;
  const key = s.thinking_budget !== null ? "thinking_budget" : "reasoning_effort";
  if (s.provider === "anthropic") {
    if (s.thinking_budget !== null && anthropicThinkingForms(s.model) === "adaptive") {
      return {key: "thinking_budget", message: `${s.model} takes only adaptive thinking, which has no budget: use reasoning_effort (its output_config.effort) instead`};
    }
    if (budget < ANTHROPIC_MIN_BUDGET && anthropicThinkingForms(s.model) !== "adaptive") return {key, message: `Anthropic's extended thinking needs a budget of at least ${ANTHROPIC_MIN_BUDGET} tokens, got ${budget}`};
    if (s.temperature !== null) return {key: "temperature", message: "Anthropic's extended thinking does not allow a temperature (remove it: thinking runs at the default)"};
    if (s.top_p !== null && s.top_p < 0.95) return {key: "top_p", message: `Anthropic's extended thinking allows top_p only from 0.95 to 1, got ${s.top_p}`};
    return null;
  }
  const range = geminiBudgetRange(s.model);
  if (budget === 0) return range && !range.off ? {key, message: `${s.model} cannot turn thinking off (a budget from ${range.min} to ${range.max})`} : null;
  if (range && (budget < range.min || budget > range.max)) return {key, message: `${s.model} takes a thinking budget from ${range.min} to ${range.max}${range.off ? " (or 0: no thinking)" : ""}, got ${budget}`};
  return null;
}

/**
 * An answer's text with the thinking of open reasoning models taken out:
 * `<think>…</think>` blocks (DeepSeek-R1, Qwen3, served raw), a reply that
 * starts inside one and has only the closing tag (templates that put the
 * opening tag in the prompt), and an unclosed `<think>` cut off by the token
 * limit (all of the rest is thinking, and there is no answer).
 */
export function splitThink(text: string): {text: string; thinking: string | null} {
  // One pass from left to right (each search starts where the last ended), so that any reply reads in linear time.
  const parts: string[] = [];
  let from = 0;
  const lone = tagAt(THINK_CLOSE, text, 0);
  if (lone && !((tagAt(THINK_OPEN, text, 0)?.index ?? Infinity) < lone.index)) {
    parts.push(text.slice(0, lone.index).trim());
    from = lone.end;
  }
  const kept: string[] = [];
  for (;;) {
    const open = tagAt(THINK_OPEN, text, from);
    if (!open) {
      kept.push(text.slice(from));
      break;
    }
    kept.push(text.slice(from, open.index));
    const close = tagAt(THINK_CLOSE, text, open.end);
    if (!close) {
      parts.push(text.slice(open.end).trim());
      break;
    }
    parts.push(text.slice(open.end, close.index).trim());
    from = close.end;
  }
  if (!parts.length) return {text, thinking: null};
  const thinking = parts.filter(Boolean).join("\n\n");
  return {text: kept.join("").trim(), thinking: thinking || null};
}

const THINK_OPEN = /<think>/gi;
const THINK_CLOSE = /<\/think>/gi;

/** The first match of the tag `pattern` (a global regular expression) at or after `from`. */
function tagAt(pattern: RegExp, text: string, from: number): {index: number; end: number} | null {
  pattern.lastIndex = from;
  const m = pattern.exec(text);
  return m ? {index: m.index, end: m.index + m[0].length} : null;
}

/** Thinking from the API and from the text, joined (API first); null when there is none. */
export function joinThinking(...parts: Array<string | null | undefined>): string | null {
  const kept = parts.filter((p): p is string => typeof p === "string" && p.trim() !== "");
  return kept.length ? kept.join("\n\n") : null;
}
