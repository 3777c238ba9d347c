/**
 * A tournament: every planned game of a run config (games × grid × lineups ×
 * repetitions) played with bounded concurrency, each finished game handed to
 * a sink as its games row, players rows and turns rows. `writeTournament` is
 * the sink that streams them into the run directory's tables, partitioned by
 * game (run/tables.ts).
 *
 * Hooks: `agentFactory` replaces how a player id becomes an Agent (LLM
 * players), `skip` leaves out games already written (resume), `onGame`
 * receives each result, `signal` stops scheduling new games, `shard` plays
 * one shard of the plan (run/shard.ts).
 */
import type {Agent, SeatContext} from "../contract/agent.js";
import {agentDef} from "../registry/agents.js";
import {plannedGames, plannedPerGame, type PlannedGame} from "./grid.js";
import {playGame} from "./gameLoop.js";
import {gameStreams} from "./chance.js";
import {gameRow, playerRows, type GameRecord} from "./rows.js";
import {RunTables} from "./write.js";
import type {RunConfig} from "./runConfigTypes.js";
import type {Shard} from "./shard.js";
import type {TableWriter} from "../io/tableSet.js";

export type {GameRecord} from "./rows.js";

export interface TournamentOptions {
  agentFactory?: (id: string, context: SeatContext) => Agent;
  skip?: (game: PlannedGame) => boolean;
  onGame?: (record: GameRecord) => void | Promise<void>;
  /**
   * A game that threw (e.g. an LLM endpoint still failing after all retries)
   * is handed here and the tournament goes on; without it the error ends the run.
   */
  onError?: (game: PlannedGame, error: unknown) => void;
  /** Overrides config.concurrency. */
  concurrency?: number;
  /** Once aborted, no further game is started (games in flight go on); see run/interrupt.ts. */
  signal?: AbortSignal;
  /** Asked before each game starts, with the number of games in flight; false stops scheduling (games in flight finish), "wait" asks again when one of them ends. */
  admit?: (inFlight: number) => boolean | "wait";
  /** Play only this shard of the plan (run/shard.ts); default all games. */
  shard?: Shard | null;
}

export {gameRow, playerRows};

const builtinFactory = (id: string, context: SeatContext) => agentDef(id).create(context);

/** Plays every planned game of `config`, handing each result to `options.onGame`. Returns the number played. */
export async function runTournament(config: RunConfig, options: TournamentOptions = {}): Promise<number> {
  const factory = options.agentFactory ?? builtinFactory;
  const limit = Math.max(1, options.concurrency ?? config.concurrency);
  const running = new Set<Promise<void>>();
  let played = 0;
  const playOne = async (g: PlannedGame) => {
    const n = g.lineup.length;
    const seats = g.lineup.map((id, seat) => factory(id, {game: g.def.id, gameId: g.game_id, seat, seatName: g.def.seats.names?.[seat] ?? null, nSeats: n, params: g.params}));
    const streams = gameStreams(config.chance, config.seed, g);
    const {result, turns} = await playGame(g.def, g.params, g.game_id, seats, {seed: config.seed, streams, maxAttempts: config.max_attempts});
    played++;
    await options.onGame?.({game: g.def.id, row: gameRow(g, config, result, seats.map((a) => a.traits)), players: playerRows(g, result), turns});
  };
  let scheduled = 0;
  for (const g of plannedGames(config, options.shard)) {
    if (options.signal) {
      // Built-in games never wait for I/O: yield now and then so that a signal handler can run at all.
      if (++scheduled % 16 === 0) await new Promise((resolve) => setImmediate(resolve));
      if (options.signal.aborted) break;
    }
    if (options.skip?.(g)) continue;
    if (options.admit && !(await admitted(options.admit, running))) break;
    const onError = options.onError;
    const p: Promise<void> = (onError ? playOne(g).catch((error) => onError(g, error)) : playOne(g)).finally(() => running.delete(p));
    running.add(p);
    if (running.size >= limit) await Promise.race(running);
  }
  await Promise.all(running);
  return played;
}

/** Asks `admit` until it decides, waiting for a game in flight to end after each "wait". */
async function admitted(admit: NonNullable<TournamentOptions["admit"]>, running: Set<Promise<void>>): Promise<boolean> {
  let verdict = admit(running.size);
  while (verdict === "wait" && running.size) {
    await Promise.race(running);
    verdict = admit(running.size);
  }
  return verdict === true;
}

export interface TournamentFiles {
  games: number;
  players: number;
  turns: number;
  /** The partition directories written, by game id. */
  partitions: Record<string, string>;
}

/** Runs `config` (or `options.shard` of it) and writes its tables into `outDir` (partitioned by game, then by shard), recording `writer` with them. */
export async function writeTournament(config: RunConfig, outDir: string, {writer, ...options}: Omit<TournamentOptions, "onGame"> & {writer?: TableWriter} = {}): Promise<TournamentFiles> {
  const shard = options.shard ?? null;
  const tables = new RunTables(outDir, config.games.map((g) => g.def), plannedPerGame(config, shard), shard, writer);
  try {
    await runTournament(config, {...options, onGame: (record) => tables.add(record)});
    return await tables.finish();
  } catch (error) {
    tables.abandon();
    throw error;
  }
}
