/**
 * What /econarena asks its tables (games, players, turns of Parley's
 * Economics Arena run) besides its measures, which it asks by name of
 * src/analyses/econarena.ts (where its first view is declared): the games,
 * one game's deviations, and the way a measure's rows are cut to one game.
 * The page's questions read the views econarenaViews creates and the
 * `decisions` table built from them (the rows of the measure "decisions").
 */
import {decisionsSQL, econarenaViews, type EconArenaViews} from "../econarena.js";
import type {Query} from "../snapshot.js";

/** The views econarenaViews makes (fixed names, so the page's SQL is known before they exist). */
const VIEWS: EconArenaViews = {games: "ea_games", players: "ea_players", turns: "ea_turns"};

export async function prepareEconarena(query: Query): Promise<void> {
  const views = await econarenaViews((sql) => query(sql));
  if (JSON.stringify(views) !== JSON.stringify(VIEWS)) throw new Error("econarenaViews named its views differently");
  await query(`CREATE OR REPLACE TABLE decisions AS ${decisionsSQL(views)}`);
}

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

/** The measures /econarena shows one game at a time, each with the order its rows are given in. */
const GAME_ORDER = {convergence: "environment, agent, run", adaptivity: "agent, configuration"} as const;
export type GameMeasure = keyof typeof GAME_ORDER;

/** One game's rows of the measure `name`, given its SQL (asked of the analysis by name), with their parameters. */
export const oneGame = (name: GameMeasure, sql: string, key: string): [string, unknown[]] => [`SELECT * FROM (${sql}) WHERE ${WHERE} ORDER BY ${GAME_ORDER[name]}`, splitKey(key)];
