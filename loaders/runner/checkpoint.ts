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
 *
 * File names come from `checkpointFileName`; the game id itself is always
 * read back from the file's content, so names never have to be decoded and
 * directories written by earlier versions (which named files by an escaping
 * that was not reversible for every id) resume as they are.
 */
import {createHash} from "node:crypto";
import {existsSync, mkdirSync, readdirSync, readFileSync} from "node:fs";
import {join} from "node:path";
import {writeFileAtomic} from "../io/atomic.js";
import {removeStaleTemps} from "../io/staleFiles.js";
import {IdHashes} from "./idHashes.js";
import type {GameRecord} from "./tournament.js";
import type {TurnRow} from "./gameLoop.js";

/** A checkpoint holds one finished game's rows in the three tables. */
export type CheckpointedGame = GameRecord;

/** What Parley wrote before the game contract: a GLEE games row and its turns rows. */
interface GleeCheckpoint {
  game: Record<string, unknown> & {game_id: string; family: string};
  turns: (Record<string, unknown> & {player: string})[];
}

const idOf = (saved: unknown): unknown => {
  const s = saved as {row?: {game_id?: unknown}; game?: {game_id?: unknown}};
  return s?.row?.game_id ?? s?.game?.game_id;
};

/** A checkpoint in either format, as a GameRecord (the GLEE one gets its seats from alice/bob). */
function asRecord(saved: GameRecord | GleeCheckpoint): GameRecord {
  if (typeof saved.game === "string") return saved as GameRecord;
  const {game, turns} = saved as GleeCheckpoint;
  const seats = ["alice", "bob"];
  return {
    game: `glee/${game.family}`,
    row: {...game, n_players: 2},
    players: seats.map((name, seat) => ({game_id: game.game_id, seat, seat_name: name, agent: game[`${name}_agent`], return: game[`${name}_utility`] ?? 0})),
    turns: turns.map((t) => ({...t, seat: seats.indexOf(t.player)}) as unknown as TurnRow),
  };
}

/** The turns columns that hold an endpoint's token counts. */
const TOKEN_COLUMNS = ["input_tokens", "output_tokens", "cached_input_tokens", "cache_write_tokens", "reasoning_tokens"] as const;

/**
 * `record` with every token count that is not one made unknown (null), as
 * llm/usage.ts reads an endpoint's counts now: a checkpoint written before
 * they were checked may hold "1000", 1e30 or -1e9, which the turns table's
 * INTEGER columns refuse, and would fail every rerun. (A row's count is a
 * decision's sum over its votes, so the bound here is the column's, 2^31 - 1.)
 */
function withCheckedCounts(record: GameRecord): GameRecord {
  for (const turn of record.turns) {
    for (const column of TOKEN_COLUMNS) {
      const v = turn[column];
      if (v !== undefined && v !== null && !(typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= 2 ** 31 - 1)) turn[column] = null;
    }
  }
  return record;
}

/**
 * The checkpoint file name of a game id: a readable prefix (up to 64
 * characters of the id, anything but [A-Za-z0-9._-] and a leading dot as
 * "_"), "~", and 32 hex digits of the id's sha256. Distinct ids get distinct
 * names (short of a 128-bit hash collision, which `read` would still catch)
 * whatever they contain — "~", "%", "/", unicode — also on case-insensitive
 * file systems, and no name exceeds about 100 bytes, however long the id.
 */
export function checkpointFileName(gameId: string): string {
  const readable = gameId.slice(0, 64).replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\./, "_");
  return `${readable}~${createHash("sha256").update(gameId).digest("hex").slice(0, 32)}.json`;
}

const HASHED_NAME = /~[0-9a-f]{32}\.json$/;

export class Checkpoints {
  /**
   * Names of checkpoint files in the current scheme, as 64-bit hashes
   * (run/idHashes.ts; a Set of a million names held some 250 MiB), so a name
   * found is confirmed by its file.
   */
  private readonly named = new IdHashes();
  /** Game id -> file name, for files named by an earlier version (id read from the content). */
  private readonly legacy = new Map<string, string>();

  constructor(readonly dir: string) {
    mkdirSync(dir, {recursive: true});
    removeStaleTemps(dir);
    for (const name of readdirSync(dir)) {
      if (!name.endsWith(".json") || name.startsWith(".")) continue; // temp files of a write in progress
      if (HASHED_NAME.test(name)) this.named.add(name);
      else this.legacy.set(this.load(name).row.game_id, name);
    }
  }

  private load(name: string): CheckpointedGame {
    const path = join(this.dir, name);
    let saved: GameRecord | GleeCheckpoint;
    try {
      saved = JSON.parse(readFileSync(path, "utf8"));
    } catch (error) {
      throw new CheckpointConflict(`${path}: unreadable checkpoint (${(error as Error).message}); delete it to replay that game`);
    }
    if (typeof idOf(saved) !== "string" || !Array.isArray(saved?.turns)) {
      throw new CheckpointConflict(`${path}: not a checkpoint (expected {"game": ..., "row": {"game_id": ...}, "players": [...], "turns": [...]}); delete it to replay that game`);
    }
    return withCheckedCounts(asRecord(saved));
  }

  has(gameId: string): boolean {
    if (this.legacy.has(gameId)) return true;
    const name = checkpointFileName(gameId);
    return this.named.has(name) && existsSync(join(this.dir, name));
  }

  get size(): number {
    return this.named.size + this.legacy.size;
  }

  async save(record: GameRecord): Promise<void> {
    const name = checkpointFileName(record.row.game_id);
    await writeFileAtomic(join(this.dir, name), JSON.stringify(record satisfies CheckpointedGame) + "\n");
    this.named.add(name);
  }

  /** The checkpoint of `gameId`, or null if the game has not finished. */
  read(gameId: string): CheckpointedGame | null {
    if (!this.has(gameId)) return null;
    const name = this.legacy.get(gameId) ?? checkpointFileName(gameId);
    const saved = this.load(name);
    if (saved.row.game_id !== gameId) {
      throw new CheckpointConflict(`${join(this.dir, name)}: holds game ${JSON.stringify(saved.row.game_id)}, expected ${JSON.stringify(gameId)}; delete it to replay both`);
    }
    return saved;
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
  if (checkDirectory(dir, print)) await writeFileAtomic(join(dir, "run-fingerprint"), print + "\n");
}

/** Throws CheckpointConflict when `dir` holds checkpoints of another run definition; returns whether none is recorded yet. */
export function checkDirectory(dir: string, print: string): boolean {
  const path = join(dir, "run-fingerprint");
  if (!existsSync(path)) return true;
  if (readFileSync(path, "utf8").trim() !== print) {
    throw new CheckpointConflict(`${dir} holds checkpoints of a different run definition (config changed since it was started); use another --out directory, or delete ${dir} to start over`);
  }
  return false;
}
