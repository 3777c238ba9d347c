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
import {withMissingColumns, type ViewColumn} from "../projectView.js";

/** The scenario pages' URL names and the scenario each shows. */
export const NA_PAGES: Record<string, NaScenario> = {"resource-exchange": "resource_exchange", ultimatum: "ultimatum", "buy-sell": "buy_sell"};

/**
 * The games columns the measures read that only some games write: a run of
 * built-in agents has no behaviour columns (only LLM players and the
 * authors' logs do), a run of one scenario none of the others' parameters
 * and outcomes (NegotiationArena (Bianchi et al. 2024) Tables 1–3). Null where absent.
 */
const SCENARIO_COLUMNS: readonly ViewColumn[] = [
  ["p1_behaviour", "VARCHAR"], ["p2_behaviour", "VARCHAR"], ["iterations", "INTEGER"], ["agreement", "BOOLEAN"], ["final_response", "VARCHAR"],
  ["stake", "DOUBLE"], ["injected_offer", "DOUBLE"], ["p1_share", "DOUBLE"], ["seller_cost", "DOUBLE"], ["buyer_value", "DOUBLE"], ["price", "DOUBLE"],
];

/** The games with agents labelled by their social behaviour (see labelledGamesSQL), as view `arena`. */
export async function prepareArena(query: Query): Promise<void> {
  await query(`CREATE OR REPLACE VIEW arena AS ${labelledGamesSQL(await withMissingColumns(query, "games", SCENARIO_COLUMNS))}`);
}

/** View `arena` (prepareArena) and the turns as view `arena_turns`, with `price` (which only buy/sell writes): for a page or measure that has turns. */
export async function prepareArenaWithTurns(query: Query): Promise<void> {
  await prepareArena(query);
  await query(`CREATE OR REPLACE VIEW arena_turns AS SELECT * FROM ${await withMissingColumns(query, "turns", [["price", "DOUBLE"]])}`);
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
