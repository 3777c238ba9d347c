/** What /negotiationarena asks its tables (NegotiationArena buy/sell games and turns), and its first view. */
import type {FirstView} from "../snapshot.js";

export const NA_GAMES_SQL = `SELECT * FROM games ORDER BY game_id`;
export const NA_PROPOSALS_SQL = `SELECT t.game_id, t.turn + 1 AS turn, t.role, t.price FROM turns t WHERE t.price IS NOT NULL ORDER BY t.game_id, t.turn`;
/** One game's turns (bind the game id). */
export const NA_TURNS_SQL = `SELECT turn, player, action, price, message, reasoning FROM turns WHERE game_id = ? ORDER BY turn`;

export const negotiationArenaFirstView: FirstView = {
  page: "negotiationarena",
  dataset: "negotiationarena",
  tables: ["games", "turns"],
  async script({query}) {
    const [first] = await query(NA_GAMES_SQL);
    await query(NA_PROPOSALS_SQL);
    if (first) await query(NA_TURNS_SQL, [first.game_id]);
  },
};
