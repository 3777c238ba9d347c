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
import {providers, type Provider, type Sampling} from "./types.js";
import {personaNames, type PersonaName} from "./personas.js";

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
  /** Per-HTTP-attempt timeout. */
  timeout_ms: number;
  /** HTTP retries on 429, 5xx, timeouts and dropped connections. */
  max_retries: number;
  /** Limits for this endpoint (provider + base_url), shared by all players using it; null: default. */
  max_concurrency: number | null;
  requests_per_minute: number | null;
}

export const defaultKeyEnv: Record<Provider, string> = {
  openai: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
  gemini: "GEMINI_API_KEY",
};

const fields = new Set([
  "id", "provider", "model", "base_url", "api_key_env", "temperature", "max_tokens", "top_p", "seed", "persona",
  "chain_of_thought", "timeout_ms", "max_retries", "max_concurrency", "requests_per_minute",
]);

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
  const num = (k: string, def: number | null, check: (n: number) => boolean, expected: string): number | null => {
    const v = o[k];
    if (v === undefined || v === null) return def;
    if (typeof v !== "number" || !Number.isFinite(v) || !check(v)) throw new Error(`${where}: "${k}" must be ${expected}, got ${JSON.stringify(v)}`);
    return v;
  };
  const id = str("id", false)!;
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
  if (persona !== null && !personaNames.includes(persona as PersonaName)) {
    throw new Error(`${who}: "persona" must be null or one of ${personaNames.join(", ")}, got ${JSON.stringify(persona)}`);
  }
  const cot = o.chain_of_thought ?? false;
  if (typeof cot !== "boolean") throw new Error(`${who}: "chain_of_thought" must be true or false`);
  const int = (n: number) => Number.isInteger(n);
  return {
    id,
    provider,
    model: str("model", false)!,
    base_url,
    api_key_env,
    temperature: num("temperature", null, (n) => n >= 0 && n <= 2, "a number in [0, 2]"),
    max_tokens: num("max_tokens", 400, (n) => int(n) && n >= 1, "a positive integer")!,
    top_p: num("top_p", null, (n) => n > 0 && n <= 1, "a number in (0, 1]"),
    seed: num("seed", null, int, "an integer"),
    persona: persona as PersonaName | null,
    chain_of_thought: cot,
    timeout_ms: num("timeout_ms", 60_000, (n) => n >= 1, "a positive number of milliseconds")!,
    max_retries: num("max_retries", 6, (n) => int(n) && n >= 0 && n <= 20, "an integer from 0 to 20")!,
    max_concurrency: num("max_concurrency", null, (n) => int(n) && n >= 1, "a positive integer"),
    requests_per_minute: num("requests_per_minute", null, (n) => n > 0, "a positive number"),
  };
}

/** The sampling parameters a spec sends with every call. */
export function samplingOf(spec: LlmPlayerSpec): Sampling {
  return {
    max_tokens: spec.max_tokens,
    ...(spec.temperature !== null && {temperature: spec.temperature}),
    ...(spec.top_p !== null && {top_p: spec.top_p}),
    ...(spec.seed !== null && {seed: spec.seed}),
  };
}
