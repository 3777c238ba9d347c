/**
 * Sharded runs: `parley run <config> --shard i/n --out <dir>` plays shard i
 * (0-based) of n, the games whose position in the run's plan (grid.ts,
 * `plannedGames` order) is i modulo n. Every game is in exactly one shard
 * whatever n is, and a game's seed and id do not depend on the shard, so the
 * union of the n shards is the unsharded run. Round robin over the plan
 * spreads every game, configuration and lineup evenly over the shards.
 *
 * Each shard writes its own partition of every game and keeps its own state
 * (lock, checkpoints, table generations, LLM cache), so n processes on n
 * machines can share one directory (or be copied into one afterwards):
 *
 *   <dir>/game=<id>/shard=<i>/{games,players,turns}.parquet   links into .parley/shard=<i>/tables/current
 *   <dir>/.parley/shard=<i>/                                   that shard's lock, checkpoints, tables, llm-cache
 *   <dir>/.parley/shards.json                                  {shards: n, run: fingerprint}, written by the first shard
 *
 * shards.json makes mixing refusable: shards of another count or of another
 * run definition, an unsharded run into a sharded directory, or the other way round.
 */
import {existsSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync} from "node:fs";
import {randomBytes} from "node:crypto";
import {join} from "node:path";
import {foreignEntry, type TableSetOptions} from "../io/tableSet.js";

export interface Shard {
  /** 0-based. */
  index: number;
  count: number;
}

/** Shards one run may be split into. */
export const MAX_SHARDS = 100_000;

/** A --shard value or shard layout that cannot be used; the message is one line saying why. */
export class ShardError extends Error {}

/** Parses `i/n` (0 ≤ i < n ≤ MAX_SHARDS), as Slurm's `$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT` gives it. */
export function parseShard(text: string): Shard {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const expected = `expected i/n with 0 ≤ i < n ≤ ${MAX_SHARDS.toLocaleString("en-US")} (i counts from 0, e.g. 0/4 … 3/4)`;
  if (!match) throw new ShardError(`--shard: ${expected}, got ${JSON.stringify(text)}`);
  const [index, count] = [Number(match[1]), Number(match[2])];
  if (count < 1 || count > MAX_SHARDS || index >= count) throw new ShardError(`--shard: ${expected}, got ${JSON.stringify(text)}`);
  return {index, count};
}

export const shardLabel = (shard: Shard): string => `${shard.index}/${shard.count}`;

/** The partition folder of a shard inside a game's partition: `shard=<i>`. */
export const shardPartition = (shard: Shard): string => `shard=${shard.index}`;

/** Where a run keeps its lock, checkpoints, table generations and LLM cache. */
export function runStateDir(outDir: string, shard: Shard | null): string {
  return shard ? join(outDir, ".parley", shardPartition(shard)) : join(outDir, ".parley");
}

/** Where a run's (or a shard's) table set lives and how it links its entries (io/tableSet.ts): for RunTables and for claimTables. */
export function tableSetOptions(outDir: string, shard: Shard | null): TableSetOptions {
  return shard ? {state: runStateDir(outDir, shard), depth: 2, linkName: shardPartition(shard)} : {};
}

/** Planned games at positions [start, start + k) of the plan that fall in `shard`. */
export function shardCount(start: number, k: number, shard: Shard): number {
  const below = (x: number) => (x > shard.index ? Math.floor((x - shard.index - 1) / shard.count) + 1 : 0);
  return below(start + k) - below(start);
}

interface ShardLayout {
  shards: number;
  run: string;
}

function readLayout(path: string): ShardLayout | null {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return null;
  }
  try {
    const layout = JSON.parse(text) as ShardLayout;
    if (Number.isInteger(layout.shards) && typeof layout.run === "string") return layout;
  } catch {
    // reported below
  }
  throw new ShardError(`${path} is not a shard layout (expected {"shards": n, "run": "<fingerprint>"}); delete it if no shard of a run uses this directory`);
}

/** Whether `outDir` holds an unsharded run's tables or state (game=<id> links or files, .parley/tables). */
function holdsUnshardedRun(outDir: string): boolean {
  if (existsSync(join(outDir, ".parley", "tables")) || existsSync(join(outDir, ".parley", "run-fingerprint"))) return true;
  let names: string[] = [];
  try {
    names = readdirSync(outDir);
  } catch {
    return false;
  }
  return names.some((name) => name.startsWith("game=") && (lstatSync(join(outDir, name)).isSymbolicLink() || existsSync(join(outDir, name, "games.parquet"))));
}

/**
 * Checks that a run (shard `shard`, or unsharded when null) of the run
 * definition `run` (a fingerprint) may write into `outDir`, recording the
 * shard count there when it is the first shard. Throws ShardError naming the
 * directory and what to do.
 */
export function claimShardLayout(outDir: string, shard: Shard | null, run: string): void {
  const path = join(outDir, ".parley", "shards.json");
  let recorded = readLayout(path);
  if (!shard) {
    if (recorded) throw new ShardError(`${outDir} holds a run split into ${recorded.shards} shards (${path}); play one with --shard i/${recorded.shards}, or use another --out`);
    return;
  }
  const wanted = `--shard ${shardLabel(shard)}`;
  if (!recorded) {
    if (holdsUnshardedRun(outDir)) throw new ShardError(`${wanted}: ${outDir} holds an unsharded run; shards need a directory of their own (use another --out)`);
    // Shards' folders copied in without their state: refused before this directory is made a sharded one.
    const foreign = foreignEntry(outDir, tableSetOptions(outDir, shard));
    if (foreign) throw new ShardError(`${wanted}: ${foreign}`);
    // Created complete under a temp name and linked into place, which fails if another shard got there first.
    mkdirSync(join(outDir, ".parley"), {recursive: true});
    const tmp = `${path}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
    writeFileSync(tmp, JSON.stringify({shards: shard.count, run} satisfies ShardLayout) + "\n");
    try {
      linkSync(tmp, path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    } finally {
      rmSync(tmp, {force: true});
    }
    recorded = readLayout(path)!;
  }
  if (recorded.shards !== shard.count) {
    throw new ShardError(`${wanted}: ${outDir} holds a run split into ${recorded.shards} shards (${path}); every shard of one directory must use the same count: use --shard i/${recorded.shards}, or another --out`);
  }
  if (recorded.run !== run) throw new ShardError(`${wanted}: ${outDir} holds shards of a different run definition (the config changed since the first shard started); use another --out`);
}
