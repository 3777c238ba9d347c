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
 * seat; `generalisationReport` compares its groups with cluster-robust
 * (sandwich) intervals over configurations (clusterRobust.ts, the method of
 * the ratings beside it on /ratings). Pure: no DOM, no Node API.
 */
import {sqlString} from "./sqlText.js";
import {clusterRobust, tInterval} from "./clusterRobust.js";

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

// ---------------------------------------------------------------- the design

/**
 * The seats' sampling design. Strata: each game's seen configurations and
 * its held-out ones (a run fixes which are held out, and how many).
 * Clusters: configurations, taken as drawn at random within their stratum
 * (a configuration's games share its parameters); a stratum of a single
 * configuration has its games as clusters, as ratings.ts treats a family of
 * one configuration, so that its interval covers the chance in its games
 * (the report's notes say it does not cover which configuration was chosen).
 */
interface Design {
  stratumOf: Int32Array;
  clusterOf: Int32Array;
  /** Each cluster's stratum. */
  clusterStratum: number[];
  strata: number;
}

function designOf(seats: readonly FocalSeat[]): Design {
  const stratumIds = new Map<string, number>();
  const configs: Set<string>[] = [];
  const stratumOf = Int32Array.from(seats, (s) => {
    const key = `${s.family}\u0000${s.held_out}`;
    let id = stratumIds.get(key);
    if (id === undefined) stratumIds.set(key, (id = configs.push(new Set()) - 1));
    configs[id].add(s.cluster);
    return id;
  });
  const clusterIds = new Map<string, number>();
  const clusterStratum: number[] = [];
  const clusterOf = Int32Array.from(seats, (s, i) => {
    const stratum = stratumOf[i];
    const key = `${stratum}\u0000${configs[stratum].size > 1 ? s.cluster : s.game_id}`;
    let id = clusterIds.get(key);
    if (id === undefined) clusterIds.set(key, (id = clusterStratum.push(stratum) - 1));
    return id;
  });
  return {stratumOf, clusterOf, clusterStratum, strata: configs.length};
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
  /** The gap's standard error (cluster-robust) and Satterthwaite degrees of freedom (0: no stratum with two clusters, no interval). */
  gap_se: number;
  df: number;
}

export interface GeneralisationReport {
  /** The intervals' method: cluster-robust (sandwich) over configurations within each game's seen and held-out sets, Student's t. */
  method: "cluster-robust";
  level: number;
  /** Focal seats read, by co-player group. */
  seats: Record<CoPlayers, number>;
  configurations: {seen: number; held_out: number};
  rows: ComparisonRow[];
  /** Why a comparison is missing (e.g. no held-out configuration), one sentence each. */
  notes: string[];
}

export interface ReportOptions {
  level?: number;
}

const MEASURES: readonly Measure[] = ["return", "win share"];

/** Per seat, what the plans read: its scope (agent index), family index, groups (a bit per GROUPS entry) and values per measure. */
interface SeatIndex {
  agentOf: Int32Array;
  familyOf: Int32Array;
  groupBits: Int32Array;
  values: Float64Array[];
  /** Seat indexes by family. */
  byFamily: number[][];
}

function indexSeats(seats: readonly FocalSeat[], agents: readonly string[], families: readonly string[]): SeatIndex {
  const byFamily = families.map((): number[] => []);
  const familyOf = Int32Array.from(seats, (s, i) => {
    const f = families.indexOf(s.family);
    byFamily[f].push(i);
    return f;
  });
  return {
    agentOf: Int32Array.from(seats, (s) => agents.indexOf(s.agent)),
    familyOf,
    groupBits: Int32Array.from(seats, (s) => groupsOf(s).reduce((bits, g) => bits | (1 << GROUPS.indexOf(g)), 0)),
    values: [Float64Array.from(seats, (s) => Number(s.score)), Float64Array.from(seats, (s) => Number(s.win))],
    byFamily,
  };
}

/** One row to report: a scope (an agent's index, or `agents.length` for all pooled), one game (or all of `families`, averaged), a measure and a comparison. */
interface Plan {
  focal: string;
  game: string;
  scope: number;
  measure: number;
  families: number[];
  comparison: (typeof COMPARISONS)[number];
}

/** Every row whose two groups both have seats: per scope, measure and comparison, each game, then all games (win share, several games). */
function planRows(index: SeatIndex, scopes: readonly string[], families: readonly string[]): Plan[] {
  const pooled = scopes.length > 1 ? scopes.length - 1 : -1;
  const has = (scope: number, f: number, group: GroupName) => index.byFamily[f].some((i) => (scope === pooled || index.agentOf[i] === scope) && index.groupBits[i] & (1 << GROUPS.indexOf(group)));
  const plans: Plan[] = [];
  scopes.forEach((focal, scope) => {
    MEASURES.forEach((measureName, measure) => {
      for (const comparison of COMPARISONS) {
        const both = families.map((_, f) => f).filter((f) => has(scope, f, comparison.a) && has(scope, f, comparison.b));
        for (const f of both) plans.push({focal, game: families[f], scope, measure, families: [f], comparison});
        if (families.length > 1 && measureName === "win share" && both.length) plans.push({focal, game: "all games", scope, measure, families: both, comparison});
      }
    });
  });
  return plans;
}

/**
 * A plan's row. Its parameters are, per game g of the plan, the two
 * groups' mean values m_gA and m_gB: ratio estimators (a sum over seats
 * divided by their number), solving Σ_c U_c = 0 with cluster c's score
 * U_c = (S_cgA − m_gA·N_cgA, S_cgB − m_gB·N_cgB, …) and information
 * H = diag(N_gA, N_gB, …). The groups' means are averages over the plan's
 * games, and the gap is their difference, so each is a contrast of the
 * parameters whose cluster-robust variance and Satterthwaite degrees of
 * freedom clusterRobust.ts gives (the working model for the degrees of
 * freedom: each stratum's seats, independent). Groups that share
 * configurations (co-players, self- and cross-play) share their clusters,
 * so what a configuration does to both cancels in the gap; seen and
 * held-out configurations are disjoint strata, so their variances add.
 */
function estimate(plan: Plan, index: SeatIndex, design: Design, pooled: number, level: number): ComparisonRow {
  const F = plan.families.length;
  const p = 2 * F;
  const [bitA, bitB] = [1 << GROUPS.indexOf(plan.comparison.a), 1 << GROUPS.indexOf(plan.comparison.b)];
  const values = index.values[plan.measure];
  const sum = new Float64Array(p);
  const count = new Float64Array(p);
  // Per cluster with seats in either group: its sums and counts per parameter; per stratum, its counts (the working information).
  const clusters = new Map<number, {sum: Float64Array; count: Float64Array}>();
  const strata = new Map<number, Float64Array>();
  plan.families.forEach((f, k) => {
    for (const i of index.byFamily[f]) {
      if (plan.scope !== pooled && index.agentOf[i] !== plan.scope) continue;
      const bits = index.groupBits[i];
      const j = bits & bitA ? 2 * k : bits & bitB ? 2 * k + 1 : -1;
      if (j < 0) continue;
      const c = design.clusterOf[i];
      let cluster = clusters.get(c);
      if (!cluster) clusters.set(c, (cluster = {sum: new Float64Array(p), count: new Float64Array(p)}));
      cluster.sum[j] += values[i];
      cluster.count[j]++;
      sum[j] += values[i];
      count[j]++;
      const stratum = design.clusterStratum[c];
      let n = strata.get(stratum);
      if (!n) strata.set(stratum, (n = new Float64Array(p)));
      n[j]++;
    }
  });
  const mean = sum.map((s, j) => s / count[j]);
  const diagonal = (d: Float64Array) => {
    const m = new Float64Array(p * p);
    for (let j = 0; j < p; j++) m[j * p + j] = d[j];
    return m;
  };
  const byStratum = new Map([...strata].map(([s, n]) => [s, {scores: [] as Float64Array[], information: diagonal(n)}]));
  for (const [c, cluster] of clusters) byStratum.get(design.clusterStratum[c])!.scores.push(cluster.sum.map((s, j) => s - mean[j] * cluster.count[j]));
  const robust = clusterRobust(p, diagonal(count), [...byStratum.values()]);
  const contrast = (a: number, b: number) => Float64Array.from({length: p}, (_, j) => (j % 2 === 0 ? a : b) / F);
  const [aA, aB, aGap] = [contrast(1, 0), contrast(0, 1), contrast(1, -1)];
  const dot = (a: Float64Array) => a.reduce((t, x, j) => t + x * mean[j], 0);
  const [meanA, meanB] = [dot(aA), dot(aB)];
  const gapVariance = robust.contrast(aGap);
  const A = tInterval(meanA, robust.contrast(aA), level);
  const B = tInterval(meanB, robust.contrast(aB), level);
  const gap = tInterval(meanA - meanB, gapVariance, level);
  const seatsIn = (parity: number) => count.reduce((t, n, j) => t + (j % 2 === parity ? n : 0), 0);
  const {comparison} = plan;
  return {
    focal: plan.focal, game: plan.game, measure: MEASURES[plan.measure], comparison: comparison.name, a: comparison.a, b: comparison.b,
    mean_a: meanA, lo_a: A.lo, hi_a: A.hi, seats_a: seatsIn(0),
    mean_b: meanB, lo_b: B.lo, hi_b: B.hi, seats_b: seatsIn(1),
    gap: meanA - meanB, gap_lo: gap.lo, gap_hi: gap.hi, gap_se: Math.sqrt(gapVariance.variance), df: gapVariance.df,
  };
}

/**
 * Focal performance by group with cluster-robust intervals at `level`
 * (default 95 %; `estimate` says how): for each focal agent (and all of
 * them pooled, when there are several), each game (and all games, win
 * share only, when there are several) and each measure, the three
 * comparisons whose groups both have seats. A comparison over all games
 * averages, game by game, only the games in which both of its groups have
 * seats.
 */
export function generalisationReport(seats: readonly FocalSeat[], options: ReportOptions = {}): GeneralisationReport {
  const {level = 0.95} = options;
  const families = [...new Set(seats.map((s) => s.family))].sort();
  const agents = [...new Set(seats.map((s) => s.agent))].sort();
  const scopes = agents.length > 1 ? [...agents, "all focal agents"] : agents;
  const index = indexSeats(seats, agents, families);
  const design = designOf(seats);
  const rows = planRows(index, scopes, families).map((plan) => estimate(plan, index, design, agents.length > 1 ? agents.length : -1, level));
  const counts: Record<CoPlayers, number> = {"self-play": 0, seen: 0, unseen: 0, mixed: 0, other: 0};
  for (const s of seats) counts[s.co_players]++;
  const configsOf = (heldOut: boolean) => new Set(seats.filter((s) => s.held_out === heldOut).map((s) => `${s.family}\u0000${s.cluster}`)).size;
  return {method: "cluster-robust", level, seats: counts, configurations: {seen: configsOf(false), held_out: configsOf(true)}, rows, notes: missingComparisons(seats, counts)};
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
