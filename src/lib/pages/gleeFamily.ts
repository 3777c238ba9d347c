/**
 * What the three GLEE family pages ask their tables (the simulated
 * tournament's games and turns): the SQL of the measures "metric-values"
 * and "parameter-impact" of src/analyses/glee.ts, which the pages ask by
 * name there, and besides them the agents, one pair's games and one game's
 * turns. The first views are declared in src/analyses/glee.ts. Parameter
 * and metric names are checked against fixed lists before they reach SQL.
 */
import {GLEE_METRICS, GLEE_PARAMETERS, gleeMetricsSQL, type GleeConventions, type GleeFamily, type GleeMetric} from "../gleeMetrics.js";

const checkMetric = (m: string): GleeMetric => {
  if (!(GLEE_METRICS as readonly string[]).includes(m)) throw new Error(`unknown metric ${m}`);
  return m as GleeMetric;
};

/** Per-game metrics of one family (in `conventions`, see gleeMetrics.ts) joined to the game's parameters. */
export function familyMetricsSQL(family: GleeFamily, conventions: GleeConventions = "paper"): string {
  return `SELECT m.*, g.* EXCLUDE (game_id, family, alice_agent, bob_agent)
FROM (${gleeMetricsSQL("games", {conventions})}) m JOIN games g USING (game_id)
WHERE m.family = '${family}'`;
}

/**
 * The metric's distribution per agent (in `seat`), for the histogram and box
 * plots: each distinct value with its number of games (`expandValues` gives
 * the per-game values back). Values (shares and gains of the order of 1) are
 * rounded to 12 decimals, as the engines' libm differ in the last bits, so
 * that every engine gives the same rows; the answer then grows with the distinct outcomes (bounded
 * by the configurations and pairs), not with the games.
 */
export function metricValuesSQL(family: GleeFamily, metric: string, seat: "alice" | "bob", conventions: GleeConventions = "paper"): string {
  const m = checkMetric(metric);
  return `SELECT ${seat}_agent AS agent, round(${m}, 12)::DOUBLE AS value, count(*)::INTEGER AS games FROM (${familyMetricsSQL(family, conventions)}) WHERE ${m} IS NOT NULL AND isfinite(${m}) GROUP BY ALL ORDER BY agent, value`;
}

/** metricValuesSQL's rows as one row per game (agent, value). */
export function expandValues(rows: readonly {agent: string; value: number; games: number}[]): {agent: string; value: number}[] {
  const out: {agent: string; value: number}[] = [];
  for (const {agent, value, games} of rows) for (let i = 0; i < games; i++) out.push({agent, value});
  return out;
}

/** Mean metric by parameter value and agent in `seat`; values as text ('∞' for a null horizon), in parameter order. */
export function parameterImpactSQL(family: GleeFamily, parameter: string, metric: string, seat: "alice" | "bob", conventions: GleeConventions = "paper"): string {
  const m = checkMetric(metric);
  if (!GLEE_PARAMETERS[family].some((p) => p.column === parameter)) throw new Error(`unknown ${family} parameter ${parameter}`);
  return `SELECT coalesce(CAST(${parameter} AS VARCHAR), '∞') AS value, ${seat}_agent AS agent,
       avg(${m})::DOUBLE AS mean, count(${m})::INTEGER AS n, min(${parameter}) AS sort_key
FROM (${familyMetricsSQL(family, conventions)})
WHERE ${m} IS NOT NULL
GROUP BY ALL
ORDER BY sort_key NULLS LAST, agent`;
}

/** Distinct agents that sat in `seat` in this family, sorted. */
export function seatAgentsSQL(family: GleeFamily, seat: "alice" | "bob"): string {
  return `SELECT DISTINCT ${seat === "alice" ? "alice_agent" : "bob_agent"} AS agent FROM games WHERE family = '${family}' AND ${seat}_agent IS NOT NULL ORDER BY agent`;
}

/**
 * Games of one ordered pair (bind alice, bob as parameters), with a one-line
 * label of their parameters, their outcome (rounds, how they ended, the
 * payoffs) and their metrics in `conventions`: the rows of the games table.
 */
export function pairGamesSQL(family: GleeFamily, conventions: GleeConventions = "paper"): string {
  const params = GLEE_PARAMETERS[family].map((p) => `'${p.column}=' || coalesce(CAST(g.${p.column} AS VARCHAR), '∞')`).join(" || ', ' || ");
  return `SELECT g.game_id, ${params} AS parameters, g.rounds, g.ended_by, g.agreement, g.alice_share, g.price, g.sales, g.alice_gain, g.bob_gain,
       m.efficiency, m.fairness, m.alice_self_gain, m.bob_self_gain
FROM (${gleeMetricsSQL("games", {conventions, where: `family = '${family}' AND alice_agent = ? AND bob_agent = ?`})}) m JOIN games g USING (game_id)
ORDER BY g.config_id, g.repetition, g.game_id LIMIT 2000`;
}

/** The rule breaks of each game of one ordered pair (bind alice, bob): asked only when the games table is filtered by them, as it reads every turn. */
export function pairRuleBreaksSQL(family: GleeFamily): string {
  return `SELECT t.game_id, (count(*) FILTER (WHERE t.rule_break))::INTEGER AS rule_breaks
FROM turns t JOIN games g USING (game_id)
WHERE g.family = '${family}' AND g.alice_agent = ? AND g.bob_agent = ?
GROUP BY t.game_id`;
}

/** One game's turns (bind the game id). */
export const GLEE_TURNS_SQL = `SELECT turn, round, player, action, alice_gain, bob_gain, price, claim, quality, message, decision, reasoning, rule_break, rule_break_reason FROM turns WHERE game_id = ? ORDER BY turn`;
