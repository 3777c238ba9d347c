/**
 * A run's spend record, kept so that `--max-cost` bounds the whole run
 * across processes, a `kill -9` included. In the run's state directory:
 *
 *   spend.json               {"usd": <dollars>, "journal": <n>}: the spend of every
 *                            process whose journal is numbered n or less
 *   spend-journal-<n>.jsonl  one per process since then, appended to:
 *                            {"r": <id>, "usd": <dollars>}  a call's reservation, on disk
 *                                                           (fsync) before the call is sent
 *                            {"s": <id>, "usd": <dollars>}  what it cost, once answered
 *
 * The spend is spend.json's plus, for each later journal, every settled
 * call at its cost and every reservation never settled (a process killed
 * with calls in flight) at its reserved amount: a kill can make the record
 * count high, never low. Reservations are written in batches (group
 * commit): the ones made while a write is on its way go to disk together in
 * the next write and fsync, so many calls in flight cost one fsync, not one
 * each; settlements ride along with the next batch (or a timer, or the
 * end), since one lost counts at its reservation. A process starting on the
 * directory folds the journals into spend.json (written durably first, then
 * the journals it folded removed, so a crash between counts nothing twice)
 * and so does the end of a run. Only one process writes a state directory
 * at a time (io/outputLock.ts).
 *
 * A line cut short is not counted: only the last batch can be, and its
 * fsync never finished, so none of its calls was sent.
 */
import {closeSync, existsSync, fdatasync, fsyncSync, openSync, readdirSync, readFileSync, rmSync, writeSync} from "node:fs";
import {join} from "node:path";
import {writeFileDurable} from "../io/atomic.js";
import {CheckpointConflict} from "./checkpoint.js";

const RECORD = "spend.json";
const JOURNAL = /^spend-journal-(\d+)\.jsonl$/;
const journalName = (n: number) => `spend-journal-${n}.jsonl`;

/** How long a settlement may wait for the next batch before it is written on its own. */
const SETTLE_DELAY_MS = 1000;

interface Folded {
  usd: number;
  /** The highest journal number counted. */
  journal: number;
  /** The journals counted that spend.json does not yet include. */
  files: string[];
}

/** spend.json: its dollars and the last journal it includes; none: 0 and 0. Unreadable: CheckpointConflict naming it. */
function readRecord(stateDir: string): {usd: number; journal: number} {
  const path = join(stateDir, RECORD);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {usd: 0, journal: 0};
    throw error;
  }
  let record: {usd?: unknown; journal?: unknown} | null = null;
  let reason = 'expected {"usd": <dollars>}';
  try {
    record = JSON.parse(text);
  } catch (error) {
    reason = (error as Error).message;
  }
  const usd = record?.usd;
  const journal = record?.journal ?? 0;
  if (typeof usd === "number" && Number.isFinite(usd) && usd >= 0 && typeof journal === "number" && Number.isInteger(journal) && journal >= 0) return {usd, journal};
  if (typeof usd === "number" && usd < 0) reason = `a negative amount, ${usd}: written by a Parley that priced an endpoint's negative token counts`;
  throw new CheckpointConflict(`${path}: not a readable spend record (${reason}); the run's earlier spend is unknown, so --max-cost cannot be kept: write {"usd": <dollars spent>} into it, or delete it to count from zero`);
}

/** Dollars of one journal: settled calls at their cost, unsettled reservations at their amount. */
function journalSpend(path: string): number {
  const reserved = new Map<number, number>();
  let settled = 0;
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (!line) continue;
    let entry: {r?: unknown; s?: unknown; usd?: unknown};
    try {
      entry = JSON.parse(line);
    } catch {
      continue; // cut short by a kill: its batch was never on disk, so its calls were never sent
    }
    const usd = entry.usd;
    if (typeof usd !== "number" || !Number.isFinite(usd) || usd < 0) continue;
    if (typeof entry.r === "number") reserved.set(entry.r, usd);
    else if (typeof entry.s === "number" && reserved.delete(entry.s)) settled += usd;
  }
  for (const usd of reserved.values()) settled += usd;
  return settled;
}

function fold(stateDir: string): Folded {
  const record = readRecord(stateDir);
  let usd = record.usd;
  let journal = record.journal;
  const files: string[] = [];
  const names = existsSync(stateDir) ? readdirSync(stateDir) : [];
  for (const name of names) {
    const n = Number(JOURNAL.exec(name)?.[1] ?? NaN);
    if (!Number.isInteger(n)) continue;
    if (n > record.journal) usd += journalSpend(join(stateDir, name));
    files.push(name);
    journal = Math.max(journal, n);
  }
  return {usd, journal, files};
}

/**
 * Dollars spent on the run by every process so far (spend.json and the
 * journals after it); 0 when nothing was recorded. Reads only. A record
 * that exists but cannot be read is not taken as 0 (that would hand
 * --max-cost a fresh budget): CheckpointConflict naming it.
 */
export function previousSpend(stateDir: string): number {
  return fold(stateDir).usd;
}

/** Whether the state directory holds a spend record (spend.json or a journal). */
export function hasSpendRecord(stateDir: string): boolean {
  return existsSync(stateDir) && readdirSync(stateDir).some((n) => n === RECORD || JOURNAL.test(n));
}

/** Folds the journals into spend.json durably, then removes them (a crash in between leaves them, and spend.json says it has them). */
function compact(stateDir: string, folded: Folded): void {
  writeFileDurable(join(stateDir, RECORD), JSON.stringify({usd: folded.usd, journal: folded.journal}) + "\n");
  for (const name of folded.files) rmSync(join(stateDir, name), {force: true});
}

/**
 * This process's journal of a run's spend: opened on the state directory
 * (the earlier spend folded into spend.json first), written while the run's
 * calls are made, closed (and folded in) at its end.
 */
export class SpendJournal {
  /** Dollars spent by earlier processes. */
  readonly earlier: number;
  private readonly path: string;
  private readonly number: number;
  private fd: number | null = null;
  private queue: string[] = [];
  private waiting: Array<{resolve: () => void; reject: (error: Error) => void}> = [];
  private writing = false;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly stateDir: string) {
    const folded = fold(stateDir);
    if (folded.files.length) compact(stateDir, folded);
    this.earlier = folded.usd;
    this.number = folded.journal + 1;
    this.path = join(stateDir, journalName(this.number));
  }

  /** Resolves when the reservation is on disk (with every line before it). */
  reserve(id: number, usd: number): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`${this.path}: the spend journal is closed`));
    this.queue.push(`{"r":${id},"usd":${usd}}\n`);
    const done = new Promise<void>((resolve, reject) => this.waiting.push({resolve, reject}));
    // Next turn of the event loop: the reservations of calls started together share one write.
    if (!this.writing) setImmediate(() => void this.drain());
    return done;
  }

  /** Records what a reserved call cost; written with the next batch. */
  settle(id: number, usd: number): void {
    if (this.closed) return;
    this.queue.push(`{"s":${id},"usd":${usd}}\n`);
    if (!this.timer && !this.writing) {
      this.timer = setTimeout(() => void this.drain(), SETTLE_DELAY_MS);
      this.timer.unref();
    }
  }

  /** Writes and flushes what is queued, batch after batch, until nothing is. */
  private async drain(): Promise<void> {
    if (this.writing) return;
    this.writing = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    try {
      while (this.queue.length) {
        const lines = this.queue.join("");
        const waiting = this.waiting;
        this.queue = [];
        this.waiting = [];
        try {
          await this.append(lines);
          for (const w of waiting) w.resolve();
        } catch (error) {
          const failed = new Error(`${this.path}: cannot record the run's spend (${(error as Error).message}); calls are not sent while it cannot`);
          for (const w of waiting) w.reject(failed);
        }
      }
    } finally {
      this.writing = false;
    }
  }

  /** One write (into the page cache: microseconds) and one fdatasync on libuv's thread pool, so the event loop goes on meanwhile. */
  private async append(text: string): Promise<void> {
    if (this.fd === null) {
      this.fd = openSync(this.path, "a");
      syncFolder(this.stateDir); // the new file's name on disk, too
    }
    const fd = this.fd;
    const bytes = Buffer.from(text);
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
    await new Promise<void>((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve())));
  }

  /** Writes what is left and folds this process's spend into spend.json (calls still unsettled at their reservation). */
  async close(): Promise<void> {
    if (this.closed) return;
    while (this.writing) await new Promise((resolve) => setImmediate(resolve));
    await this.drain();
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    compact(this.stateDir, fold(this.stateDir));
  }
}

/** Flushes a folder's entries (a new file's name) to disk; where folders cannot be flushed, as durable as the system makes it. */
function syncFolder(dir: string): void {
  let fd: number | null = null;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // Windows and some file systems cannot open or flush a folder.
  } finally {
    if (fd !== null) closeSync(fd);
  }
}
