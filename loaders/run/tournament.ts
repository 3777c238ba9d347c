/**
 * A tournament: every planned game of a run config (grid × seatings ×
 * repetitions) played with bounded concurrency, each finished game handed to
 * a sink as one games row plus its turns rows. `writeTournament` is the sink
 * that streams them to <out>/games.parquet and <out>/turns.parquet.
 *
 * Hooks for later work (resume, caching, LLM players): `agentFactory`
 * replaces how an agent id becomes an Agent, `skip` lets a caller leave out
 * games already written, and `onGame` receives each result.
 */
import {agentSpec} from "../agents/index.js";
import {GLEE_GAMES, GLEE_TURNS, type GameRow, type TurnRow} from "../games/schema.js";
import type {Agent, AgentContext, Outcome, Params} from "../games/types.js";
import {valuations} from "../games/negotiation.js";
import {gameFamily} from "../games/index.js";
import {plannedGames, type PlannedGame} from "./grid.js";
import {playGame} from "./play.js";
import {ParquetStage} from "./write.js";
import {beginTableSet} from "../io/tableSet.js";
import type {RunConfig} from "./config.js";

export interface TournamentOptions {
  agentFactory?: (id: string, context: AgentContext) => Agent;
  skip?: (game: PlannedGame) => boolean;
  onGame?: (game: GameRow, turns: TurnRow[]) => void | Promise<void>;
  /**
   * A game that threw (e.g. an LLM endpoint still failing after all retries)
   * is handed here and the tournament goes on; without it the error ends the run.
   */
  onError?: (game: PlannedGame, error: unknown) => void;
  /** Overrides config.concurrency. */
  concurrency?: number;
  /** Once aborted, no further game is started (games in flight go on); see run/interrupt.ts. */
  signal?: AbortSignal;
}

const builtinFactory = (id: string, context: AgentContext) => agentSpec(id).create(context);

/** Sets the typed parameter columns of a games row (schema.ts) on `row`, nulls left out. */
export function setParamColumns(row: Record<string, unknown>, params: Params, horizonCap: number): void {
  row.money = params.money;
  if (params.horizon !== "inf") row.horizon = params.horizon;
  row.horizon_cap = horizonCap;
  row.complete_information = params.complete_information;
  switch (params.family) {
    case "bargaining":
      row.messages = params.messages;
      row.delta_a = params.delta_a;
      row.delta_b = params.delta_b;
      return;
    case "negotiation": {
      row.messages = params.messages;
      row.factor_a = params.factor_a;
      row.factor_b = params.factor_b;
      const v = valuations(params);
      row.value_a = v.value_a;
      row.value_b = v.value_b;
      return;
    }
    case "persuasion":
      row.messages = params.message_type === "text";
      row.prior = params.prior;
      row.value_high = params.value_high;
      row.message_type = params.message_type;
      row.buyer_type = params.buyer_type;
  }
}

/** A games row from a planned game and its outcome. */
export function gameRow(planned: PlannedGame, config: Pick<RunConfig, "run_id" | "seed">, outcome: Outcome, horizonCap: number): GameRow {
  const row: GameRow = {
    game_id: planned.game_id,
    source: "simulated",
    family: planned.family,
    run_id: config.run_id,
    seed: config.seed,
    config_id: planned.config_id,
    repetition: planned.repetition,
    alice_agent: planned.alice,
    bob_agent: planned.bob,
  };
  setParamColumns(row, planned.params, horizonCap);
  const o = outcome as unknown as Record<string, unknown>;
  for (const k in o) if (o[k] !== null && o[k] !== undefined) row[k] = o[k];
  return row;
}

/** Plays every planned game of `config`, handing each result to `options.onGame`. Returns the number played. */
export async function runTournament(config: RunConfig, options: TournamentOptions = {}): Promise<number> {
  const factory = options.agentFactory ?? builtinFactory;
  const limit = Math.max(1, options.concurrency ?? config.concurrency);
  const running = new Set<Promise<void>>();
  let played = 0;
  const playOne = async (g: PlannedGame) => {
    const agents = {
      alice: factory(g.alice, {family: g.family, player: "alice", gameId: g.game_id}),
      bob: factory(g.bob, {family: g.family, player: "bob", gameId: g.game_id}),
    };
    const {outcome, turns} = await playGame(g.family, g.params, g.game_id, agents, {seed: config.seed, maxAttempts: config.max_attempts});
    const cap = g.params.horizon === "inf" ? undefined : g.params.horizon;
    const horizonCap = cap ?? horizonCapOf(g);
    played++;
    await options.onGame?.(gameRow(g, config, outcome, horizonCap), turns);
  };
  let scheduled = 0;
  for (const g of plannedGames(config)) {
    if (options.signal) {
      // Built-in games never wait for I/O: yield now and then so that a signal handler can run at all.
      if (++scheduled % 16 === 0) await new Promise((resolve) => setImmediate(resolve));
      if (options.signal.aborted) break;
    }
    if (options.skip?.(g)) continue;
    const onError = options.onError;
    const p: Promise<void> = (onError ? playOne(g).catch((error) => onError(g, error)) : playOne(g)).finally(() => running.delete(p));
    running.add(p);
    if (running.size >= limit) await Promise.race(running);
  }
  await Promise.all(running);
  return played;
}

const horizonCapOf = (g: PlannedGame) => gameFamily(g.family).infiniteCap;

export interface TournamentFiles {
  games: number;
  turns: number;
  gamesPath: string;
  turnsPath: string;
}

/** Runs `config` and writes <outDir>/games.parquet and <outDir>/turns.parquet. */
export async function writeTournament(config: RunConfig, outDir: string, options: Omit<TournamentOptions, "onGame"> = {}): Promise<TournamentFiles> {
  const set = beginTableSet(outDir); // the two tables are replaced together (io/tableSet.ts)
  const games = new ParquetStage(set.path("games"), GLEE_GAMES);
  const turns = new ParquetStage(set.path("turns"), GLEE_TURNS);
  try {
    await runTournament(config, {
      ...options,
      onGame: (row, rows) => {
        games.add(row);
        for (const t of rows) turns.add(t);
      },
    });
    await games.finish();
    await turns.finish();
    const [gamesPath, turnsPath] = await set.commit({games: games.count, turns: turns.count});
    return {games: games.count, turns: turns.count, gamesPath, turnsPath};
  } catch (error) {
    games.abandon();
    turns.abandon();
    set.abandon();
    throw error;
  }
}
