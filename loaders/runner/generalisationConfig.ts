/**
 * A run config's `generalisation` key: which players are the FOCAL agents
 * under evaluation, which background co-players they were developed or
 * tuned against (`seen`) and which were held out (`unseen`), and which of
 * the grid's configurations were held out (`held_out`). Modelled on Melting
 * Pot's focal and background populations (Leibo et al. 2021) and the
 * Concordia contest's self-play and cross-play with familiar and unfamiliar
 * co-players (Smith et al. 2025); src/lib/generalisation.ts reports it.
 *
 *   "generalisation": {"focal": ["equilibrium"], "seen": ["random"], "unseen": ["workflow-ne"],
 *                      "held_out": {"negotiation_rounds": [4]}}
 *
 * `held_out` selects the configurations whose every named parameter takes
 * one of the listed values (a grid of its own inside the run's grid); with
 * several games it is keyed by game id, or names parameters every game has.
 * The parsed protocol resolves it into configuration ids (`config_id`, the
 * grid's order), which is what the run's manifest records. Errors name the
 * key, e.g. `generalisation.seen[1]`.
 */
import type {ConfigKey} from "../io/configKeys.js";
import {keyNames} from "../io/configKeys.js";
import type {GameDef, ParamValue} from "../contract/game.js";
import {agents} from "../registry/agents.js";
import {lineups} from "./grid.js";
import {ConfigError, type RunConfig} from "./runConfigTypes.js";
import type {GeneralisationProtocol} from "../../src/lib/generalisation.js";

/** The keys of `generalisation` (the site's Reference prints them under the run config's). */
export const GENERALISATION_KEYS: readonly ConfigKey[] = [
  {key: "focal", type: "a non-empty list of player ids of this config", default: "required", meaning: "the agents under evaluation (Melting Pot's focal population): their seats are scored"},
  {key: "seen", type: "a list of player ids of this config", default: "[]", meaning: "background co-players the focal agents were developed or tuned against"},
  {key: "unseen", type: "a list of player ids of this config", default: "[]", meaning: "background co-players held out from development; each id in at most one of focal, seen and unseen"},
  {
    key: "held_out",
    type: "an object of parameter -> non-empty list of values from the grid; with several games, keyed by game id (or GLEE family), or of parameters every game has",
    default: "{} (no configuration held out)",
    meaning: "the held-out configurations: those whose every named parameter takes one of the listed values; at least one configuration of each game stays seen",
  },
];

/** Held-out configurations one game may have (each is listed in the run's manifest). */
export const MAX_HELD_OUT = 10_000;

const KEYS = keyNames(GENERALISATION_KEYS);

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

function fail(key: string, message: string): never {
  throw new ConfigError(`generalisation${key}: ${message}`);
}

/** The three lists of player ids, each id a player of the config that sits in some planned game, listed once across them. */
function parsePopulations(raw: Record<string, unknown>, config: RunConfig): Pick<GeneralisationProtocol, "focal" | "seen" | "unseen"> {
  const seated = new Set(config.games.flatMap((spec) => lineups(config, spec).flat()));
  const isPlayer = (id: string) => (Array.isArray(config.players) ? config.players.includes(id) : agents.some((a) => a.id === id) || config.llm_players.some((p) => p.id === id));
  const listedIn = new Map<string, string>();
  const parse = (name: "focal" | "seen" | "unseen"): string[] => {
    const given = raw[name] ?? (name === "focal" ? undefined : []);
    if (name === "focal" && given === undefined) fail("", `"focal" is required: the player ids under evaluation`);
    if (!Array.isArray(given) || (name === "focal" && !given.length)) fail(`.${name}`, `expected a ${name === "focal" ? "non-empty " : ""}list of player ids, got ${JSON.stringify(given)}`);
    return given.map((id, i) => {
      const key = `generalisation.${name}[${i}]`;
      if (typeof id !== "string") fail(`.${name}[${i}]`, `expected a player id, got ${JSON.stringify(id)}`);
      const also = listedIn.get(id);
      if (also) fail(`.${name}[${i}]`, `"${id}" is listed twice (also ${also}); a player is focal, seen or unseen, not two of them`);
      listedIn.set(id, key);
      if (!isPlayer(id)) fail(`.${name}[${i}]`, `"${id}" is not among players${Array.isArray(config.players) ? ` (${config.players.join(", ")})` : ""}`);
      if (!seated.has(id)) fail(`.${name}[${i}]`, `"${id}" sits in no planned game of this config`);
      return id;
    });
  };
  return {focal: parse("focal"), seen: parse("seen"), unseen: parse("unseen")};
}

const same = (x: unknown, y: unknown) => typeof x === typeof y && JSON.stringify(x) === JSON.stringify(y);

/**
 * The configuration ids (the grid's order: declaration order, last
 * parameter fastest, as grid.ts expandGrid) whose parameters named in
 * `values` all take one of their listed values; computed digit by digit,
 * so a large grid is not expanded into objects.
 */
export function heldOutConfigIds(grid: Record<string, readonly ParamValue[]>, values: Record<string, readonly ParamValue[]>): number[] {
  const names = Object.keys(grid);
  const sizes = names.map((n) => grid[n].length);
  const total = sizes.reduce((n, k) => n * k, 1);
  const allowed = names.map((n) => (values[n] ? new Set(grid[n].flatMap((v, i) => (values[n].some((w) => same(v, w)) ? [i] : []))) : null));
  const ids: number[] = [];
  for (let id = 0; id < total; id++) {
    let rest = id;
    let keep = true;
    for (let p = names.length - 1; p >= 0 && keep; p--) {
      const digit = rest % sizes[p];
      rest = Math.floor(rest / sizes[p]);
      if (allowed[p] && !allowed[p]!.has(digit)) keep = false;
    }
    if (keep) ids.push(id);
  }
  return ids;
}

/** One game's held-out values (an object of parameter -> values, named `key` in errors) and the configurations they select. */
function parseHeldOutGame(def: GameDef, grid: Record<string, ParamValue[]>, raw: unknown, key: string): GeneralisationProtocol["held_out"][string] {
  if (!isObject(raw)) fail(key, `expected an object of parameter -> list of values, got ${JSON.stringify(raw)}`);
  const parameters: Record<string, ParamValue[]> = {};
  for (const [param, given] of Object.entries(raw)) {
    if (!(param in grid)) fail(`${key}.${param}`, `not a parameter of ${def.id}; expected one of ${Object.keys(grid).join(", ")}`);
    if (!Array.isArray(given) || !given.length) fail(`${key}.${param}`, `expected a non-empty list of values, got ${JSON.stringify(given)}`);
    given.forEach((v, i) => {
      if (!grid[param].some((w) => same(v, w))) fail(`${key}.${param}[${i}]`, `${JSON.stringify(v)} is not among the values played of ${param} (${grid[param].map((w) => JSON.stringify(w)).join(", ")})`);
      if (given.findIndex((w) => same(v, w)) < i) fail(`${key}.${param}[${i}]`, `${JSON.stringify(v)} is listed twice`);
    });
    parameters[param] = given as ParamValue[];
  }
  if (!Object.keys(parameters).length) return {parameters, config_ids: []};
  const ids = heldOutConfigIds(grid, parameters);
  const total = Object.values(grid).reduce((n, values) => n * values.length, 1);
  if (ids.length === total) fail(key, `holds out every configuration of ${def.id}; keep at least one seen`);
  if (ids.length > MAX_HELD_OUT) fail(key, `holds out ${ids.length.toLocaleString("en-US")} configurations of ${def.id}; at most ${MAX_HELD_OUT.toLocaleString("en-US")}`);
  return {parameters, config_ids: ids};
}

/** `held_out` for every game of the config: per game id, or one object of parameters applied to each game. */
function parseHeldOut(raw: unknown, config: RunConfig, keyOf: (def: GameDef) => string): GeneralisationProtocol["held_out"] {
  if (raw === undefined) return {};
  if (!isObject(raw)) fail(".held_out", `expected an object of parameter -> list of values${config.games.length > 1 ? ", or keyed by game id" : ""}, got ${JSON.stringify(raw)}`);
  const held: GeneralisationProtocol["held_out"] = {};
  const byGame = config.games.length > 1 && Object.keys(raw).some((k) => config.games.some((spec) => keyOf(spec.def) === k));
  if (byGame) {
    for (const k of Object.keys(raw)) if (!config.games.some((spec) => keyOf(spec.def) === k)) fail(`.held_out.${k}`, `not a game of this config; expected one of ${config.games.map((spec) => keyOf(spec.def)).join(", ")}`);
    for (const spec of config.games) {
      const own = raw[keyOf(spec.def)];
      if (own === undefined) continue;
      const h = parseHeldOutGame(spec.def, spec.grid, own, `.held_out.${keyOf(spec.def)}`);
      if (h.config_ids.length) held[spec.def.id] = h;
    }
    return held;
  }
  for (const spec of config.games) {
    const missing = Object.keys(raw).find((param) => !(param in spec.grid));
    if (missing && config.games.length > 1) fail(`.held_out.${missing}`, `not a parameter of ${spec.def.id}; with several games, key held_out by game id or name parameters every game has`);
    const h = parseHeldOutGame(spec.def, spec.grid, raw, ".held_out");
    if (h.config_ids.length) held[spec.def.id] = h;
  }
  return held;
}

/** A config's `generalisation` (validated against the parsed `config`), resolved as the run's manifest records it. */
export function parseGeneralisation(raw: unknown, config: RunConfig, keyOf: (def: GameDef) => string): GeneralisationProtocol {
  if (!isObject(raw)) fail("", `expected an object with "focal" and optionally "seen", "unseen" and "held_out", got ${JSON.stringify(raw)}`);
  for (const key of Object.keys(raw)) if (!KEYS.includes(key)) fail(`.${key}`, `unknown key; expected one of ${KEYS.join(", ")}`);
  return {...parsePopulations(raw, config), held_out: parseHeldOut(raw.held_out, config, keyOf)};
}
