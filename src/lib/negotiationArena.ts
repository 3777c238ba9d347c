/**
 * NegotiationArena's analyses (NegotiationArena (Bianchi et al. 2024), "How
 * Well Can LLMs Negotiate? NegotiationArena Platform and Analysis"), shared
 * by the pages (DuckDB-WASM), `parley negotiationarena-stats` (native
 * DuckDB) and the tests. The SQL reads the common tables that both Parley's
 * runs and the ingested logs write (loaders/papers/negotiationarena/columns.ts):
 * `games` with `game`, `p1_agent`, `p2_agent`, `p1_payoff`, `p2_payoff`,
 * `winner`, and `turns` with `seat`, `action`, `price`, `rule_break`.
 *
 * - Win rate (§3, L96): wins ÷ decisive games; a tie (no trade, an equal
 *   exchange, an equal split) is left out. Mean payoff is over every game,
 *   ties and no-deals included. One row per ordered pair (P1 = RED moves
 *   first), as Figure 3's P2-row × P1-column grids.
 * - Buyer payoff (Fig. 4): willingness to pay − price.
 * - Anchoring (§5.1, Fig. 8a): Spearman ρ between the seller's first proposal
 *   p₁ and the final price, with a 95% interval.
 * - Split the difference (§5.1, Fig. 17): Pearson r between p_{t+1} and
 *   (p_t + p_{t−1})/2 over every game's price sequence.
 * - Bad counter-offer (§5.1, Fig. 8b): the share of games in which the
 *   buyer's first counter p₂ exceeds the seller's first proposal p₁, with a
 *   one-sided binomial test against a reference rate.
 * - Acceptance curve (§5.2, Fig. 9): P̂(Accept | amount = i) from games in
 *   which the game itself made the penultimate proposal (`injected_offer`).
 */
import {incompleteBeta, normalQuantile} from "./studentT.js";

export type NaScenario = "resource_exchange" | "ultimatum" | "buy_sell";
export const NA_SCENARIOS: readonly NaScenario[] = ["resource_exchange", "ultimatum", "buy_sell"];
export const NA_PREFIX = "negotiationarena/";

export interface PairStatsRow {
  scenario: string;
  p1_agent: string;
  p2_agent: string;
  n: number;
  decisive: number;
  p1_win_rate: number | null;
  p2_win_rate: number | null;
  p1_mean_payoff: number;
  p2_mean_payoff: number;
}

/**
 * Win rate with ties excluded and mean payoff per scenario and ordered pair
 * (`parley negotiationarena-stats`; Figure 3). Win rates are null when every
 * game of the pair was a tie.
 */
export function pairStatsSQL(games = "games", where = "TRUE"): string {
  return `SELECT replace(game, '${NA_PREFIX}', '') AS scenario, p1_agent, p2_agent,
  count(*)::INTEGER AS n,
  count(*) FILTER (WHERE winner <> 'tie')::INTEGER AS decisive,
  (count(*) FILTER (WHERE winner = 'p1') / nullif(count(*) FILTER (WHERE winner <> 'tie'), 0))::DOUBLE AS p1_win_rate,
  (count(*) FILTER (WHERE winner = 'p2') / nullif(count(*) FILTER (WHERE winner <> 'tie'), 0))::DOUBLE AS p2_win_rate,
  avg(p1_payoff)::DOUBLE AS p1_mean_payoff,
  avg(p2_payoff)::DOUBLE AS p2_mean_payoff
FROM ${games}
WHERE game LIKE '${NA_PREFIX}%' AND (${where})
GROUP BY ALL
ORDER BY scenario, p1_agent, p2_agent`;
}

/**
 * Buy/sell price sequences: one row per game with its proposals' prices in
 * order (`prices`), who proposed each (`seats`), the seller's first proposal
 * p₁, the buyer's first counter p₂ and the final price (null without a deal).
 */
export function priceSequencesSQL(games = "games", turns = "turns"): string {
  return `SELECT g.game_id, g.p1_agent, g.p2_agent, g.seller_cost, g.buyer_value, g.price AS final_price,
  list(t.price ORDER BY t.turn) AS prices,
  list(t.seat ORDER BY t.turn) AS seats,
  (list(t.price ORDER BY t.turn) FILTER (WHERE t.seat = 0))[1] AS p1,
  (list(t.price ORDER BY t.turn) FILTER (WHERE t.seat = 1))[1] AS p2
FROM ${games} g JOIN ${turns} t USING (game_id)
WHERE g.game = '${NA_PREFIX}buy_sell' AND t.action = 'PROPOSAL' AND t.price IS NOT NULL AND NOT coalesce(t.rule_break, false)
GROUP BY ALL
ORDER BY g.game_id`;
}

/** Buyer payoff per ordered pair over the games that ended in a deal (Figure 4: willingness to pay − price). */
export function buyerPayoffSQL(games = "games"): string {
  return `SELECT p1_agent, p2_agent, count(*)::INTEGER AS deals, avg(price)::DOUBLE AS mean_price,
  avg(buyer_value - price)::DOUBLE AS buyer_payoff
FROM ${games}
WHERE game = '${NA_PREFIX}buy_sell' AND agreement AND price IS NOT NULL
GROUP BY ALL
ORDER BY p1_agent, p2_agent`;
}

/** Ultimatum: RED's final share of the stake by stake (Figure 10), over played (not injected) games that ended in a deal. */
export function stakeShareSQL(games = "games"): string {
  return `SELECT stake, iterations, count(*)::INTEGER AS deals, avg(p1_share)::DOUBLE AS mean_p1_share
FROM ${games}
WHERE game = '${NA_PREFIX}ultimatum' AND injected_offer IS NULL AND agreement
GROUP BY ALL
ORDER BY iterations, stake`;
}

/**
 * The games table with each agent labelled by its social behaviour when it
 * had one (the ingested logs prime the buyer: "You hate the other player…"),
 * so a pair grid tells primed and plain players apart.
 */
export function labelledGamesSQL(games = "games"): string {
  const label = (p: string) => `${p}_agent || coalesce(' · "' || left(${p}_behaviour, 18) || '…"', '')`;
  return `SELECT * REPLACE (${label("p1")} AS p1_agent, ${label("p2")} AS p2_agent) FROM ${games}`;
}

/** Ultimatum acceptance by injected amount (§5.2): games decided by the decider's ACCEPT or REJECT. */
export function acceptanceCurveSQL(games = "games"): string {
  return `SELECT iterations, p1_agent, p2_agent, stake, injected_offer AS amount,
  count(*)::INTEGER AS n,
  (count(*) FILTER (WHERE final_response = 'ACCEPT') / count(*))::DOUBLE AS p_accept
FROM ${games}
WHERE game = '${NA_PREFIX}ultimatum' AND injected_offer IS NOT NULL AND final_response IN ('ACCEPT', 'REJECT')
GROUP BY ALL
ORDER BY iterations, p1_agent, p2_agent, amount`;
}

// ---------------------------------------------------------------- statistics

/** Ranks from 1, ties given their average rank (as scipy.stats.rankdata's default). */
export function averageRanks(xs: readonly number[]): number[] {
  const order = xs.map((x, i) => [x, i] as const).sort((a, b) => a[0] - b[0]);
  const ranks = new Array<number>(xs.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1][0] === order[i][0]) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[order[k][1]] = rank;
    i = j + 1;
  }
  return ranks;
}

/** Pearson's r; null when fewer than 2 pairs or a side is constant. */
export function pearson(xs: readonly number[], ys: readonly number[]): number | null {
  const n = xs.length;
  if (n !== ys.length) throw new Error(`pearson: ${n} x values but ${ys.length} y values`);
  if (n < 2) return null;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
    syy += (ys[i] - my) ** 2;
  }
  return sxx === 0 || syy === 0 ? null : sxy / Math.sqrt(sxx * syy);
}

export interface Correlation {
  n: number;
  r: number | null;
  /** Two-sided interval at `level` (null when n < 4 or r is undefined). */
  low: number | null;
  high: number | null;
  level: number;
}

/**
 * Spearman's ρ: Pearson's r of the average ranks (scipy.stats.spearmanr),
 * with an interval from Fisher's z = atanh ρ and standard error
 * √(1.06 / (n − 3)) (Fieller, Hartley and Pearson 1957, the usual choice
 * for rank correlations).
 */
export function spearman(xs: readonly number[], ys: readonly number[], level = 0.95): Correlation {
  const r = pearson(averageRanks(xs), averageRanks(ys));
  return withInterval(xs.length, r, level, Math.sqrt(1.06 / (xs.length - 3)));
}

/** Pearson's r with Fisher's z interval, standard error 1/√(n − 3). */
export function pearsonWithInterval(xs: readonly number[], ys: readonly number[], level = 0.95): Correlation {
  return withInterval(xs.length, pearson(xs, ys), level, 1 / Math.sqrt(xs.length - 3));
}

function withInterval(n: number, r: number | null, level: number, se: number): Correlation {
  if (r === null || n < 4) return {n, r, low: null, high: null, level};
  const z = Math.atanh(Math.max(-1 + 1e-15, Math.min(1 - 1e-15, r)));
  const q = normalQuantile(1 - (1 - level) / 2);
  return {n, r, low: Math.tanh(z - q * se), high: Math.tanh(z + q * se), level};
}

/** Anchoring (Fig. 8a): Spearman ρ between p₁ and the final price over the games that ended in a deal. */
export function anchoring(games: readonly {p1: number | null; final_price: number | null}[], level = 0.95): Correlation & {points: {p1: number; final_price: number}[]} {
  const points = games.filter((g) => g.p1 !== null && g.final_price !== null).map((g) => ({p1: g.p1!, final_price: g.final_price!}));
  return {...spearman(points.map((p) => p.p1), points.map((p) => p.final_price), level), points};
}

/**
 * Split the difference (Fig. 17): for every price sequence p₁, p₂, … the
 * pairs (midpoint (p_t + p_{t−1})/2, next p_{t+1}), pooled, and Pearson's r.
 */
export function splitTheDifference(sequences: readonly (readonly number[])[], level = 0.95): Correlation & {points: {midpoint: number; next: number}[]} {
  const points: {midpoint: number; next: number}[] = [];
  for (const p of sequences) for (let t = 1; t + 1 < p.length; t++) points.push({midpoint: (p[t] + p[t - 1]) / 2, next: p[t + 1]});
  return {...pearsonWithInterval(points.map((q) => q.midpoint), points.map((q) => q.next), level), points};
}

/** P(X ≥ k) for X ~ Binomial(n, p): the regularized incomplete beta I_p(k, n − k + 1). */
export function binomialUpperTail(k: number, n: number, p: number): number {
  if (k <= 0) return 1;
  if (k > n) return 0;
  if (p <= 0) return 0;
  if (p >= 1) return 1;
  return incompleteBeta(p, k, n - k + 1);
}

export interface BadCounterOffers {
  n: number;
  bad: number;
  rate: number | null;
  /** The rate tested against (H₀: rate ≤ reference). */
  reference: number;
  /** One-sided binomial p-value P(X ≥ bad | n, reference). */
  p_value: number | null;
}

/**
 * Bad counter-offers (§5.1, Fig. 8b): among games where the buyer countered,
 * the share with p₂ > p₁, tested one-sided against `reference` (the paper
 * compares the over-valued buyer's 0.41 with the default buyer's 0.11).
 */
export function badCounterOffers(games: readonly {p1: number | null; p2: number | null}[], reference: number): BadCounterOffers {
  const countered = games.filter((g) => g.p1 !== null && g.p2 !== null);
  const bad = countered.filter((g) => g.p2! > g.p1!).length;
  const n = countered.length;
  return {n, bad, rate: n ? bad / n : null, reference, p_value: n ? binomialUpperTail(bad, n, reference) : null};
}

/** Buyer payoff as Figure 4 plots it: willingness to pay − price. */
export const buyerPayoff = (buyerValue: number, price: number): number => buyerValue - price;
