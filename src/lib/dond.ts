/**
 * Deal-or-No-Deal metrics (Game-theoretic LLM workflows (Hua et al. 2024), §5.3–5.4, Definitions 7, 8 and 11).
 *
 * Each dialogue divides three item types (counts c) between Alice (the player
 * who speaks first) and Bob, who value them with hidden vectors v_A and v_B.
 * For an agreed allocation L_A and L_B (L_B = c − L_A in human dialogues; in
 * played games each side's written deal, which may leave items unassigned):
 * - score_x = L_x · v_x; total = score_a + score_b (0 each without agreement);
 * - envy free (Def. 7): U_A(L_A) ≥ U_A(L_B) and U_B(L_B) ≥ U_B(L_A);
 * - Pareto optimal (Def. 8): no allocation L' of the same items gives both at
 *   least as much and one strictly more;
 * - difficulty (Def. 11) = −‖v_A − v_B‖₁.
 * Convention: a dialogue without agreement (disagreeing selections, "no
 * agreement", disconnect) scores 0 for both and is neither envy free nor Pareto
 * optimal, since the seed counts these outcomes as failures (Table 9).
 *
 * This file is the one definition: pages run the SQL in DuckDB-WASM, the CLI
 * and tests run it in native DuckDB. `games` must have the columns of the
 * ingested games table (counts, values_a, values_b, agreement, alloc_a,
 * alloc_b), which played games (dond/negotiation) share.
 */

import {sqlString} from "./sqlText.js";
import {dondPaperSelectionSQL} from "./dondPaperSelection.js";
import {columnsOf, type Query} from "./projectView.js";

/**
 * Which dialogues a measure reads: "all", each game once (Parley's own), or
 * "paper", the lines the authors' code keeps for Table 9 (src/lib/dondPaperSelection.ts).
 */
export type DondSelection = "all" | "paper";
export const DOND_SELECTIONS: readonly DondSelection[] = ["all", "paper"];

/** The per-dialogue metrics of `games` restricted to `selection`: one row per selected line under "paper". */
const selectedMetricsSQL = (games: string, selection: DondSelection): string =>
  selection === "paper"
    ? `SELECT m.* FROM (${dondGameMetricsSQL(games)}) m JOIN (${dondPaperSelectionSQL(games)}) p USING (game_id)`
    : dondGameMetricsSQL(games);

export interface DondStatsRow {
  difficulty: number;
  n: number;
  agreement: number;
  envy_free: number;
  pareto_optimal: number;
  both: number;
}

/** SQL for the value of a bundle: `a` is a list column or three item expressions, `v` a list column. */
const dot = (a: string | string[], v: string) => {
  const item = (k: number) => (Array.isArray(a) ? a[k - 1] : `${a}[${k}]`);
  return `(${item(1)} * ${v}[1] + ${item(2)} * ${v}[2] + ${item(3)} * ${v}[3])`;
};

/** One row per dialogue: game_id, difficulty, agreement, score_a, score_b, total, envy_free, pareto_optimal. */
export function dondGameMetricsSQL(games = "games"): string {
  return `
WITH g AS (
  SELECT game_id, counts, values_a AS va, values_b AS vb, agreement,
         alloc_a AS la, coalesce(alloc_b, [counts[1] - alloc_a[1], counts[2] - alloc_a[2], counts[3] - alloc_a[3]]) AS lb
  FROM ${games}
),
k AS (SELECT range AS x FROM range(0, (SELECT coalesce(max(list_max(counts)), 0) + 1 FROM g))),
alternatives AS (
  SELECT g.game_id,
         ${dot(["x0.x", "x1.x", "x2.x"], "g.va")} AS ua,
         ${dot(["(g.counts[1] - x0.x)", "(g.counts[2] - x1.x)", "(g.counts[3] - x2.x)"], "g.vb")} AS ub
  FROM g
  JOIN k AS x0 ON x0.x <= g.counts[1]
  JOIN k AS x1 ON x1.x <= g.counts[2]
  JOIN k AS x2 ON x2.x <= g.counts[3]
  WHERE g.agreement
),
scored AS (
  SELECT game_id, counts, va, vb, agreement,
         -(abs(va[1] - vb[1]) + abs(va[2] - vb[2]) + abs(va[3] - vb[3]))::INTEGER AS difficulty,
         CASE WHEN agreement THEN ${dot("la", "va")} ELSE 0 END::INTEGER AS score_a,
         CASE WHEN agreement THEN ${dot("lb", "vb")} ELSE 0 END::INTEGER AS score_b,
         coalesce(agreement AND ${dot("la", "va")} >= ${dot("lb", "va")} AND ${dot("lb", "vb")} >= ${dot("la", "vb")}, false) AS envy_free
  FROM g
),
dominated AS (
  SELECT s.game_id, bool_or(a.ua >= s.score_a AND a.ub >= s.score_b AND (a.ua > s.score_a OR a.ub > s.score_b)) AS dominated
  FROM scored s JOIN alternatives a USING (game_id)
  GROUP BY s.game_id
)
SELECT s.game_id, s.difficulty, s.agreement, s.score_a, s.score_b, (s.score_a + s.score_b)::INTEGER AS total,
       s.envy_free, coalesce(s.agreement AND NOT d.dominated, false) AS pareto_optimal
FROM scored s LEFT JOIN dominated d USING (game_id)
ORDER BY s.game_id`;
}

/**
 * Rates by difficulty, most difficult (closest valuations) first. With
 * `cumulative`, each row pools every dialogue at least that difficult, which is
 * how Game-theoretic LLM workflows (Hua et al. 2024) Table 9 grows its datapoint counts;
 * with `selection: "paper"`, over the lines its authors' code selects (on the
 * test split, Table 9 itself).
 */
export function dondStatsSQL(games = "games", {cumulative = false, selection = "all" as DondSelection} = {}): string {
  const pool = cumulative ? "m.difficulty >= d.difficulty" : "m.difficulty = d.difficulty";
  return `
WITH m AS (${selectedMetricsSQL(games, selection)}),
d AS (SELECT DISTINCT difficulty FROM m)
SELECT d.difficulty::INTEGER AS difficulty,
       count(*)::INTEGER AS n,
       avg(m.agreement::INTEGER)::DOUBLE AS agreement,
       avg(m.envy_free::INTEGER)::DOUBLE AS envy_free,
       avg(m.pareto_optimal::INTEGER)::DOUBLE AS pareto_optimal,
       avg((m.envy_free AND m.pareto_optimal)::INTEGER)::DOUBLE AS "both"
FROM d JOIN m ON ${pool}
GROUP BY d.difficulty
ORDER BY d.difficulty DESC`;
}

/** The columns of Tables 10–13, 17–18 (Hua et al. 2024): means over a pairing's games. */
export interface DondScores {
  rounds: number | null;
  agreement: number;
  score_a: number;
  score_b: number;
  pareto_optimal: number;
  envy_free: number;
  total: number;
}

/** One row of the Tables 10–13, 17–18 layout: a pairing's averages over its envy-free-feasible games. */
export interface DondPairingRow extends DondScores {
  source: string;
  alice_agent: string;
  bob_agent: string;
  n: number;
}

/**
 * Game-theoretic LLM workflows (Hua et al. 2024) Tables 10–13, 17–18: per
 * (Alice, Bob) pairing, the mean rounds, agreement, scores, Pareto optimal,
 * envy free and total over the games whose point has an envy-free
 * allocation (the paper's 44 of 50). Human dialogues of the ingested split
 * carry no point and are left out.
 */
export function dondPairingSQL(games = "games"): string {
  return `
WITH m AS (${dondGameMetricsSQL(games)})
SELECT g.source, g.alice_agent, g.bob_agent, count(*)::INTEGER AS n,
       avg(g.rounds)::DOUBLE AS rounds,
       avg(m.agreement::INTEGER)::DOUBLE AS agreement,
       avg(m.score_a)::DOUBLE AS score_a,
       avg(m.score_b)::DOUBLE AS score_b,
       avg(m.pareto_optimal::INTEGER)::DOUBLE AS pareto_optimal,
       avg(m.envy_free::INTEGER)::DOUBLE AS envy_free,
       avg(m.total)::DOUBLE AS total
FROM ${games} g JOIN m USING (game_id)
WHERE g.ef_feasible
GROUP BY ALL
ORDER BY g.source, g.alice_agent, g.bob_agent`;
}

/** Turns that carry a belief (the workflow's), with what the metrics need: one row per belief. */
export function dondBeliefSQL(games = "games", turns = "turns"): string {
  return `
SELECT g.game_id, g.source, g.alice_agent, g.bob_agent, g.point, t.player, t.turn, t.round, t.belief,
       g.counts, g.values_a, g.values_b
FROM ${turns} t JOIN ${games} g USING (game_id)
WHERE t.belief IS NOT NULL AND NOT coalesce(t.rule_break, false) AND g.ef_feasible
ORDER BY g.game_id, t.player, t.turn`;
}

/**
 * The turns as dondBeliefSQL reads them, from either shape: the dialogues'
 * turns (the site's archive and ingests) name the speaker `player` (alice,
 * bob), a played run's turns give the `seat` (0 is Alice, who speaks first);
 * a run without the belief workflow has no `belief` column (no beliefs).
 */
export async function dondBeliefTurns(query: Query, turns = "turns"): Promise<string> {
  const have = await columnsOf(query, turns);
  const added = [
    ...(have.has("player") ? [] : [`${have.has("seat") ? "CASE seat WHEN 0 THEN 'alice' WHEN 1 THEN 'bob' END" : "NULL::VARCHAR"} AS player`]),
    ...(have.has("belief") ? [] : ["NULL::VARCHAR[] AS belief"]),
  ];
  return added.length ? `(SELECT *, ${added.join(", ")} FROM ${turns})` : turns;
}

/** One source's games, as a subquery the shared SQL reads like a table. */
export const sourceTable = (source: string): string => `(SELECT * FROM games WHERE source = ${sqlString(source)})`;

/** Every dialogue of `table` with its metrics, most difficult first; under "paper", those the authors' selection keeps (each once). */
export const dondGamesSQL = (table: string, selection: DondSelection = "all"): string => `
  SELECT g.game_id, g.outcome, g.counts, g.values_a, g.values_b, g.alloc_a, g.alloc_b, g.messages,
         m.difficulty, m.score_a, m.score_b, m.total, m.envy_free, m.pareto_optimal
  FROM ${table} g JOIN (${dondGameMetricsSQL(table)}) m USING (game_id)
  ${selection === "paper" ? `WHERE g.game_id IN (SELECT game_id FROM (${dondPaperSelectionSQL(table)}))` : ""}
  ORDER BY m.difficulty DESC, g.game_id`;
