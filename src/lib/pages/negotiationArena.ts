/**
 * What the NegotiationArena pages ask their tables (games, turns of the
 * negotiationarena dataset: Parley's runs and the authors' buy/sell logs),
 * and their first views: /negotiationarena and one per scenario page
 * (/negotiationarena-<scenario>).
 */
import {acceptanceCurveSQL, buyerPayoffSQL, labelledGamesSQL, NA_PREFIX, pairStatsSQL, priceSequencesSQL, stakeShareSQL, type NaScenario} from "../negotiationArena.js";
import type {FirstView, Query} from "../snapshot.js";

/** The scenario pages' URL names and the scenario each shows. */
export const NA_PAGES: Record<string, NaScenario> = {"resource-exchange": "resource_exchange", ultimatum: "ultimatum", "buy-sell": "buy_sell"};

/** The games with agents labelled by their social behaviour (see labelledGamesSQL), as view `arena`. */
export async function prepareArena(query: Query): Promise<void> {
  await query(`CREATE OR REPLACE VIEW arena AS ${labelledGamesSQL("games")}`);
}

/** Every scenario and ordered pair, without the injected offers of the acceptance test. */
export const OVERVIEW_SQL = pairStatsSQL("arena", "injected_offer IS NULL");

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

/** The scenario-specific sections' questions. */
export const BUYER_PAYOFF_SQL = buyerPayoffSQL("arena");
export const PRICE_SEQUENCES_SQL = priceSequencesSQL("arena", "turns");
export const ACCEPTANCE_SQL = acceptanceCurveSQL("arena");
export const STAKE_SHARE_SQL = stakeShareSQL("arena");

/** Everything a scenario page asks before any input is touched. */
export async function scenarioScript(query: Query, scenario: NaScenario): Promise<void> {
  await query(scenarioPairsSQL(scenario));
  const sections = {buy_sell: [BUYER_PAYOFF_SQL, PRICE_SEQUENCES_SQL], ultimatum: [ACCEPTANCE_SQL, STAKE_SHARE_SQL], resource_exchange: [tradesSQL(scenario)]}[scenario];
  for (const sql of sections) await query(sql);
  const [first] = await query(transcriptChoicesSQL(scenario));
  if (first) await query(ARENA_TURNS_SQL, [first.game_id]);
}

export const negotiationArenaFirstViews: FirstView[] = [
  {page: "negotiationarena", dataset: "negotiationarena", tables: ["games"], prepare: prepareArena, script: async ({query}) => void (await query(OVERVIEW_SQL))},
  ...Object.entries(NA_PAGES).map(([slug, scenario]): FirstView => ({
    page: `negotiationarena-${slug}`,
    dataset: "negotiationarena",
    tables: ["games", "turns"],
    prepare: prepareArena,
    script: ({query}) => scenarioScript(query, scenario),
  })),
];
