/** What /gtllm asks its tables besides the measures of src/analyses/gtllm.ts: the talk transcripts of Parley's complete-information runs. */

/** The games with pre-play talk offered in the transcript picker. */
export const TALKED_SQL = `SELECT game_id, game, alice_agent, bob_agent, path_names, is_ne FROM games WHERE negotiation_rounds > 0 ORDER BY game, alice_agent, bob_agent, game_id LIMIT 500`;

/** One game's talk and moves (bind the game id). */
export const TALK_TURNS_SQL = `SELECT turn, seat, action, message, choice, choice_name, round, reasoning FROM turns WHERE game_id = ? AND NOT rule_break ORDER BY turn`;
