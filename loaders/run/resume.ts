/**
 * A resumable tournament: `runTournament` with per-game checkpoints, the LLM
 * response cache, a progress line, and games.parquet / turns.parquet rebuilt
 * from the checkpoints at the end (see checkpoint.ts for why that makes
 * kill-and-rerun safe).
 *
 * Layout of <out>:
 *   games.parquet, turns.parquet     the results (every finished game)
 *   .parley/run-fingerprint          which run definition the directory holds
 *   .parley/checkpoints/<game>.json  one per finished game (names: checkpoint.ts)
 *   .parley/tables/                  the tables' generations (io/tableSet.ts)
 *   .parley/llm-cache/               LLM responses (unless --cache moves it)
 *
 * A game whose LLM call failed for good (endpoint down after all retries)
 * is reported, counted as an error and not checkpointed, so the next run
 * plays it again; the other games go on.
 */
import {join} from "node:path";
import {GLEE_GAMES, GLEE_TURNS} from "../games/schema.js";
import {llmStats} from "../agents/llm/stats.js";
import {redactSecrets} from "../agents/llm/secrets.js";
import {Checkpoints, claimDirectory, fingerprint} from "./checkpoint.js";
import {ProgressLine} from "./progress.js";
import {answerDefining, llmSeats} from "./llmPlayers.js";
import {countGames, plannedGames} from "./grid.js";
import {runTournament} from "./tournament.js";
import {RunInterrupted, settleOrGiveUp, stopAgentsOnAbort} from "./interrupt.js";
import {ParquetStage} from "./write.js";
import {beginTableSet, removeStaleWrites} from "../io/tableSet.js";
import type {RunConfig} from "./config.js";

export interface ResumableOptions {
  /** Overrides config.concurrency (games played at once). */
  concurrency?: number;
  /** LLM response cache directory; default <out>/.parley/llm-cache. */
  cacheDir?: string;
  /** Progress line stream; null for none. Default stderr. */
  progress?: NodeJS.WriteStream | null;
  /** Stops the run when aborted: finished games are still written (run/interrupt.ts). */
  signal?: AbortSignal;
  /** How long, once `signal` is aborted, to wait for model calls in flight (default 3 s). */
  graceMs?: number;
}

export interface ResumableResult {
  planned: number;
  /** Finished by an earlier run (checkpoint found). */
  resumed: number;
  /** Finished by this run. */
  played: number;
  /** Failed in this run (not checkpointed; a re-run plays them). */
  failed: {game_id: string; error: string}[];
  games: number;
  turns: number;
  gamesPath: string;
  turnsPath: string;
}

/** What decides the games of a run and their answers; `concurrency` and LLM limits do not. */
export function runFingerprint(config: RunConfig): string {
  const {concurrency: _c, llm_players, ...rest} = config;
  return fingerprint({...rest, llm_players: llm_players.map(answerDefining)});
}

export async function runResumable(config: RunConfig, outDir: string, options: ResumableOptions = {}): Promise<ResumableResult> {
  const state = join(outDir, ".parley");
  removeStaleWrites(outDir); // now, not only when the tables are written: a killed run's staged rows can be large
  const checkpoints = new Checkpoints(join(state, "checkpoints"));
  await claimDirectory(state, runFingerprint(config));
  const seats = llmSeats(config.llm_players, options.cacheDir ?? join(state, "llm-cache"), config.seed);

  const planned = countGames(config);
  let resumed = 0;
  for (const g of plannedGames(config)) if (checkpoints.has(g.game_id)) resumed++;
  const counts = {total: planned, skipped: resumed, finished: 0, failed: 0, ruleBreaks: 0};
  const progress = options.progress === null ? null : new ProgressLine(counts, llmStats, options.progress ?? process.stderr);
  const failed: ResumableResult["failed"] = [];

  const signal = options.signal;
  let closed = false; // past the grace period: games still in flight are abandoned, not recorded
  try {
    const tournament = runTournament(config, {
      concurrency: options.concurrency,
      agentFactory: signal ? stopAgentsOnAbort(seats.factory, signal) : seats.factory,
      skip: (g) => checkpoints.has(g.game_id),
      signal,
      onGame: async (game, turns) => {
        if (closed) return;
        await checkpoints.save(game, turns);
        counts.finished++;
        counts.ruleBreaks += turns.filter((t) => t.rule_break === true).length;
        progress?.update();
      },
      onError: (g, error) => {
        if (error instanceof RunInterrupted) return; // not failed: replayed on resume
        counts.failed++;
        failed.push({game_id: g.game_id, error: redactSecrets((error as Error).message ?? String(error))});
        progress?.update();
      },
    });
    await (signal ? settleOrGiveUp(tournament, signal, options.graceMs ?? 3000) : tournament);
    closed = true;
  } finally {
    progress?.finish();
  }

  // Rebuild the tables from every checkpoint, in planned order: one entry per game id, so no duplicates.
  const set = beginTableSet(outDir); // the two tables are replaced together (io/tableSet.ts)
  const games = new ParquetStage(set.path("games"), GLEE_GAMES);
  const turns = new ParquetStage(set.path("turns"), GLEE_TURNS);
  let paths: string[];
  try {
    for (const g of plannedGames(config)) {
      const saved = checkpoints.read(g.game_id);
      if (!saved) continue;
      games.add(saved.game);
      for (const t of saved.turns) turns.add(t);
    }
    await games.finish();
    await turns.finish();
    paths = await set.commit({games: games.count, turns: turns.count});
  } catch (error) {
    games.abandon();
    turns.abandon();
    set.abandon();
    throw error;
  }
  return {planned, resumed, played: counts.finished, failed, games: games.count, turns: turns.count, gamesPath: paths[0]!, turnsPath: paths[1]!};
}
