/**
 * The rows the GLEE regressions read: every game's Table 1 parameters and
 * players (games columns) joined with its metrics from the one metric
 * definition (gleeMetrics.ts). Pages run this SQL in DuckDB-WASM and
 * `parley regress` in native DuckDB, so both fit exactly the same rows.
 */
import {gleeMetricsSQL} from "./gleeMetrics.js";

/** Parameter and player columns of the games table the design uses (see gleeDesign.ts). */
export const DESIGN_COLUMNS = [
  "source", "family", "alice_agent", "bob_agent", "money", "horizon", "complete_information", "messages",
  "delta_a", "delta_b", "factor_a", "factor_b", "prior", "value_high", "message_type", "buyer_type",
] as const;

/**
 * One row per game: game_id, the design columns, efficiency, fairness,
 * alice_self_gain, bob_self_gain. `where` is an optional SQL condition on
 * the games table (alias g), e.g. `g.family = 'bargaining'`.
 */
export function gleeRegressionRowsSQL(games = "games", where?: string): string {
  return `
SELECT g.game_id, ${DESIGN_COLUMNS.map((c) => `g.${c}`).join(", ")},
       m.efficiency, m.fairness, m.alice_self_gain, m.bob_self_gain
FROM ${games} g JOIN (${gleeMetricsSQL(games)}) m USING (game_id)${where ? `\nWHERE ${where}` : ""}
ORDER BY g.game_id`;
}
