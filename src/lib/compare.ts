/**
 * Paired comparison of two runs, or of two agents, on matched games: per
 * game family and metric the mean paired difference with its t interval, a
 * paired t test and a sign-flip permutation test, and Holm's correction
 * across every family and metric shown. Pure: no DOM, no Node API.
 *
 * Matching.
 * - Two runs: a game of run A matches the game of run B with the same
 *   family, configuration, repetition and agents seat by seat, after the
 *   compared factor is renamed: when the runs differ in exactly one agent
 *   (run A's `x` where run B has `y`, the usual "swap one model" study),
 *   `x` in run A stands for `y`; when they have the same agents, nothing is
 *   renamed (a change of prompt or setting); otherwise the caller names the
 *   renaming. The metrics are each seat's return and the seats' total,
 *   and, when the seats carry their turns' counts (`withRuleBreaks`), each
 *   seat's rule-break rate (rule-break attempts / attempts in the game),
 *   for the seats that broke a rule in either run: the effect of a harness
 *   factor (legal moves listed, structured output, retries, votes) on rule
 *   breaks as well as on payoff.
 * - Two agents: a game where agent A holds seat s matches the game where B
 *   holds seat s with the same family, configuration, repetition and the
 *   same agents in every other seat; the metric is that seat's return.
 *
 * Design. Matching on the repetition is a matched design only when the
 * paired games drew the same chance (src/lib/sharedChance.ts: runs with the
 * common scheme, loaders/runner/chance.ts): then each pair differs only in
 * the compared factor, and the paired t interval over pairs is the matched
 * design's, narrower by as much as the pair's shared draws explain. When
 * they did not (runs seeded per game, ingests, or unknown), the repetition
 * number is an arbitrary label: pairing repetition r of A with repetition r
 * of B would let that labelling pick the pairs (and the Monte Carlo signs),
 * and would present independent draws as matched. So the unit becomes the
 * cell (family, configuration, the seat's or seats' agents, everything but
 * the repetition): each side's returns are averaged over its repetitions in
 * the cell, and the statistics are taken over the cells' differences. Cells
 * are independent and each difference is unbiased for that cell's effect,
 * so the t interval and the sign-flip test over cells are valid without any
 * assumption about chance; with one repetition per cell it is the pair
 * design itself. Its price is fewer units (cells, not games): one cell gives
 * a difference but no interval.
 */
import {createRng} from "./rng.js";
import {meanInterval, studentTCdf} from "./studentT.js";
import type {SeatRow} from "./ratingsData.js";

export interface PairedStats {
  n: number;
  mean_diff: number;
  sd: number;
  ci_lo: number | null;
  ci_hi: number | null;
  t: number | null;
  p_t: number | null;
  p_perm: number | null;
  /** Exact (every sign pattern) or Monte Carlo permutations. */
  perm_method: "exact" | "monte-carlo" | null;
}

export interface ComparisonRow extends PairedStats {
  family: string;
  metric: string;
  p_t_holm: number | null;
  p_perm_holm: number | null;
}

/** "matched": games paired by configuration and repetition (shared chance); "configurations": repetitions averaged within each cell (module comment). */
export type PairDesign = "matched" | "configurations";

export interface Comparison {
  design: PairDesign;
  rows: ComparisonRow[];
  /** Games of each side with no partner, and up to 20 of their ids. */
  unmatched: {a: number; b: number; a_games: string[]; b_games: string[]};
}

/** Up to this many pairs the permutation test enumerates every sign pattern. */
const EXACT_UP_TO = 16;

/** Paired statistics of differences (B − A or A − B, as the caller forms them). */
export function pairedTest(diffs: readonly number[], {permutations = 10_000, seed = 1, level = 0.95} = {}): PairedStats {
  const n = diffs.length;
  const mean = n ? diffs.reduce((t, d) => t + d, 0) / n : NaN;
  const sd = n > 1 ? Math.sqrt(diffs.reduce((t, d) => t + (d - mean) ** 2, 0) / (n - 1)) : NaN;
  const se = sd / Math.sqrt(n);
  let t: number | null = null;
  let pT: number | null = null;
  let lo: number | null = null;
  let hi: number | null = null;
  if (n > 1) {
    if (se > 0) {
      t = mean / se;
      pT = 2 * (1 - studentTCdf(Math.abs(t), n - 1));
    } else pT = mean === 0 ? 1 : 0;
    ({lo, hi} = meanInterval({n, mean, sd}, level));
  }
  const perm = n ? signFlip(diffs, permutations, seed) : null;
  return {n, mean_diff: mean, sd, ci_lo: lo, ci_hi: hi, t, p_t: pT, p_perm: perm?.p ?? null, perm_method: perm?.method ?? null};
}

/**
 * Two-sided sign-flip permutation test of a zero mean: the share of sign
 * patterns whose |mean| is at least the observed one; every pattern up to
 * EXACT_UP_TO pairs, else `draws` random ones with p = (hits + 1) / (draws + 1).
 */
export function signFlip(diffs: readonly number[], draws = 10_000, seed = 1): {p: number; method: "exact" | "monte-carlo"} {
  const n = diffs.length;
  const observed = Math.abs(diffs.reduce((t, d) => t + d, 0));
  const slack = 1e-9 * (observed + 1);
  if (n <= EXACT_UP_TO) {
    let hits = 0;
    const total = 2 ** n;
    for (let mask = 0; mask < total; mask++) {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += mask & (1 << i) ? -diffs[i] : diffs[i];
      if (Math.abs(sum) >= observed - slack) hits++;
    }
    return {p: hits / total, method: "exact"};
  }
  const rng = createRng(seed);
  let hits = 0;
  for (let b = 0; b < draws; b++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += rng.next() < 0.5 ? -diffs[i] : diffs[i];
    if (Math.abs(sum) >= observed - slack) hits++;
  }
  return {p: (hits + 1) / (draws + 1), method: "monte-carlo"};
}

/** Holm's step-down adjustment; nulls stay null and do not count. */
export function holm(ps: readonly (number | null)[]): (number | null)[] {
  const order = ps.map((p, i) => ({p, i})).filter((x): x is {p: number; i: number} => x.p !== null).sort((x, y) => x.p - y.p);
  const m = order.length;
  const out: (number | null)[] = ps.map(() => null);
  let running = 0;
  order.forEach(({p, i}, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    out[i] = running;
  });
  return out;
}

type Games = Map<string, SeatRow[]>;

function byGame(rows: readonly SeatRow[]): Games {
  const games: Games = new Map();
  for (const r of rows) {
    const seats = games.get(r.game_id);
    if (seats) seats.push(r);
    else games.set(r.game_id, [r]);
  }
  for (const seats of games.values()) seats.sort((x, y) => x.seat - y.seat);
  // In game id order, so that duplicates resolve the same way whatever the row order.
  return new Map([...games].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
}

/**
 * Differences per (family, metric), in a stable order, then the statistics
 * and Holm's correction. Each group's differences are sorted first, so that
 * the answer does not depend on the order the rows came in (native DuckDB,
 * DuckDB-WASM and a run read from its partitions or from the site's flat
 * copy order them differently): the Monte Carlo sign flips and the float
 * sums then see the same sequence.
 */
function finish(design: PairDesign, diffs: Map<string, {family: string; metric: string; values: number[]}>, onlyA: string[], onlyB: string[], options: {permutations?: number; seed?: number}): Comparison {
  const groups = [...diffs.values()].sort((x, y) => (x.family < y.family ? -1 : x.family > y.family ? 1 : x.metric < y.metric ? -1 : x.metric > y.metric ? 1 : 0));
  const stats = groups.map((g) => ({family: g.family, metric: g.metric, ...pairedTest([...g.values].sort((x, y) => x - y), options)}));
  const pT = holm(stats.map((s) => s.p_t));
  const pPerm = holm(stats.map((s) => s.p_perm));
  const first = (ids: string[]) => [...ids].sort().slice(0, 20);
  return {design, rows: stats.map((s, i) => ({...s, p_t_holm: pT[i], p_perm_holm: pPerm[i]})), unmatched: {a: onlyA.length, b: onlyB.length, a_games: first(onlyA), b_games: first(onlyB)}};
}

function push(diffs: Map<string, {family: string; metric: string; values: number[]}>, family: string, metric: string, value: number): void {
  const key = `${family}\u0000${metric}`;
  const d = diffs.get(key);
  if (d) d.values.push(value);
  else diffs.set(key, {family, metric, values: [value]});
}

const seatLabel = (s: SeatRow) => `return, seat ${s.seat}`;

/** A seat row with its turns' counts (rule-break attempts and all attempts), as `withRuleBreaks` attaches them. */
export type SeatRowWithBreaks = SeatRow & {attempts?: number | null; rule_breaks?: number | null};

/** Per game and seat: attempts (turns rows of the seat's decisions and sub-calls) and those that broke a rule, from a turns table. */
export function seatRuleBreaksSQL(turns = "turns"): string {
  return `SELECT game_id, CAST(seat AS INTEGER) AS seat, CAST(count(*) AS INTEGER) AS attempts, CAST(count(*) FILTER (WHERE CAST(rule_break AS BOOLEAN)) AS INTEGER) AS rule_breaks
  FROM ${turns} WHERE attempt IS NOT NULL GROUP BY game_id, seat`;
}

/** `rows` with each seat's counts from `counts` (rows of seatRuleBreaksSQL; game ids as `rows` have them). */
export function withRuleBreaks(rows: readonly SeatRow[], counts: readonly {game_id: string; seat: number; attempts: number; rule_breaks: number}[]): SeatRowWithBreaks[] {
  const bySeat = new Map(counts.map((c) => [`${c.game_id}\u0000${Number(c.seat)}`, c]));
  return rows.map((r) => {
    const c = bySeat.get(`${r.game_id}\u0000${Number(r.seat)}`);
    return {...r, attempts: c ? Number(c.attempts) : null, rule_breaks: c ? Number(c.rule_breaks) : null};
  });
}

const rateLabel = (s: SeatRow) => `rule-break rate, seat ${s.seat}`;
const rate = (s: SeatRowWithBreaks): number | null => (s.attempts ? (s.rule_breaks ?? 0) / s.attempts : null);

/**
 * The renaming of run A's agents that lines its games up with run B's (see
 * the module comment): `rename` as given, else the automatic one, else an
 * error naming the agents only one run has.
 */
export function runRenaming(a: readonly SeatRow[], b: readonly SeatRow[], rename?: ReadonlyMap<string, string>): Map<string, string> {
  if (rename?.size) return new Map(rename);
  const agentsA = new Set(a.map((r) => r.agent));
  const agentsB = new Set(b.map((r) => r.agent));
  const onlyA = [...agentsA].filter((x) => !agentsB.has(x)).sort();
  const onlyB = [...agentsB].filter((x) => !agentsA.has(x)).sort();
  if (!onlyA.length && !onlyB.length) return new Map();
  if (onlyA.length === 1 && onlyB.length === 1) return new Map([[onlyA[0], onlyB[0]]]);
  throw new Error(`the runs differ in more than one agent (only in A: ${onlyA.join(", ") || "none"}; only in B: ${onlyB.join(", ") || "none"}); name the pairs to compare with --rename A=B`);
}

/** Options of a comparison: `sharedChance` says whether paired games drew the same chance (default false: the cell design, module comment). */
export interface CompareOptions {
  permutations?: number;
  seed?: number;
  sharedChance?: boolean;
}

const designOf = (options: CompareOptions): PairDesign => (options.sharedChance ? "matched" : "configurations");

const mean = (values: readonly number[]): number => values.reduce((t, v) => t + v, 0) / values.length;

/** Each seat's mean return over `games` (games of one unit: the same seats), and its mean rule-break rate over the games that have one (null: none has). */
function seatMeans(games: readonly SeatRowWithBreaks[][]): {seat: SeatRow; score: number; rate: number | null}[] {
  return games[0].map((seat, i) => {
    const rates = games.map((g) => rate(g[i])).filter((r): r is number => r !== null);
    return {seat, score: mean(games.map((g) => g[i].score)), rate: rates.length ? mean(rates) : null};
  });
}

/** Games grouped by `key` (in game id order). */
function groupGames(games: Games, key: (seats: SeatRow[]) => string): Map<string, SeatRowWithBreaks[][]> {
  const units = new Map<string, SeatRowWithBreaks[][]>();
  for (const seats of games.values()) {
    const k = key(seats);
    const unit = units.get(k);
    if (unit) unit.push(seats);
    else units.set(k, [seats]);
  }
  return units;
}

/** Run B minus run A on matched games, or on matched cells when they did not share chance (module comment); `rename` maps run A's agents to run B's. */
export function compareRuns(a: readonly SeatRowWithBreaks[], b: readonly SeatRowWithBreaks[], options: CompareOptions & {rename?: ReadonlyMap<string, string>} = {}): Comparison {
  const rename = runRenaming(a, b, options.rename);
  const design = designOf(options);
  const key = (seats: SeatRow[], names: (agent: string) => string) =>
    [seats[0].family, seats[0].config ?? seats[0].game_id, design === "matched" ? (seats[0].repetition ?? "") : "", ...seats.map((s) => names(s.agent))].join("\u0000");
  const ua = groupGames(byGame(a), (seats) => key(seats, (x) => rename.get(x) ?? x));
  const ub = groupGames(byGame(b), (seats) => key(seats, (x) => x));
  const diffs = new Map<string, {family: string; metric: string; values: number[]}>();
  const rates = new Map<string, {family: string; metric: string; values: number[]}>();
  const broke = new Set<string>();
  const onlyA: string[] = [];
  const partnered = (gamesA: SeatRow[][] | undefined, gamesB: SeatRow[][] | undefined) => !!gamesA && !!gamesB && gamesB[0].length === gamesA[0].length;
  for (const [k, gamesA] of ua) {
    const gamesB = ub.get(k);
    if (!partnered(gamesA, gamesB)) {
      onlyA.push(...gamesA.map((g) => g[0].game_id));
      continue;
    }
    const family = gamesA[0][0].family;
    const [ma, mb] = [seatMeans(gamesA), seatMeans(gamesB!)];
    ma.forEach((s, i) => push(diffs, family, seatLabel(s.seat), mb[i].score - s.score));
    if (ma.length > 1) push(diffs, family, "total return", mb.reduce((t, s) => t + s.score, 0) - ma.reduce((t, s) => t + s.score, 0));
    ma.forEach((s, i) => {
      const [ra, rb] = [s.rate, mb[i].rate];
      if (ra === null || rb === null) return;
      push(rates, family, rateLabel(s.seat), rb - ra);
      if (ra > 0 || rb > 0) broke.add(`${family}\u0000${rateLabel(s.seat)}`);
    });
  }
  // Rule-break rates only of seats that broke a rule in some game of either run (a built-in agent's zeros say nothing).
  for (const [key, group] of rates) if (broke.has(key)) diffs.set(key, group);
  const onlyB = [...ub].filter(([k, games]) => !partnered(ua.get(k), games)).flatMap(([, games]) => games.map((g) => g[0].game_id));
  return finish(design, diffs, onlyA, onlyB, options);
}

/**
 * Agent B minus agent A in the same seat, with everything else about the
 * game the same: matched on the repetition when the games shared chance,
 * else on the cell with each side's repetitions averaged (module comment).
 */
export function compareAgents(rows: readonly SeatRow[], agentA: string, agentB: string, options: CompareOptions = {}): Comparison {
  const design = designOf(options);
  const slots = {a: new Map<string, SeatRow[]>(), b: new Map<string, SeatRow[]>()};
  for (const seats of byGame(rows).values()) {
    seats.forEach((s, i) => {
      const side = s.agent === agentA ? "a" : s.agent === agentB ? "b" : null;
      if (!side) return;
      const others = seats.map((o, j) => (j === i ? "·" : o.agent)).join("\u0001");
      const key = [s.family, s.config ?? "", design === "matched" ? (s.repetition ?? "") : "", s.seat, others].join("\u0000");
      const had = slots[side].get(key);
      if (!had) slots[side].set(key, [s]);
      // Matched: one game per slot; a duplicate slot (the same configuration played twice with one repetition number) keeps the game with the first id, whatever the row order.
      else if (design === "configurations") had.push(s);
      else if (s.game_id < had[0].game_id) had[0] = s;
    });
  }
  const diffs = new Map<string, {family: string; metric: string; values: number[]}>();
  const onlyA: string[] = [];
  for (const [key, sa] of slots.a) {
    const sb = slots.b.get(key);
    if (!sb) onlyA.push(...sa.map((s) => s.game_id));
    else push(diffs, sa[0].family, seatLabel(sa[0]), mean(sb.map((s) => s.score)) - mean(sa.map((s) => s.score)));
  }
  const onlyB = [...slots.b].filter(([key]) => !slots.a.has(key)).flatMap(([, s]) => s.map((x) => x.game_id));
  return finish(design, diffs, onlyA, onlyB, options);
}
