/**
 * A resumable tournament: `runTournament` with per-game checkpoints, the LLM
 * response cache, a progress line, and games.parquet / turns.parquet rebuilt
 * from the checkpoints at the end (see checkpoint.ts for why that makes
 * kill-and-rerun safe).
 *
 * Layout of <out>:
 *   game=<id>/{games,players,turns}.parquet   the results (every finished game; run/tables.ts)
 *   .parley/run-fingerprint          which run definition the directory holds
 *   .parley/checkpoints/<game>.json  one per finished game (names: checkpoint.ts)
 *   .parley/tables/                  the tables' generations (io/tableSet.ts)
 *   .parley/llm-cache/               LLM responses (unless --cache moves it)
 * A shard (run/shard.ts) keeps the same state in .parley/shard=<i>/ and
 * writes game=<id>/shard=<i>/.
 *
 * A game whose LLM call failed for good (endpoint down after all retries)
 * is reported, counted as an error and not checkpointed, so the next run
 * plays it again; the other games go on.
 */
import {previousSpend, saveSpend, spentNow, unpriced, type PriceTable} from "./cost.js";
import {join} from "node:path";
import {llmStats} from "../llm/stats.js";
import {redactSecrets} from "../llm/secrets.js";
import {Checkpoints, claimDirectory, fingerprint} from "./checkpoint.js";
import {ProgressLine} from "./progress.js";
import {answerDefining, llmSeats} from "./llmPlayers.js";
import {countGames, plannedGames} from "./grid.js";
import {runTournament} from "./tournament.js";
import {RunTables} from "./write.js";
import {RunInterrupted, settleOrGiveUp, stopAgentsOnAbort} from "./interrupt.js";
import {removeStaleWrites, type TableWriter} from "../io/tableSet.js";
import type {RunConfig} from "./runConfigTypes.js";
import {runStateDir, type Shard} from "./shard.js";

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
  /** Play only this shard of the plan, with its own state (run/shard.ts). */
  shard?: Shard | null;
  /** Prices of the LLM players' models (run/cost.ts): cost on the progress line and in the result. */
  prices?: PriceTable;
  /**
   * Budget in US dollars for the whole run (earlier processes' spend
   * included): no new game starts when the spend plus the projected cost of
   * the games in flight and the new one would exceed it.
   */
  maxCost?: number | null;
  /** Recorded with the tables (io/tableSet.ts). */
  writer?: TableWriter;
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
  players: number;
  turns: number;
  /** The partition directories written, by game id. */
  partitions: Record<string, string>;
  /** Dollars spent on the run so far (all processes), null without prices; per player for this process. */
  cost: {total: number; players: Record<string, number>} | null;
  /** True when --max-cost stopped scheduling before every game was played. */
  budgetStopped: boolean;
}

/** What decides the games of a run and their answers; `concurrency` and LLM limits do not. */
export function runFingerprint(config: RunConfig): string {
  // The generalisation protocol says how games are read, not which are played.
  const {concurrency: _c, llm_players, games, description: _d, generalisation: _g, ...rest} = config;
  return fingerprint({...rest, games: games.map((g) => ({game: g.def.id, grid: g.grid, n_players: g.n_players})), llm_players: llm_players.map(answerDefining)});
}

export async function runResumable(config: RunConfig, outDir: string, options: ResumableOptions = {}): Promise<ResumableResult> {
  const shard = options.shard ?? null;
  const state = runStateDir(outDir, shard);
  removeStaleWrites(outDir, shard ? {state} : {}); // now, not only when the tables are written: a killed run's staged rows can be large
  const checkpoints = new Checkpoints(join(state, "checkpoints"));
  await claimDirectory(state, runFingerprint(config));
  const planned = countGames(config, shard);
  let resumed = 0;
  for (const g of plannedGames(config, shard)) if (checkpoints.has(g.game_id)) resumed++;
  const counts = {total: planned, skipped: resumed, finished: 0, failed: 0, ruleBreaks: 0};
  const prices = options.prices ?? new Map();
  const priced = config.llm_players.length > 0 && prices.size > 0 && unpriced(config.llm_players, prices).length < config.llm_players.length;
  const earlier = previousSpend(state);
  const spend = () => earlier + spentNow(config.llm_players, prices).total;
  const progress = options.progress === null ? null : new ProgressLine(counts, llmStats, options.progress ?? process.stderr, undefined, priced ? () => `cost $${spend().toFixed(2)}` : null);
  let budgetStopped = false;
  const maxCost = options.maxCost ?? null;
  // Projected cost of a game: this process's spend per finished game (spend of games still in flight included, so it errs high).
  const admit = (inFlight: number): boolean => {
    if (maxCost === null) return true;
    const spentHere = spentNow(config.llm_players, prices).total;
    const perGame = counts.finished > 0 ? spentHere / counts.finished : 0;
    const ok = earlier + spentHere + perGame * (inFlight + 1) <= maxCost && earlier + spentHere < maxCost;
    if (!ok) budgetStopped = true;
    return ok;
  };
  // A failed attempt may have started a Retry-After wait, which the progress line shows at once.
  const seats = llmSeats(config.llm_players, options.cacheDir ?? join(state, "llm-cache"), config.seed, {onFailure: () => progress?.update()});
  const failed: ResumableResult["failed"] = [];

  const signal = options.signal;
  let closed = false; // past the grace period: games still in flight are abandoned, not recorded
  try {
    const tournament = runTournament(config, {
      concurrency: options.concurrency,
      agentFactory: signal ? stopAgentsOnAbort(seats.factory, signal) : seats.factory,
      skip: (g) => checkpoints.has(g.game_id),
      signal,
      shard,
      admit,
      onGame: async (record) => {
        if (closed) return;
        await checkpoints.save(record);
        counts.finished++;
        counts.ruleBreaks += record.turns.filter((t) => t.rule_break === true).length;
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
  const tables = new RunTables(outDir, config.games.map((g) => g.def), undefined, shard, options.writer);
  for (const g of plannedGames(config, shard)) {
    const saved = checkpoints.read(g.game_id);
    if (saved) tables.add(saved);
  }
  const written = await tables.finish();
  if (priced) await saveSpend(state, spend());
  const cost = priced ? {total: spend(), players: spentNow(config.llm_players, prices).players} : null;
  return {planned, resumed, played: counts.finished, failed, ...written, cost, budgetStopped};
}
