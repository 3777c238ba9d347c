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
 *   .parley/adaptive.jsonl           an adaptive run's decisions (run/adaptiveLog.ts)
 *   .parley/tables/                  the tables' generations (io/tableSet.ts)
 *   .parley/llm-cache/               LLM responses (unless --cache moves it)
 * A shard (run/shard.ts) keeps the same state in .parley/shard=<i>/ and
 * writes game=<id>/shard=<i>/.
 *
 * A game whose LLM call failed for good (endpoint down after all retries)
 * is reported, counted as an error and not checkpointed, so the next run
 * plays it again; the other games go on.
 *
 * With prices, every call's cost is reserved before it is sent and recorded
 * in the run's spend journal (runner/budget.ts, runner/spendJournal.ts). A
 * game whose next call `--max-cost` cannot afford ends there, unrecorded
 * like an interrupted one (its answered calls are in the response cache),
 * and no new game starts: a rerun with a larger budget plays it again from
 * the cache and goes on.
 */
import {unpriced, type PriceTable} from "./cost.js";
import {dollars, RunBudget} from "./budget.js";
import {previousSpend, SpendJournal} from "./spendJournal.js";
import {BudgetExhausted} from "../llm/types.js";
import {setUsageWarnings} from "../llm/usage.js";
import {join} from "node:path";
import {llmStats} from "../llm/stats.js";
import {redactSecrets} from "../llm/secrets.js";
import {Checkpoints, claimDirectory, fingerprint} from "./checkpoint.js";
import {ProgressLine} from "./progress.js";
import {answerDefining, llmSeats} from "./llmPlayers.js";
import {countGames, plannedGames, type PlannedGame} from "./grid.js";
import {runTournament, type GameRecord} from "./tournament.js";
import {RunTables} from "./write.js";
import {RunInterrupted, settleOrGiveUp, stopAgentsOnAbort} from "./interrupt.js";
import {removeStaleWrites, type TableWriter} from "../io/tableSet.js";
import type {RunConfig} from "./runConfigTypes.js";
import {runStateDir, type Shard} from "./shard.js";
import {refuseAdaptiveState} from "./adaptiveLog.js";

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
   * included): no call is sent whose reservation would take the spend past
   * it (runner/budget.ts), and no new game starts once one was refused or
   * when the spend plus the projected cost of the games in flight and the
   * new one would exceed it.
   */
  maxCost?: number | null;
  /** Recorded with the tables (io/tableSet.ts). */
  writer?: TableWriter;
  /**
   * The games to play instead of the plan (run/adaptive.ts), given the run's
   * checkpoints and whether the run has stopped starting games (--max-cost:
   * a source then chooses no more).
   */
  source?: (checkpoints: Checkpoints, halted: () => boolean) => GameSource;
}

/**
 * Games chosen as results come in (run/adaptive.ts), in place of the plan:
 * what to play, what was played, and how many.
 */
export interface GameSource {
  /** The games to play, in order; finished ones (checkpointed) are skipped. */
  games: AsyncIterable<PlannedGame>;
  /** Told of each game once its checkpoint is written, and of each that failed. */
  finished(record: GameRecord): void;
  failed(game: PlannedGame): void;
  /** Every game chosen, in table order, once the tournament is over. */
  chosen(): Iterable<PlannedGame>;
  /** Games chosen by an earlier process and already finished. */
  resumed: number;
  /** The most games the source may choose (the progress line's total). */
  total: number;
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
  /** Dollars spent on the run so far (all processes; calls whose usage is unknown at their reservation), null without prices; per player for this process. */
  cost: {total: number; players: Record<string, number>} | null;
  /** Why --max-cost stopped the run before every game was played (one clause), or null. */
  budgetStop: string | null;
}

/**
 * What decides the games of a run and their answers; `concurrency` and LLM
 * limits do not. The chance scheme counts only when it is "common": a
 * per-game run has the fingerprint runs had before the scheme existed, so
 * their directories resume as they are (runner/keptChance.ts).
 */
export function runFingerprint(config: RunConfig): string {
  // The generalisation protocol says how games are read, not which are played.
  const {concurrency: _c, llm_players, games, description: _d, generalisation: _g, chance, ...rest} = config;
  return fingerprint({...rest, ...(chance !== "per-game" && {chance}), games: games.map((g) => ({game: g.def.id, grid: g.grid, n_players: g.n_players})), llm_players: llm_players.map(answerDefining)});
}

export async function runResumable(config: RunConfig, outDir: string, options: ResumableOptions = {}): Promise<ResumableResult> {
  const shard = options.shard ?? null;
  const state = runStateDir(outDir, shard);
  removeStaleWrites(outDir, shard ? {state} : {}); // now, not only when the tables are written: a killed run's staged rows can be large
  const checkpoints = new Checkpoints(join(state, "checkpoints"));
  await claimDirectory(state, runFingerprint(config));
  // Once set, no new game starts (admit below): an adaptive source stops choosing too.
  let budgetStop: string | null = null;
  const source = options.source?.(checkpoints, () => budgetStop !== null) ?? null;
  if (!source) refuseAdaptiveState(state);
  let resumed = source ? source.resumed : 0;
  if (!source) for (const g of plannedGames(config, shard)) if (checkpoints.has(g.game_id)) resumed++;
  const counts = {total: source ? source.total : countGames(config, shard), skipped: resumed, finished: 0, failed: 0, ruleBreaks: 0};
  const prices = options.prices ?? new Map();
  const priced = config.llm_players.length > 0 && prices.size > 0 && unpriced(config.llm_players, prices).length < config.llm_players.length;
  const maxCost = options.maxCost ?? null;
  const budget = priced ? new RunBudget(prices, maxCost, new SpendJournal(state)) : null;
  const progress = options.progress === null ? null : new ProgressLine(counts, llmStats, options.progress ?? process.stderr, undefined, budget ? () => `cost $${budget.committed.toFixed(2)}` : null);
  const admit = (inFlight: number): boolean | "wait" => {
    if (!budget || maxCost === null) return true;
    const verdict = budgetStop ?? budgetAdmits(budget, maxCost, counts.finished, inFlight);
    if (verdict === false) return "wait";
    budgetStop = verdict;
    return verdict === null;
  };
  // A failed attempt may have started a Retry-After wait, which the progress line shows at once.
  const seats = llmSeats(config.llm_players, options.cacheDir ?? join(state, "llm-cache"), config.seed, {onFailure: () => progress?.update(), budget});
  // An endpoint's unusable token counts: one line each, above the progress line (llm/usage.ts).
  const warnings = setUsageWarnings((line) => (progress ? progress.note(line) : process.stderr.write(line + "\n")));
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
      ...(source && {games: source.games}),
      onGame: async (record) => {
        if (closed) return;
        await checkpoints.save(record);
        source?.finished(record);
        counts.finished++;
        counts.ruleBreaks += record.turns.filter((t) => t.rule_break === true).length;
        progress?.update();
      },
      onError: (g, error) => {
        // A call the budget refused stops the run's scheduling (before an adaptive source hears of the game, so it chooses no more).
        if (error instanceof BudgetExhausted) budgetStop ??= refusal(budget!);
        source?.failed(g);
        // Neither counts as failed: an interrupted game, or one the budget cut short, is replayed (from the cache) by a rerun.
        if (error instanceof RunInterrupted || error instanceof BudgetExhausted) return;
        counts.failed++;
        failed.push({game_id: g.game_id, error: redactSecrets((error as Error).message ?? String(error))});
        progress?.update();
      },
    });
    await (signal ? settleOrGiveUp(tournament, signal, options.graceMs ?? 3000) : tournament);
    closed = true;
  } finally {
    progress?.finish();
    setUsageWarnings(warnings);
    await budget?.close();
  }

  // Rebuild the tables from every checkpoint, in planned order: one entry per game id, so no duplicates.
  const tables = new RunTables(outDir, config.games.map((g) => g.def), undefined, shard, options.writer);
  const planned = source ? [...source.chosen()] : null;
  for (const g of planned ?? plannedGames(config, shard)) {
    const saved = checkpoints.read(g.game_id);
    if (saved) tables.add(saved);
  }
  const written = await tables.finish();
  const cost = budget ? {total: previousSpend(state), players: budget.players} : null;
  return {planned: planned ? planned.length : counts.total, resumed, played: counts.finished, failed, ...written, cost, budgetStop};
}

/** Why the budget refused a call, or null when it has not. */
const refusal = (budget: RunBudget): string | null =>
  budget.refused && `a call that may cost up to ${dollars(budget.refused.usd)} was not sent with ${dollars(budget.refused.committed)} spent or reserved`;

/**
 * Whether `--max-cost` lets a new game start now: null to start it, false
 * to wait for a game in flight to finish, or why the run stops: a call was
 * refused, nothing is left, or the next game's projected cost would pass
 * the budget with no game in flight left to wait for. The projection is
 * this process's settled spend per finished game (the spend of games still
 * in flight included, so it errs high) for the new game and each one in
 * flight, on top of what is spent or reserved. Until a game has finished
 * there is none, so games start one at a time: starting many with none to
 * go by would spend the budget on games cut short (the reservations keep
 * the budget either way).
 */
function budgetAdmits(budget: RunBudget, maxCost: number, finished: number, inFlight: number): string | false | null {
  const committed = budget.committed;
  const refused = refusal(budget);
  if (refused) return refused;
  if (committed >= maxCost) return `${dollars(committed)} is spent`;
  if (finished === 0) return inFlight === 0 ? null : false;
  const perGame = budget.settledHere / finished;
  if (committed + perGame * (inFlight + 1) <= maxCost) return null;
  return inFlight > 0 ? false : `${dollars(committed)} is spent and the next game's projected cost, ${dollars(perGame)}, would pass it`;
}
