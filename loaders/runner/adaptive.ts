/**
 * `parley run --adaptive`: a resumable run (run/resume.ts) whose games are
 * chosen batch by batch from the results so far by the planner of
 * src/lib/adaptivePlan.ts (which says what it chooses, why, and why the
 * ratings stay unbiased), until every agent's rank interval is at most the
 * target width or the budget is spent.
 *
 * The games are the run config's own: the same ids (game, configuration,
 * lineup, repetition) and so the same chance as a run without --adaptive
 * under the config's scheme (run/chance.ts), except that a lineup may be
 * played more often than games_per_lineup, or less; the plan's size is the
 * default budget. Under "common" chance the games of one configuration and
 * repetition draw alike whoever sits, so both seat orders of a match (always
 * chosen together, with the same repetition) and every lineup that
 * repetition reaches face the same draws, as planned games do. Each decision
 * is recorded (run/adaptiveLog.ts) before its games start, so killing the
 * run and running the same command again plays what was chosen and not
 * finished, then goes on choosing, and never plays a game twice or loses
 * one. Under --max-cost every game is admitted by the budget as in any run
 * (run/resume.ts, run/budget.ts: every call reserved before it is sent), and
 * once the budget stops the run the planner chooses no further batch.
 */
import {rateAgents} from "../../src/lib/ratings.js";
import {ADAPTIVE_DEFAULTS, AdaptivePlanner, plannedKey, ratedGamesOf, type AdaptiveFamily, type AdaptiveOptions, type BatchDecision, type PlannedRef} from "../../src/lib/adaptivePlan.js";
import {expandGrid, gameIdOf, idStem, lineupLabel, lineups, type PlannedGame} from "./grid.js";
import {runResumable, type GameSource, type ResumableOptions, type ResumableResult} from "./resume.js";
import {appendAdaptiveLog, readAdaptiveLog, refuseFixedState, rewriteAdaptiveLog} from "./adaptiveLog.js";
import {runStateDir} from "./shard.js";
import type {Checkpoints} from "./checkpoint.js";
import type {GameRecord} from "./tournament.js";
import type {RunConfig} from "./runConfigTypes.js";

export interface AdaptiveRunOptions {
  /** Stop once every agent's rank interval width (rank_hi − rank_lo) is at most this. */
  targetWidth: number;
  /** Games the run may play in all (earlier processes' included). */
  maxGames: number;
  /** Games per batch; default the concurrency. */
  batchSize?: number;
  /** The planner's other settings (src/lib/adaptivePlan.ts); the bench sets exploreShare 1 for round-robin. */
  planner?: Partial<Omit<AdaptiveOptions, "targetWidth" | "maxGames" | "batchSize">>;
}

/** What the manifest records of an adaptive run. */
export interface AdaptiveSummary {
  target_rank_width: number;
  max_games: number;
  batch_size: number;
  explore_share: number;
  level: number;
  criterion: string;
  /** Why the planner stopped; null when it had not (interrupted, --max-cost, failed games). */
  stopped: BatchDecision["stop"];
  games_chosen: number;
  /** Rank interval widths (rateAgents, the run's level and draws) on every finished game. */
  final: {games: number; max_width: number | null; widths: Record<string, number>};
  /** Every decision: what it saw, the widths then, what it chose and why. */
  batches: BatchDecision[];
}

const CRITERION = "per game, the fall in the summed standard deviation of the strength gaps between neighbours of the current ranking (Fisher information of the Bradley–Terry fit), over neighbours with a rank interval wider than the target; one pick in explore_share from a fixed cycle (src/lib/adaptivePlan.ts)";

/** The summary's part of an adaptive run (the manifest has the rest). */
export const adaptiveBrief = (a: AdaptiveSummary) => ({stopped: a.stopped, games_chosen: a.games_chosen, batches: a.batches.length, target_rank_width: a.target_rank_width, max_rank_width: a.final.max_width});

/** One line on how an adaptive run ended. */
export function adaptiveOutcome(a: AdaptiveSummary): string {
  const widest = a.final.max_width === null ? "no ranking yet" : `widest rank interval ${a.final.max_width}`;
  if (a.stopped === "separated") return `ranks separated (every rank interval at most ${a.target_rank_width} wide) after ${a.games_chosen} games; ${widest} with every game played`;
  if (a.stopped === "max-games") return `--max-games ${a.max_games} reached (${a.games_chosen} games chosen) before every rank interval was at most ${a.target_rank_width} wide; ${widest}; run again with a larger --max-games to go on`;
  return `${a.games_chosen} games chosen so far; ${widest}`;
}

/** The planner's view of a run config: each game's configurations and lineups. */
export function adaptiveFamilies(config: RunConfig): AdaptiveFamily[] {
  return config.games.map((spec) => ({family: spec.def.id, configs: expandGrid(spec.grid).length, lineups: lineups(config, spec)}));
}

/** Plays `config` adaptively into `outDir` (see the module comment). */
export async function runAdaptive(config: RunConfig, outDir: string, options: ResumableOptions & {adaptive: AdaptiveRunOptions}): Promise<ResumableResult & {adaptive: AdaptiveSummary}> {
  const {adaptive, ...resumable} = options;
  const plannerOptions: AdaptiveOptions = {
    ...adaptive.planner,
    targetWidth: adaptive.targetWidth,
    maxGames: adaptive.maxGames,
    batchSize: adaptive.batchSize ?? options.concurrency ?? config.concurrency,
  };
  const planner = new AdaptivePlanner(adaptiveFamilies(config), plannerOptions);
  const state = runStateDir(outDir, null);
  let source: ReturnType<typeof adaptiveSource> | null = null;
  const result = await runResumable(config, outDir, {
    ...resumable,
    shard: null,
    source: (checkpoints, halted) => (source = adaptiveSource(config, state, checkpoints, planner, plannerOptions.maxGames, () => halted() || options.signal?.aborted === true, options.signal)),
  });
  const o = {...ADAPTIVE_DEFAULTS, ...plannerOptions};
  const finished = ratedGamesOf(source!.results());
  const final = finished.length ? rateAgents(finished, {resamples: o.resamples, seed: o.seed, level: o.level, prior: o.prior}) : null;
  const widths = Object.fromEntries((final?.agents ?? []).filter((a) => a.rank_lo !== null && a.rank_hi !== null).map((a) => [a.agent, a.rank_hi! - a.rank_lo!]));
  return {
    ...result,
    adaptive: {
      target_rank_width: o.targetWidth,
      max_games: o.maxGames,
      batch_size: o.batchSize,
      explore_share: o.exploreShare,
      level: o.level,
      criterion: CRITERION,
      stopped: planner.stopped,
      games_chosen: planner.planned().length,
      final: {games: finished.length, max_width: Object.keys(widths).length ? Math.max(...Object.values(widths)) : null, widths},
      batches: planner.decisions,
    },
  };
}

/**
 * The run's games as the planner chooses them: first those of the recorded
 * decisions not yet finished, then, each time the games a decision looks at
 * are in (finished or failed), a new decision, recorded before its games
 * are handed out; none once `halted` (interrupted, or --max-cost stopped
 * the run).
 */
function adaptiveSource(config: RunConfig, state: string, checkpoints: Checkpoints, planner: AdaptivePlanner, maxGames: number, halted: () => boolean, signal?: AbortSignal) {
  const log = readAdaptiveLog(state);
  if (!log) refuseFixedState(state, checkpoints);
  // A stop chose no games: it is made again under this run's options (a larger --max-games or a narrower target goes on).
  const kept = log?.decisions.at(-1)?.stop ? log.decisions.slice(0, -1) : (log?.decisions ?? []);
  if (log && (kept.length < log.decisions.length || !log.whole)) rewriteAdaptiveLog(state, kept);
  planner.restore(kept);
  const toGame = gameMaker(config);
  const byId = new Map<string, {ref: PlannedRef; game: PlannedGame}>();
  const byKey = new Map<string, PlannedGame>();
  const index = (refs: readonly PlannedRef[]) => {
    for (const ref of refs) {
      const game = toGame(ref);
      byId.set(game.game_id, {ref, game});
      byKey.set(plannedKey(ref), game);
    }
  };
  index(planner.planned());
  const results: (PlannedRef & {scores: number[]})[] = [];
  /** Games done without a result this process (failed or interrupted): the next decision does not wait for them. */
  const done = new Set<string>();
  const take = (ref: PlannedRef, record: GameRecord): boolean => {
    const scores = scoresOf(record, ref.lineup.length);
    if (!scores) return false;
    planner.finished(ref, scores);
    results.push({...ref, scores});
    return true;
  };
  let resumed = 0;
  for (const {ref, game} of byId.values()) {
    const saved = checkpoints.read(game.game_id);
    if (!saved) continue;
    resumed++;
    if (!take(ref, saved)) done.add(game.game_id);
  }
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  signal?.addEventListener("abort", notify, {once: true});
  const waiting = () => planner.awaiting().some((ref) => !done.has(byKey.get(plannedKey(ref))!.game_id));

  async function* games(): AsyncGenerator<PlannedGame> {
    for (let batch = 0; ; batch++) {
      if (batch >= planner.decisions.length) {
        if (planner.stopped || halted()) return;
        while (waiting()) {
          await new Promise<void>((resolve) => (wake = resolve));
          if (halted()) return;
        }
        const decision = planner.decide();
        appendAdaptiveLog(state, decision);
        index(planner.gamesOf(decision.batch));
      }
      if (planner.decisions[batch].stop) return;
      for (const ref of planner.gamesOf(batch)) yield byKey.get(plannedKey(ref))!;
    }
  }

  return {
    games: games(),
    finished(record: GameRecord) {
      const entry = byId.get(record.row.game_id);
      if (entry && !take(entry.ref, record)) done.add(record.row.game_id);
      notify();
    },
    failed(game: PlannedGame) {
      done.add(game.game_id);
      notify();
    },
    chosen: () => planner.planned().map((ref) => byKey.get(plannedKey(ref))!),
    resumed,
    // The budget, or the games chosen already when a resumed run was given a smaller one.
    total: Math.max(maxGames, planner.planned().length),
    results: () => results,
  } satisfies GameSource & {results: () => typeof results};
}

/** A planned game of `config` from the planner's reference: the id, parameters and seed a run without --adaptive gives it. */
function gameMaker(config: RunConfig): (ref: PlannedRef) => PlannedGame {
  const specs = new Map(config.games.map((spec) => {
    const params = expandGrid(spec.grid);
    return [spec.def.id, {spec, params, stems: params.map((p) => idStem(spec.def, p))}];
  }));
  return (ref) => {
    const {spec, params, stems} = specs.get(ref.family)!;
    const lineup = [...ref.lineup];
    return {def: spec.def, params: params[ref.config], config_id: ref.config, lineup, repetition: ref.repetition, game_id: gameIdOf(stems[ref.config], ref.config, lineupLabel(lineup), ref.repetition)};
  };
}

/** Returns per seat from a finished game's players rows; null when one is missing or not a number (the game then informs no choice). */
function scoresOf(record: GameRecord, seats: number): number[] | null {
  const scores = new Array<number>(seats).fill(NaN);
  for (const p of record.players) {
    const seat = Number(p.seat);
    if (Number.isInteger(seat) && seat >= 0 && seat < seats) scores[seat] = Number(p.return);
  }
  return scores.every(Number.isFinite) ? scores : null;
}
