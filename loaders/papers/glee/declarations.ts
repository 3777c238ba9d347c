/**
 * What GLEE's three game definitions (bargaining.ts, negotiation.ts,
 * persuasion.ts) declare alike: the citation, the parameters they share
 * (Table 1 grids, the paper's defaults, Table 8's regression baselines), the
 * games and turns columns beyond the common ones (the familiar wide GLEE
 * tables, tables.ts), and the parameter columns every family's games row
 * starts with.
 */
import type {Column} from "../../io/schema.js";
import type {Citation, ParamSpec} from "../../contract/game.js";
import {GLEE_GAMES, GLEE_TURNS} from "./tables.js";
import type {Family, Horizon} from "./types.js";
import {PLAYERS} from "./types.js";

export const GLEE_CITATION: Citation = {
  short: "GLEE (Shapira et al. 2024)",
  title: "GLEE: A Unified Framework and Benchmark for Language-based Economic Environments",
  authors: "Shapira, Madmon, Reinman, Amouyal, Reichart, Tennenholtz",
  year: 2024,
  section: "§2, Table 1",
};

/** Seat 0 is Alice (moves first; seller in negotiation and persuasion), seat 1 Bob. */
export const GLEE_SEATS = {min: 2, max: 2, default: 2, names: PLAYERS};

// horizon, rounds and turn are INTEGER columns, and a game keeps its turns in memory until it ends.
export const horizonParam = (grid: readonly Horizon[], def: Horizon, allowInfinite: boolean): ParamSpec => ({
  name: "horizon", label: "T, number of rounds", type: "horizon", allowInfinite, min: 1, max: 10_000, default: def, grid, baseline: def,
  doc: allowInfinite ? '"inf": a long horizon the players are not told (played up to the family\'s cap)' : undefined,
});
export const boolParam = (name: string, label: string, baseline: boolean): ParamSpec => ({name, label, type: "boolean", default: baseline, grid: [true, false], baseline});
export const deltaParam = (name: string, label: string): ParamSpec => ({name, label, type: "number", min: 0, max: 1, exclusiveMin: true, default: 0.9, grid: [0.8, 0.9, 0.95, 1], baseline: 0.9});
/**
 * M. Prompts show amounts to the cent: up to 1e12 every cent is exact in a
 * double (2^53 ≈ 9.0e15 cents) and amounts print as digits (toFixed switches
 * to exponent notation at 1e21, which broke the prompts); persuasion's
 * utilities M·(k(v−1) − low) stay finite.
 */
export const moneyParam: ParamSpec = {name: "money", label: "M, money", type: "number", min: 0.01, max: 1e12, default: 1e4, grid: [1e2, 1e4, 1e6], baseline: 1e4};

/** Columns a GLEE games row carries beyond the common ones (the familiar wide GLEE table). */
const GAME_COLUMNS: readonly Column[] = GLEE_GAMES.columns.filter((c) => !["game_id", "source", "run_id", "seed", "config_id", "repetition", "rounds", "ended_by"].includes(c.name));
const TURN_COLUMNS: readonly Column[] = GLEE_TURNS.columns.filter((c) => !["game_id", "turn", "round", "message", "reasoning", "raw", "rule_break", "rule_break_reason", "attempt", "input_tokens", "output_tokens", "latency_ms", "cached_input_tokens", "reasoning_tokens", "cache_write_tokens"].includes(c.name));
export const GLEE_COLUMNS = {games: GAME_COLUMNS, players: [], turns: TURN_COLUMNS};

/**
 * The parameter columns every GLEE games row starts with (schema.ts), nulls
 * left out; each family adds its own after them. Built in place (no
 * spreads): this runs once per game of full-grid runs.
 */
export function commonParamColumns(family: Family, params: {money: number; horizon: Horizon; complete_information: boolean}, horizonCap: number): Record<string, unknown> {
  const row: Record<string, unknown> = {family, money: params.money};
  if (params.horizon !== "inf") row.horizon = params.horizon;
  row.horizon_cap = horizonCap;
  row.complete_information = params.complete_information;
  return row;
}
