/** What /gtllm and /gtllm-metagame ask their tables (games, turns of Parley's complete-information runs), and their first views. */
import {duopolyParetoSQL, gtllmGridSQL, gtllmStatsSQL, metaGameSQL, GTLLM_GAMES} from "../gtllm.js";
import type {FirstView} from "../snapshot.js";

export const GRID_SQL = gtllmGridSQL("games");
export const DUOPOLY_SQL = duopolyParetoSQL("games");
export const META_SQL = metaGameSQL("games");

/** The game the pair table opens on: the first of the paper's ten. */
export const DEFAULT_PAIR_GAME = GTLLM_GAMES[0][0];

/** Every pairing of one game (`parley gtllm-stats`). */
export const pairStatsSQL = (game: string): string => gtllmStatsSQL(`(SELECT * FROM games WHERE game = '${game.replace(/'/g, "''")}')`);

/** The games with pre-play talk offered in the transcript picker. */
export const TALKED_SQL = `SELECT game_id, game, alice_agent, bob_agent, path_names, is_ne FROM games WHERE negotiation_rounds > 0 ORDER BY game, alice_agent, bob_agent, game_id LIMIT 500`;

/** One game's talk and moves (bind the game id). */
export const TALK_TURNS_SQL = `SELECT turn, seat, action, message, choice, choice_name, round, reasoning FROM turns WHERE game_id = ? AND NOT rule_break ORDER BY turn`;

export const gtllmFirstView: FirstView = {
  page: "gtllm",
  dataset: "gtllm",
  tables: ["games", "turns"],
  async script({query}) {
    for (const sql of [GRID_SQL, DUOPOLY_SQL, pairStatsSQL(DEFAULT_PAIR_GAME)]) await query(sql);
    const [first] = await query(TALKED_SQL);
    if (first) await query(TALK_TURNS_SQL, [first.game_id]);
  },
};

export const gtllmMetagameFirstView: FirstView = {
  page: "gtllm-metagame",
  dataset: "gtllm",
  tables: ["games"],
  script: async ({query}) => void (await query(META_SQL)),
};
