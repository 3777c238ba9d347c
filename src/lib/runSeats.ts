/**
 * The seats of any configured run, as the site gets them: every run's
 * archive (loaders/ownRuns/runArchives.ts) holds a `seats` group of three narrow flat
 * tables cut from the run's common tables (loaders/contract/tables.ts), whatever
 * games it played. Pages that compare agents or runs of any game (/compare,
 * /ratings) read them with the same seat SQL as `parley compare` and
 * `parley ratings` (ratingsData.ts commonSeatsSQL, agentCost.ts). Pure.
 */
import {commonSeatsSQL} from "./ratingsData.js";
import {commonTokensSQL} from "./agentCost.js";

type SeatColumnType = "VARCHAR" | "INTEGER" | "DOUBLE" | "BOOLEAN";

/** The columns of each table of the group (the archive writes them, NULL where a run has none). */
export const RUN_SEAT_TABLES: Record<"games" | "players" | "turns", {name: string; type: SeatColumnType}[]> = {
  // `game` is the run's partition (hive); an ingest directory has `game` or `family` in its files, and `variant` (gamma-Bench).
  games: [
    {name: "game_id", type: "VARCHAR"},
    {name: "game", type: "VARCHAR"},
    {name: "family", type: "VARCHAR"},
    {name: "config_id", type: "INTEGER"},
    {name: "repetition", type: "INTEGER"},
    {name: "variant", type: "VARCHAR"},
  ],
  players: [
    {name: "game_id", type: "VARCHAR"},
    {name: "seat", type: "INTEGER"},
    {name: "agent", type: "VARCHAR"},
    {name: "return", type: "DOUBLE"},
  ],
  turns: [
    {name: "game_id", type: "VARCHAR"},
    {name: "seat", type: "INTEGER"},
    {name: "input_tokens", type: "INTEGER"},
    {name: "output_tokens", type: "INTEGER"},
    {name: "cached_input_tokens", type: "INTEGER"},
    {name: "reasoning_tokens", type: "INTEGER"},
    {name: "cache_write_tokens", type: "INTEGER"},
    // Attempts and rule breaks, for /compare's rule-break rate per seat (compare.ts seatRuleBreaksSQL).
    {name: "attempt", type: "INTEGER"},
    {name: "rule_break", type: "BOOLEAN"},
  ],
};

export const RUN_SEATS_GROUP = "seats";

const GAME_COLUMNS: ReadonlySet<string> = new Set(RUN_SEAT_TABLES.games.map((c) => c.name));

/**
 * Seat rows of a run's seats tables (names `games`, `players` as given), as
 * `parley compare` and `parley ratings` read the run's directory: the family
 * is the game id (the partition), else the ingest's `family`.
 */
export function runSeatsSQL({games = "games", players = "players", prefix = ""} = {}): string {
  return commonSeatsSQL(games, players, "COALESCE(g.game, g.family)", GAME_COLUMNS, prefix);
}

/** Recorded tokens per agent of a run's seats tables. */
export function runTokensSQL({players = "players", turns = "turns"} = {}): string {
  return commonTokensSQL(players, turns);
}
