/**
 * Expanding a run config into games: for each game, the Cartesian product
 * of its parameter grid (in declaration order, last parameter fastest) ×
 * the lineups (who sits in which seat) × repetitions. Table 1's full GLEE
 * grids give 384, 576 and 360 configurations.
 *
 * Game ids are `<stem>-<config>-<lineup>-<repetition>`: the stem is the
 * game's (GLEE keeps its family name, so ids and seeds of earlier runs are
 * unchanged), the lineup its players joined by "-vs-", or `<id>-x<n>` when
 * one player takes all n > 2 seats.
 */
import type {GameDef, ParamValue, Params} from "../contract/game.js";
import {agents, agentDef, canSit} from "../registry/agents.js";
import {ConfigError, lineupsOf, type GameRunSpec, type RunConfig} from "./runConfigTypes.js";
import {shardCount, type Shard} from "./shard.js";

/** Lineups one game of a run may have. */
const MAX_LINEUPS = 100_000;

/** Every parameter combination of `grid`, in order. */
export function expandGrid(grid: Record<string, readonly ParamValue[]>): Params[] {
  let combos: Params[] = [{}];
  for (const [param, values] of Object.entries(grid)) {
    const next: Params[] = [];
    for (const c of combos) for (const v of values) next.push({...c, [param]: v});
    combos = next;
  }
  return combos;
}

type LineupConfig = Pick<RunConfig, "players" | "lineups"> & Partial<Pick<RunConfig, "llm_players" | "lineups_by_game">>;

/** Who may take `seat`: LLM players sit anywhere; built-in agents where they can. */
function sits(config: LineupConfig, spec: GameRunSpec, id: string, seat: number): boolean {
  if ((config.llm_players ?? []).some((p) => p.id === id)) return true;
  return canSit(agentDef(id), spec.def.id, seat, spec.n_players);
}

/** The lineups (one player id per seat) of one game of the run. */
export function lineups(config: LineupConfig, spec: GameRunSpec): string[][] {
  const n = spec.n_players;
  const llm = (config.llm_players ?? []).map((p) => p.id);
  const ids = config.players === "all" ? agents.filter((a) => Array.from({length: n}, (_, s) => s).some((s) => canSit(a, spec.def.id, s, n))).map((a) => a.id) : config.players;
  const mode = lineupsOf(config, spec.def.id) ?? (n === 2 ? "all" : "self");
  if (Array.isArray(mode)) return mode.map((l) => [...l]);
  if (mode === "self") return ids.filter((id) => Array.from({length: n}, (_, s) => sits(config, spec, id, s)).every(Boolean)).map((id) => Array(n).fill(id));
  // "all": every ordered assignment (a Cartesian product over seats).
  const perSeat = Array.from({length: n}, (_, s) => ids.filter((id) => sits(config, spec, id, s) || llm.includes(id)));
  const size = perSeat.reduce((k, here) => k * here.length, 1);
  if (size > MAX_LINEUPS) {
    throw new ConfigError(`lineups: "all" gives ${size.toLocaleString("en")} lineups for ${n} seats of ${spec.def.id}; at most ${MAX_LINEUPS.toLocaleString("en")} (use "self" or list the lineups)`);
  }
  let out: string[][] = [[]];
  for (const here of perSeat) out = out.flatMap((prefix) => here.map((id) => [...prefix, id]));
  return out;
}

export interface PlannedGame {
  def: GameDef;
  params: Params;
  config_id: number;
  /** Player id per seat. */
  lineup: string[];
  repetition: number;
  game_id: string;
}

/** The lineup's part of a game id. */
export function lineupLabel(lineup: readonly string[]): string {
  if (lineup.length > 2 && lineup.every((id) => id === lineup[0])) return `${lineup[0]}-x${lineup.length}`;
  return lineup.join("-vs-");
}

import {idStem} from "../contract/game.js";

export {idStem};

/** A game's id from its stem, configuration, lineup label and repetition (the module comment's scheme). */
export const gameIdOf = (stem: string, config: number, label: string, repetition: number): string => `${stem}-${config}-${label}-${repetition}`;

/**
 * Every game a run plays, lazily, in a stable order (game, config, lineup,
 * repetition); with `shard`, only those at positions ≡ shard.index modulo
 * shard.count in that order (run/shard.ts). Ids and seeds do not depend on the shard.
 */
export function* plannedGames(config: RunConfig, shard: Shard | null = null): Generator<PlannedGame> {
  let position = -1;
  for (const spec of config.games) {
    const params = expandGrid(spec.grid);
    const seatings = lineups(config, spec);
    for (let c = 0; c < params.length; c++) {
      const stem = idStem(spec.def, params[c]);
      for (const lineup of seatings) {
        const label = lineupLabel(lineup);
        for (let r = 0; r < config.games_per_lineup; r++) {
          if (shard && ++position % shard.count !== shard.index) continue;
          yield {def: spec.def, params: params[c], config_id: c, lineup, repetition: r, game_id: gameIdOf(stem, c, label, r)};
        }
      }
    }
  }
}

/** Games `plannedGames` yields (for `shard`, or all), per game id. */
export function plannedPerGame(config: RunConfig, shard: Shard | null = null): Map<string, number> {
  const counts = new Map<string, number>();
  let start = 0;
  for (const spec of config.games) {
    const configs = Object.values(spec.grid).reduce((k, values) => k * values.length, 1);
    const k = configs * lineups(config, spec).length * config.games_per_lineup;
    counts.set(spec.def.id, (counts.get(spec.def.id) ?? 0) + (shard ? shardCount(start, k, shard) : k));
    start += k;
  }
  return counts;
}

/** Number of games `plannedGames` yields (for `shard`, or all). */
export function countGames(config: RunConfig, shard: Shard | null = null): number {
  let n = 0;
  for (const k of plannedPerGame(config, shard).values()) n += k;
  return n;
}
