/**
 * What /econarena asks its tables (games, players, turns of Parley's
 * Economics Arena run) and its first view. The page's questions read the
 * views econarenaViews creates and the `decisions` table built from them.
 */
import {adaptivitySQL, convergenceSQL, decisionsSQL, econarenaViews, statsSQL, table1SQL, table2SQL, type EconArenaViews} from "../econarena.js";
import type {FirstView, Query} from "../snapshot.js";

/** The views econarenaViews makes (fixed names, so the page's SQL is known before they exist). */
const VIEWS: EconArenaViews = {games: "ea_games", players: "ea_players", turns: "ea_turns"};

export async function prepareEconarena(query: Query): Promise<void> {
  const views = await econarenaViews((sql) => query(sql));
  if (JSON.stringify(views) !== JSON.stringify(VIEWS)) throw new Error("econarenaViews named its views differently");
  await query(`CREATE OR REPLACE TABLE decisions AS ${decisionsSQL(views)}`);
}

export const STATS_SQL = statsSQL(VIEWS);
export const TABLE1_SQL = table1SQL(VIEWS);
export const TABLE2_SQL = table2SQL(VIEWS);
export const GAMES_SQL = `SELECT DISTINCT game, coalesce(format, '') AS format FROM decisions ORDER BY game DESC, format`;

/** A (game, format) pair as one URL-friendly key ("econarena/auction:second"), and back (game ids hold no colon). */
export const gameKey = (g: {game: string; format: string | null}): string => (g.format ? `${g.game}:${g.format}` : g.game);
const splitKey = (key: string): [string, string] => {
  const i = key.indexOf(":");
  return i < 0 ? [key, ""] : [key.slice(0, i), key.slice(i + 1)];
};

const WHERE = `game = ? AND coalesce(format, '') = ?`;
/** The per-game sections' questions, with their parameters, for a game key. */
// Each ordered in full, so that every engine gives the same rows in the same order (the build's answers are looked up, not recomputed).
export const deviationsQuery = (key: string): [string, unknown[]] => [`SELECT agent, deviation AS value FROM decisions WHERE ${WHERE} AND deviation IS NOT NULL ORDER BY game_id, run, seat`, splitKey(key)];
export const convergenceQuery = (key: string): [string, unknown[]] => [`SELECT * FROM (${convergenceSQL(VIEWS)}) WHERE ${WHERE} ORDER BY environment, agent, run`, splitKey(key)];
export const adaptivityQuery = (key: string): [string, unknown[]] => [`SELECT * FROM (${adaptivitySQL(VIEWS)}) WHERE ${WHERE} ORDER BY agent, configuration`, splitKey(key)];

export const econarenaFirstView: FirstView = {
  page: "econarena",
  dataset: "econarena",
  tables: ["games", "players", "turns"],
  prepare: prepareEconarena,
  async script({query}) {
    for (const sql of [STATS_SQL, TABLE1_SQL, TABLE2_SQL]) await query(sql);
    const [first] = await query(GAMES_SQL);
    if (!first) return;
    const key = gameKey(first as {game: string; format: string});
    for (const [sql, params] of [deviationsQuery(key), convergenceQuery(key), adaptivityQuery(key)]) await query(sql, params);
  },
};
