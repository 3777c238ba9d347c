/**
 * GLEE outcome metrics (GLEE (Shapira et al. 2024) §2): efficiency, fairness and each side's
 * self-gain, one row per game. This file is the one definition: pages run the
 * SQL in DuckDB-WASM, `parley metrics` and the tests run it in native DuckDB.
 * `games` must have the columns of loaders/papers/glee/tables.ts (GLEE_GAMES).
 *
 * Bargaining (§2.1), agreement in round t on Alice's share p:
 *   efficiency = δ_A^(t−1)·p + δ_B^(t−1)·(1−p); fairness = 1 − 4(p − ½)²;
 *   self-gain: Alice p·δ_A^(t−1), Bob (1−p)·δ_B^(t−1).
 *   No deal (t_ev = ∞, including the cap standing in for T = ∞ and games
 *   aborted for rule breaks): efficiency 0, fairness 1 (§2.1 footnote 8),
 *   self-gains 0.
 * Negotiation (§2.2), trade at price p, V_i = M·F_i, p_f = (V_A + V_B)/2:
 *   efficiency = 1 iff V_A ≤ p ≤ V_B; fairness = 1 − 4((p − p_f)/M)²;
 *   self-gain: Alice (p − V_A)/M, Bob (V_B − p)/M (negative for a loss; not clipped).
 *   No trade: efficiency = 1 iff V_A ≥ V_B, fairness 1, self-gains 0.
 *   Clipping: the paper leaves negotiation fairness unnormalised (it can be
 *   below 0 for far-off prices); `fairness` is clipped to [0, 1] so all
 *   families share a scale, and `fairness_unclipped` keeps the raw value.
 * Persuasion (§2.3), over the T rounds played, n = high-quality rounds,
 * k = high-quality rounds bought, r = low-quality rounds not bought, s = sales:
 *   efficiency = k/n; fairness = r/(T − n); self-gain: Alice s/T (share of
 *   rounds sold), Bob (k·(v − 1) − (s − k))/T (utility per round in units of M).
 *   When n = 0 (no high-quality round) efficiency is NULL, and when n = T
 *   fairness is NULL: the ratio is undefined, and NULL keeps such games out of
 *   averages instead of counting them as perfect or as failures.
 *
 * Conventions: the above is `paper`, the default. `glee-code` reproduces
 * GLEE's published analysis code (analyze/metrics.py in eilamshapira/GLEE,
 * commit 790e356), which departs from §2 in three places (src/guide/glee.md,
 * "GLEE's code conventions"): (a) a bargaining game without a deal is scored as a
 * deal on p = 0 in its last round (analyze/configs.py:90 at a6cba1e sets both
 * gains to 0; metrics.py:305-312 apply the deal formulas), so fairness 0 and Bob's
 * self-gain and the efficiency δ_B^(t−1); (b) negotiation efficiency ignores
 * the price: a trade is efficient iff V_A ≤ V_B, no trade iff V_A ≥ V_B
 * (metrics.py:277-282); (c) Bob's persuasion self-gain subtracts the
 * low-quality rounds NOT bought, (k·(v − 1) − r)/T (metrics.py:352-353, with
 * c = 0 at :340). Everything else is scored alike.
 */

export type GleeFamily = "bargaining" | "negotiation" | "persuasion";
export const GLEE_FAMILIES: GleeFamily[] = ["bargaining", "negotiation", "persuasion"];

export interface GleeMetricsRow {
  game_id: string;
  family: GleeFamily;
  alice_agent: string | null;
  bob_agent: string | null;
  efficiency: number | null;
  fairness: number | null;
  fairness_unclipped: number | null;
  alice_self_gain: number | null;
  bob_self_gain: number | null;
}

/** Which formulas score the games: GLEE's paper as stated (the default) or GLEE's published analysis code. */
export const GLEE_CONVENTIONS = ["paper", "glee-code"] as const;
export type GleeConventions = (typeof GLEE_CONVENTIONS)[number];
export const CONVENTION_LABELS: Record<GleeConventions, string> = {paper: "as the paper states", "glee-code": "as GLEE's code computes"};

/** Where GLEE's published analysis code (eilamshapira/GLEE at 790e356) scores a family differently from the paper, in words for the pages. */
export const GLEE_CODE_DIFFERENCES: Record<GleeFamily, string> = {
  bargaining:
    "a game without a deal scores efficiency 0, fairness 1 and no gains in the paper (GLEE (Shapira et al. 2024) §2.1); GLEE's code records both gains as 0 (analyze/configs.py line 90, commit a6cba1e) and applies the deal formulas in the last round t (analyze/metrics.py lines 305–312): fairness 0, and efficiency and Bob's self-gain δ_B^(t−1).",
  negotiation:
    "a trade is efficient in the paper only at a price V_A ≤ p ≤ V_B (GLEE (Shapira et al. 2024) §2.2); GLEE's code counts every trade efficient when V_A ≤ V_B, whatever the price (analyze/metrics.py lines 277–282).",
  persuasion:
    "Bob's self-gain subtracts the low-quality rounds he bought in the paper's utilities (GLEE (Shapira et al. 2024) §2.3), (k(v − 1) − (s − k))/T; GLEE's code subtracts the low-quality rounds he did not buy, (k(v − 1) − r)/T (analyze/metrics.py lines 352–353).",
};

export const GLEE_METRICS = ["efficiency", "fairness", "alice_self_gain", "bob_self_gain"] as const;
export type GleeMetric = (typeof GLEE_METRICS)[number];

/** The Table 1 parameters of each family as games columns, with labels (for one-hot regressions and parameter-impact views). */
export const GLEE_PARAMETERS: Record<GleeFamily, {column: string; label: string}[]> = {
  bargaining: [
    {column: "delta_a", label: "δ_A"},
    {column: "delta_b", label: "δ_B"},
    {column: "money", label: "M"},
    {column: "horizon", label: "T (null = ∞)"},
    {column: "complete_information", label: "complete information"},
    {column: "messages", label: "messages allowed"},
  ],
  negotiation: [
    {column: "factor_a", label: "F_A"},
    {column: "factor_b", label: "F_B"},
    {column: "money", label: "M"},
    {column: "horizon", label: "T (null = ∞)"},
    {column: "complete_information", label: "complete information"},
    {column: "messages", label: "messages allowed"},
  ],
  persuasion: [
    {column: "prior", label: "p"},
    {column: "value_high", label: "v"},
    {column: "money", label: "M"},
    {column: "complete_information", label: "Alice knows v"},
    {column: "message_type", label: "message type"},
    {column: "buyer_type", label: "buyer type"},
  ],
};

/**
 * One row per game: game_id, family, alice_agent, bob_agent, efficiency,
 * fairness, fairness_unclipped, alice_self_gain, bob_self_gain, then any
 * `carry` columns of the games table as they are. `where` filters the games
 * (alias g); `conventions` picks the formulas (see the top of this file). The
 * query is a plain scan, so rows come in the table's order.
 */
export function gleeMetricsSQL(
  games = "games",
  {carry = [], where, conventions = "paper"}: {carry?: readonly string[]; where?: string; conventions?: GleeConventions} = {},
): string {
  const code = conventions === "glee-code";
  const carried = carry.map((c) => `"carry_${c}"`);
  const pass = carried.map((c) => `, ${c}`).join("");
  // Bargaining is scored by the deal formulas when `split` holds, on Alice's share p. GLEE's code (a) splits every game, a no-deal one at p = 0.
  const split = code ? "true" : "coalesce(agreement, false)";
  const share = code ? "CASE WHEN coalesce(agreement, false) THEN alice_share ELSE 0 END" : "alice_share";
  // A trade is efficient at a price both gain from; GLEE's code (b) asks only that V_A ≤ V_B.
  const efficientTrade = code ? "value_a <= value_b" : "value_a <= price AND price <= value_b";
  // Bob loses 1 (in units of M) per low-quality purchase, s − k; GLEE's code (c) subtracts the low-quality rounds not bought, r.
  const bobLoss = code ? "r" : "(s - k)";
  return `
WITH g AS (
  SELECT game_id, family, alice_agent, bob_agent,
         coalesce(agreement, false) AS deal, ${split} AS split, rounds::DOUBLE AS t, ${share} AS p,
         delta_a, delta_b, money, price, value_a, value_b, value_high,
         n_high::DOUBLE AS n, k_high_bought::DOUBLE AS k, r_low_rejected::DOUBLE AS r, sales::DOUBLE AS s${carry.map((c, i) => `, g.${c} AS ${carried[i]}`).join("")}
  FROM ${games} AS g${where ? `\n  WHERE ${where}` : ""}
),
m AS (
  SELECT game_id, family, alice_agent, bob_agent${pass},
    CASE family
      WHEN 'bargaining' THEN CASE WHEN split THEN power(delta_a, t - 1) * p + power(delta_b, t - 1) * (1 - p) ELSE 0 END
      WHEN 'negotiation' THEN CASE WHEN deal THEN (${efficientTrade})::INTEGER ELSE (value_a >= value_b)::INTEGER END
      WHEN 'persuasion' THEN CASE WHEN n > 0 THEN k / n END
    END::DOUBLE AS efficiency,
    CASE family
      WHEN 'bargaining' THEN CASE WHEN split THEN 1 - 4 * (p - 0.5) * (p - 0.5) ELSE 1 END
      WHEN 'negotiation' THEN CASE WHEN deal THEN 1 - 4 * power((price - (value_a + value_b) / 2) / money, 2) ELSE 1 END
      WHEN 'persuasion' THEN CASE WHEN t - n > 0 THEN r / (t - n) END
    END::DOUBLE AS fairness_unclipped,
    CASE family
      WHEN 'bargaining' THEN CASE WHEN split THEN p * power(delta_a, t - 1) ELSE 0 END
      WHEN 'negotiation' THEN CASE WHEN deal THEN (price - value_a) / money ELSE 0 END
      WHEN 'persuasion' THEN CASE WHEN t > 0 THEN s / t END
    END::DOUBLE AS alice_self_gain,
    CASE family
      WHEN 'bargaining' THEN CASE WHEN split THEN (1 - p) * power(delta_b, t - 1) ELSE 0 END
      WHEN 'negotiation' THEN CASE WHEN deal THEN (value_b - price) / money ELSE 0 END
      WHEN 'persuasion' THEN CASE WHEN t > 0 THEN (k * (value_high - 1) - ${bobLoss}) / t END
    END::DOUBLE AS bob_self_gain
  FROM g
)
SELECT game_id, family, alice_agent, bob_agent, efficiency,
       -- greatest/least skip NULLs in DuckDB, so keep an undefined fairness NULL explicitly
       CASE WHEN fairness_unclipped IS NOT NULL THEN greatest(0, least(1, fairness_unclipped)) END::DOUBLE AS fairness, fairness_unclipped,
       alice_self_gain, bob_self_gain${carry.map((c, i) => `, ${carried[i]} AS ${c}`).join("")}
FROM m`;
}

/**
 * Table 6 of GLEE (Shapira et al. 2024) per family: games, decisions, messages, words.
 * decisions = legal turns that make a structured choice: offers, accept /
 * reject, purchases and binary persuasion messages, but not free-text
 * persuasion messages (Table 6's persuasion row, ~30 decisions a game, counts
 * 20 purchases plus the binary messages); messages = turns carrying free
 * text; words = whitespace-separated words in those texts. Rule-break
 * attempts are counted separately in `rule_breaks`.
 */
export function gleeStatsSQL(games = "games", turns = "turns"): string {
  return `
WITH t AS (
  SELECT g.family,
         count(*) FILTER (WHERE NOT coalesce(t.rule_break, false)
                          AND NOT (t.action = 'message' AND coalesce(trim(t.message), '') <> '')) AS decisions,
         count(*) FILTER (WHERE t.message IS NOT NULL AND trim(t.message) <> '') AS messages,
         coalesce(sum(CASE WHEN t.message IS NULL OR trim(t.message) = '' THEN 0
                          ELSE len(string_split(trim(regexp_replace(t.message, '\\s+', ' ', 'g')), ' ')) END), 0) AS words,
         count(*) FILTER (WHERE coalesce(t.rule_break, false)) AS rule_breaks
  FROM ${turns} t JOIN ${games} g USING (game_id)
  GROUP BY g.family
),
n AS (SELECT family, count(*) AS games FROM ${games} GROUP BY family)
SELECT n.family, n.games::INTEGER AS games, coalesce(t.decisions, 0)::INTEGER AS decisions,
       coalesce(t.messages, 0)::INTEGER AS messages, coalesce(t.words, 0)::BIGINT AS words,
       coalesce(t.rule_breaks, 0)::INTEGER AS rule_breaks
FROM n LEFT JOIN t USING (family)
ORDER BY n.family`;
}
