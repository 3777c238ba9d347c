/** `parley run <config.json> --out <dir>`: play a run config's games and write their tables, partitioned by game. */
import {priceKey, readPrices, unpriced, type PriceTable} from "../../runner/cost.js";
import {unboundedPlayers} from "../../runner/budget.js";
import {buildManifest, writeManifest} from "../../runner/manifest.js";
import {readFileSync} from "node:fs";
import {basename, extname, resolve} from "node:path";
import {parseRunConfig, ConfigError, type RunConfig} from "../../runner/runConfig.js";
import {countGames} from "../../runner/grid.js";
import {describePlan, LIMITS} from "../../runner/runConfigChecks.js";
import {writeTournament} from "../../runner/tournament.js";
import {runResumable, type ResumableResult} from "../../runner/resume.js";
import {adaptiveBrief, adaptiveFamilies, adaptiveOutcome, runAdaptive, type AdaptiveRunOptions, type AdaptiveSummary} from "../../runner/adaptive.js";
import {AdaptiveFieldError, checkAdaptiveFamilies} from "../../../src/lib/adaptivePlan.js";
import {llmStats} from "../../llm/stats.js";
import {resolveApiKey} from "../../llm/secrets.js";
import {CheckpointConflict, checkDirectory} from "../../runner/checkpoint.js";
import {checkSharedLimits} from "../../runner/llmPlayers.js";
import {intOption, parse, printJson, UsageError} from "./args.js";
import {inputPath, outputDir} from "./inputs.js";
import {printable} from "../../io/printable.js";
import {JsonInputError, parseJsonStrict} from "../../io/configJson.js";
import {lockOutput, OutputLocked} from "../../io/outputLock.js";
import {signalExitCode, watchInterrupts} from "../../runner/interrupt.js";
import {usage, CONFIRM_ABOVE} from "../../usage/run.usage.js";

import {claimShardLayout, parseShard, runStateDir, shardLabel, ShardError, tableSetOptions, type Shard} from "../../runner/shard.js";
import {claimTables, TablesInUse, type TableWriter} from "../../io/tableSet.js";
import {runFingerprint} from "../../runner/resume.js";
import {keptChance} from "../../runner/keptChance.js";
import {harnessOf} from "../../llm/harness.js";

/**
 * Reads and validates a run config file; errors name the file and the bad
 * key. A config that names no chance scheme keeps the one of the same run
 * already in `out` (runner/keptChance.ts), so a run begun before the scheme
 * existed resumes per-game.
 */
export function readRunConfig(path: string, out?: {dir: string; shard: Shard | null}): RunConfig {
  inputPath("run", path, "file", "expected a run config, e.g. data/runs/default.json");
  let raw: unknown;
  try {
    raw = parseJsonStrict(readFileSync(path, "utf8"));
  } catch (error) {
    if (error instanceof JsonInputError) throw new UsageError(`parley run: ${path}: ${error.message}`);
    throw error;
  }
  try {
    const config = parseRunConfig(raw, basename(path, extname(path)));
    const named = typeof raw === "object" && raw !== null && "chance" in raw;
    return out && !named ? {...config, chance: keptChance(out.dir, out.shard, config) ?? config.chance} : config;
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(`parley run: ${path}: ${error.message}`);
    throw error;
  }
}

export async function run(argv: string[]): Promise<number> {
  const {values, positionals} = parse("run", argv, {
    out: {type: "string"},
    concurrency: {type: "string"},
    cache: {type: "string"},
    resume: {type: "boolean"},
    quiet: {type: "boolean"},
    yes: {type: "boolean"},
    shard: {type: "string"},
    "max-cost": {type: "string"},
    replace: {type: "boolean"},
    adaptive: {type: "boolean"},
    "target-rank-width": {type: "string"},
    "max-games": {type: "string"},
  });
  if (positionals.length !== 1 || !values.out) throw new UsageError(`usage: parley ${usage}`);
  const shard = values.shard === undefined ? null : shardUsage(() => parseShard(values.shard!));
  const config = readRunConfig(positionals[0], {dir: values.out, shard});
  const concurrency = intOption("run", "concurrency", values.concurrency, {min: 1, max: LIMITS.concurrency.max});
  const {prices, maxCost} = costOptions(values["max-cost"], config);
  const adaptive = adaptiveOptions(values, positionals[0], config, shard, concurrency);
  // Say what the config asks for before playing any of it; a huge plan (a typo in games_per_lineup) needs --yes.
  const plan = describePlan(config);
  if (plan.games > CONFIRM_ABOVE && !values.yes) {
    throw new UsageError(`parley run: ${positionals[0]}: ${plan.text}, more than ${CONFIRM_ABOVE.toLocaleString("en-US")}; run again with --yes to play them`);
  }
  outputDir("run", "--out", values.out);
  if (values.cache !== undefined) outputDir("run", "--cache", values.cache);
  const planned = countGames(config, shard);
  if (!values.quiet) process.stderr.write(`parley run: ${positionals[0]}: ${plan.text}${shard ? `; shard ${shardLabel(shard)} plays ${planned.toLocaleString("en-US")} of them` : ""}${adaptive ? `; adaptive: at most ${adaptive.maxGames.toLocaleString("en-US")} games, chosen as results come in, until every rank interval is at most ${adaptive.targetWidth} wide` : ""}\n`);
  const started = performance.now();
  const startedAt = new Date();
  const configText = readFileSync(positionals[0], "utf8");
  /** The manifest beside the tables (run/manifest.ts), with this invocation's counts. */
  const manifest = (counts: Record<string, number>, adaptiveRecord?: unknown) =>
    writeManifest(values.out!, buildManifest({
      kind: "run", config: JSON.parse(configText), configText, seed: config.seed, chance: config.chance, started: startedAt, counts, shard: shard ? shardLabel(shard) : null, adaptive: adaptiveRecord,
      llmPlayers: config.llm_players.map((p) => ({id: p.id, provider: p.provider, model: p.model, base_url: p.base_url, harness: harnessOf(p, config.max_attempts)})),
      generalisation: config.generalisation,
    }), shard ? shard.index : null);
  const resumable = config.llm_players.length > 0 || values.resume === true || adaptive !== null;
  if (resumable) {
    try {
      checkSharedLimits(config.llm_players);
      for (const p of config.llm_players) resolveApiKey(p.api_key_env, `player ${p.id}`);
    } catch (error) {
      throw new UsageError(`parley run: ${positionals[0]}: ${(error as Error).message}`);
    }
  }
  // Shards of one directory share a count and a run definition (run/shard.ts); an unsharded run has it alone.
  shardUsage(() => claimShardLayout(values.out!, shard, runFingerprint(config)));
  // One run per output directory (per shard) for its whole life (io/outputLock.ts).
  let lock;
  try {
    lock = lockOutput(values.out, "run", shard ? {state: runStateDir(values.out, shard), name: `${values.out} (shard ${shardLabel(shard)})`} : {});
  } catch (error) {
    if (error instanceof OutputLocked) throw new UsageError(`parley run: ${error.message}`);
    throw error;
  }
  if (lock.note) process.stderr.write(`parley run: ${lock.note}\n`);
  // Tables of another writer or run definition in --out are replaced only when asked (io/tableSet.ts).
  const writer: TableWriter = {command: "run", key: runFingerprint(config), label: `parley run ${resolve(positionals[0])}`, what: "run definition"};
  try {
    // Checkpoints of another definition first: --replace would not make them this run's.
    if (resumable) checkDirectory(runStateDir(values.out, shard), writer.key);
    claimTables(values.out, writer, {...tableSetOptions(values.out, shard), replace: values.replace === true});
  } catch (error) {
    lock.release();
    if (error instanceof TablesInUse || error instanceof CheckpointConflict) throw new UsageError(`parley run: ${error.message}`);
    throw error;
  }
  const out = values.out;
  const interrupts = watchInterrupts(
    (signal) => {
      if (resumable) {
        process.stderr.write(`\nparley run: ${signal}: stopping: no new games or model calls; writing the finished games (${signal} again to quit at once)\n`);
        return;
      }
      // Without checkpoints there is nothing finished to keep: leave the previous tables as they are.
      lock.release();
      process.stderr.write(`\nparley run: ${signal}: stopped; ${out} is unchanged (run with --resume to keep finished games across interruptions)\n`);
      process.exit(signalExitCode(signal));
    },
    (signal) => {
      lock.release();
      process.stderr.write(`parley run: ${signal} again: quitting now; finished games are checkpointed in ${out} and running the same command resumes\n`);
      process.exit(signalExitCode(signal));
    },
  );
  try {
    if (resumable) {
      // LLM runs: per-game checkpoints, response cache, progress line on stderr (run/resume.ts).
      let r: ResumableResult & {adaptive?: AdaptiveSummary};
      const options = {concurrency, cacheDir: values.cache, progress: values.quiet ? null : process.stderr, signal: interrupts.signal, shard, prices, maxCost, writer};
      try {
        r = adaptive ? await runAdaptive(config, out, {...options, adaptive}) : await runResumable(config, out, options);
      } catch (error) {
        if (error instanceof CheckpointConflict) throw new UsageError(`parley run: ${error.message}`);
        throw error;
      }
      const s = llmStats;
      const chosen = r.adaptive;
      await manifest({planned, games: r.games, players: r.players, turns: r.turns, failed_games: r.failed.length, llm_requests: s.requests, llm_calls: s.completions, llm_cached_calls: s.cacheHits, llm_rule_breaks: s.ruleBreaks, input_tokens: s.inputTokens, output_tokens: s.outputTokens, ...(r.cost && {cost_usd: r.cost.total})}, chosen);
      printJson({
        run_id: config.run_id, ...shardSummary(shard), games_played: config.games.map((g) => g.def.id), planned, resumed: r.resumed, played: r.played, failed: r.failed.length,
        ...(chosen && {adaptive: adaptiveBrief(chosen)}),
        games: r.games, players: r.players, turns: r.turns,
        llm: {requests: s.requests, completions: s.completions, cache_hits: s.cacheHits, input_tokens: s.inputTokens, output_tokens: s.outputTokens, failed_attempts: s.failedAttempts},
        ...(r.cost && {cost_usd: {total: r.cost.total, players: r.cost.players, max: maxCost}}), ...(r.budgetStop && {stopped: "max-cost"}),
        seconds: Math.round(performance.now() - started) / 1000, partitions: r.partitions,
      });
      const signal = interrupts.received();
      if (signal) {
        process.stderr.write(`parley run: interrupted by ${signal}: ${r.games} of ${planned} games finished and written to ${out}; run the same command again to resume\n`);
        // Calls still in flight past the grace period would keep the process alive until they time out.
        lock.release();
        process.exit(signalExitCode(signal));
      }
      if (r.budgetStop) {
        process.stderr.write(`parley run: --max-cost $${maxCost} stopped the run: ${r.budgetStop}; $${r.cost!.total.toFixed(4)} spent in all; ${r.games} of ${planned} games finished and written to ${out} (games cut short are not); run again with a larger --max-cost to resume\n`);
        return 1;
      }
      if (chosen && !values.quiet) process.stderr.write(`parley run: adaptive: ${adaptiveOutcome(chosen)}\n`);
      if (r.failed.length) {
        const first = r.failed[0];
        // first.error may quote an endpoint's reply: printable keeps its control characters off the terminal.
        process.stderr.write(`${printable(`parley run: ${r.failed.length} game(s) could not be finished (first: ${first.game_id}: ${first.error})`)}; run the same command again to play them\n`);
        return 1;
      }
      return 0;
    }
    const files = await writeTournament(config, out, {concurrency, signal: interrupts.signal, shard, writer});
    await manifest({planned, games: files.games, players: files.players, turns: files.turns});
    printJson({run_id: config.run_id, ...shardSummary(shard), games_played: config.games.map((g) => g.def.id), planned, games: files.games, players: files.players, turns: files.turns, seconds: Math.round(performance.now() - started) / 1000, partitions: files.partitions});
    return 0;
  } finally {
    interrupts.dispose();
    lock.release();
  }
}

/** --adaptive's options; null without --adaptive (whose flags then are refused). */
function adaptiveOptions(values: {adaptive?: boolean; "target-rank-width"?: string; "max-games"?: string}, path: string, config: RunConfig, shard: Shard | null, concurrency: number | undefined): AdaptiveRunOptions | null {
  if (!values.adaptive) {
    const stray = (["target-rank-width", "max-games"] as const).find((flag) => values[flag] !== undefined);
    if (stray) throw new UsageError(`parley run: --${stray} goes with --adaptive`);
    return null;
  }
  if (shard) throw new UsageError("parley run: --adaptive chooses each batch of games from every result so far, so it cannot be split with --shard");
  try {
    checkAdaptiveFamilies(adaptiveFamilies(config));
  } catch (error) {
    if (error instanceof AdaptiveFieldError) throw new UsageError(`parley run: ${path}: --adaptive: ${error.message}`);
    throw error;
  }
  return {
    targetWidth: intOption("run", "target-rank-width", values["target-rank-width"], {min: 0, max: 10_000}, 0),
    maxGames: intOption("run", "max-games", values["max-games"], {min: 1, max: Number.MAX_SAFE_INTEGER}, countGames(config)),
    batchSize: concurrency ?? config.concurrency,
  };
}

/** Runs `fn`, turning a bad --shard or shard layout into one usage line. */
function shardUsage<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof ShardError) throw new UsageError(`parley run: ${error.message}`);
    throw error;
  }
}

/** The summary's shard field: which shard of how many this process played. */
const shardSummary = (shard: Shard | null) => (shard ? {shard: shardLabel(shard)} : {});

/** The price table and the --max-cost budget; a budget needs a price for every LLM player. */
function costOptions(raw: string | undefined, config: RunConfig): {prices: PriceTable; maxCost: number | null} {
  let prices: PriceTable;
  try {
    prices = readPrices();
  } catch (error) {
    throw new UsageError(`parley run: ${(error as Error).message}`);
  }
  if (raw === undefined) return {prices, maxCost: null};
  const maxCost = /^\s*\d+(\.\d+)?\s*$/.test(raw) ? Number(raw) : NaN;
  if (!(maxCost > 0)) throw new UsageError(`parley run: --max-cost: expected an amount in US dollars above 0 (e.g. 5 or 0.25), got ${raw}`);
  if (!config.llm_players.length) throw new UsageError("parley run: --max-cost applies to runs with LLM players; this config has none");
  const missing = unpriced(config.llm_players, prices);
  if (missing.length) throw new UsageError(`parley run: --max-cost needs a price for ${missing.map((p) => priceKey(p.provider, p.model)).join(", ")}: add it to "prices" in parley.config.json ({"input_per_million": ..., "output_per_million": ..., "as_of": "YYYY-MM-DD"})`);
  const unbounded = unboundedPlayers(config.llm_players);
  if (unbounded.length) throw new UsageError(`parley run: --max-cost needs a limit on the output of every call, and ${unbounded.map((p) => p.id).join(", ")} has none: give it "max_tokens"`);
  return {prices, maxCost};
}
