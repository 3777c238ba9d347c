/**
 * From tables to what src/lib/ratings.ts, src/lib/alphaRank.ts and
 * src/lib/compare.ts read: one row per seat (game, family, resampling
 * cluster, configuration, repetition, seat, agent, score), by the same SQL
 * in native DuckDB (`parley ratings`, `parley compare`) and DuckDB-WASM
 * (the /ratings page). Pure: no DOM, no Node API.
 */
import type {RatedGame} from "./ratings.js";
import type {Bimatrix} from "./bimatrix.js";
import {sqlString as quote} from "./sqlText.js";

export interface SeatRow {
  game_id: string;
  family: string;
  cluster: string;
  /** The game's configuration (config_id) and repetition, when its table has them. */
  config: string | null;
  repetition: number | null;
  seat: number;
  agent: string;
  score: number;
  /** The seat's covariates and entrant, when the controlled ranking is asked for (ratingCovariates.ts). */
  x?: readonly number[];
  entrant?: string;
}

/**
 * Seats of the common tables (every game of the contract and every ingest
 * writing players.parquet) whose games table `g` has `columns`: the family
 * is `familySql` (e.g. `g.game`), the cluster see clusterColumn.
 */
export function commonSeatsSQL(games: string, players: string, familySql: string, columns: ReadonlySet<string>, prefix = ""): string {
  const cluster = `COALESCE(${clusterColumn(columns)}, p.game_id)`;
  const config = columns.has("config_id") ? "CAST(g.config_id AS VARCHAR)" : "NULL";
  const repetition = columns.has("repetition") ? "CAST(g.repetition AS INTEGER)" : "NULL";
  return `SELECT ${prefixed("p.game_id", prefix)} AS game_id, ${familySql} AS family, ${prefixed(cluster, prefix)} AS cluster,
    ${config} AS config, ${repetition} AS repetition,
    CAST(p.seat AS INTEGER) AS seat, p.agent AS agent, CAST(p."return" AS DOUBLE) AS score
  FROM ${players} p JOIN ${games} g USING (game_id)
  WHERE p.agent IS NOT NULL AND p."return" IS NOT NULL AND isfinite(p."return")`;
}

/**
 * `sql`'s seat rows in one order, by game and seat. The fits sum comparisons
 * in row order and DuckDB returns a query's rows in whatever order its
 * threads finish, so without it the same directory rated differently from
 * one call to the next (at the 1e-16 level, and visibly where Nash
 * averaging's equilibrium has ties).
 */
export const inSeatOrder = (sql: string): string => `SELECT * FROM (${sql}) ORDER BY game_id, seat`;

/** Seats of the flat GLEE games table (the site's GLEE datasets): Alice seat 0, Bob seat 1, their §2 utilities. */
export function gleeSeatsSQL(games: string, prefix = ""): string {
  const side = (seat: number, who: "alice" | "bob") => `SELECT ${prefixed("game_id", prefix)} AS game_id, 'glee/' || family AS family,
    ${prefixed(`COALESCE(CAST(config_id AS VARCHAR), game_id)`, prefix)} AS cluster,
    CAST(config_id AS VARCHAR) AS config, CAST(repetition AS INTEGER) AS repetition, ${seat} AS seat,
    ${who}_agent AS agent, CAST(${who}_utility AS DOUBLE) AS score
  FROM ${games} WHERE ${who}_agent IS NOT NULL AND ${who}_utility IS NOT NULL`;
  return `${side(0, "alice")}\nUNION ALL\n${side(1, "bob")}`;
}

/**
 * The resampling cluster of a games table `g` with these columns: the
 * configuration (`config_id`, Parley runs), else the game variant
 * (`variant`, gamma-Bench's ingest), else each game on its own.
 */
function clusterColumn(columns: ReadonlySet<string>): string {
  const present = ["config_id", "variant"].filter((c) => columns.has(c)).map((c) => `CAST(g.${c} AS VARCHAR)`);
  return present.length ? `COALESCE(${present.join(", ")})` : "NULL";
}

const prefixed = (sql: string, prefix: string) => (prefix ? `${quote(prefix + "/")} || ${sql}` : sql);

/**
 * Seat rows grouped into games. A self-play game (every seat the same
 * agent, as in gamma-Bench's own runs) compares no one by itself; such games
 * are compared on matched configurations instead: per family and cluster,
 * one comparison game whose seats are the agents that played it, each
 * scored by its mean return there (and, with covariates, their means).
 */
export function ratedGames(rows: readonly SeatRow[]): RatedGame[] {
  const games = new Map<string, RatedGame>();
  for (const r of rows) {
    let g = games.get(r.game_id);
    if (!g) games.set(r.game_id, (g = {family: r.family, cluster: r.cluster, seats: []}));
    g.seats.push({agent: r.agent, seat: Number(r.seat), score: Number(r.score), ...(r.x && {x: r.x}), ...(r.entrant !== undefined && {entrant: r.entrant})});
  }
  const mixed: RatedGame[] = [];
  const matched = new Map<string, {family: string; cluster: string; agents: Map<string, {sum: number; n: number; x?: number[]; entrant?: string}>}>();
  for (const g of games.values()) {
    if (new Set(g.seats.map((s) => s.agent)).size > 1) {
      mixed.push(g);
      continue;
    }
    const key = `${g.family}\u0000${g.cluster}`;
    let m = matched.get(key);
    if (!m) matched.set(key, (m = {family: g.family, cluster: g.cluster, agents: new Map()}));
    const a = m.agents.get(g.seats[0].agent) ?? {sum: 0, n: 0};
    a.sum += g.seats.reduce((t, s) => t + s.score, 0) / g.seats.length;
    a.n++;
    for (const s of g.seats) {
      if (s.x) a.x = s.x.map((v, c) => (a.x?.[c] ?? 0) + v / g.seats.length);
      if (s.entrant !== undefined) a.entrant = s.entrant;
    }
    m.agents.set(g.seats[0].agent, a);
  }
  for (const m of matched.values()) {
    if (m.agents.size < 2) continue;
    const seats = [...m.agents].sort(([x], [y]) => (x < y ? -1 : 1)).map(([agent, a], seat) => ({agent, seat, score: a.sum / a.n, ...(a.x && {x: a.x.map((v) => v / a.n)}), ...(a.entrant !== undefined && {entrant: a.entrant})}));
    mixed.push({family: m.family, cluster: m.cluster, seats});
  }
  return mixed;
}

/**
 * The meta-game of a two-seat family: rows the agent in seat 0, columns the
 * agent in seat 1, each cell the mean scores of that pairing. Agents are
 * dropped, the one with the most missing pairings first, until every cell
 * has games (a payoff table needs them all).
 */
export function seatMetaGame(rows: readonly SeatRow[], family: string): Bimatrix & {n: number[][]} {
  const byGame = new Map<string, SeatRow[]>();
  for (const r of rows) if (r.family === family) byGame.set(r.game_id, [...(byGame.get(r.game_id) ?? []), r]);
  const cells = new Map<string, {a: number; b: number; n: number}>();
  for (const seats of byGame.values()) {
    if (seats.length !== 2) continue;
    const [x, y] = [...seats].sort((s, t) => s.seat - t.seat);
    const key = `${x.agent}\u0000${y.agent}`;
    const c = cells.get(key) ?? {a: 0, b: 0, n: 0};
    c.a += Number(x.score);
    c.b += Number(y.score);
    c.n++;
    cells.set(key, c);
  }
  let rowAgents = [...new Set([...cells.keys()].map((k) => k.split("\u0000")[0]))].sort();
  let colAgents = [...new Set([...cells.keys()].map((k) => k.split("\u0000")[1]))].sort();
  const missing = (agent: string, asRow: boolean) => (asRow ? colAgents : rowAgents).filter((o) => !cells.has(asRow ? `${agent}\u0000${o}` : `${o}\u0000${agent}`)).length;
  for (;;) {
    const worst = [...rowAgents.map((a) => ({a, row: true, m: missing(a, true)})), ...colAgents.map((a) => ({a, row: false, m: missing(a, false)}))].sort((s, t) => t.m - s.m)[0];
    if (!worst || worst.m === 0) break;
    if (worst.row) rowAgents = rowAgents.filter((a) => a !== worst.a);
    else colAgents = colAgents.filter((a) => a !== worst.a);
  }
  const cell = (r: string, c: string) => cells.get(`${r}\u0000${c}`)!;
  return {
    rows: rowAgents,
    cols: colAgents,
    a: rowAgents.map((r) => colAgents.map((c) => cell(r, c).a / cell(r, c).n)),
    b: rowAgents.map((r) => colAgents.map((c) => cell(r, c).b / cell(r, c).n)),
    n: rowAgents.map((r) => colAgents.map((c) => cell(r, c).n)),
  };
}

/**
 * Rated games in columns (indexes into `agents`, `families`, `clusters`),
 * about a tenth of their JSON as objects: what the build writes for the
 * /ratings page (src/lib/pages/ratings.ts). `size[g]` seats of game g follow
 * those of game g − 1 in `agent`, `seat`, `score`.
 */
export interface PackedGames {
  agents: string[];
  families: string[];
  clusters: string[];
  family: number[];
  cluster: number[];
  count: number[];
  size: number[];
  agent: number[];
  seat: number[];
  score: number[];
}

export function packGames(games: readonly RatedGame[]): PackedGames {
  const packed: PackedGames = {agents: [], families: [], clusters: [], family: [], cluster: [], count: [], size: [], agent: [], seat: [], score: []};
  const indexer = (list: string[]) => {
    const at = new Map<string, number>();
    return (value: string) => {
      let i = at.get(value);
      if (i === undefined) at.set(value, (i = list.push(value) - 1));
      return i;
    };
  };
  const [agent, family, cluster] = [indexer(packed.agents), indexer(packed.families), indexer(packed.clusters)];
  for (const g of games) {
    packed.family.push(family(g.family));
    packed.cluster.push(cluster(g.cluster));
    packed.count.push(g.count ?? 1);
    packed.size.push(g.seats.length);
    for (const s of g.seats) packed.agent.push(agent(s.agent)), packed.seat.push(s.seat), packed.score.push(s.score);
  }
  return packed;
}

export function unpackGames(p: PackedGames): RatedGame[] {
  const games: RatedGame[] = [];
  let at = 0;
  for (let g = 0; g < p.family.length; g++) {
    const seats = [];
    for (let s = 0; s < p.size[g]; s++, at++) seats.push({agent: p.agents[p.agent[at]], seat: p.seat[at], score: p.score[at]});
    games.push({family: p.families[p.family[g]], cluster: p.clusters[p.cluster[g]], seats, count: p.count[g]});
  }
  return games;
}
