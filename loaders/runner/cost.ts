/**
 * What LLM calls cost: a price table in parley.config.json ("prices", per
 * provider and model as the run config requests it, US dollars per million
 * input, cached input and output tokens, with the date the prices were
 * read). What a run's calls cost and `--max-cost` are runner/budget.ts's,
 * the spend record across processes runner/spendJournal.ts's. The
 * arithmetic is src/lib/agentCost.ts's `tokenCost`, the same
 * for a call, a game, a run and the /ratings page: input tokens the provider
 * read from its prompt cache at the cached-input price, those it wrote to
 * the cache at the cache-write price, the rest at the input price, and
 * every output token, thinking included, at the output price.
 *
 *   "prices": {"openai/gpt-4o-mini": {"input_per_million": 0.15, "cached_input_per_million": 0.075, "output_per_million": 0.6, "as_of": "2026-11-01"}}
 */
import {readConfigFile} from "../projectConfig.js";
import type {ConfigKey} from "../io/configKeys.js";
import {tokenCost, type Price} from "../../src/lib/agentCost.js";

export {tokenCost, type Price};

export type PriceTable = Map<string, Price>;

/** The fields every price must have: US dollars per million tokens. */
const RATE_FIELDS = ["input_per_million", "output_per_million"] as const;

/** The fields of a price in "prices": the ones readPrices checks, as the site's Reference prints them. */
export const PRICE_FIELDS: readonly ConfigKey[] = [
  ...RATE_FIELDS.map((key) => ({key, type: "a number ≥ 0", default: "required", meaning: `US dollars per million ${key.split("_")[0]} tokens${key === "output_per_million" ? " (thinking included: every provider bills it as output)" : " (all input when there is no cached_input_per_million)"}`})),
  {key: "cached_input_per_million", type: "a number ≥ 0", default: "input_per_million", meaning: "US dollars per million input tokens read from the provider's prompt cache (turns.cached_input_tokens)"},
  {key: "cache_write_per_million", type: "a number ≥ 0", default: "input_per_million", meaning: "US dollars per million input tokens written to the provider's prompt cache (turns.cache_write_tokens; Anthropic bills 1.25 times the input price)"},
  {key: "as_of", type: "a date, YYYY-MM-DD", default: "none", meaning: "when the prices were read"},
];

export const priceKey = (provider: string, model: string): string => `${provider}/${model}`;

/** The price table of parley.config.json (or PARLEY_CONFIG's file); an empty table when there is none. Errors name the key. */
export function readPrices(env: NodeJS.ProcessEnv = process.env): PriceTable {
  const {path, config} = readConfigFile(env);
  const table: PriceTable = new Map();
  if (!config) return table;
  if (config.prices === undefined) return table;
  if (!config.prices || typeof config.prices !== "object" || Array.isArray(config.prices)) throw new Error(`${path}: "prices" must be an object {"<provider>/<model>": {"input_per_million": ..., "output_per_million": ...}}`);
  const known = new Set(PRICE_FIELDS.map((f) => f.key));
  for (const [key, value] of Object.entries(config.prices as Record<string, unknown>)) {
    const v = value as Record<string, unknown>;
    if (!v || typeof v !== "object" || Array.isArray(v)) throw new Error(`${path}: prices["${key}"]: expected an object {"input_per_million": ..., "output_per_million": ...}`);
    for (const field of Object.keys(v)) if (!known.has(field)) throw new Error(`${path}: prices["${key}"]: unknown field "${field}" (expected one of ${[...known].join(", ")})`);
    for (const field of [...RATE_FIELDS, "cached_input_per_million", "cache_write_per_million"] as const) {
      const n = v[field];
      if (!(RATE_FIELDS as readonly string[]).includes(field) && (n === undefined || n === null)) continue;
      if (typeof n !== "number" || !Number.isFinite(n) || n < 0) throw new Error(`${path}: prices["${key}"].${field}: expected a number ≥ 0 (US dollars per million tokens), got ${JSON.stringify(n)}`);
    }
    if (v.as_of !== undefined && (typeof v.as_of !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(v.as_of) || Number.isNaN(Date.parse(v.as_of)))) {
      throw new Error(`${path}: prices["${key}"].as_of: expected a date YYYY-MM-DD, got ${JSON.stringify(v.as_of)}`);
    }
    table.set(key, {
      input_per_million: v.input_per_million as number,
      output_per_million: v.output_per_million as number,
      ...(typeof v.cached_input_per_million === "number" && {cached_input_per_million: v.cached_input_per_million}),
      ...(typeof v.cache_write_per_million === "number" && {cache_write_per_million: v.cache_write_per_million}),
      as_of: (v.as_of as string | undefined) ?? null,
    });
  }
  return table;
}

export interface CostedPlayer {
  id: string;
  provider: string;
  model: string;
}

/** Players of `players` with no price in the table. */
export function unpriced(players: readonly CostedPlayer[], prices: PriceTable): CostedPlayer[] {
  return players.filter((p) => !prices.has(priceKey(p.provider, p.model)));
}
