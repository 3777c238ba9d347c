/**
 * Expanding a run config into games: the Cartesian product of a family's
 * parameter grid (in the grid's key order, last key fastest) and the seatings
 * (ordered agent pairs). Table 1's full grids give 384, 576 and 360 configs.
 */
import {canPlay, agentSpec, builtinAgents} from "../agents/index.js";
import type {Family, ParamsOf, Player} from "../games/types.js";
import type {RunConfig} from "./config.js";

/** Every parameter combination of `grid`, in order. */
export function expandGrid<F extends Family>(family: F, grid: Record<string, readonly unknown[]>): ParamsOf<F>[] {
  let combos: Record<string, unknown>[] = [{family}];
  for (const [param, values] of Object.entries(grid)) {
    const next: Record<string, unknown>[] = [];
    for (const c of combos) for (const v of values) next.push({...c, [param]: v});
    combos = next;
  }
  return combos as unknown as ParamsOf<F>[];
}

/**
 * Ordered [alice, bob] agent pairs for `family` under the config's players and pairs.
 * LLM players (config.llm_players) can take either seat in every family.
 */
export function seatings(config: Pick<RunConfig, "players" | "pairs"> & Partial<Pick<RunConfig, "llm_players">>, family: Family): [string, string][] {
  const ids = config.players === "all" ? builtinAgents.map((a) => a.id) : config.players;
  const llm = new Set((config.llm_players ?? []).map((p) => p.id));
  const plays = (id: string, seat: Player) => llm.has(id) || canPlay(agentSpec(id), family, seat);
  if (Array.isArray(config.pairs)) {
    for (const [a, b] of config.pairs) {
      if (!plays(a, "alice")) throw new Error(`pairs: agent "${a}" cannot play Alice in ${family}`);
      if (!plays(b, "bob")) throw new Error(`pairs: agent "${b}" cannot play Bob in ${family}`);
    }
    return config.pairs.map(([a, b]) => [a, b]);
  }
  if (config.pairs === "self") return ids.filter((id) => plays(id, "alice") && plays(id, "bob")).map((id) => [id, id]);
  const alices = ids.filter((id) => plays(id, "alice"));
  const bobs = ids.filter((id) => plays(id, "bob"));
  return alices.flatMap((a) => bobs.map((b) => [a, b] as [string, string]));
}

export interface PlannedGame<F extends Family = Family> {
  family: F;
  params: ParamsOf<F>;
  config_id: number;
  alice: string;
  bob: string;
  repetition: number;
  game_id: string;
}

/** Every game a run plays, lazily, in a stable order (family, config, pair, repetition). */
export function* plannedGames(config: RunConfig): Generator<PlannedGame> {
  for (const family of config.families) {
    const params = expandGrid(family, config.grids[family]!);
    const pairs = seatings(config, family);
    for (let c = 0; c < params.length; c++) {
      for (const [alice, bob] of pairs) {
        for (let r = 0; r < config.games_per_pair; r++) {
          yield {family, params: params[c], config_id: c, alice, bob, repetition: r, game_id: `${family}-${c}-${alice}-vs-${bob}-${r}`};
        }
      }
    }
  }
}

/** Number of games `plannedGames` yields. */
export function countGames(config: RunConfig): number {
  let n = 0;
  for (const family of config.families) {
    n += expandGrid(family, config.grids[family]!).length * seatings(config, family).length * config.games_per_pair;
  }
  return n;
}
