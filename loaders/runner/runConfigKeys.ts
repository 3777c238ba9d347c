/**
 * The keys of a run configuration (`parley run <config.json>`): the one table
 * runConfig.ts checks a config's keys, aliases and defaults against, and the
 * site's Reference (/reference/config) prints. runConfig.ts's header says
 * how the keys combine; the limits are runConfigChecks.ts's.
 */
import type {ConfigKey} from "../io/configKeys.js";
import {FAMILIES} from "../papers/glee/types.js";
import {LIMITS} from "./runConfigChecks.js";
import {CHANCE_SCHEMES} from "../../src/lib/sharedChance.js";

/** The defaults of the numeric settings, as the validator fills them in. */
export const RUN_DEFAULTS = {games_per_lineup: 1, seed: 0, chance: "common", concurrency: 8, max_attempts: 3} as const;

const quoted = (names: readonly string[]) => names.map((n) => JSON.stringify(n)).join(", ");

export const RUN_CONFIG_KEYS: readonly ConfigKey[] = [
  {key: "game", type: 'a game id, a family prefix such as "gamabench/*", or a list of them', default: 'required, unless "family" is given', meaning: "the games to play (`parley games` lists them)"},
  {key: "family", type: `${quoted(FAMILIES)}, a list of them, or "all"`, default: 'none (give "game" or "family", not both)', meaning: "GLEE's alias for glee/<family>: an omitted grid or parameter then takes the paper's grid (Table 1), as GLEE configs always did"},
  {key: "grid", type: '"full", or an object of parameter -> non-empty list of values; with several games, an object keyed by game id (or GLEE family), or of parameters every listed game has', default: 'every parameter at its game\'s default ("family": the paper\'s grid)', meaning: 'the parameter values to play, every combination of them ("full": the paper\'s grid); parameters left out take their default'},
  {key: "n_players", type: "an integer within the game's seats", default: "the game's default number of seats", meaning: "seats per game"},
  {key: "players", type: '"all", or a non-empty list of built-in agent ids and LLM player objects, each once', default: '"all"', meaning: '"all": every built-in agent that plays the game; LLM player objects are described below, and lineups name players by id'},
  {key: "lineups", type: '"all", "self", or a list of lineups (lists of player ids, one per seat); with several games, an object keyed by game id', default: '"all" for two-seat games, "self" otherwise', meaning: '"all": every ordered assignment of players to seats (self-play included); "self": one lineup per player, in every seat'},
  {key: "pairs", type: "a list of [alice_agent, bob_agent]", default: '"all"', meaning: "lineups under its two-seat name", aliasOf: "lineups"},
  {key: "games_per_lineup", type: `an integer in [1, ${LIMITS.games_per_lineup.max}]`, default: String(RUN_DEFAULTS.games_per_lineup), meaning: "games played per parameter combination and lineup (repetitions)"},
  {key: "games_per_pair", type: `an integer in [1, ${LIMITS.games_per_lineup.max}]`, default: String(RUN_DEFAULTS.games_per_lineup), meaning: "games_per_lineup under its two-seat name", aliasOf: "games_per_lineup"},
  {key: "seed", type: `an integer in [${LIMITS.seed.min}, ${LIMITS.seed.max}]`, default: String(RUN_DEFAULTS.seed), meaning: "the run's seed: every random stream of a game is derived from it (see chance)"},
  {
    key: "chance",
    type: quoted(CHANCE_SCHEMES),
    default: `"${RUN_DEFAULTS.chance}"; a run resumed in a directory holding this run played before the key existed keeps "per-game"`,
    meaning:
      '"common": a game\'s chance (private values, qualities, costs, shots\' luck) is derived from (seed, game, configuration, repetition) and each draw from its place in the game, never from who sits, so agents and runs with the same seed compared on a configuration face the same draws; each seat\'s own randomness from (seed, game, configuration, repetition, seat). "per-game": every stream from (seed, game id), whose lineup makes matched games draw differently (the built-in run configs name it so that their numbers stay as published)',
  },
  {key: "concurrency", type: `an integer in [1, ${LIMITS.concurrency.max}]`, default: String(RUN_DEFAULTS.concurrency), meaning: "games in flight at once (`parley run --concurrency` overrides it)"},
  {key: "max_attempts", type: `an integer in [1, ${LIMITS.max_attempts.max}]`, default: String(RUN_DEFAULTS.max_attempts), meaning: "answers to one decision before the game's rule-break fallback"},
  {key: "run_id", type: "an id: 1 to 256 characters, no control, line-separator or bidirectional-format characters", default: "the config file's name", meaning: "the run's name, in the games table's run_id column"},
  {key: "description", type: "a string of at most 10,000 characters", default: "null", meaning: "free text about the run, kept with the config in its manifest"},
  {key: "generalisation", type: 'an object: "focal", "seen", "unseen", "held_out" (below)', default: "none", meaning: "a generalisation protocol: the focal agents, the co-players they were developed against and those held out, the held-out configurations; recorded in the manifest and reported by `parley ratings --generalisation` and /ratings; it changes no game played"},
];
