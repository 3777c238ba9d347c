/**
 * An LLM player as written in a run config, e.g.
 *
 *   {"id": "mini", "provider": "openai", "model": "gpt-4o-mini",
 *    "base_url": "http://127.0.0.1:8000/v1", "api_key_env": "OPENAI_API_KEY",
 *    "temperature": 1.0, "max_tokens": 400, "persona": null}
 *
 * `parseLlmPlayerSpec` checks every field (unknown fields are errors, so a
 * typo never silently falls back to a default) and fills in defaults. How
 * many answers a decision may take before the game's fallback applies is
 * the run's `max_attempts` (run/config.ts), the same for every player.
 *
 * `api_key_env` names the environment variable holding the key; the key
 * itself never appears in a config. When omitted it defaults to the
 * provider's usual variable (OPENAI_API_KEY, ANTHROPIC_API_KEY,
 * GEMINI_API_KEY) if `base_url` is also omitted, and to no key at all when a
 * `base_url` is given (a local Ollama or vLLM); write it explicitly for a
 * hosted OpenAI-compatible service such as OpenRouter.
 */
import {idProblem} from "../io/ids.js";
import {providers, REASONING_EFFORTS, type Provider, type ReasoningEffort, type Sampling} from "./types.js";
import {isOpenaiReasoningModel, reasoningProblem} from "./reasoning.js";
import {defaultMaxResponseBytes} from "./httpFetch.js";
import {defaultLimits} from "./limiter.js";
import {keyNames, type ConfigKey} from "../io/configKeys.js";

import {NEGOTIATION_SUFFIX_COUNT, PERSONALITIES, PROMPT_LAYOUTS, PROMPT_SOURCES, personaNames, type PersonaName, type Personality, type PromptLayout, type PromptSource} from "./playerOptions.js";

export {NEGOTIATION_SUFFIX_COUNT, PERSONALITIES, PROMPT_LAYOUTS, PROMPT_SOURCES, personaNames, type PersonaName, type Personality, type PromptLayout, type PromptSource};

export interface LlmPlayerSpec {
  id: string;
  provider: Provider;
  model: string;
  base_url: string | null;
  api_key_env: string | null;
  /** null: not sent, the provider's default applies. */
  temperature: number | null;
  max_tokens: number;
  top_p: number | null;
  seed: number | null;
  persona: PersonaName | null;
  /** Ask for step-by-step reasoning in a "reasoning" field before the answer (stored, never shown to the opponent). */
  chain_of_thought: boolean;
  /**
   * Play with the game's workflow (Game-theoretic LLM workflows (Hua et al.
   * 2024) §4.4, §5.2): matrix and tree games ask the sub-questions, then a
   * strategy summary prepended to every later prompt; Deal or No Deal runs
   * the belief workflow. Present only when true, so older configs keep
   * their fingerprints.
   */
  workflow?: boolean;
  /** Matrix and tree games: the system prompt's personality (Hua et al. 2024 §6.3); absent = "rational". Present only when set. */
  personality?: Personality;
  /** Matrix and tree games: which of the six prompts of Hua et al. 2024 §6.5 ends every action prompt (1–6). Present only when set. */
  negotiation_suffix?: number;
  /**
   * Which of the authors' sources the narrator renders where they disagree:
   * absent = the default (the prompts of the published runs where they were
   * logged, else the authors' code, with a code bug that changes the game
   * replaced by the paper's rule); "paper" = the paper's printed text;
   * "code" = the authors' code. Present only when set.
   */
  prompts?: PromptSource;
  /**
   * A harness factor (harness.ts): the conversation's layout across a
   * game's calls (playerOptions.ts): absent = "authors", the paper's;
   * "fixed-system" keeps one system message for the game so a provider's
   * prompt cache can serve every call's prefix. Present only when not the
   * default, so older configs keep their fingerprints.
   */
  prompt_layout?: PromptLayout;
  /**
   * Reasoning models (reasoning.ts): OpenAI's `reasoning_effort`, mapped to
   * a thinking budget for Anthropic and Gemini; or the budget itself
   * (Anthropic's `budget_tokens`, Gemini's `thinkingBudget`); and, for the
   * OpenAI protocol, whether the model is a reasoning model when its name
   * does not tell. Present only when set, so older configs keep their
   * fingerprints and cache keys.
   */
  reasoning_effort?: ReasoningEffort;
  thinking_budget?: number;
  reasoning_model?: boolean;
  /**
   * Harness factors (loaders/llm/harness.ts), each present only when set so
   * that older configs keep their fingerprints: list the legal moves after
   * the request; constrain the answer to the legal actions' JSON schema;
   * this player's answers to one decision after a rule break (overrides the
   * run's max_attempts − 1 for this player); samples per decision, the
   * modal legal move winning.
   */
  legal_moves?: boolean;
  structured_output?: boolean;
  retries?: number;
  votes?: number;
  /** Per-HTTP-attempt timeout. */
  timeout_ms: number;
  /** HTTP retries on 429, 5xx, timeouts and dropped connections. */
  max_retries: number;
  /** Limits for this endpoint (provider + base_url), shared by all players using it; null: default. */
  max_concurrency: number | null;
  requests_per_minute: number | null;
  /** Largest reply body read, after decompression; a larger one fails the attempt (retryable). */
  max_response_bytes: number;
  /** Longest wait a Retry-After may impose before the next attempt. */
  max_retry_wait_ms: number;
}

export const defaultKeyEnv: Record<Provider, string> = {
  openai: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
  gemini: "GEMINI_API_KEY",
};

/**
 * The range of every numeric setting. Bounds are sane rather than
 * permissive: every millisecond value must fit a Node timer (at most
 * 2^31 - 1 ms; beyond that setTimeout fires after 1 ms), and the
 * request-rate spacing 60000 / requests_per_minute must too.
 */
const ranges = {
  temperature: {min: 0, max: 2, integer: false},
  max_tokens: {min: 1, max: 1_000_000, integer: true},
  thinking_budget: {min: 0, max: 1_000_000, integer: true},
  top_p: {min: Number.MIN_VALUE, max: 1, integer: false},
  seed: {min: -(2 ** 31), max: 2 ** 31 - 1, integer: true},
  timeout_ms: {min: 1000, max: 3_600_000, integer: true},
  max_retries: {min: 0, max: 20, integer: true},
  max_concurrency: {min: 1, max: 10_000, integer: true},
  requests_per_minute: {min: 0.1, max: 1_000_000, integer: false},
  max_response_bytes: {min: 1024, max: 1024 ** 3, integer: true},
  max_retry_wait_ms: {min: 0, max: 3_600_000, integer: true},
} as const;

export const defaultMaxRetryWaitMs = 60_000;

/** Upper bounds of the harness factors: retries as the run's max_attempts (at most 100 answers), votes a sane number of calls per decision. */
export const HARNESS_LIMITS = {retries: 99, votes: 25} as const;

/** What a numeric setting may be, in the words of its error. */
function rangeText(k: keyof typeof ranges): string {
  const {min, max, integer} = ranges[k];
  const range = k === "top_p" ? "in (0, 1]" : `from ${min} to ${max}`;
  return `${integer ? "an integer" : "a number"} ${range}`;
}

/** The defaults of the numeric settings that have one. */
export const LLM_PLAYER_DEFAULTS = {max_tokens: 400, timeout_ms: 60_000, max_retries: 6, max_response_bytes: defaultMaxResponseBytes, max_retry_wait_ms: defaultMaxRetryWaitMs} as const;

const oneOf = (names: readonly string[]) => `one of ${names.map((n) => JSON.stringify(n)).join(", ")}`;

/**
 * The fields of an LLM player object: the one table `parseLlmPlayerSpec`
 * checks a player's fields against (in this order in its error) and the
 * site's Reference (/reference/config) prints.
 */
export const LLM_PLAYER_FIELDS: readonly ConfigKey[] = [
  {key: "id", type: "an id (1 to 256 characters, no control, line-separator or bidirectional-format characters), not a built-in agent's id", default: "required", meaning: "the player's id, by which lineups name it (its cache and limits go with it)"},
  {key: "provider", type: oneOf(providers), default: "required", meaning: "which API the player calls (an OpenAI-compatible server is \"openai\" with a base_url)"},
  {key: "model", type: "a non-empty string", default: "required", meaning: "the model as the provider names it"},
  {key: "base_url", type: "null, or a URL starting with http:// or https://", default: "null: the provider's own endpoint", meaning: "another endpoint, e.g. a local Ollama or vLLM server"},
  {key: "api_key_env", type: "null, or an environment variable name", default: `the provider's variable (${Object.values(defaultKeyEnv).join(", ")}) without base_url, none with it`, meaning: "the environment variable holding the key (the key itself never goes in a config)"},
  {key: "temperature", type: rangeText("temperature"), default: "null: not sent, the provider's default applies", meaning: "sampling temperature"},
  {key: "max_tokens", type: rangeText("max_tokens"), default: String(LLM_PLAYER_DEFAULTS.max_tokens), meaning: "longest answer, in tokens"},
  {key: "top_p", type: rangeText("top_p"), default: "null: not sent", meaning: "nucleus sampling"},
  {key: "seed", type: rangeText("seed"), default: "null: not sent", meaning: "the provider's sampling seed, where it has one"},
  {key: "persona", type: `null or ${oneOf(personaNames)}`, default: "null", meaning: "NegotiationArena (Bianchi et al. 2024) §4's behavioural persona"},
  {key: "chain_of_thought", type: "true or false", default: "false", meaning: 'ask for step-by-step reasoning in a "reasoning" field before the answer (stored, never shown to the opponent)'},
  {key: "personality", type: `null or ${oneOf(PERSONALITIES)}`, default: 'null: "rational"', meaning: "matrix and tree games: the system prompt's personality (Hua et al. 2024 §6.3)"},
  {key: "negotiation_suffix", type: `null or an integer from 1 to ${NEGOTIATION_SUFFIX_COUNT}`, default: "null", meaning: "matrix and tree games: which of the prompts of Hua et al. 2024 §6.5 ends every action prompt"},
  {key: "prompts", type: `null or ${oneOf(PROMPT_SOURCES)}`, default: "null: the published runs' words where logged, else the authors' code (the paper's rule where that code breaks it)", meaning: "where the authors' logged runs, code and paper word a prompt differently: the paper's printed text or the authors' code instead (each paper's Guide page lists the differences)"},
  {key: "prompt_layout", type: oneOf(PROMPT_LAYOUTS), default: '"authors"', meaning: 'harness factor: "authors" lays out each conversation as its paper does; "fixed-system" keeps one system message for the whole game and puts what varies by turn (GLEE\'s answer format) at the end of the last user message only, so every call repeats the previous one (but that format) as its prefix and a provider\'s prompt cache can serve it'},
  {key: "workflow", type: "true or false", default: "false", meaning: "play with the game's workflow (Hua et al. 2024 §4.4, §5.2), in games that have one"},
  {key: "reasoning_effort", type: `null or ${oneOf(REASONING_EFFORTS)}`, default: "null: not sent", meaning: "a reasoning model's effort: OpenAI's reasoning_effort; Anthropic's output_config.effort with adaptive thinking (Claude 4.6 and later); otherwise a thinking budget of 1024 (minimal, low), 8192 (medium) or 24576 (high) tokens"},
  {key: "thinking_budget", type: `null or ${rangeText("thinking_budget")}`, default: "null: no thinking asked for", meaning: "thinking tokens (Anthropic's budget_tokens, at least 1024, before Opus 4.7; Gemini's thinkingBudget, in the model's range); added to max_tokens for the output limit"},
  {key: "reasoning_model", type: "null, true or false", default: "null: by name (o1, o3, o4-mini, gpt-5...) or when reasoning_effort is set", meaning: "OpenAI protocol: send max_completion_tokens and no temperature or top_p, as OpenAI's reasoning models require"},
  {key: "legal_moves", type: "true or false", default: "false", meaning: "harness factor: list the game's legal moves after the request for each decision (Parley's words, after the paper's)"},
  {key: "structured_output", type: "true or false", default: "false", meaning: "harness factor: constrain the answer to the legal actions as a JSON schema (OpenAI response_format, Anthropic a forced tool, Gemini responseSchema); the answer is the game's action"},
  {key: "retries", type: `null or an integer from 0 to ${HARNESS_LIMITS.retries}`, default: "null: the run's max_attempts − 1", meaning: "harness factor: answers asked again after a rule break in one decision, for this player"},
  {key: "votes", type: `an integer from 1 to ${HARNESS_LIMITS.votes}`, default: "1 (one call per decision)", meaning: "harness factor: samples per decision (k calls, each cached apart); the modal legal move wins, ties to the earliest sample; every sample's tokens count"},
  {key: "timeout_ms", type: rangeText("timeout_ms"), default: String(LLM_PLAYER_DEFAULTS.timeout_ms), meaning: "timeout of each HTTP attempt"},
  {key: "max_retries", type: rangeText("max_retries"), default: String(LLM_PLAYER_DEFAULTS.max_retries), meaning: "HTTP retries on 429, 5xx, timeouts and dropped connections"},
  {key: "max_concurrency", type: rangeText("max_concurrency"), default: `null: ${defaultLimits.maxConcurrency}`, meaning: "requests in flight to this endpoint (provider + base_url), shared by every player using it"},
  {key: "requests_per_minute", type: rangeText("requests_per_minute"), default: defaultLimits.requestsPerMinute === null ? "null: no limit" : `null: ${defaultLimits.requestsPerMinute}`, meaning: "requests started per minute to this endpoint, shared by every player using it"},
  {key: "max_response_bytes", type: rangeText("max_response_bytes"), default: String(LLM_PLAYER_DEFAULTS.max_response_bytes), meaning: "largest reply body read, after decompression; a larger one fails the attempt (retryable)"},
  {key: "max_retry_wait_ms", type: rangeText("max_retry_wait_ms"), default: String(LLM_PLAYER_DEFAULTS.max_retry_wait_ms), meaning: "longest wait a Retry-After may impose before the next attempt"},
];

const fields = new Set(keyNames(LLM_PLAYER_FIELDS));

/** Parses the harness factors of a player object (errors name `who` and the key); only the set ones are returned. */
function harnessOf(o: Record<string, unknown>, who: string): Pick<LlmPlayerSpec, "legal_moves" | "structured_output" | "retries" | "votes"> {
  const flag = (k: "legal_moves" | "structured_output") => {
    const v = o[k] ?? false;
    if (typeof v !== "boolean") throw new Error(`${who}: "${k}" must be true or false, got ${JSON.stringify(v)}`);
    return v;
  };
  const int = (k: "retries" | "votes", min: number) => {
    const v = o[k] ?? null;
    if (v !== null && !(typeof v === "number" && Number.isInteger(v) && v >= min && v <= HARNESS_LIMITS[k])) {
      throw new Error(`${who}: "${k}" must be ${k === "retries" ? "null or " : ""}an integer from ${min} to ${HARNESS_LIMITS[k]}, got ${JSON.stringify(v)}`);
    }
    return v as number | null;
  };
  const retries = int("retries", 0);
  const votes = int("votes", 1);
  return {
    ...(flag("legal_moves") && {legal_moves: true}),
    ...(flag("structured_output") && {structured_output: true}),
    ...(retries !== null && {retries}),
    ...(votes !== null && votes > 1 && {votes}),
  };
}

/** True when a run-config player entry is an LLM player object rather than a built-in agent id. */
export function isLlmPlayerConfig(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && "provider" in value;
}

/** Validates a run-config player object; errors name `where` (e.g. "run.json players[2]") and the field. */
export function parseLlmPlayerSpec(value: unknown, where: string): LlmPlayerSpec {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error(`${where}: expected an object for an LLM player`);
  const o = value as Record<string, unknown>;
  for (const key of Object.keys(o)) if (!fields.has(key)) throw new Error(`${where}: unknown field "${key}" (expected one of ${[...fields].join(", ")})`);
  const str = (k: string, optional: boolean): string | null => {
    const v = o[k];
    if (v === undefined || v === null) {
      if (optional) return null;
      throw new Error(`${where}: "${k}" is required`);
    }
    if (typeof v !== "string" || !v.trim()) throw new Error(`${where}: "${k}" must be a non-empty string, got ${JSON.stringify(v)}`);
    return v;
  };
  const num = <D extends number | null>(k: keyof typeof ranges, def: D): number | D => {
    const v = o[k];
    if (v === undefined || v === null) return def;
    const {min, max, integer} = ranges[k];
    if (typeof v !== "number" || !Number.isFinite(v) || (integer && !Number.isInteger(v)) || v < min || v > max) {
      throw new Error(`${where}.${k}: expected ${rangeText(k)}, got ${JSON.stringify(v)}`);
    }
    return v;
  };
  const id = str("id", false)!;
  // The id names the player in agent columns and game ids, so it follows their rule (io/ids.ts).
  const badId = idProblem(id);
  if (badId) throw new Error(`${where}.id: ${badId}`);
  const who = `${where} (${id})`;
  const provider = str("provider", false) as Provider;
  if (!providers.includes(provider)) throw new Error(`${who}: "provider" must be one of ${providers.join(", ")}, got ${JSON.stringify(provider)}`);
  const base_url = str("base_url", true);
  if (base_url !== null && !/^https?:\/\//.test(base_url)) throw new Error(`${who}: "base_url" must start with http:// or https://, got ${JSON.stringify(base_url)}`);
  const api_key_env = "api_key_env" in o ? str("api_key_env", true) : base_url === null ? defaultKeyEnv[provider] : null;
  if (api_key_env !== null && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(api_key_env)) {
    throw new Error(`${who}: "api_key_env" must be an environment variable name (the key itself never goes in a config)`);
  }
  const persona = o.persona ?? null;
  if (persona !== null && !(personaNames as readonly string[]).includes(persona as string)) {
    throw new Error(`${who}: "persona" must be null or one of ${personaNames.join(", ")}, got ${JSON.stringify(persona)}`);
  }
  const cot = o.chain_of_thought ?? false;
  if (typeof cot !== "boolean") throw new Error(`${who}: "chain_of_thought" must be true or false`);
  const personality = o.personality ?? null;
  if (personality !== null && !PERSONALITIES.includes(personality as Personality)) {
    throw new Error(`${who}: "personality" must be null or one of ${PERSONALITIES.join(", ")}, got ${JSON.stringify(personality)}`);
  }
  const suffix = o.negotiation_suffix ?? null;
  if (suffix !== null && !(typeof suffix === "number" && Number.isInteger(suffix) && suffix >= 1 && suffix <= NEGOTIATION_SUFFIX_COUNT)) {
    throw new Error(`${who}: "negotiation_suffix" must be null or an integer from 1 to ${NEGOTIATION_SUFFIX_COUNT} (the prompts of Hua et al. 2024 §6.5), got ${JSON.stringify(suffix)}`);
  }
  const workflow = o.workflow ?? false;
  if (typeof workflow !== "boolean") throw new Error(`${who}: "workflow" must be true or false`);
  const prompts = o.prompts ?? null;
  if (prompts !== null && !(PROMPT_SOURCES as readonly unknown[]).includes(prompts)) {
    throw new Error(`${who}: "prompts" must be null or one of ${PROMPT_SOURCES.join(", ")}, got ${JSON.stringify(prompts)}`);
  }
  const layout = o.prompt_layout ?? null;
  if (layout !== null && !(PROMPT_LAYOUTS as readonly unknown[]).includes(layout)) {
    throw new Error(`${who}: "prompt_layout" must be null or one of ${PROMPT_LAYOUTS.join(", ")}, got ${JSON.stringify(layout)}`);
  }
  const effort = o.reasoning_effort ?? null;
  if (effort !== null && !(REASONING_EFFORTS as readonly unknown[]).includes(effort)) {
    throw new Error(`${who}: "reasoning_effort" must be null or one of ${REASONING_EFFORTS.join(", ")}, got ${JSON.stringify(effort)}`);
  }
  const reasoningModel = o.reasoning_model ?? null;
  if (reasoningModel !== null && typeof reasoningModel !== "boolean") throw new Error(`${who}: "reasoning_model" must be null, true or false`);
  const budget = num("thinking_budget", null);
  const model = str("model", false)!;
  const temperature = num("temperature", null);
  const top_p = num("top_p", null);
  const max_tokens = num("max_tokens", LLM_PLAYER_DEFAULTS.max_tokens);
  const refused = reasoningProblem({provider, model, temperature, top_p, max_tokens, reasoning_effort: effort as ReasoningEffort | null, thinking_budget: budget, reasoning_model: reasoningModel});
  if (refused) throw new Error(`${who}: "${refused.key}": ${refused.message}`);
  const harness = harnessOf(o, who);
  // Anthropic (extended thinking, "Extended thinking with tool use"): "Tool use with thinking only supports tool_choice: {\"type\": \"auto\"} ... or {\"type\": \"none\"}"; structured output forces the tool.
  if (provider === "anthropic" && harness.structured_output && (effort !== null || budget !== null)) {
    throw new Error(`${who}: "structured_output": Anthropic cannot force a tool while thinking; drop "${effort !== null ? "reasoning_effort" : "thinking_budget"}" or structured_output`);
  }
  return {
    ...(effort !== null && {reasoning_effort: effort as ReasoningEffort}),
    ...(budget !== null && {thinking_budget: budget}),
    ...(reasoningModel !== null && {reasoning_model: reasoningModel}),
    ...harness,
    ...(prompts !== null && {prompts: prompts as PromptSource}),
    ...(layout !== null && layout !== "authors" && {prompt_layout: layout as PromptLayout}),
    ...(workflow && {workflow: true}),
    ...(personality !== null && {personality: personality as Personality}),
    ...(suffix !== null && {negotiation_suffix: suffix as number}),
    id,
    provider,
    model,
    base_url,
    api_key_env,
    temperature,
    max_tokens,
    top_p,
    seed: num("seed", null),
    persona: persona as PersonaName | null,
    chain_of_thought: cot,
    timeout_ms: num("timeout_ms", LLM_PLAYER_DEFAULTS.timeout_ms),
    max_retries: num("max_retries", LLM_PLAYER_DEFAULTS.max_retries),
    max_concurrency: num("max_concurrency", null),
    requests_per_minute: num("requests_per_minute", null),
    max_response_bytes: num("max_response_bytes", LLM_PLAYER_DEFAULTS.max_response_bytes),
    max_retry_wait_ms: num("max_retry_wait_ms", LLM_PLAYER_DEFAULTS.max_retry_wait_ms),
  };
}

/** The sampling parameters a spec sends with every call. */
export function samplingOf(spec: LlmPlayerSpec): Sampling {
  return {
    max_tokens: spec.max_tokens,
    ...(spec.temperature !== null && {temperature: spec.temperature}),
    ...(spec.top_p !== null && {top_p: spec.top_p}),
    ...(spec.seed !== null && {seed: spec.seed}),
    ...(spec.reasoning_effort !== undefined && {reasoning_effort: spec.reasoning_effort}),
    ...(spec.thinking_budget !== undefined && {thinking_budget: spec.thinking_budget}),
    ...(spec.provider === "openai" && isOpenaiReasoningModel(spec.model, spec.reasoning_effort ?? null, spec.reasoning_model ?? null) && {reasoning_model: true as const}),
  };
}
