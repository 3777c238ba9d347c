/**
 * Checks on a run config beyond its shape (runConfig.ts parses the shape): the
 * limits of what games and tables can represent, ids listed once, and a
 * plan that has games. runConfig.ts reports each like every other config error:
 * one line naming the key, exit code 2, before any game is played.
 */
import type {RunConfig} from "./runConfigTypes.js";
import {lineups} from "./grid.js";

/**
 * Run-level limits, each with the reason it is where it is. Parameter
 * ranges live with each game's parameter declaration (e.g. GLEE's money ≤
 * 1e12 in loaders/papers/glee/games.ts).
 */
export const LIMITS = {
  // The random streams derive from the seed as an unsigned 32-bit integer
  // (src/lib/rng.ts), so seeds outside [0, 2^32) would repeat others' games.
  seed: {min: 0, max: 2 ** 32 - 1},
  // repetition is an INTEGER column.
  games_per_lineup: {max: 2 ** 31 - 1},
  // Games in flight at once (each holds its agents and turns in memory).
  concurrency: {max: 1000},
  // Answers to one decision before the game's fallback (each may be an LLM call).
  max_attempts: {max: 100},
} as const;

export {short} from "../contract/params.js";

/** The first entry of `list` equal (as JSON) to an earlier one: {key, message} naming both indices. */
export function firstRepeat(list: readonly unknown[], key: string): {key: string; message: string} | null {
  const seen = new Map<string, number>();
  for (let i = 0; i < list.length; i++) {
    const text = JSON.stringify(list[i]);
    const earlier = seen.get(text);
    if (earlier !== undefined) return {key: `${key}[${i}]`, message: `${text} is listed twice (also ${key}[${earlier}])`};
    seen.set(text, i);
  }
  return null;
}

const count = (n: number, noun: string) => `${n.toLocaleString("en-US")} ${noun}${n === 1 ? "" : "s"}`;

/**
 * How many games `config` plans, and how (per game: configurations ×
 * lineups × games per lineup), from list lengths, so a huge grid is counted
 * without being expanded.
 */
export function describePlan(config: RunConfig): {games: number; text: string} {
  let games = 0;
  const parts: string[] = [];
  for (const spec of config.games) {
    const configurations = Object.values(spec.grid).reduce((n, values) => n * values.length, 1);
    const seated = lineups(config, spec).length;
    games += configurations * seated * config.games_per_lineup;
    parts.push(`${spec.def.id}: ${count(configurations, "configuration")} × ${count(seated, "lineup")} × ${count(config.games_per_lineup, "game")} per lineup`);
  }
  return {games, text: `plans ${count(games, "game")} (${parts.join("; ")})`};
}
