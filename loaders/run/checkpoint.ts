/**
 * Per-game checkpoints that make `parley run` resumable.
 *
 * Every finished game is written, atomically, as one JSON file
 * (<out>/.parley/checkpoints/<game>.json: its games row and turns rows)
 * before it counts as done. A re-run of the same command skips games that
 * have a checkpoint and replays the others from the start; LLM calls those
 * replays repeat are answered by the response cache (agents/llm/cache.ts),
 * so no finished call is sent again. games.parquet and turns.parquet are
 * always rebuilt from the checkpoints, one per game id, so a kill at any
 * moment — even while the Parquet files are being written — can neither
 * lose a finished game nor duplicate a row.
 *
 * A checkpoint directory belongs to one run definition: `fingerprint`
 * records a hash of everything that decides which games are played and how,
 * and a re-run with a different definition into the same directory is
 * refused rather than mixing two runs' games under the same ids.
 */
import {createHash} from "node:crypto";
import {existsSync, mkdirSync, readdirSync, readFileSync} from "node:fs";
import {join} from "node:path";
import {writeFileAtomic} from "../io/atomic.js";
import type {GameRecord} from "./tournament.js";

/** A checkpoint holds one finished game's rows in the three tables. */
export type CheckpointedGame = GameRecord;

/** A file name for a game id (ids are [A-Za-z0-9._-] already; anything else is escaped). */
function fileName(gameId: string): string {
  return encodeURIComponent(gameId).replace(/%/g, "~") + ".json";
}

export class Checkpoints {
  private readonly done = new Set<string>();

  constructor(readonly dir: string) {
    mkdirSync(dir, {recursive: true});
    for (const name of readdirSync(dir)) {
      if (!name.endsWith(".json") || name.startsWith(".")) continue; // skip temp files of an interrupted write
      this.done.add(decodeURIComponent(name.slice(0, -5).replace(/~/g, "%")));
    }
  }

  has(gameId: string): boolean {
    return this.done.has(gameId);
  }

  get size(): number {
    return this.done.size;
  }

  async save(record: GameRecord): Promise<void> {
    const id = record.row.game_id;
    await writeFileAtomic(join(this.dir, fileName(id)), JSON.stringify(record satisfies CheckpointedGame) + "\n");
    this.done.add(id);
  }

  /** The checkpoint of `gameId`, or null if the game has not finished. */
  read(gameId: string): CheckpointedGame | null {
    if (!this.done.has(gameId)) return null;
    const path = join(this.dir, fileName(gameId));
    try {
      return JSON.parse(readFileSync(path, "utf8")) as CheckpointedGame;
    } catch (error) {
      throw new Error(`${path}: unreadable checkpoint (${(error as Error).message}); delete it to replay game ${gameId}`);
    }
  }
}

/** A checkpoint directory that cannot be used for this run (the message says why and what to do). */
export class CheckpointConflict extends Error {}

/** sha256 of a JSON value with object keys sorted, for run fingerprints. */
export function fingerprint(value: unknown): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(canonical) : v && typeof v === "object" ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])])) : v;
  return createHash("sha256").update(JSON.stringify(canonical(value))).digest("hex");
}

/**
 * Records `print` in <dir>/run-fingerprint, or checks it against the one
 * recorded by an earlier run; throws, naming the directory, on a mismatch.
 */
export async function claimDirectory(dir: string, print: string): Promise<void> {
  const path = join(dir, "run-fingerprint");
  if (existsSync(path)) {
    const previous = readFileSync(path, "utf8").trim();
    if (previous !== print) {
      throw new CheckpointConflict(`${dir} holds checkpoints of a different run definition (config changed since it was started); use another --out directory, or delete ${dir} to start over`);
    }
    return;
  }
  await writeFileAtomic(path, print + "\n");
}
