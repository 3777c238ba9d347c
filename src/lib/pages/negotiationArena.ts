/**
 * What the NegotiationArena pages (/negotiationarena and one per scenario,
 * /negotiationarena-<scenario>) ask their tables (games, turns of the
 * negotiationarena dataset: Parley's runs and the authors' buy/sell logs):
 * the view `arena` their measures read, the SQL of the measures
 * "scenario-pairs" and "trades" (the pages ask every measure by name of
 * src/analyses/negotiationarena.ts, where their first views are declared),
 * and besides them the transcripts.
 */
import {labelledGamesSQL, NA_PREFIX, pairStatsSQL, type NaScenario} from "../negotiationArena.js";
import type {Query} from "../snapshot.js";

/** The scenario pages' URL names and the scenario each shows. */
export const NA_PAGES: Record<string, NaScenario> = {"resource-exchange": "resource_exchange", ultimatum: "ultimatum", "buy-sell": "buy_sell"};

/** The games with agents labelled by their social behaviour (see labelledGamesSQL), as view `arena`. */
export async function prepareArena(query: Query): Promise<void> {
  // Runs of built-in agents have no behaviour columns (only LLM players and the authors' logs do): null there.
  const columns = new Set((await query(`DESCRIBE SELECT * FROM games`)).map((r) => String(r.column_name)));
  const games = columns.has("p1_behaviour") ? "games" : "(SELECT *, NULL::VARCHAR AS p1_behaviour, NULL::VARCHAR AS p2_behaviour FROM games)";
  await query(`CREATE OR REPLACE VIEW arena AS ${labelledGamesSQL(games)}`);
}

const gameOf = (scenario: NaScenario) => `${NA_PREFIX}${scenario}`;

/** One scenario's ordered pairs (Figure 3). */
export const scenarioPairsSQL = (scenario: NaScenario): string => pairStatsSQL("arena", `game = '${gameOf(scenario)}' AND injected_offer IS NULL`);

/** Resource exchange: how often each ordered pair trades. */
export const tradesSQL = (scenario: NaScenario): string =>
  `SELECT p1_agent, p2_agent, count(*)::INTEGER AS games, avg(agreement::INTEGER)::DOUBLE AS trade_rate, avg(p2_payoff)::DOUBLE AS p2_mean_payoff FROM arena WHERE game = '${gameOf(scenario)}' GROUP BY ALL ORDER BY ALL`;

/** The games offered in the transcript picker: the authors' logs first, then three of each pair. */
export const transcriptChoicesSQL = (scenario: NaScenario): string => `SELECT game_id, p1_agent, p2_agent, ended_by, p1_payoff, p2_payoff FROM arena WHERE game = '${gameOf(scenario)}'
  QUALIFY row_number() OVER (PARTITION BY source, p1_agent, p2_agent ORDER BY game_id) <= 3
  ORDER BY source = 'simulated', game_id`;

/** One game's messages (bind the game id). */
export const ARENA_TURNS_SQL = `SELECT turn, seat, action, trade, message, reasoning, rule_break, rule_break_reason FROM turns WHERE game_id = ? ORDER BY turn`;
