/**
 * The rows the GLEE regressions read: every game's Table 1 parameters and
 * players (games columns) joined with its metrics from the one metric
 * definition (gleeMetrics.ts). Pages run this SQL in DuckDB-WASM and
 * `parley regress` in native DuckDB, so both fit exactly the same rows.
 */
import {gleeMetricsSQL, type GleeConventions} from "./gleeMetrics.js";

/** Parameter and player columns of the games table the design uses (see gleeDesign.ts). */
export const DESIGN_COLUMNS = [
  "source", "family", "alice_agent", "bob_agent", "money", "horizon", "complete_information", "messages",
  "delta_a", "delta_b", "factor_a", "factor_b", "prior", "value_high", "message_type", "buyer_type",
] as const;

/** One game with its parameters (games columns, null when not applicable) and metrics. */
export interface GleeRow {
  family: string;
  alice_agent: string | null;
  bob_agent: string | null;
  money?: number | null;
  horizon?: number | null;
  complete_information?: boolean | null;
  messages?: boolean | null;
  delta_a?: number | null;
  delta_b?: number | null;
  factor_a?: number | null;
  factor_b?: number | null;
  prior?: number | null;
  value_high?: number | null;
  message_type?: string | null;
  buyer_type?: string | null;
  efficiency?: number | null;
  fairness?: number | null;
  alice_self_gain?: number | null;
  bob_self_gain?: number | null;
}

/**
 * One row per game: game_id, the design columns, efficiency, fairness,
 * alice_self_gain, bob_self_gain. `where` is an optional SQL condition on
 * the games table (alias g), e.g. `g.family = 'bargaining'`; `conventions`
 * picks the metric formulas (gleeMetrics.ts). Rows come in the
 * games table's order: the query is one scan with no join or sort, which
 * DuckDB keeps in insertion order, so the page (DuckDB-WASM) and `parley
 * regress` (native) see the same order and draw the same held-out splits.
 */
export function gleeRegressionRowsSQL(games = "games", where?: string, conventions: GleeConventions = "paper"): string {
  const carry = DESIGN_COLUMNS.filter((c) => !["family", "alice_agent", "bob_agent"].includes(c));
  return `
SELECT game_id, ${DESIGN_COLUMNS.join(", ")}, efficiency, fairness, alice_self_gain, bob_self_gain
FROM (${gleeMetricsSQL(games, {carry, where, conventions})})`;
}
