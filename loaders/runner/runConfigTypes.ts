/**
 * What a parsed run configuration holds (runConfig.ts parses the JSON) and
 * the error that names a bad key. They sit below the modules that check and
 * expand a configuration (runConfig.ts, runConfigChecks.ts, grid.ts), so
 * those import them without importing one another in a circle.
 */
import type {GameDef, ParamValue} from "../contract/game.js";
import type {LlmPlayerSpec} from "../llm/playerSpec.js";
import type {GeneralisationProtocol} from "../../src/lib/generalisation.js";
import type {ChanceScheme} from "../../src/lib/sharedChance.js";

export interface GameRunSpec {
  def: GameDef;
  /** Parameter -> values, for every parameter in declaration order (complete, validated). */
  grid: Record<string, ParamValue[]>;
  n_players: number;
}

export interface RunConfig {
  run_id: string;
  description: string | null;
  games: GameRunSpec[];
  players: "all" | string[];
  /** The LLM players among `players` (by id), with their validated settings. */
  llm_players: LlmPlayerSpec[];
  lineups: "all" | "self" | null | string[][];
  /** Per game id, lineups that replace `lineups` for that game (a config with several games may key `lineups` by game). */
  lineups_by_game?: Record<string, LineupsSpec>;
  games_per_lineup: number;
  seed: number;
  /** How games draw chance (runner/chance.ts): "common" random numbers, or today's "per-game" streams. */
  chance: ChanceScheme;
  concurrency: number;
  max_attempts: number;
  /** Focal agents, background co-players and held-out configurations (generalisationConfig.ts); absent when the config declares none. */
  generalisation?: GeneralisationProtocol;
}

export type LineupsSpec = "all" | "self" | string[][];

/** The lineups entry that applies to `game`: its own, else the config's. */
export const lineupsOf = (config: Pick<RunConfig, "lineups" | "lineups_by_game">, game: string): RunConfig["lineups"] => config.lineups_by_game?.[game] ?? config.lineups;

export class ConfigError extends Error {}
