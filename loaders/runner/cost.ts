/**
 * What LLM calls cost: a price table in parley.config.json ("prices", per
 * provider and model as the run config requests it, US dollars per million
 * input and output tokens, with the date the prices were read), the cost of
 * this process's calls per player (llm/promptLog.ts counts the tokens of
 * requests actually sent; a cached answer costs nothing), and the spend of
 * earlier processes of the same run, kept in the run's state directory so
 * that `--max-cost` bounds the whole run across resumes.
 *
 *   "prices": {"openai/gpt-4o-mini": {"input_per_million": 0.15, "output_per_million": 0.6, "as_of": "2026-11-01"}}
 */
import {readFileSync} from "node:fs";
import {join} from "node:path";
import {readConfigFile} from "../projectConfig.js";
import {writeFileDurable} from "../io/atomic.js";
import {CheckpointConflict} from "./checkpoint.js";
import {promptLog} from "../llm/promptLog.js";
import type {ConfigKey} from "../io/configKeys.js";

export interface Price {
  input_per_million: number;
  output_per_million: number;
  as_of: string | null;
}

export type PriceTable = Map<string, Price>;

/** The fields every price must have: US dollars per million tokens. */
const RATE_FIELDS = ["input_per_million", "output_per_million"] as const;

/** The fields of a price in "prices": the ones readPrices checks, as the site's Reference prints them. */
export const PRICE_FIELDS: readonly ConfigKey[] = [
  ...RATE_FIELDS.map((key) => ({key, type: "a number ≥ 0", default: "required", meaning: `US dollars per million ${key.split("_")[0]} tokens`})),
  {key: "as_of", type: "a date string", default: "none", meaning: "when the prices were read"},
];

export const priceKey = (provider: string, model: string): string => `${provider}/${model}`;

/** The price table of parley.config.json (or PARLEY_CONFIG's file); an empty table when there is none. Errors name the key. */
export function readPrices(env: NodeJS.ProcessEnv = process.env): PriceTable {
  const {path, config} = readConfigFile(env);
  const table: PriceTable = new Map();
  if (!config) return table;
  if (config.prices === undefined) return table;
  if (!config.prices || typeof config.prices !== "object" || Array.isArray(config.prices)) throw new Error(`${path}: "prices" must be an object {"<provider>/<model>": {"input_per_million": ..., "output_per_million": ...}}`);
  for (const [key, value] of Object.entries(config.prices as Record<string, unknown>)) {
    const v = value as Record<string, unknown>;
    for (const field of RATE_FIELDS) {
      const n = v?.[field];
      if (typeof n !== "number" || !Number.isFinite(n) || n < 0) throw new Error(`${path}: prices["${key}"].${field}: expected a number ≥ 0 (US dollars per million tokens), got ${JSON.stringify(n)}`);
    }
    if (v.as_of !== undefined && typeof v.as_of !== "string") throw new Error(`${path}: prices["${key}"].as_of: expected a date string`);
    table.set(key, {input_per_million: v.input_per_million as number, output_per_million: v.output_per_million as number, as_of: (v.as_of as string | undefined) ?? null});
  }
  return table;
}

export const tokenCost = (price: Price, input: number, output: number): number => (input * price.input_per_million + output * price.output_per_million) / 1e6;

export interface CostedPlayer {
  id: string;
  provider: string;
  model: string;
}

/** Dollars spent by this process's calls, per player (players without a price are left out). */
export function spentNow(players: readonly CostedPlayer[], prices: PriceTable): {total: number; players: Record<string, number>} {
  const out: Record<string, number> = {};
  let total = 0;
  for (const p of players) {
    const price = prices.get(priceKey(p.provider, p.model));
    const log = promptLog.get(p.id);
    if (!price || !log) continue;
    const usd = tokenCost(price, log.inputTokens, log.outputTokens);
    out[p.id] = usd;
    total += usd;
  }
  return {total, players: out};
}

/** Players of `players` with no price in the table. */
export function unpriced(players: readonly CostedPlayer[], prices: PriceTable): CostedPlayer[] {
  return players.filter((p) => !prices.has(priceKey(p.provider, p.model)));
}

/**
 * Spend of earlier processes of this run (its state directory): 0 when none
 * was recorded. A record that exists but cannot be read is not taken as 0
 * (that would hand --max-cost a fresh budget): CheckpointConflict naming it.
 */
export function previousSpend(stateDir: string): number {
  const path = join(stateDir, "spend.json");
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
  let usd: unknown;
  let reason = 'expected {"usd": <dollars>}';
  try {
    usd = (JSON.parse(text) as {usd?: unknown})?.usd;
  } catch (error) {
    reason = (error as Error).message;
  }
  if (typeof usd === "number" && Number.isFinite(usd) && usd >= 0) return usd;
  throw new CheckpointConflict(`${path}: not a readable spend record (${reason}); the run's earlier spend is unknown, so --max-cost cannot be kept: write {"usd": <dollars spent>} into it, or delete it to count from zero`);
}

/** Records the run's spend durably (fsync): a crash leaves the previous record or this one, never an empty file. */
export function saveSpend(stateDir: string, usd: number): Promise<void> {
  writeFileDurable(join(stateDir, "spend.json"), JSON.stringify({usd}) + "\n");
  return Promise.resolve();
}
