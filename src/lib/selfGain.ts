/**
 * An agent's self-gain in GLEE bargaining against its own discount factor
 * (GLEE (Shapira et al. 2024) §2.1: Alice's self-gain p·δ_A^(t−1), Bob's
 * (1 − p)·δ_B^(t−1)), whichever seat it held: the SQL behind the worked
 * example page src/study-discount.md, on the shared metric SQL
 * (gleeMetrics.ts), so its numbers are the family pages' numbers. Pure.
 */
import {gleeMetricsSQL, type GleeConventions} from "./gleeMetrics.js";
import {meanInterval} from "./studentT.js";

export interface SelfGainByDiscount {
  agent: string;
  /** The agent's own discount factor in those games (δ_A as Alice, δ_B as Bob). */
  delta: number;
  n: number;
  mean: number;
  /** Sample standard deviation (n − 1), null for one game. */
  sd: number | null;
}

/**
 * One row per agent and own δ over the bargaining games of `games` (a GLEE
 * games table): games played (`n`), mean and sample standard deviation of
 * the agent's self-gain, both seats pooled; ordered by agent and δ.
 */
export function selfGainByDiscountSQL(games = "games", conventions: GleeConventions = "paper"): string {
  const metrics = gleeMetricsSQL(games, {carry: ["delta_a", "delta_b"], where: "g.family = 'bargaining'", conventions});
  return `WITH m AS (${metrics}),
seats AS (
  SELECT alice_agent AS agent, delta_a AS delta, alice_self_gain AS gain FROM m
  UNION ALL
  SELECT bob_agent AS agent, delta_b AS delta, bob_self_gain AS gain FROM m
)
SELECT agent, delta::DOUBLE AS delta, count(gain)::INTEGER AS n, avg(gain)::DOUBLE AS mean, stddev_samp(gain)::DOUBLE AS sd
FROM seats
WHERE agent IS NOT NULL AND delta IS NOT NULL AND gain IS NOT NULL
GROUP BY agent, delta
ORDER BY agent, delta`;
}

/** The rows with their t intervals (studentT.ts meanInterval) at `level`. */
export function withIntervals<R extends {n: number; mean: number; sd: number | null}>(rows: readonly R[], level = 0.95): (R & {lo: number | null; hi: number | null})[] {
  return rows.map((r) => ({...r, ...meanInterval({n: r.n, mean: r.mean, sd: r.sd ?? NaN}, level)}));
}
