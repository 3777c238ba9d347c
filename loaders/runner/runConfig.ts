/**
 * Run configurations for `parley run` (JSON), for any registered game.
 * Example (gamma-Bench's guessing game, ten seats of one model):
 *
 *   {"game": "gamabench/guessing", "grid": {"ratio": [0.5, 0.667]},
 *    "players": ["equilibrium", "level-2"], "lineups": "self",
 *    "games_per_lineup": 5, "seed": 1}
 *
 * - game: a game id (`parley games`), a family prefix ("gamabench/*"), or a
 *   list of them. `family` ("bargaining" | "negotiation" | "persuasion", a list,
 *   or "all") is GLEE's alias and keeps GLEE's grid convention (below).
 * - grid: omitted → every parameter at the paper's default; "full" → the
 *   paper's grid; an object of parameter → list of values (parameters left
 *   out take their default). With `family`, an omitted grid or parameter
 *   takes Table 1's values instead, as GLEE configs always did. With several
 *   games the object may be keyed by game id (or GLEE family), or list only
 *   parameters that every one of the games has (then it applies to each).
 * - n_players: seats per game (default: the game's, e.g. 10 in gamma-Bench).
 * - players: "all" (every built-in agent that plays the game) or a list of
 *   built-in agent ids and LLM player objects (fields: loaders/llm/playerSpec.ts);
 *   lineups refer to them by id.
 * - lineups: "all" (every ordered assignment of players to seats: every
 *   ordered pair in a two-seat game), "self" (one lineup per player, in every
 *   seat), or a list of lists of ids, one per seat. `pairs` is the two-seat
 *   alias. Default: "all" for two-seat games, "self" otherwise.
 *   With several games, `lineups` may be an object keyed by game id (games
 *   left out take the default).
 * - chance: "common" (default) or "per-game", how games draw chance
 *   (runner/chance.ts); the built-in configs name "per-game".
 * - games_per_lineup (alias games_per_pair; default 1), seed (default 0),
 *   concurrency (default 8), max_attempts (default 3: answers per decision
 *   before the game's rule-break fallback), run_id (default: the file name),
 *   description.
 * - generalisation: focal agents, seen and unseen co-players, held-out
 *   configurations (generalisationConfig.ts); it changes no game played.
 * The keys, their aliases and defaults are a table (runConfigKeys.ts) that
 * the site's Reference prints too.
 * Errors name the offending key, e.g. `grid.delta_a[1]`.
 */
import type {GameDef, ParamSpec, ParamValue} from "../contract/game.js";
import {gameDef, games, leftOut, matchGames} from "../registry/games.js";
import {FAMILIES, type Family} from "../papers/glee/types.js";
import {agentDef, agents, canSit} from "../registry/agents.js";
import {expandGrid} from "./grid.js";
import {llmPlays, offersPrompts, promptsRefusal} from "../llm/llmPlayer.js";
import {hasWorkflow, workflowGames} from "../registry/workflows.js";
import {LIMITS} from "./runConfigChecks.js";
import {paramValueError} from "../contract/params.js";
import {lineups as planLineups} from "./grid.js";
import {isLlmPlayerConfig, parseLlmPlayerSpec, type LlmPlayerSpec} from "../llm/playerSpec.js";
import {ConfigError, lineupsOf, type GameRunSpec, type LineupsSpec, type RunConfig} from "./runConfigTypes.js";
import {RUN_CONFIG_KEYS, RUN_DEFAULTS} from "./runConfigKeys.js";
import {keyNames} from "../io/configKeys.js";
import {idProblem} from "../io/ids.js";
import {parseGeneralisation} from "./generalisationConfig.js";
import {CHANCE_SCHEMES, type ChanceScheme} from "../../src/lib/sharedChance.js";

export {ConfigError, lineupsOf, type GameRunSpec, type LineupsSpec, type RunConfig} from "./runConfigTypes.js";

/** The keys a config may have (runConfigKeys.ts, which the site's Reference prints too). */
const KEYS = keyNames(RUN_CONFIG_KEYS);
/** Keys that are another name of a key: [alias, key]. */
const ALIASES = RUN_CONFIG_KEYS.flatMap((k) => (k.aliasOf ? [[k.key, k.aliasOf] as const] : []));

/** Characters a config's description may have. */
export const MAX_DESCRIPTION = 10_000;

/** Parameter combinations one game of a run may have. */
const MAX_CONFIGURATIONS = 1_000_000;


const isObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

function fail(key: string, message: string): never {
  throw new ConfigError(`${key}: ${message}`);
}

function integer(raw: Record<string, unknown>, key: string, fallback: number, min: number, max: number): number {
  const v = raw[key];
  if (v === undefined) return fallback;
  if (typeof v !== "number" || !Number.isInteger(v) || v < min) fail(key, `expected an integer ≥ ${min}, got ${JSON.stringify(v)}`);
  if (v > max) fail(key, `expected an integer in [${min}, ${max}], got ${v}`);
  return v;
}

/** Checks one value of parameter `spec`; returns it, or fails naming `key`. */
export function checkParamValue(spec: ParamSpec, value: unknown, key: string): ParamValue {
  const error = paramValueError(spec, value);
  if (error) fail(key, error);
  return value as ParamValue;
}

/** A game's grid from a config entry (see the header for the conventions). */
function parseGrid(def: GameDef, raw: unknown, key: string, omitted: "default" | "full"): Record<string, ParamValue[]> {
  const names = def.params.map((p) => p.name);
  if (raw === "full") return Object.fromEntries(def.params.map((p) => [p.name, [...p.grid]]));
  if (raw === undefined) raw = {};
  if (!isObject(raw)) fail(key, `expected "full" or an object of parameter -> list of values, got ${JSON.stringify(raw)}`);
  for (const param of Object.keys(raw)) {
    if (!names.includes(param)) fail(`${key}.${param}`, `unknown ${def.id} parameter; expected one of ${names.join(", ")}`);
  }
  const grid: Record<string, ParamValue[]> = {};
  for (const spec of def.params) {
    const given = raw[spec.name];
    if (given === undefined) {
      grid[spec.name] = omitted === "full" ? [...spec.grid] : [spec.default];
      continue;
    }
    if (!Array.isArray(given) || given.length === 0) fail(`${key}.${spec.name}`, `expected a non-empty list of values, got ${JSON.stringify(given)}`);
    grid[spec.name] = given.map((v, i) => checkParamValue(spec, v, `${key}.${spec.name}[${i}]`));
    // Each value is played with every lineup and repetition: one listed twice would play all its games twice.
    const seen = new Map<string, number>();
    grid[spec.name].forEach((v, i) => {
      const id = `${typeof v}:${JSON.stringify(v)}`;
      const also = seen.get(id);
      if (also !== undefined) fail(`${key}.${spec.name}[${i}]`, `${JSON.stringify(v)} is listed twice (also ${key}.${spec.name}[${also}]); a value listed twice would play its games twice`);
      seen.set(id, i);
    });
  }
  return grid;
}

/** The games a config names, with the grid convention that applies to them. */
function parseGames(raw: Record<string, unknown>): {defs: GameDef[]; keyOf: (def: GameDef) => string; omitted: "default" | "full"} {
  if (raw.game !== undefined && raw.family !== undefined) fail("game", `give either "game" or GLEE's "family", not both`);
  if (raw.family !== undefined) {
    const f = raw.family;
    let families: Family[];
    if (f === "all") families = [...FAMILIES];
    else if (typeof f === "string") {
      if (!FAMILIES.includes(f as Family)) fail("family", `expected one of ${FAMILIES.join(", ")} or "all", got ${JSON.stringify(f)}`);
      families = [f as Family];
    } else if (Array.isArray(f) && f.length) {
      families = f.map((x, i) => {
        if (!FAMILIES.includes(x)) fail(`family[${i}]`, `expected one of ${FAMILIES.join(", ")}, got ${JSON.stringify(x)}`);
        if (f.indexOf(x) < i) fail(`family[${i}]`, `${JSON.stringify(x)} is listed twice (also family[${f.indexOf(x)}]); a family listed twice would play its games twice`);
        return x as Family;
      });
    } else fail("family", `expected one of ${FAMILIES.join(", ")}, a list of them, or "all"`);
    return {defs: families.map((family) => gameDef(`glee/${family}`)), keyOf: (def) => def.id.slice("glee/".length), omitted: "full"};
  }
  const g = raw.game;
  const patterns = typeof g === "string" ? [g] : Array.isArray(g) && g.length ? g : null;
  if (!patterns) fail("game", `required: a game id (${games.map((d) => d.id).join(", ")}), a family such as "gamabench/*", or a list of them`);
  const defs: GameDef[] = [];
  patterns.forEach((p, i) => {
    const key = typeof g === "string" ? "game" : `game[${i}]`;
    if (typeof p !== "string") fail(key, `expected a game id, got ${JSON.stringify(p)}`);
    const found = matchGames(p);
    if (!found.length) fail(key, `unknown game ${JSON.stringify(p)}; expected one of ${games.map((d) => d.id).join(", ")}${leftOut()}`);
    for (const d of found) if (!defs.includes(d)) defs.push(d);
  });
  return {defs, keyOf: (def) => def.id, omitted: "default"};
}

/** Whether `grid` is an object of parameters that every game in `defs` declares (then it applies to each of them). */
const sharedParams = (defs: readonly GameDef[], grid: unknown): boolean =>
  isObject(grid) && Object.keys(grid).length > 0 && Object.keys(grid).every((k) => defs.every((d) => d.params.some((p) => p.name === k)));

/** Each game the config names with its grid (validated) and seat count; `keyedByGame` when the grid is an object keyed by game. */
function parseGameSpecs(raw: Record<string, unknown>): {specs: GameRunSpec[]; keyedByGame: boolean; keyOf: (def: GameDef) => string} {
  const {defs, keyOf, omitted} = parseGames(raw);
  const g = raw.grid === undefined ? (omitted === "full" ? "full" : undefined) : raw.grid;
  const keyedByGame = isObject(g) && Object.keys(g).some((k) => defs.some((d) => keyOf(d) === k));
  const specs: GameRunSpec[] = defs.map((def) => {
    let grid: Record<string, ParamValue[]>;
    if (keyedByGame) {
      const own = (g as Record<string, unknown>)[keyOf(def)];
      grid = parseGrid(def, own === undefined && omitted === "full" ? "full" : own, `grid.${keyOf(def)}`, omitted);
    } else if (defs.length > 1 && g !== "full" && g !== undefined && !sharedParams(defs, g)) fail("grid", `with several games, use "full", an object keyed by game${omitted === "full" ? " family" : " id"}, or an object of parameters every listed game has`);
    else grid = parseGrid(def, g, "grid", omitted);
    const nKey = "n_players";
    const n = raw[nKey] === undefined ? def.seats.default : raw[nKey];
    if (typeof n !== "number" || !Number.isInteger(n) || n < def.seats.min || n > def.seats.max) {
      fail(nKey, `${def.id} seats ${def.seats.min === def.seats.max ? def.seats.min : `${def.seats.min} to ${def.seats.max}`} players, got ${JSON.stringify(n)}`);
    }
    return {def, grid: grid!, n_players: n};
  });
  return {specs, keyedByGame, keyOf};
}

/** The config's players: "all" or ids, the LLM players among them parsed into their settings. */
function parsePlayers(raw: Record<string, unknown>): {players: RunConfig["players"]; llm_players: LlmPlayerSpec[]} {
  const p = raw.players ?? "all";
  let players: RunConfig["players"];
  const llm_players: LlmPlayerSpec[] = [];
  if (p === "all") players = "all";
  else if (Array.isArray(p) && p.length) {
    const seen = new Map<string, number>();
    players = p.map((entry, i) => {
      let id: string;
      if (isLlmPlayerConfig(entry)) {
        let spec: LlmPlayerSpec;
        try {
          spec = parseLlmPlayerSpec(entry, `players[${i}]`);
        } catch (error) {
          throw new ConfigError((error as Error).message);
        }
        if (agents.some((a) => a.id === spec.id)) fail(`players[${i}].id`, `"${spec.id}" is the id of a built-in agent; LLM players need their own ids`);
        llm_players.push(spec);
        id = spec.id;
      } else {
        if (typeof entry !== "string") fail(`players[${i}]`, `expected an agent id or an LLM player object, got ${JSON.stringify(entry)}`);
        try {
          agentDef(entry);
        } catch (error) {
          fail(`players[${i}]`, (error as Error).message);
        }
        id = entry;
      }
      // A player listed twice would play every game of its lineups twice under one game id.
      if (seen.has(id)) fail(`players[${i}]`, `"${id}" is listed twice (also players[${seen.get(id)}])`);
      seen.set(id, i);
      return id;
    });
  } else fail("players", `expected "all" or a non-empty list of agent ids (${agents.map((a) => a.id).join(", ")})`);
  return {players, llm_players};
}

/** The config's lineups (under "lineups", or "pairs"), or per game when a config of several games keys them by game id. */
function parseAllLineups(raw: Record<string, unknown>, specs: readonly GameRunSpec[], players: RunConfig["players"], llm_players: readonly LlmPlayerSpec[]): {lineupKey: string; lineups: RunConfig["lineups"]; lineupsByGame?: Record<string, LineupsSpec>} {
  const lineupKey = raw.pairs !== undefined ? "pairs" : "lineups";
  const q = raw[lineupKey];
  const known = (id: string) => llm_players.some((l) => l.id === id) || agents.some((a) => a.id === id);
  /** One lineups entry ("all", "self" or a list) for the games `forSpecs`, named `key` in errors. */
  const parseLineups = (q: unknown, key: string, forSpecs: readonly GameRunSpec[]): LineupsSpec => {
    if (q === "all" || q === "self") return q;
    if (!Array.isArray(q) || !q.length) fail(key, `expected "all", "self" or a list of lineups${specs.length > 1 && key === lineupKey ? ", or an object keyed by game id" : ""}`);
    const listed = new Set<string>();
    return q.map((lineup, i) => {
      const shape = lineupKey === "pairs" ? "[alice_agent, bob_agent]" : "a list of player ids, one per seat";
      if (!Array.isArray(lineup) || lineup.length < 1 || lineup.some((x) => typeof x !== "string")) fail(`${key}[${i}]`, `expected ${shape}, got ${JSON.stringify(lineup)}`);
      if (lineupKey === "pairs" && lineup.length !== 2) fail(`${key}[${i}]`, `expected ${shape}, got ${JSON.stringify(lineup)}`);
      for (const spec of forSpecs) {
        if (lineup.length !== spec.n_players) fail(`${key}[${i}]`, `has ${lineup.length} players; ${spec.def.id} is played by ${spec.n_players}`);
      }
      lineup.forEach((id: string, j: number) => {
        if (!known(id)) fail(`${key}[${i}][${j}]`, `unknown player "${id}"; expected a built-in agent or an LLM player of this config`);
        if (Array.isArray(players) && !players.includes(id) && !agents.some((a) => a.id === id)) fail(`${key}[${i}][${j}]`, `"${id}" is not among players`);
      });
      const label = JSON.stringify(lineup);
      if (listed.has(label)) fail(`${key}[${i}]`, `${label} is listed twice (also ${key}[${[...listed].indexOf(label)}])`);
      listed.add(label);
      return [...lineup] as string[];
    });
  };
  let lineups: RunConfig["lineups"] = null;
  let lineupsByGame: Record<string, LineupsSpec> | undefined;
  if (isObject(q) && specs.length > 1 && lineupKey === "lineups") {
    // Several games, each with its own lineups (e.g. level-k guessers in one, shading bidders in another).
    for (const k of Object.keys(q)) if (!specs.some((sp) => sp.def.id === k)) fail(`lineups.${k}`, `not a game of this config; expected one of ${specs.map((sp) => sp.def.id).join(", ")}`);
    lineupsByGame = {};
    for (const spec of specs) if (q[spec.def.id] !== undefined) lineupsByGame[spec.def.id] = parseLineups(q[spec.def.id], `lineups.${spec.def.id}`, [spec]);
  } else if (q !== undefined) lineups = parseLineups(q, lineupKey, specs);
  return {lineupKey, lineups, lineupsByGame};
}

/**
 * Checks of each game against the rest of the config: LLM players need a
 * narrator (and a workflow when asked for), every listed agent can take its
 * seat, the lineups plan games, the grid is not too large, and the game's
 * own parameter checks pass. `lineupKey` and `gridKey` name keys in errors.
 */
function checkGames(config: RunConfig, lineupKey: string, gridKey: (spec: GameRunSpec) => string): void {
  const {llm_players} = config;
  // Seat checks (an agent that cannot sit where a lineup puts it) are config errors too.
  for (const spec of config.games) {
    if (llm_players.length && !llmPlays(spec.def.id)) fail("players", `LLM players cannot play ${spec.def.id} yet: it has no narrator (loaders/agents/llm/narrators/)`);
    const noWorkflow = llm_players.find((l) => l.workflow && !hasWorkflow(spec.def.id));
    if (noWorkflow) fail("players", `${noWorkflow.id} asks for "workflow": true, but ${spec.def.id} has no workflow (games with one: ${workflowGames.join(", ")})`);
    const noWords = llm_players.find((l) => l.prompts && !offersPrompts(spec.def.id, l.prompts));
    if (noWords) fail("players", `${noWords.id} asks for "prompts": "${noWords.prompts}", but ${promptsRefusal(spec.def.id, noWords.prompts!)}`);
    const own = lineupsOf(config, spec.def.id);
    const ownKey = config.lineups_by_game?.[spec.def.id] ? `lineups.${spec.def.id}` : lineupKey;
    if (Array.isArray(own)) {
      own.forEach((lineup, i) =>
        lineup.forEach((id, seat) => {
          if (llm_players.some((l) => l.id === id)) return;
          if (!canSit(agentDef(id), spec.def.id, seat, spec.n_players)) fail(`${ownKey}[${i}][${seat}]`, `agent "${id}" cannot take seat ${seat}${spec.def.seats.names ? ` (${spec.def.seats.names[seat]})` : ""} of ${spec.def.id}`);
        }),
      );
    }
    if (!Array.isArray(own) && planLineups(config, spec).length === 0) {
      const mode = own ?? (spec.n_players === 2 ? "all" : "self");
      if (mode === "self") fail(ownKey, `"self" plans no ${spec.def.id} game: no listed player can take every seat of ${spec.def.id}`);
      const empty = Array.from({length: spec.n_players}, (_, s) => s).find((s) => !(config.players === "all" ? agents.map((a) => a.id) : config.players).some((id) => llm_players.some((l) => l.id === id) || canSit(agentDef(id), spec.def.id, s, spec.n_players)));
      fail("players", `no listed player can take seat ${empty}${spec.def.seats.names ? ` (${spec.def.seats.names[empty ?? 0]})` : ""} of ${spec.def.id}, so the run plans no ${spec.def.id} game`);
    }
    const key = gridKey(spec);
    const size = Object.values(spec.grid).reduce((n, values) => n * values.length, 1);
    if (size > MAX_CONFIGURATIONS) fail(key, `${spec.def.id}: ${size.toLocaleString("en")} parameter combinations; at most ${MAX_CONFIGURATIONS.toLocaleString("en")}`);
    if (spec.def.checkParams) {
      for (const params of expandGrid(spec.grid)) {
        const error = spec.def.checkParams(params, spec.n_players);
        if (error) fail(key, `${spec.def.id}: ${error} (in ${JSON.stringify(params)})`);
      }
    }
  }
}

/**
 * Validates a parsed JSON config; throws ConfigError naming the bad key.
 * In order: the keys, the games with their grids, the players, the
 * lineups, the scalar settings, then each game against the rest.
 */
export function parseRunConfig(raw: unknown, fallbackRunId = "run"): RunConfig {
  if (!isObject(raw)) throw new ConfigError(`config: expected a JSON object`);
  for (const key of Object.keys(raw)) if (!KEYS.includes(key)) fail(key, `unknown key; expected one of ${KEYS.join(", ")}`);
  for (const [alias, name] of ALIASES) {
    if (raw[alias] !== undefined && raw[name] !== undefined) fail(alias, `give either "${alias}" or "${name}", not both`);
  }

  const {specs, keyedByGame, keyOf} = parseGameSpecs(raw);
  const {players, llm_players} = parsePlayers(raw);
  const {lineupKey, lineups, lineupsByGame} = parseAllLineups(raw, specs, players, llm_players);

  const seed = raw.seed ?? RUN_DEFAULTS.seed;
  if (typeof seed !== "number" || !Number.isInteger(seed)) fail("seed", `expected an integer, got ${JSON.stringify(seed)}`);
  if (seed < LIMITS.seed.min || seed > LIMITS.seed.max) fail("seed", `expected an integer in [${LIMITS.seed.min}, ${LIMITS.seed.max}], got ${seed}`);
  const runId = raw.run_id ?? fallbackRunId;
  // The run id starts every game id, so it follows their rule (io/ids.ts).
  const badId = idProblem(runId);
  if (badId) fail("run_id", raw.run_id === undefined ? `${badId} (the config file's name, used when run_id is not given)` : badId);
  const description = raw.description ?? null;
  if (description !== null && typeof description !== "string") fail("description", "expected a string");
  // Copied into every manifest: a note, not a document.
  if (description !== null && description.length > MAX_DESCRIPTION) fail("description", `expected at most ${MAX_DESCRIPTION.toLocaleString("en-US")} characters, got ${description.length.toLocaleString("en-US")}`);
  const perKey = raw.games_per_pair !== undefined ? "games_per_pair" : "games_per_lineup";
  const chance = raw.chance ?? RUN_DEFAULTS.chance;
  if (!CHANCE_SCHEMES.includes(chance as ChanceScheme)) fail("chance", `expected ${CHANCE_SCHEMES.map((c) => JSON.stringify(c)).join(" or ")}, got ${JSON.stringify(chance)}`);

  const config: RunConfig = {
    run_id: runId as string,
    description,
    games: specs,
    players,
    llm_players,
    lineups,
    ...(lineupsByGame && {lineups_by_game: lineupsByGame}),
    games_per_lineup: integer(raw, perKey, RUN_DEFAULTS.games_per_lineup, 1, LIMITS.games_per_lineup.max),
    seed,
    chance: chance as ChanceScheme,
    concurrency: integer(raw, "concurrency", RUN_DEFAULTS.concurrency, 1, LIMITS.concurrency.max),
    max_attempts: integer(raw, "max_attempts", RUN_DEFAULTS.max_attempts, 1, LIMITS.max_attempts.max),
  };
  checkGames(config, lineupKey, (spec) => (keyedByGame ? `grid.${keyOf(spec.def)}` : "grid"));
  if (raw.generalisation !== undefined) config.generalisation = parseGeneralisation(raw.generalisation, config, keyOf);
  return config;
}
