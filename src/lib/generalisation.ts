/**
 * A generalisation report: how a run's FOCAL agents do with co-players and
 * on configurations they were developed against, and with those held out.
 * The protocol follows Melting Pot (Leibo et al. 2021, "Scalable Evaluation
 * of Multi-Agent Reinforcement Learning with Melting Pot", ICML): a focal
 * population is scored by its per-capita return in scenarios that fill the
 * other seats with a background population; and the Concordia contest
 * (Smith et al. 2025, "Evaluating Generalization Capabilities of LLM-Based
 * Agents in Mixed-Motive Scenarios Using Concordia", NeurIPS Datasets and
 * Benchmarks), which scores agents in self-play and cross-play, with
 * familiar and unfamiliar co-players, in held-out scenarios.
 *
 * A run config declares the protocol (its `generalisation` key,
 * loaders/runner/generalisationConfig.ts); the run's manifest records it
 * resolved (`GeneralisationProtocol`: the held-out parameter values as
 * configuration ids). `focalSeatsSQL` turns any seat rows (ratingsData.ts,
 * the same SQL in native DuckDB and DuckDB-WASM) into one row per focal
 * seat; `generalisationReport` compares its groups with intervals from a
 * design-respecting bootstrap (`twoStageDraw`). Pure: no DOM, no Node API.
 */
import {sqlString} from "./sqlText.js";
import {createRng, type Rng} from "./rng.js";
import {studentTQuantile} from "./studentT.js";
import {normalCdf} from "./auctionEquilibria.js";

export type ProtocolValue = string | number | boolean;

/** The protocol as a run's manifest records it. */
export interface GeneralisationProtocol {
  /** The agents under evaluation. */
  focal: string[];
  /** Background agents the focal agents were developed or tuned against. */
  seen: string[];
  /** Background agents held out from development. */
  unseen: string[];
  /** Per game id: the held-out parameter values as the config gave them, and the configurations (config_id) they select. */
  held_out: Record<string, {parameters: Record<string, ProtocolValue[]>; config_ids: number[]}>;
}

/**
 * Who a focal seat played with: only focal agents ("self-play"); focal and
 * seen background agents only ("seen"); focal and unseen only ("unseen");
 * seen and unseen together ("mixed"); or an agent the protocol does not
 * list ("other", counted in no group).
 */
export type CoPlayers = "self-play" | "seen" | "unseen" | "mixed" | "other";

/** One seat of a focal agent (what `focalSeatsSQL` returns). */
export interface FocalSeat {
  game_id: string;
  family: string;
  /** The game's configuration (its resampling unit within the family). */
  cluster: string;
  seat: number;
  agent: string;
  /** The seat's return. */
  score: number;
  /** 1 when its return beats every co-player's, 1/k when k seats tie at the top with it, else 0. */
  win: number;
  co_players: CoPlayers;
  held_out: boolean;
}

const list = (ids: readonly string[]) => ids.map(sqlString).join(", ");
const member = (column: string, ids: readonly string[]) => (ids.length ? `${column} IN (${list(ids)})` : "FALSE");

/**
 * One row per seat of a focal agent (FocalSeat) from `seats`, a query of
 * seat rows (ratingsData.ts SeatRow: game_id, family, cluster, config,
 * seat, agent, score). A seat with no co-player (a one-seat game) has no row.
 */
export function focalSeatsSQL(seats: string, protocol: GeneralisationProtocol): string {
  const heldOut = Object.entries(protocol.held_out)
    .filter(([, h]) => h.config_ids.length)
    .map(([game, h]) => `(f.family = ${sqlString(game)} AND f.config IN (${h.config_ids.map((c) => sqlString(String(c))).join(", ")}))`);
  return `WITH s AS (${seats}),
r AS (SELECT *, CASE WHEN ${member("agent", protocol.focal)} THEN 'focal' WHEN ${member("agent", protocol.seen)} THEN 'seen'
  WHEN ${member("agent", protocol.unseen)} THEN 'unseen' ELSE 'other' END AS role FROM s)
SELECT f.game_id, f.family, f.cluster, f.seat, f.agent, f.score,
  CASE WHEN count(*) FILTER (WHERE o.score > f.score) > 0 THEN 0.0 ELSE 1.0 / (1 + count(*) FILTER (WHERE o.score = f.score)) END AS win,
  CASE WHEN bool_and(o.role = 'focal') THEN 'self-play'
    WHEN bool_and(o.role IN ('focal', 'seen')) THEN 'seen'
    WHEN bool_and(o.role IN ('focal', 'unseen')) THEN 'unseen'
    WHEN bool_and(o.role <> 'other') THEN 'mixed'
    ELSE 'other' END AS co_players,
  ${heldOut.length ? heldOut.join("\n    OR ") : "FALSE"} AS held_out
FROM r f JOIN r o ON o.game_id = f.game_id AND o.seat <> f.seat
WHERE f.role = 'focal'
GROUP BY f.game_id, f.family, f.cluster, f.config, f.seat, f.agent, f.score
ORDER BY f.game_id, f.seat`;
}

// ---------------------------------------------------------------- the design and its resampling

/**
 * The sampling design of focal seats: strata (a family's seen or held-out
 * configurations, which a run fixes), each a list of configurations, each a
 * list of games (indexes into the report's game list).
 */
export type Design = number[][][];

/**
 * One bootstrap draw of a two-stage design: in every stratum, as many
 * configurations as it has, drawn with replacement; in each drawn
 * configuration, as many of its games as it has, drawn with replacement.
 * Returns how often each game is taken (indexes as in `design`, `games` in
 * all). Resampling what was sampled, at both stages, keeps a configuration's
 * games together (they share its parameters) and leaves each stratum its
 * size (a run fixes how many configurations are held out). With many
 * configurations the second stage adds the within-configuration variation a
 * second time (Davison and Hinkley 1997, "Bootstrap Methods and their
 * Application", §3.8), so intervals err wide; with one or two
 * configurations a stratum it is what keeps them from being too narrow.
 */
export function twoStageDraw(design: Design, games: number, rng: Rng): Float64Array {
  const times = new Float64Array(games);
  for (const configs of design) {
    for (let c = 0; c < configs.length; c++) {
      const picked = configs[rng.int(configs.length)];
      for (let g = 0; g < picked.length; g++) times[picked[rng.int(picked.length)]]++;
    }
  }
  return times;
}

/**
 * The lower tail probability at which to read a percentile interval of
 * level `level` from bootstrap draws of strata whose smallest has `units`
 * units, `df` degrees of freedom in all (units less one, summed over
 * strata): Hesterberg's expanded percentile interval (Hesterberg 2015,
 * "What Teachers Should Know About the Bootstrap: Resampling in the
 * Undergraduate Statistics Curriculum", The American Statistician), whose z
 * quantile is Student's t with df degrees of freedom times √(n / (n − 1)):
 * resampling n units gives (n − 1)/n of a mean's variance, and the
 * variance's own uncertainty widens a t interval. With fewer than two
 * units a stratum, the plain percentile interval.
 */
export function expandedTail(level: number, df: number, units: number): number {
  const alpha = (1 - level) / 2;
  if (!(df >= 1 && units >= 2)) return alpha;
  const z = studentTQuantile(1 - alpha, df) * Math.sqrt(units / (units - 1));
  return 1 - normalCdf(z);
}

// ---------------------------------------------------------------- the report

export type GroupName = "self-play" | "cross-play" | "seen co-players" | "unseen co-players" | "seen configurations" | "held-out configurations";

/** The three comparisons, each group A − group B: positive when the focal agents do better with what they know. */
export const COMPARISONS: readonly {name: string; a: GroupName; b: GroupName}[] = [
  {name: "co-players", a: "seen co-players", b: "unseen co-players"},
  {name: "configurations", a: "seen configurations", b: "held-out configurations"},
  {name: "self-play vs cross-play", a: "self-play", b: "cross-play"},
];

const GROUPS: readonly GroupName[] = ["self-play", "cross-play", "seen co-players", "unseen co-players", "seen configurations", "held-out configurations"];

/** The groups a focal seat counts in: its co-players' group, self- or cross-play, and its configuration's group. */
function groupsOf(seat: FocalSeat): GroupName[] {
  const groups: GroupName[] = [seat.held_out ? "held-out configurations" : "seen configurations"];
  if (seat.co_players === "other") return groups;
  groups.push(seat.co_players === "self-play" ? "self-play" : "cross-play");
  if (seat.co_players === "seen") groups.push("seen co-players");
  if (seat.co_players === "unseen") groups.push("unseen co-players");
  return groups;
}

export type Measure = "return" | "win share";

export interface ComparisonRow {
  /** A focal agent, or "all focal agents" (their seats pooled, Melting Pot's per-capita return). */
  focal: string;
  /** A game (family), or "all games" (each game weighted equally; win share only, returns of different games are not on one scale). */
  game: string;
  measure: Measure;
  comparison: string;
  a: GroupName;
  b: GroupName;
  mean_a: number;
  lo_a: number | null;
  hi_a: number | null;
  seats_a: number;
  mean_b: number;
  lo_b: number | null;
  hi_b: number | null;
  seats_b: number;
  /** mean_a − mean_b, with its interval. */
  gap: number;
  gap_lo: number | null;
  gap_hi: number | null;
  /** Bootstrap draws in which both groups had seats (the intervals' draws). */
  draws: number;
}

export interface GeneralisationReport {
  resamples: number;
  level: number;
  /** Focal seats read, by co-player group. */
  seats: Record<CoPlayers, number>;
  configurations: {seen: number; held_out: number};
  rows: ComparisonRow[];
  /** Why a comparison is missing (e.g. no held-out configuration), one sentence each. */
  notes: string[];
}

export interface ReportOptions {
  resamples?: number;
  seed?: number;
  level?: number;
  /** The bootstrap draw (default `twoStageDraw`). */
  draw?: (design: Design, games: number, rng: Rng) => Float64Array;
}

function quantile(sorted: readonly number[], p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  return sorted[lo] + (h - lo) * ((sorted[Math.min(lo + 1, sorted.length - 1)] ?? sorted[lo]) - sorted[lo]);
}

const MEASURES: readonly Measure[] = ["return", "win share"];

/** The seats' sampling design: each seat's game (an index), and per stratum (`<family>\0<held out>`) its configurations' games. */
function designOf(seats: readonly FocalSeat[]): {gameOfSeat: number[]; games: number; strata: Map<string, Map<string, Set<number>>>; design: Design} {
  const gameIndex = new Map<string, number>();
  const gameOfSeat = seats.map((s) => {
    let g = gameIndex.get(s.game_id);
    if (g === undefined) gameIndex.set(s.game_id, (g = gameIndex.size));
    return g;
  });
  const strata = new Map<string, Map<string, Set<number>>>();
  seats.forEach((s, i) => {
    const stratum = `${s.family}\u0000${s.held_out}`;
    const configs = strata.get(stratum) ?? new Map<string, Set<number>>();
    strata.set(stratum, configs);
    const games = configs.get(s.cluster) ?? new Set<number>();
    configs.set(s.cluster, games);
    games.add(gameOfSeat[i]);
  });
  const design = [...strata.values()].map((configs) => [...configs.values()].map((games) => [...games]));
  return {gameOfSeat, games: gameIndex.size, strata, design};
}

/**
 * Weighted sums of the seats' values per slot, a slot being (scope,
 * family, measure, group): scopes are the focal agents in order, then all
 * of them pooled when there are several. `sums(times)` weighs each seat by
 * how often a draw took its game (every seat once without `times`).
 */
class Slots {
  readonly F: number;
  private readonly of: Int32Array[] = [];
  private readonly value: Float64Array[] = [];
  private readonly count: number;

  constructor(seats: readonly FocalSeat[], readonly agents: readonly string[], readonly families: readonly string[], private readonly gameOfSeat: readonly number[]) {
    this.F = families.length;
    this.count = (agents.length > 1 ? agents.length + 1 : agents.length) * this.F * MEASURES.length * GROUPS.length;
    for (const s of seats) {
      const scopes = [agents.indexOf(s.agent), ...(agents.length > 1 ? [agents.length] : [])];
      const family = families.indexOf(s.family);
      const groups = groupsOf(s).map((g) => GROUPS.indexOf(g));
      const at: number[] = [];
      const values: number[] = [];
      for (const scope of scopes) {
        for (let m = 0; m < MEASURES.length; m++) for (const g of groups) at.push(this.slot(scope, family, m, g)), values.push(m === 0 ? Number(s.score) : Number(s.win));
      }
      this.of.push(Int32Array.from(at));
      this.value.push(Float64Array.from(values));
    }
  }

  slot(scope: number, family: number, measure: number, group: number): number {
    return ((scope * this.F + family) * MEASURES.length + measure) * GROUPS.length + group;
  }

  sums(times: Float64Array | null = null): Sums {
    const sum = new Float64Array(this.count);
    const weight = new Float64Array(this.count);
    for (let i = 0; i < this.of.length; i++) {
      const w = times ? times[this.gameOfSeat[i]] : 1;
      if (w === 0) continue;
      const at = this.of[i];
      const values = this.value[i];
      for (let k = 0; k < at.length; k++) {
        sum[at[k]] += w * values[k];
        weight[at[k]] += w;
      }
    }
    return {sum, weight};
  }
}

interface Sums {
  sum: Float64Array;
  weight: Float64Array;
}

/** One row to report: a scope, one game (or all of `families`, averaged), a measure and a comparison. */
interface Plan {
  focal: string;
  game: string;
  scope: number;
  measure: number;
  families: number[];
  comparison: (typeof COMPARISONS)[number];
  a: number;
  b: number;
}

/** Every row whose two groups both have seats: per scope, measure and comparison, each game, then all games (win share, several games). */
function planRows(slots: Slots, point: Sums, scopes: readonly string[]): Plan[] {
  const plans: Plan[] = [];
  const families = slots.families.map((_, family) => family);
  scopes.forEach((focal, scope) => {
    MEASURES.forEach((measureName, measure) => {
      for (const comparison of COMPARISONS) {
        const [a, b] = [GROUPS.indexOf(comparison.a), GROUPS.indexOf(comparison.b)];
        const both = families.filter((f) => point.weight[slots.slot(scope, f, measure, a)] > 0 && point.weight[slots.slot(scope, f, measure, b)] > 0);
        for (const f of both) plans.push({focal, game: slots.families[f], scope, measure, families: [f], comparison, a, b});
        if (families.length > 1 && measureName === "win share" && both.length) plans.push({focal, game: "all games", scope, measure, families: both, comparison, a, b});
      }
    });
  });
  return plans;
}

/** The mean over the plan's games of each game's mean in `group` (NaN when a game has no weight there). */
function planMean(slots: Slots, sums: Sums, p: Plan, group: number): number {
  let total = 0;
  for (const f of p.families) {
    const at = slots.slot(p.scope, f, p.measure, group);
    if (!(sums.weight[at] > 0)) return NaN;
    total += sums.sum[at] / sums.weight[at];
  }
  return total / p.families.length;
}

/** Per plan, its two groups' means and their gap in each bootstrap draw in which both groups had seats. */
function drawPlans(slots: Slots, plans: readonly Plan[], design: Design, games: number, {resamples, seed, draw}: {resamples: number; seed: number; draw: NonNullable<ReportOptions["draw"]>}) {
  const drawn = plans.map(() => ({a: [] as number[], b: [] as number[], gap: [] as number[]}));
  if (!(resamples > 0) || !plans.length) return drawn;
  const rng = createRng(seed);
  for (let r = 0; r < resamples; r++) {
    const sums = slots.sums(draw(design, games, rng));
    plans.forEach((p, i) => {
      const a = planMean(slots, sums, p, p.a);
      const b = planMean(slots, sums, p, p.b);
      if (Number.isNaN(a) || Number.isNaN(b)) return;
      drawn[i].a.push(a);
      drawn[i].b.push(b);
      drawn[i].gap.push(a - b);
    });
  }
  return drawn;
}

/** The interval of `values` read at lower tail probability `tail`; nulls without draws. */
function interval(values: readonly number[], tail: number): [number | null, number | null] {
  if (!values.length) return [null, null];
  const sorted = [...values].sort((x, y) => x - y);
  return [quantile(sorted, tail), quantile(sorted, 1 - tail)];
}

/**
 * Focal performance by group with intervals from `options.resamples`
 * draws of the design (default 1,000 `twoStageDraw`s; 0 gives estimates
 * only), read as expanded percentile intervals (`expandedTail`): for each
 * focal agent (and all of them pooled, when there are several), each game
 * (and all games, win share only, when there are several) and each
 * measure, the three comparisons whose groups both have seats. A
 * comparison over all games averages, game by game, only the games in
 * which both of its groups have seats.
 */
export function generalisationReport(seats: readonly FocalSeat[], options: ReportOptions = {}): GeneralisationReport {
  const {resamples = 1000, seed = 1, level = 0.95, draw = twoStageDraw} = options;
  const families = [...new Set(seats.map((s) => s.family))].sort();
  const agents = [...new Set(seats.map((s) => s.agent))].sort();
  const scopes = agents.length > 1 ? [...agents, "all focal agents"] : agents;
  const {gameOfSeat, games, strata, design} = designOf(seats);
  const slots = new Slots(seats, agents, families, gameOfSeat);
  const point = slots.sums();
  const plans = planRows(slots, point, scopes);
  const drawn = drawPlans(slots, plans, design, games, {resamples, seed, draw});
  const rows: ComparisonRow[] = plans.map((p, i) => {
    // Units for the interval: each stratum's configurations (seen and held out, per game of the row).
    const sizes = p.families.flatMap((f) => [false, true].flatMap((held) => strata.get(`${families[f]}\u0000${held}`)?.size ?? []));
    const tail = expandedTail(level, sizes.reduce((df, n) => df + n - 1, 0), Math.min(...sizes));
    const [meanA, meanB] = [planMean(slots, point, p, p.a), planMean(slots, point, p, p.b)];
    const seatsIn = (group: number) => p.families.reduce((n, f) => n + point.weight[slots.slot(p.scope, f, p.measure, group)], 0);
    const [loA, hiA] = interval(drawn[i].a, tail);
    const [loB, hiB] = interval(drawn[i].b, tail);
    const [gapLo, gapHi] = interval(drawn[i].gap, tail);
    return {
      focal: p.focal, game: p.game, measure: MEASURES[p.measure], comparison: p.comparison.name, a: p.comparison.a, b: p.comparison.b,
      mean_a: meanA, lo_a: loA, hi_a: hiA, seats_a: seatsIn(p.a),
      mean_b: meanB, lo_b: loB, hi_b: hiB, seats_b: seatsIn(p.b),
      gap: meanA - meanB, gap_lo: gapLo, gap_hi: gapHi, draws: drawn[i].gap.length,
    };
  });
  const counts: Record<CoPlayers, number> = {"self-play": 0, seen: 0, unseen: 0, mixed: 0, other: 0};
  for (const s of seats) counts[s.co_players]++;
  const configsOf = (heldOut: boolean) => new Set(seats.filter((s) => s.held_out === heldOut).map((s) => `${s.family}\u0000${s.cluster}`)).size;
  return {resamples: resamples > 0 && plans.length ? resamples : 0, level, seats: counts, configurations: {seen: configsOf(false), held_out: configsOf(true)}, rows, notes: missingComparisons(seats, counts)};
}

const families = (seats: readonly FocalSeat[]) => [...new Set(seats.map((s) => s.family))];
const configurations = (seats: readonly FocalSeat[], family: string, heldOut: boolean) => new Set(seats.filter((s) => s.family === family && s.held_out === heldOut).map((s) => s.cluster)).size;

/** One sentence per comparison the seats cannot make (or can make only narrowly), saying why. */
function missingComparisons(seats: readonly FocalSeat[], counts: Record<CoPlayers, number>): string[] {
  const notes: string[] = [];
  if (!seats.length) return ["No focal agent sat in a game with another seat."];
  if (!counts.seen || !counts.unseen) notes.push(`Seen vs unseen co-players: no focal seat had only ${!counts.seen && !counts.unseen ? "seen or only unseen" : !counts.seen ? "seen" : "unseen"} background co-players.`);
  if (!seats.some((s) => s.held_out)) notes.push("Seen vs held-out configurations: no focal seat was in a held-out configuration.");
  else if (seats.every((s) => s.held_out)) notes.push("Seen vs held-out configurations: every focal seat was in a held-out configuration.");
  else {
    const fewest = Math.min(...[false, true].map((held) => Math.min(...families(seats).map((f) => configurations(seats, f, held)).filter((n) => n > 0))));
    if (fewest < 2) notes.push("Seen vs held-out configurations: a game has a single seen or held-out configuration, so the interval covers the chance in its games, not which configurations were chosen.");
  }
  if (!counts["self-play"]) notes.push("Self-play vs cross-play: no game seated focal agents only.");
  else if (!counts.seen && !counts.unseen && !counts.mixed) notes.push("Self-play vs cross-play: no game seated a focal agent with background co-players.");
  if (counts.other) notes.push(`${counts.other} focal seat${counts.other === 1 ? "" : "s"} had a co-player the protocol does not list (counted in the configurations comparison only).`);
  return notes;
}

// ---------------------------------------------------------------- the protocol from a manifest

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);
const isIdList = (x: unknown): x is string[] => Array.isArray(x) && x.every((v) => typeof v === "string");

/**
 * The protocol a run's manifest records (its `generalisation` field), read
 * as data from a file: null when it declares none, a `problem` sentence
 * when the field is not what `parley run` writes.
 */
export function protocolOf(manifest: unknown): GeneralisationProtocol | null | {problem: string} {
  if (!isObject(manifest) || manifest.generalisation === undefined || manifest.generalisation === null) return null;
  const g = manifest.generalisation;
  if (!isObject(g)) return {problem: "its manifest's generalisation is not an object"};
  for (const key of ["focal", "seen", "unseen"] as const) if (!isIdList(g[key])) return {problem: `its manifest's generalisation.${key} is not a list of agent ids`};
  if (!(g.focal as string[]).length) return {problem: "its manifest's generalisation.focal is empty"};
  if (!isObject(g.held_out)) return {problem: "its manifest's generalisation.held_out is not an object"};
  const held_out: GeneralisationProtocol["held_out"] = {};
  for (const [game, h] of Object.entries(g.held_out)) {
    const values = isObject(h) && isObject(h.parameters) ? Object.values(h.parameters) : [];
    const valuesOk = values.every((vs) => Array.isArray(vs) && vs.every((v) => ["string", "number", "boolean"].includes(typeof v)));
    if (!isObject(h) || !isObject(h.parameters) || !valuesOk || !Array.isArray(h.config_ids) || !h.config_ids.every((c) => Number.isInteger(c))) {
      return {problem: `its manifest's generalisation.held_out.${game} is not {parameters: {<parameter>: [values]}, config_ids: [integers]}`};
    }
    held_out[game] = {parameters: h.parameters as Record<string, ProtocolValue[]>, config_ids: h.config_ids as number[]};
  }
  return {focal: g.focal as string[], seen: g.seen as string[], unseen: g.unseen as string[], held_out};
}

/** The protocol in one sentence for a page or a report (plain text: ids come from the data). */
export function protocolSummary(protocol: GeneralisationProtocol): string {
  const ids = (list: readonly string[]) => (list.length ? list.join(", ") : "none");
  const held = Object.entries(protocol.held_out).map(([game, h]) => {
    const values = Object.entries(h.parameters).map(([param, vs]) => `${param} ${vs.map((v) => String(v)).join(" or ")}`).join(" and ");
    return `${game} with ${values} (${h.config_ids.length} configuration${h.config_ids.length === 1 ? "" : "s"})`;
  });
  return `Focal: ${ids(protocol.focal)}. Seen co-players: ${ids(protocol.seen)}. Unseen co-players: ${ids(protocol.unseen)}. Held-out configurations: ${held.length ? held.join("; ") : "none"}.`;
}
