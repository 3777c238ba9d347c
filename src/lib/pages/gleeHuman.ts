/**
 * What /glee-human asks its tables (GLEE human-vs-LLM games and turns): the
 * SQL of the measures "human-summary", "human-metrics" and "human-outcomes"
 * of src/analyses/glee.ts, which the page asks by name there, and besides
 * them one family's games and one game's turns. The first view is declared
 * in src/analyses/glee.ts.
 */
import {gleeMetricsSQL} from "../gleeMetrics.js";

/** The games a person played (agent id `human`, as GLEE's oTree logs and Parley's study record it): a run of built-in agents or LLMs beside them is not a human game. */
const HUMAN_GAMES = `(SELECT * FROM games WHERE 'human' IN (alice_agent, bob_agent))`;

/** Who played which side: games, rounds, agreement and gains per M, per family and seating. */
export const HUMAN_SUMMARY_SQL = `
  SELECT family, alice_agent AS alice, bob_agent AS bob, count(*)::INTEGER AS games,
         avg(rounds)::DOUBLE AS rounds,
         avg(CASE WHEN agreement THEN 1.0 WHEN agreement IS NULL THEN NULL ELSE 0.0 END)::DOUBLE AS agreement,
         avg(CASE WHEN family = 'persuasion' THEN alice_utility / rounds ELSE alice_utility / money END)::DOUBLE AS alice_gain,
         avg(CASE WHEN family = 'persuasion' THEN bob_utility / money / rounds ELSE bob_utility / money END)::DOUBLE AS bob_gain
  FROM ${HUMAN_GAMES} GROUP BY ALL ORDER BY family, alice`;

/** GLEE's metrics by family and by whether the person or the LLM moved first. */
export const HUMAN_METRICS_SQL = `
  SELECT family, CASE WHEN alice_agent = 'human' THEN 'human' ELSE 'LLM' END AS alice,
         count(*)::INTEGER AS games, avg(efficiency)::DOUBLE AS efficiency, avg(fairness)::DOUBLE AS fairness,
         avg(alice_self_gain)::DOUBLE AS alice_self_gain, avg(bob_self_gain)::DOUBLE AS bob_self_gain
  FROM (${gleeMetricsSQL(HUMAN_GAMES)}) GROUP BY ALL ORDER BY family, alice`;

export const HUMAN_OUTCOMES_SQL = `SELECT game_id, family, alice_agent, bob_agent, alice_share, price / money AS price_per_m, value_a / money AS va, value_b / money AS vb FROM ${HUMAN_GAMES} WHERE family IN ('bargaining', 'negotiation') AND agreement`;

/** One family's games (bind the family). */
export const HUMAN_GAMES_SQL = `SELECT game_id, alice_agent, bob_agent, money, rounds, ended_by, alice_utility, bob_utility FROM games WHERE family = ? ORDER BY game_id`;

/** One game's turns (bind the game id). */
export const HUMAN_TURNS_SQL = `SELECT turn, round, player, role, action, alice_gain, bob_gain, price, claim, quality, message, decision FROM turns WHERE game_id = ? ORDER BY turn`;
