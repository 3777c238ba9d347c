/**
 * The three tables every game writes (DESIGN.md, data model): the common
 * columns here, then the game's own (GameDef.columns). A run directory holds
 * them partitioned by game, hive style:
 *
 *   <out>/game=<id, "/" written %2F>/games.parquet
 *                                   /players.parquet
 *                                   /turns.parquet
 *
 * The partition value is the game id (DuckDB, Spark and Trino decode %2F);
 * it is not repeated inside the files, so each partition carries only its
 * own game's columns. Read them with loaders/io/runTables.ts.
 */
import type {Column, TableSchema} from "../io/schema.js";
import type {GameDef} from "./game.js";
import {paramColumnType} from "./game.js";

export const COMMON_GAME_COLUMNS: readonly Column[] = [
  {name: "game_id", type: "VARCHAR", nullable: false},
  {name: "source", type: "VARCHAR", nullable: false, doc: "simulated (parley run), or the ingested benchmark"},
  {name: "run_id", type: "VARCHAR", doc: "name of the run config"},
  {name: "seed", type: "BIGINT", doc: "run seed the game's randomness derives from"},
  {name: "config_id", type: "INTEGER", doc: "index of the parameter configuration within the run's grid"},
  {name: "repetition", type: "INTEGER", doc: "0-based game number for this configuration and lineup"},
  {name: "n_players", type: "INTEGER"},
  {name: "rounds", type: "INTEGER", doc: "rounds (or turns) played"},
  {name: "ended_by", type: "VARCHAR", doc: "how the game ended (game-specific; rule_break when a seat kept breaking the rules)"},
];

export const COMMON_PLAYER_COLUMNS: readonly Column[] = [
  {name: "game_id", type: "VARCHAR", nullable: false},
  {name: "seat", type: "INTEGER", nullable: false, doc: "0-based"},
  {name: "seat_name", type: "VARCHAR", doc: "the paper's name for the seat, when it has one"},
  {name: "agent", type: "VARCHAR", doc: "agent id, LLM player id or model, or human"},
  {name: "return", type: "DOUBLE", doc: "the seat's payoff as the paper defines it"},
];

export const COMMON_TURN_COLUMNS: readonly Column[] = [
  {name: "game_id", type: "VARCHAR", nullable: false},
  {name: "turn", type: "INTEGER", nullable: false, doc: "0-based order within the game, rule-break attempts included"},
  {name: "round", type: "INTEGER", nullable: false, doc: "1-based round (or turn)"},
  {name: "seat", type: "INTEGER", nullable: false},
  {name: "action", type: "VARCHAR", doc: "the attempted action type (null if unreadable)"},
  {name: "message", type: "VARCHAR", doc: "free text sent to other seats"},
  {name: "reasoning", type: "VARCHAR", doc: "private reasoning (a reasoning model's thinking first), never shown to another seat"},
  {name: "raw", type: "VARCHAR", doc: "unparsed response of a language agent"},
  {name: "rule_break", type: "BOOLEAN", doc: "the attempt was illegal and not applied"},
  {name: "rule_break_reason", type: "VARCHAR"},
  {name: "attempt", type: "INTEGER", doc: "1 for the first try of this decision, 2... after rule breaks"},
  {name: "input_tokens", type: "INTEGER", doc: "all input tokens of the call, cached ones included"},
  {name: "output_tokens", type: "INTEGER", doc: "all output tokens of the call, thinking included"},
  {name: "latency_ms", type: "DOUBLE"},
  {name: "cached_input_tokens", type: "INTEGER", doc: "of input_tokens, those billed at the cached-input price (null: the API did not say, or runs before it was kept)"},
  {name: "reasoning_tokens", type: "INTEGER", doc: "of output_tokens, the model's thinking (null: the API did not say, or runs before it was kept)"},
  {name: "cache_write_tokens", type: "INTEGER", doc: "of input_tokens, those written to the provider's prompt cache, billed at its cache-write price (Anthropic; null elsewhere)"},
];

/** Columns listed once each: later lists may not redefine a name. */
function merge(name: string, key: readonly string[], ...lists: (readonly Column[])[]): TableSchema {
  const seen = new Map<string, Column>();
  for (const list of lists) for (const c of list) if (!seen.has(c.name)) seen.set(c.name, c);
  return {name, key, columns: [...seen.values()]};
}

/** The games, players and turns schemas of one game. */
export function gameTables(def: GameDef): {games: TableSchema; players: TableSchema; turns: TableSchema} {
  const params: Column[] = def.paramColumns
    ? []
    : def.params.map((p) => ({name: p.name, type: paramColumnType(p), doc: p.label}));
  return {
    games: merge("games", ["game_id"], COMMON_GAME_COLUMNS, params, def.columns.games),
    players: merge("players", ["game_id", "seat"], COMMON_PLAYER_COLUMNS, def.columns.players),
    turns: merge("turns", ["game_id", "turn"], COMMON_TURN_COLUMNS, def.columns.turns),
  };
}

/** The partition directory of a game id: `game=glee%2Fbargaining`. */
export const partitionDir = (gameId: string): string => `game=${encodeURIComponent(gameId)}`;

/**
 * One flat schema per table for several games (a data loader's single
 * games/players/turns files): a `game` column, then the union of their columns.
 */
export function flatTables(defs: readonly GameDef[]): {games: TableSchema; players: TableSchema; turns: TableSchema} {
  const each = defs.map(gameTables);
  const game: Column = {name: "game", type: "VARCHAR", doc: "the game id"};
  const union = (t: "games" | "players" | "turns") => {
    const [first] = each.map((e) => e[t]);
    return merge(t, first.key ?? [], [game], ...each.map((e) => e[t].columns));
  };
  return {games: union("games"), players: union("players"), turns: union("turns")};
}
