/**
 * Economics Arena measures (Economics Arena (Guo et al. 2024) §3.2 and
 * Appendix A.3), as SQL over the common games, players and turns tables, run
 * by DuckDB-WASM on the /econarena page and by native DuckDB in
 * `parley econarena-stats`. One row of `decisions` is one seat in one run of
 * a session (the game settles each run's result onto the seat's last
 * decision row; loaders/papers/econarena/session.ts).
 *
 * Definitions (ρ = the settled `payoff`: beauty contest, the seat's share
 * of the prize; auctions, its asset after the run; ρ* = `eq_payoff`, the
 * same had everyone played the equilibrium: prize / N, or the asset when
 * every bidder bids the equilibrium bid):
 * - payoff ratio: ρ / ρ*, per run, averaged (the auction's engine "payoff"
 *   of A.2: asset / NE asset; the paper's example 110 / 100 = 1.1);
 * - rationality ratio (Eq. 1; the txt prints ρ_on for ρ_op): mean ρ over
 *   the runs / mean ρ*, i.e. ρ_op is the average optimal payoff of the same
 *   runs (equal to the payoff ratio when ρ* is constant, as in the beauty
 *   contest at fixed N; with history it is Eq. 4's strategic-reasoning ratio);
 * - deviation d (Eq. 3): auctions |ρ/ρ* − 1| (ρ = asset after the action);
 *   beauty contest: Eq. 3 divides by π(a*) = 0, so Parley uses the distance
 *   to the equilibrium 0 as a share of c̄, a / c̄ (0 at the NE, 1 at the
 *   top of the range). Runs a seat forfeited have no action and no d;
 * - win rate: share of runs won (ties all win the beauty contest);
 * - rule-break rate (Table 2): share of runs in which the seat gave at
 *   least one illegal or unreadable answer (every attempt is in turns with
 *   its raw answer and reason);
 * - strategy share (adaptivity, convergence): the choice relative to the
 *   configuration: a / c̄, or bid / private value (English auction: the
 *   highest price stayed in for / value). Truthful bidding is 1.
 */
import {projectView, type Query, type ViewColumn} from "./projectView.js";

export const BEAUTY = "econarena/beauty_contest";
export const AUCTION = "econarena/auction";

/** Columns the measures read; a table set without one gets NULL (a run of one game writes only its own). */
export const ECONARENA_COLUMNS: Record<"games" | "players" | "turns", readonly ViewColumn[]> = {
  games: [["game_id", "VARCHAR"], ["game", "VARCHAR"], ["repetition", "INTEGER"], ["n_players", "INTEGER"], ["environment", "VARCHAR"], ["runs", "INTEGER"],
    ["bound_group", "VARCHAR"], ["upper_bound", "DOUBLE"], ["pricing", "VARCHAR"], ["scale", "VARCHAR"], ["assets", "DOUBLE"]],
  players: [["game_id", "VARCHAR"], ["seat", "INTEGER"], ["agent", "VARCHAR"]],
  turns: [["game_id", "VARCHAR"], ["turn", "INTEGER"], ["seat", "INTEGER"], ["run", "INTEGER"], ["rule_break", "BOOLEAN"], ["strategy", "DOUBLE"], ["payoff", "DOUBLE"],
    ["eq_payoff", "DOUBLE"], ["won", "BOOLEAN"], ["forfeited", "BOOLEAN"], ["value", "DOUBLE"]],
};

export interface EconArenaViews {
  games: string;
  players: string;
  turns: string;
}

/** Views with every column the measures read over `sources` (games, players, turns), for the SQL below. */
export async function econarenaViews(query: Query, sources: EconArenaViews = {games: "games", players: "players", turns: "turns"}): Promise<EconArenaViews> {
  const views = {games: "ea_games", players: "ea_players", turns: "ea_turns"};
  for (const t of ["games", "players", "turns"] as const) await projectView(query, sources[t], views[t], ECONARENA_COLUMNS[t]);
  return views;
}

/** The environment label of a games row: melee, senior, rational, cot, with " + history" for sessions of several runs. */
const ENVIRONMENT = `g.environment || CASE WHEN g.runs > 1 THEN ' + history' ELSE '' END`;

/**
 * Each session's lineup: its agents in alphabetical order, one entry per
 * agent with "×k" when it holds k seats (e.g. "rational ×2, random, shade-25 ×2").
 */
export function lineupSQL(v: EconArenaViews): string {
  return `
SELECT game_id, string_agg(agent || CASE WHEN seats > 1 THEN ' ×' || seats ELSE '' END, ', ' ORDER BY agent) AS lineup
FROM (SELECT game_id, agent, count(*) AS seats FROM ${v.players} GROUP BY game_id, agent) GROUP BY game_id`;
}

/** One row per seat and run: who, where, what it chose and what it got, and the measures' per-run terms. */
export function decisionsSQL(v: EconArenaViews): string {
  return `
WITH settled AS (
  SELECT game_id, seat, run, any_value(strategy) FILTER (WHERE payoff IS NOT NULL) AS strategy, any_value(payoff) FILTER (WHERE payoff IS NOT NULL) AS payoff,
         any_value(eq_payoff) FILTER (WHERE payoff IS NOT NULL) AS eq_payoff, any_value(won) FILTER (WHERE payoff IS NOT NULL) AS won,
         any_value(forfeited) FILTER (WHERE payoff IS NOT NULL) AS forfeited, any_value(value) AS value, bool_or(coalesce(rule_break, false)) AS rule_break
  FROM ${v.turns} GROUP BY game_id, seat, run
)
SELECT g.game, CASE WHEN g.game = '${AUCTION}' THEN g.pricing END AS format, ${ENVIRONMENT} AS environment, g.environment AS base_environment, g.runs > 1 AS history,
       CASE WHEN g.game = '${AUCTION}' THEN g.scale END AS scale, l.lineup,
       p.agent, s.game_id, g.repetition, s.run, s.seat, g.n_players,
       CASE WHEN g.game = '${BEAUTY}' THEN g.bound_group ELSE g.scale END AS configuration, g.upper_bound, g.assets, s.value,
       s.strategy, s.payoff, s.eq_payoff, s.payoff / s.eq_payoff AS payoff_ratio,
       CASE WHEN s.forfeited THEN NULL WHEN g.game = '${BEAUTY}' THEN abs(s.strategy) / g.upper_bound ELSE abs(s.payoff / s.eq_payoff - 1) END AS deviation,
       CASE WHEN g.game = '${BEAUTY}' THEN s.strategy / g.upper_bound ELSE s.strategy / nullif(s.value, 0) END AS strategy_share,
       s.won, s.forfeited, s.rule_break
FROM settled s JOIN ${v.games} g USING (game_id) JOIN ${v.players} p ON p.game_id = s.game_id AND p.seat = s.seat
JOIN (${lineupSQL(v)}) l ON l.game_id = s.game_id
WHERE g.game LIKE 'econarena/%' AND s.payoff IS NOT NULL`;
}

export interface StatsRow {
  game: string;
  format: string | null;
  environment: string;
  /** Auctions: the value and asset scale (L, M, H); null in the beauty contest, whose measures are shares of c̄ and of the prize. */
  scale: string | null;
  lineup: string;
  agent: string;
  n: number;
  mean_payoff: number;
  payoff_ratio: number;
  rationality_ratio: number;
  mean_deviation: number | null;
  win_rate: number;
  rule_break_rate: number;
}

/**
 * `parley econarena-stats`: the measures per game (and auction format),
 * environment, scale, lineup and agent. Auctions are kept apart by scale:
 * the mean payoff is an asset (100, 1,000 or 10,000 units at the three
 * scales), so a mean over scales describes no auction; the ratios, deviation
 * and rates are scale-free but follow the same rows. Sessions with different
 * lineups are kept apart (the paper's environments are lineups: melee, and one
 * model among rational agents), since a payoff depends on who else bids.
 */
export function statsSQL(v: EconArenaViews): string {
  return `
SELECT game, format, environment, scale, lineup, agent, count(*)::INTEGER AS n, avg(payoff) AS mean_payoff, avg(payoff_ratio) AS payoff_ratio,
       avg(payoff) / avg(eq_payoff) AS rationality_ratio, avg(deviation) AS mean_deviation,
       avg(won::INTEGER) AS win_rate, avg(rule_break::INTEGER) AS rule_break_rate
FROM (${decisionsSQL(v)})
GROUP BY ALL ORDER BY game, format NULLS FIRST, environment, scale NULLS FIRST, lineup, agent`;
}

/** Table 1's session counts (senior environment, §4.2). */
export const TABLE1_SESSIONS = [20, 60, 100] as const;

/**
 * Table 1's layout: average payoff per agent over the first 20, 60 and 100
 * sessions (repetitions) of the senior environment; the beauty contest
 * averages the prize share, the auctions the payoff ratio (the paper's
 * auction "payoff", asset / NE asset).
 */
export function table1SQL(v: EconArenaViews, environment = "senior"): string {
  const cols = TABLE1_SESSIONS.map((k) => `avg(CASE WHEN game = '${BEAUTY}' THEN payoff ELSE payoff_ratio END) FILTER (WHERE repetition < ${k}) AS sessions_${k}`).join(", ");
  return `
SELECT game, format, agent, ${cols}, count(DISTINCT game_id)::INTEGER AS sessions
FROM (${decisionsSQL(v)}) WHERE environment = '${environment}'
GROUP BY ALL ORDER BY game, format NULLS FIRST, agent`;
}

/** Table 2's layout: rule-breaking rate (%) per agent, without and with history. */
export function table2SQL(v: EconArenaViews): string {
  return `
SELECT game, format, agent, 100 * avg(rule_break::INTEGER) FILTER (WHERE NOT history) AS no_history, 100 * avg(rule_break::INTEGER) FILTER (WHERE history) AS with_history,
       count(*) FILTER (WHERE NOT history)::INTEGER AS runs_no_history, count(*) FILTER (WHERE history)::INTEGER AS runs_with_history
FROM (${decisionsSQL(v)}) GROUP BY ALL ORDER BY game, format NULLS FIRST, agent`;
}

/** Convergence (Fig. 5): per run of history sessions, the mean strategy share and deviation of each agent. */
export function convergenceSQL(v: EconArenaViews): string {
  return `
SELECT game, format, environment, agent, run, count(*)::INTEGER AS n, avg(strategy_share) AS strategy_share, avg(deviation) AS deviation, avg(payoff_ratio) AS payoff_ratio
FROM (${decisionsSQL(v)}) WHERE history GROUP BY ALL ORDER BY game, format NULLS FIRST, environment, agent, run`;
}

/** Adaptivity (§3.2, Fig. 3): strategy against configuration (c̄ group; value and asset scale). */
export function adaptivitySQL(v: EconArenaViews): string {
  return `
SELECT game, format, agent, configuration, count(*)::INTEGER AS n, avg(strategy) AS mean_strategy, avg(strategy_share) AS strategy_share, avg(payoff_ratio) AS payoff_ratio
FROM (${decisionsSQL(v)}) GROUP BY ALL ORDER BY game, format NULLS FIRST, agent, configuration`;
}
