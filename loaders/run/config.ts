/**
 * Run configurations for `parley run` (JSON). Example:
 *
 *   {"family": "bargaining",
 *    "grid": {"delta_a": [0.9], "delta_b": [0.8], "money": [10000], "horizon": ["inf"],
 *             "complete_information": [true], "messages": [false]},
 *    "players": ["rubinstein"], "pairs": "all", "games_per_pair": 1, "seed": 1}
 *
 * - family: "bargaining" | "negotiation" | "persuasion", a list of them, or "all".
 * - grid: "full" (Table 1) or an object of parameter -> list of values; a
 *   parameter left out takes all its Table 1 values. With several families,
 *   the object may instead be keyed by family ({"bargaining": {...}, ...}).
 * - players: "all" (every built-in agent that plays the family) or a list whose
 *   entries are built-in agent ids or LLM player objects such as
 *   {"id": "mini", "provider": "openai", "model": "gpt-4o-mini",
 *    "base_url": "http://127.0.0.1:8000/v1", "api_key_env": "OPENAI_API_KEY",
 *    "temperature": 1.0, "max_tokens": 400, "persona": null}
 *   (fields: agents/llm/spec.ts); pairs then refer to them by id.
 * - pairs: "all" (every ordered pair, self-play included, of players that can
 *   sit in Alice's and Bob's seats), "self", or a list of [alice, bob] ids.
 * - games_per_pair (default 1), seed (default 0), concurrency (default 8),
 *   max_attempts (default 3, tries per decision before a rule-breaking game
 *   is aborted), run_id (default: the config file's name).
 * Errors name the offending key, e.g. `grid.delta_a[1]`; value ranges, repeated
 * ids and plans without games are checked in configChecks.ts.
 */
import {FAMILIES, type Family} from "../games/types.js";
import {gameFamily} from "../games/index.js";
import {agentSpec, builtinAgents} from "../agents/index.js";
import {isLlmPlayerConfig, parseLlmPlayerSpec, type LlmPlayerSpec} from "../agents/llm/spec.js";
import {firstRepeat, gridValueProblem, LIMITS, planProblem} from "./configChecks.js";

export type GridSpec = "full" | Record<string, unknown[]>;

export interface RunConfig {
  run_id: string;
  families: Family[];
  /** Per family: parameter -> values (complete, validated). */
  grids: Partial<Record<Family, Record<string, unknown[]>>>;
  players: "all" | string[];
  /** The LLM players among `players` (by id), with their validated settings. */
  llm_players: LlmPlayerSpec[];
  pairs: "all" | "self" | [string, string][];
  games_per_pair: number;
  seed: number;
  concurrency: number;
  max_attempts: number;
}

export class ConfigError extends Error {}

const KEYS = ["family", "grid", "players", "pairs", "games_per_pair", "seed", "concurrency", "max_attempts", "run_id", "description"];

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

function fail(key: string, message: string): never {
  throw new ConfigError(`${key}: ${message}`);
}

function positiveInt(raw: Record<string, unknown>, key: keyof typeof LIMITS, fallback: number, min = 1): number {
  const v = raw[key];
  if (v === undefined) return fallback;
  if (typeof v !== "number" || !Number.isInteger(v) || v < min) fail(key, `expected an integer ≥ ${min}, got ${JSON.stringify(v)}`);
  if (v > LIMITS[key].max) fail(key, `expected an integer in [${min}, ${LIMITS[key].max}], got ${v}`);
  return v;
}

/** Checks one grid value of `family`'s parameter `param`. */
function checkValue(family: Family, param: string, value: unknown, key: string): unknown {
  const allowed = (gameFamily(family).grid as Record<string, readonly unknown[]>)[param];
  const sample = allowed[0];
  if (param === "horizon") {
    if (value === "inf" && family !== "persuasion") return value;
    if (typeof value === "number" && Number.isInteger(value) && value >= 1) {
      const problem = gridValueProblem(param, value);
      if (problem) fail(key, problem);
      return value;
    }
    fail(key, `expected a positive integer${family !== "persuasion" ? ' or "inf"' : ""}, got ${JSON.stringify(value)}`);
  }
  if (typeof sample === "boolean") {
    if (typeof value !== "boolean") fail(key, `expected true or false, got ${JSON.stringify(value)}`);
    return value;
  }
  if (typeof sample === "string") {
    if (!allowed.includes(value)) fail(key, `expected one of ${allowed.map((a) => JSON.stringify(a)).join(", ")}, got ${JSON.stringify(value)}`);
    return value;
  }
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) fail(key, `expected a positive number, got ${JSON.stringify(value)}`);
  if ((param === "delta_a" || param === "delta_b" || param === "prior") && value > 1) fail(key, `expected a number in (0, 1], got ${value}`);
  if (param === "prior" && value >= 1) fail(key, `expected a number in (0, 1), got ${value}`);
  if (param === "value_high" && value <= 1) fail(key, `expected v > 1 (the price), got ${value}`);
  const problem = gridValueProblem(param, value);
  if (problem) fail(key, problem);
  return value;
}

function parseGrid(family: Family, raw: unknown, key: string): Record<string, unknown[]> {
  const table = gameFamily(family).grid as Record<string, readonly unknown[]>;
  if (raw === "full") return Object.fromEntries(Object.entries(table).map(([k, v]) => [k, [...v]]));
  if (!isObject(raw)) fail(key, `expected "full" or an object of parameter -> list of values, got ${JSON.stringify(raw)}`);
  for (const param of Object.keys(raw)) {
    if (!(param in table)) fail(`${key}.${param}`, `unknown ${family} parameter; expected one of ${Object.keys(table).join(", ")}`);
  }
  const grid: Record<string, unknown[]> = {};
  for (const [param, values] of Object.entries(table)) {
    const given = raw[param];
    if (given === undefined) {
      grid[param] = [...values];
      continue;
    }
    if (!Array.isArray(given) || given.length === 0) fail(`${key}.${param}`, `expected a non-empty list of values, got ${JSON.stringify(given)}`);
    grid[param] = given.map((v, i) => checkValue(family, param, v, `${key}.${param}[${i}]`));
  }
  return grid;
}

/** Validates a parsed JSON config; throws ConfigError naming the bad key. */
export function parseRunConfig(raw: unknown, fallbackRunId = "run"): RunConfig {
  if (!isObject(raw)) throw new ConfigError(`config: expected a JSON object`);
  for (const key of Object.keys(raw)) if (!KEYS.includes(key)) fail(key, `unknown key; expected one of ${KEYS.join(", ")}`);

  const f = raw.family;
  let families: Family[];
  if (f === "all") families = [...FAMILIES];
  else if (typeof f === "string") {
    if (!FAMILIES.includes(f as Family)) fail("family", `expected one of ${FAMILIES.join(", ")} or "all", got ${JSON.stringify(f)}`);
    families = [f as Family];
  } else if (Array.isArray(f) && f.length) {
    families = f.map((x, i) => {
      if (!FAMILIES.includes(x)) fail(`family[${i}]`, `expected one of ${FAMILIES.join(", ")}, got ${JSON.stringify(x)}`);
      return x as Family;
    });
  } else fail("family", `required: one of ${FAMILIES.join(", ")}, a list of them, or "all"`);

  const g = raw.grid ?? "full";
  const grids: RunConfig["grids"] = {};
  const keyedByFamily = isObject(g) && Object.keys(g).some((k) => FAMILIES.includes(k as Family));
  for (const family of families) {
    if (keyedByFamily) grids[family] = parseGrid(family, (g as Record<string, unknown>)[family] ?? "full", `grid.${family}`);
    else if (families.length > 1 && g !== "full") fail("grid", `with several families, use "full" or an object keyed by family`);
    else grids[family] = parseGrid(family, g, "grid");
  }

  const p = raw.players ?? "all";
  let players: RunConfig["players"];
  const llm_players: LlmPlayerSpec[] = [];
  if (p === "all") players = "all";
  else if (Array.isArray(p) && p.length) {
    players = p.map((id, i) => {
      if (isLlmPlayerConfig(id)) {
        let spec: LlmPlayerSpec;
        try {
          spec = parseLlmPlayerSpec(id, `players[${i}]`);
        } catch (error) {
          throw new ConfigError((error as Error).message);
        }
        if (builtinAgents.some((a) => a.id === spec.id) || llm_players.some((l) => l.id === spec.id)) {
          fail(`players[${i}].id`, `"${spec.id}" is already the id of another player; LLM players need their own ids`);
        }
        llm_players.push(spec);
        return spec.id;
      }
      if (typeof id !== "string") fail(`players[${i}]`, `expected an agent id or an LLM player object, got ${JSON.stringify(id)}`);
      try {
        agentSpec(id);
      } catch (error) {
        fail(`players[${i}]`, (error as Error).message);
      }
      return id;
    });
  } else fail("players", `expected "all" or a non-empty list of agent ids (${builtinAgents.map((a) => a.id).join(", ")})`);
  const repeatedPlayer = players === "all" ? null : firstRepeat(players, "players");
  if (repeatedPlayer) fail(repeatedPlayer.key, repeatedPlayer.message);

  const q = raw.pairs ?? "all";
  let pairs: RunConfig["pairs"];
  if (q === "all" || q === "self") pairs = q;
  else if (Array.isArray(q) && q.length) {
    pairs = q.map((pair, i) => {
      if (!Array.isArray(pair) || pair.length !== 2 || pair.some((x) => typeof x !== "string")) fail(`pairs[${i}]`, `expected [alice_agent, bob_agent], got ${JSON.stringify(pair)}`);
      pair.forEach((id: string, j: number) => {
        if (llm_players.some((l) => l.id === id)) return;
        try {
          agentSpec(id);
        } catch (error) {
          fail(`pairs[${i}][${j}]`, (error as Error).message);
        }
      });
      return [pair[0], pair[1]] as [string, string];
    });
  } else fail("pairs", `expected "all", "self" or a list of [alice_agent, bob_agent]`);
  const repeatedPair = Array.isArray(pairs) ? firstRepeat(pairs, "pairs") : null;
  if (repeatedPair) fail(repeatedPair.key, repeatedPair.message);

  const seed = raw.seed ?? 0;
  if (typeof seed !== "number" || !Number.isInteger(seed)) fail("seed", `expected an integer, got ${JSON.stringify(seed)}`);
  if (seed < LIMITS.seed.min || seed > LIMITS.seed.max) fail("seed", `expected an integer in [${LIMITS.seed.min}, ${LIMITS.seed.max}], got ${seed}`);
  const runId = raw.run_id ?? fallbackRunId;
  if (typeof runId !== "string" || !runId) fail("run_id", `expected a non-empty string`);

  const config: RunConfig = {
    run_id: runId,
    families,
    grids,
    players,
    llm_players,
    pairs,
    games_per_pair: positiveInt(raw, "games_per_pair", 1),
    seed,
    concurrency: positiveInt(raw, "concurrency", 8),
    max_attempts: positiveInt(raw, "max_attempts", 3),
  };
  const empty = planProblem(config);
  if (empty) fail(empty.key, empty.message);
  return config;
}
