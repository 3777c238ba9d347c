/**
 * SQL used by the three GLEE family pages, kept out of the Markdown so each
 * page stays prose plus short cells. Parameter and metric names are checked
 * against fixed lists before they reach SQL.
 */
import {GLEE_METRICS, GLEE_PARAMETERS, gleeMetricsSQL, type GleeFamily, type GleeMetric} from "../lib/gleeMetrics.js";

const checkMetric = (m: string): GleeMetric => {
  if (!(GLEE_METRICS as readonly string[]).includes(m)) throw new Error(`unknown metric ${m}`);
  return m as GleeMetric;
};

/** Per-game metrics of one family joined to the game's parameters. */
export function familyMetricsSQL(family: GleeFamily): string {
  return `SELECT m.*, g.* EXCLUDE (game_id, family, alice_agent, bob_agent)
FROM (${gleeMetricsSQL("games")}) m JOIN games g USING (game_id)
WHERE m.family = '${family}'`;
}

/** agent (in `seat`) and the metric's value per game, for box plots. */
export function metricValuesSQL(family: GleeFamily, metric: string, seat: "alice" | "bob"): string {
  const m = checkMetric(metric);
  return `SELECT ${seat}_agent AS agent, ${m} AS value FROM (${familyMetricsSQL(family)}) WHERE ${m} IS NOT NULL`;
}

/** Mean metric by parameter value and agent in `seat`; values as text ('∞' for a null horizon), in parameter order. */
export function parameterImpactSQL(family: GleeFamily, parameter: string, metric: string, seat: "alice" | "bob"): string {
  const m = checkMetric(metric);
  if (!GLEE_PARAMETERS[family].some((p) => p.column === parameter)) throw new Error(`unknown ${family} parameter ${parameter}`);
  return `SELECT coalesce(CAST(${parameter} AS VARCHAR), '∞') AS value, ${seat}_agent AS agent,
       avg(${m})::DOUBLE AS mean, count(${m})::INTEGER AS n, min(${parameter}) AS sort_key
FROM (${familyMetricsSQL(family)})
WHERE ${m} IS NOT NULL
GROUP BY ALL
ORDER BY sort_key NULLS LAST, agent`;
}
