/**
 * Checks on a run config beyond its shape (config.ts parses the shape): values
 * the games and the tables can represent, ids listed once, and a plan with
 * games in every family it names. Each check returns the first problem as
 * {key, message} (or null), and config.ts reports it like every other config
 * error: one line naming the key, exit code 2, before any game is played.
 */
import {agentSpec, canPlay} from "../agents/index.js";
import type {Family, Player} from "../games/types.js";
import type {RunConfig} from "./config.js";

export interface ConfigProblem {
  key: string;
  message: string;
}

/**
 * The largest (and smallest) values a run config accepts, each with the
 * reason it is where it is (README, *GLEE tournaments*).
 */
export const LIMITS = {
  // Prompts show amounts to the cent. Up to 1e12 every cent is exact in a
  // double (2^53 ≈ 9.0e15 cents) and amounts print as digits (toFixed
  // switches to exponent notation at 1e21, which broke the prompts);
  // persuasion's utilities M·(k(v−1) − low) stay finite.
  money: {min: 0.01, max: 1e12},
  // Negotiation's valuations M·F and persuasion's worth M·v stay ≤ 1e15.
  factor: {max: 1000},
  value_high: {max: 1000},
  // horizon, rounds and turn are INTEGER columns, and a game keeps its turns
  // in memory until it ends: 10,000 stages × 2 seats × max_attempts rows at most.
  horizon: {max: 10_000},
  // The random streams derive from the seed as an unsigned 32-bit integer
  // (src/lib/rng.ts), so seeds outside [0, 2^32) would repeat others' games.
  seed: {min: 0, max: 2 ** 32 - 1},
  // repetition is an INTEGER column.
  games_per_pair: {max: 2 ** 31 - 1},
  // Games in flight at once (each holds its agents and turns in memory).
  concurrency: {max: 1000},
  // Answers to one decision before a game is aborted (each may be an LLM call).
  max_attempts: {max: 100},
} as const;

/** Planned games above which `parley run` asks for --yes before playing. */
export const CONFIRM_ABOVE = 1_000_000;

/** Why a number-valued grid parameter is out of range, or null. */
export function gridValueProblem(param: string, value: number): string | null {
  const limit =
    param === "money" ? LIMITS.money : param === "factor_a" || param === "factor_b" ? LIMITS.factor : param === "value_high" ? LIMITS.value_high : param === "horizon" ? LIMITS.horizon : null;
  if (!limit) return null;
  const min = "min" in limit ? limit.min : -Infinity;
  if (value < min || value > limit.max) return `expected a value in [${min === -Infinity ? "0" : min}, ${short(limit.max)}], got ${short(value)}`;
  return null;
}

/** 1e12 rather than 1000000000000 or 1e+12. */
const short = (x: number) => (Math.abs(x) >= 1e6 && Number.isInteger(Math.log10(Math.abs(x))) ? x.toExponential().replace("e+", "e") : String(x).replace("e+", "e"));

/** The first entry of `list` equal (as JSON) to an earlier one, as a problem naming both indices under `key`. */
export function firstRepeat(list: readonly unknown[], key: string): ConfigProblem | null {
  const seen = new Map<string, number>();
  for (let i = 0; i < list.length; i++) {
    const text = JSON.stringify(list[i]);
    const earlier = seen.get(text);
    if (earlier !== undefined) return {key: `${key}[${i}]`, message: `${text} is listed twice (also ${key}[${earlier}])`};
    seen.set(text, i);
  }
  return null;
}

const SEAT: Record<Player, string> = {alice: "Alice's", bob: "Bob's"};

/** Whether player `id` (a built-in agent, or one of the config's LLM players, who sit anywhere) can take `seat` in `family`. */
function sits(config: Pick<RunConfig, "llm_players">, id: string, family: Family, seat: Player): boolean {
  return config.llm_players.some((p) => p.id === id) || canPlay(agentSpec(id), family, seat);
}

/**
 * Why the config's players and pairs give no game, or an impossible one, in
 * some family: an explicit pair whose agent cannot sit in its seat, or a
 * family in which no listed player can take a seat. Null when every family
 * has games.
 */
export function planProblem(config: Pick<RunConfig, "families" | "players" | "pairs" | "llm_players">): ConfigProblem | null {
  for (const family of config.families) {
    if (Array.isArray(config.pairs)) {
      for (let i = 0; i < config.pairs.length; i++) {
        const [alice, bob] = config.pairs[i];
        if (!sits(config, alice, family, "alice")) return {key: `pairs[${i}][0]`, message: `agent "${alice}" cannot sit in Alice's seat in ${family}`};
        if (!sits(config, bob, family, "bob")) return {key: `pairs[${i}][1]`, message: `agent "${bob}" cannot sit in Bob's seat in ${family}`};
      }
      continue;
    }
    if (config.players === "all") continue; // every family has built-in agents for both seats
    const ids = config.players;
    if (config.pairs === "self") {
      if (!ids.some((id) => sits(config, id, family, "alice") && sits(config, id, family, "bob"))) {
        return {key: "pairs", message: `"self" plans no ${family} game: no listed player can sit in both seats of ${family}`};
      }
      continue;
    }
    for (const seat of ["alice", "bob"] as const) {
      if (!ids.some((id) => sits(config, id, family, seat))) return {key: "players", message: `no listed player can sit in ${SEAT[seat]} seat in ${family}, so the run plans no ${family} game`};
    }
  }
  return null;
}

/**
 * How many games `config` plans, and how (per family: configurations × pairs
 * × games per pair), from the list lengths alone, so a huge grid is counted
 * without being expanded.
 */
export function describePlan(config: Pick<RunConfig, "families" | "grids" | "players" | "pairs" | "llm_players" | "games_per_pair">, seatings: (family: Family) => number): {games: number; text: string} {
  let games = 0;
  const parts: string[] = [];
  for (const family of config.families) {
    const configurations = Object.values(config.grids[family]!).reduce((n, values) => n * values.length, 1);
    const pairs = seatings(family);
    games += configurations * pairs * config.games_per_pair;
    parts.push(`${family}: ${count(configurations, "configuration")} × ${count(pairs, "pair")} × ${count(config.games_per_pair, "game")} per pair`);
  }
  return {games, text: `plans ${count(games, "game")} (${parts.join("; ")})`};
}

const count = (n: number, noun: string) => `${n.toLocaleString("en-US")} ${noun}${n === 1 ? "" : "s"}`;
