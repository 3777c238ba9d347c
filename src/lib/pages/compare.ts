/**
 * What /compare asks: the seats of a dataset (the built-in GLEE tournament's
 * flat games table, or a configured run's seats tables, src/lib/runSeats.ts),
 * the agents in it, and the paired comparison of two of them
 * (src/lib/compare.ts, as `parley compare --agents A B`). The first view,
 * computed at build time, is the built-in tournament's default pair, so a
 * visitor sees it without DuckDB-WASM; another pair or dataset asks DuckDB.
 */
import {compareAgents, type Comparison} from "../compare.js";
import type {ChanceSharing} from "../sharedChance.js";
import {gleeSeatsSQL, type SeatRow} from "../ratingsData.js";
import {runSeatsSQL} from "../runSeats.js";
import type {Computation, FirstView} from "../snapshot.js";

/** Where the seats come from: the built-in GLEE games table (`games`), or a run's seats tables named `<prefix>games`, `<prefix>players`. */
export type SeatSource = {kind: "glee"} | {kind: "run"; tables: string};

export function seatsSQL(source: SeatSource): string {
  return source.kind === "glee" ? gleeSeatsSQL("games") : runSeatsSQL({games: `${source.tables}games`, players: `${source.tables}players`});
}

export const agentsSQL = (source: SeatSource): string => `SELECT DISTINCT agent FROM (${seatsSQL(source)}) ORDER BY agent`;

/** Every seat of the games where either agent (bound as parameters) sits: compareAgents matches on the other seats' agents too, and ignores the rest. */
export const pairSeatsSQL = (source: SeatSource): string =>
  `WITH s AS (${seatsSQL(source)}) SELECT * FROM s WHERE game_id IN (SELECT game_id FROM s WHERE agent = ? OR agent = ?)`;

/** The pair shown before the visitor picks one: fair against greedy when both played, else the first two agents. */
export function defaultAgents(agents: readonly string[]): {a: string | undefined; b: string | undefined} {
  const a = agents.includes("fair") ? "fair" : agents[0];
  const b = agents.includes("greedy") && a !== "greedy" ? "greedy" : agents.find((x) => x !== a);
  return {a, b};
}

/** `sharedChance` only when the dataset's games shared chance (src/lib/sharedChance.ts); left out otherwise, so the built-in tournament's input, and its build-time answer, stay as they were. */
export const agentComparison: Computation<{source: SeatSource; a: string; b: string; sharedChance?: true}, Comparison> = {
  name: "compare-agents",
  async compute(query, {source, a, b, sharedChance}) {
    return compareAgents((await query(pairSeatsSQL(source), [a, b])) as SeatRow[], a, b, {sharedChance: sharedChance === true});
  },
};

/** Whether the built-in tournament (data/runs/default.json, played per game) shared chance: it did not. */
export const BUILT_IN_CHANCE: ChanceSharing = {shared: false, why: "the built-in tournament (data/runs/default.json) drew chance per game"};

export const compareFirstView: FirstView = {
  page: "compare",
  dataset: "glee",
  tables: ["games"],
  async script(ask) {
    const source: SeatSource = {kind: "glee"};
    const {a, b} = defaultAgents((await ask.query(agentsSQL(source))).map((r) => r.agent as string));
    if (a !== undefined && b !== undefined) await ask.memo(agentComparison, {source, a, b});
  },
};
