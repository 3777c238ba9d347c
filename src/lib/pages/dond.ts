/** What /dond asks its tables (games, turns of Deal or No Deal), and its first view. */
import {dondGameMetricsSQL, dondStatsSQL} from "../dond.js";
import type {FirstView} from "../snapshot.js";

/** Every dialogue with its metrics, most difficult last. */
export const DOND_GAMES_SQL = `
  SELECT g.game_id, g.outcome, g.counts, g.values_a, g.values_b, g.alloc_a, g.alloc_b, g.messages,
         m.difficulty, m.score_a, m.score_b, m.total, m.envy_free, m.pareto_optimal
  FROM games g JOIN (${dondGameMetricsSQL("games")}) m USING (game_id)
  ORDER BY m.difficulty DESC, g.game_id`;

/** One dialogue's turns (bind the game id). */
export const DOND_TURNS_SQL = `SELECT turn, player, action, text FROM turns WHERE game_id = ? ORDER BY turn`;

export const dondFirstView: FirstView = {
  page: "dond",
  dataset: "dond",
  tables: ["games", "turns"],
  async script({query}) {
    await query(dondStatsSQL("games", {cumulative: false}));
    const [first] = await query(DOND_GAMES_SQL);
    if (first) await query(DOND_TURNS_SQL, [first.game_id]);
  },
};
