/**
 * What /dond and /dond-played ask their tables (games, turns of Deal or No
 * Deal: human dialogues, the 50 points' human outcomes, played games) besides
 * the measures of src/analyses/gtllm.ts: the sources, one dialogue's turns,
 * the hard points. The first views are declared there.
 */

/** Who produced the games: the ingested split, the 50 hard points' recorded outcomes, Parley's runs. */
export const DOND_SOURCES_SQL = `SELECT DISTINCT source FROM games ORDER BY source`;

/** The source the page opens on: the human dialogues when present. */
export const defaultSource = (sources: readonly string[]): string | undefined => (sources.includes("dealornodeal") ? "dealornodeal" : sources[0]);

/** One dialogue's turns (bind the game id). */
export const DOND_TURNS_SQL = `SELECT turn, player, action, text FROM turns WHERE game_id = ? ORDER BY turn`;

/**
 * /dond-played: the 50 hard points (for the Best row of Tables 10 and 12):
 * the recorded points when the table has them (the built-in data), else the
 * points a configured run played.
 */
export const HARD_POINTS_SQL = `SELECT DISTINCT point, counts, values_a, values_b FROM games
  WHERE point IS NOT NULL AND (source = 'dond-hard50' OR NOT EXISTS (SELECT 1 FROM games WHERE source = 'dond-hard50'))
  ORDER BY point`;
