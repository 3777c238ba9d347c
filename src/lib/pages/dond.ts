/** What /dond, /dond-played and /dond-beliefs ask their tables (games, turns of Deal or No Deal: human dialogues, the 50 points' human outcomes, played games), and its first view. */
import {dondBeliefSQL, dondGameMetricsSQL, dondPairingSQL, dondStatsSQL} from "../dond.js";
import {valuationSummary, type BeliefRow, type ValuationSummary} from "../dondBelief.js";
import type {Computation, FirstView} from "../snapshot.js";
import {sqlString} from "../sqlText.js";

/** Who produced the games: the ingested split, the 50 hard points' recorded outcomes, Parley's runs. */
export const DOND_SOURCES_SQL = `SELECT DISTINCT source FROM games ORDER BY source`;

/** The source the page opens on: the human dialogues when present. */
export const defaultSource = (sources: readonly string[]): string | undefined => (sources.includes("dealornodeal") ? "dealornodeal" : sources[0]);

/** One source's games, as a subquery the shared SQL reads like a table. */
export const sourceTable = (source: string): string => `(SELECT * FROM games WHERE source = ${sqlString(source)})`;

/** Every dialogue of `table` with its metrics, most difficult first. */
export const dondGamesSQL = (table: string): string => `
  SELECT g.game_id, g.outcome, g.counts, g.values_a, g.values_b, g.alloc_a, g.alloc_b, g.messages,
         m.difficulty, m.score_a, m.score_b, m.total, m.envy_free, m.pareto_optimal
  FROM ${table} g JOIN (${dondGameMetricsSQL(table)}) m USING (game_id)
  ORDER BY m.difficulty DESC, g.game_id`;

/** One dialogue's turns (bind the game id). */
export const DOND_TURNS_SQL = `SELECT turn, player, action, text FROM turns WHERE game_id = ? ORDER BY turn`;

export const dondFirstView: FirstView = {
  page: "dond",
  dataset: "dond",
  tables: ["games", "turns"],
  async script({query}) {
    const source = defaultSource((await query(DOND_SOURCES_SQL)).map((r) => String(r.source)));
    if (source === undefined) return;
    const table = sourceTable(source);
    await query(dondStatsSQL(table, {cumulative: false}));
    const [first] = await query(dondGamesSQL(table));
    if (first) await query(DOND_TURNS_SQL, [first.game_id]);
  },
};

/**
 * /dond-played: every pairing's row of Tables 10–13 and 17–18, and the 50
 * hard points (for the Best row): the recorded points when the table has
 * them (the built-in data), else the points a configured run played.
 */
export const PAIRINGS_SQL = dondPairingSQL("games");
export const HARD_POINTS_SQL = `SELECT DISTINCT point, counts, values_a, values_b FROM games
  WHERE point IS NOT NULL AND (source = 'dond-hard50' OR NOT EXISTS (SELECT 1 FROM games WHERE source = 'dond-hard50'))
  ORDER BY point`;

export const dondPlayedFirstView: FirstView = {
  page: "dond-played",
  dataset: "dond",
  tables: ["games"],
  async script({query}) {
    await query(PAIRINGS_SQL);
    await query(HARD_POINTS_SQL);
  },
};

/**
 * /dond-beliefs: Tables 14–16 from the beliefs stored on every turn, each
 * game's last belief and the belief held at the end of each round. A
 * computation, so that the page reads the summaries (small) rather than
 * every belief (large) from its first view.
 */
export const valuationSummaries: Computation<Record<string, never>, {last: ValuationSummary[]; byRound: ValuationSummary[]}> = {
  name: "dond-valuation-summaries",
  async compute(query) {
    const beliefs = (await query(dondBeliefSQL("games", "turns"))) as unknown as BeliefRow[];
    return {last: valuationSummary(beliefs), byRound: valuationSummary(beliefs, {byRound: true})};
  },
};

export const dondBeliefsFirstView: FirstView = {
  page: "dond-beliefs",
  dataset: "dond",
  tables: ["games", "turns"],
  script: async ({memo}) => void (await memo(valuationSummaries, {})),
};
