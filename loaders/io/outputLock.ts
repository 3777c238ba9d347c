/**
 * One writer per output directory. Two `parley run`s on one --out (two
 * terminals, or a run still alive after its launcher was killed) would play
 * every game twice, send every paid request twice and write the same tables;
 * so a run (and an ingest) holds <out>/.parley/lock for its whole life.
 *
 * The lock file names its holder ({pid, host, started, command}) and is
 * created complete and atomically: written under a temp name, then
 * link(2)ed to `lock`, which fails if the name exists (O_EXCL semantics, also
 * on NFS). A lock whose holder is gone is stale: on the same host, a pid
 * that no longer runs (or that was started before the last boot, so the pid
 * was reused) is taken over, with a note; a lock from another host cannot
 * be checked from here, so it is refused with how to remove it. Each shard
 * of a run (run/shard.ts) has its own lock in its own state directory.
 */
import {hostname, uptime} from "node:os";
import {linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync} from "node:fs";
import {randomBytes} from "node:crypto";
import {join} from "node:path";
import {isProcessAlive} from "./staleFiles.js";

export interface LockHolder {
  pid: number;
  host: string;
  started: string;
  command: string;
}

export interface OutputLock {
  path: string;
  /** Set when a stale lock was taken over: one line saying whose. */
  note: string | null;
  /** Removes the lock if it is still this process's; safe to call twice. */
  release(): void;
}

/** The directory is in use; the message is one line naming the holder and what to do. */
export class OutputLocked extends Error {}

export function lockPath(outDir: string, state = join(outDir, ".parley")): string {
  return join(state, "lock");
}

/**
 * Takes the lock of `outDir` for `command` ("run", "ingest"), or throws
 * OutputLocked. `state` moves the lock (a shard's state directory) and
 * `name` is how messages call what is locked (default `outDir`).
 */
export function lockOutput(outDir: string, command: string, {state = join(outDir, ".parley"), name = outDir}: {state?: string; name?: string} = {}): OutputLock {
  const path = lockPath(outDir, state);
  mkdirSync(state, {recursive: true});
  const mine: LockHolder = {pid: process.pid, host: hostname(), started: new Date().toISOString(), command};
  let note: string | null = null;
  for (let attempt = 0; attempt < 5; attempt++) {
    const tmp = `${path}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
    writeFileSync(tmp, JSON.stringify(mine) + "\n");
    try {
      linkSync(tmp, path);
      return {path, note, release: () => releaseIfMine(path, mine)};
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    } finally {
      rmSync(tmp, {force: true});
    }
    const holder = readHolder(path);
    if (holder === "absent") continue; // released meanwhile
    if (holder === "unreadable") throw new OutputLocked(`${name} is locked by ${path}, which is not a parley lock file; if no parley run or ingest is using ${name}, delete ${path}`);
    const who = `parley ${holder.command} (pid ${holder.pid} on ${holder.host}, started ${holder.started})`;
    if (holder.host !== mine.host) throw new OutputLocked(`${name} is in use by ${who}; if that process is no longer running, delete ${path}`);
    if (isProcessAlive(holder.pid) && !(Date.parse(holder.started) < Date.now() - uptime() * 1000)) {
      throw new OutputLocked(`${name} is in use by ${who}; wait for it to finish, stop it (kill -INT ${holder.pid}), or use another --out`);
    }
    // Stale. Move it aside before deleting, and delete only what was read as stale: another process
    // taking over at the same moment may already have put its own live lock there.
    const aside = `${path}.stale-${process.pid}-${randomBytes(4).toString("hex")}`;
    try {
      renameSync(path, aside);
    } catch {
      continue;
    }
    const moved = readHolder(aside);
    if (typeof moved === "object" && moved.pid === holder.pid && moved.started === holder.started) {
      note = `took over the lock of ${who}, which is no longer running`;
    } else {
      try {
        linkSync(aside, path); // put the other process's lock back
      } catch {
        // a third one holds it now; the next attempt reads it
      }
    }
    rmSync(aside, {force: true});
  }
  throw new OutputLocked(`${name}: could not take ${path} (other processes keep taking it); try again`);
}

function readHolder(path: string): LockHolder | "absent" | "unreadable" {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "absent";
    return "unreadable";
  }
  try {
    const h = JSON.parse(text) as LockHolder;
    return Number.isInteger(h?.pid) && typeof h.host === "string" && typeof h.started === "string" ? {...h, command: String(h.command ?? "run")} : "unreadable";
  } catch {
    return "unreadable";
  }
}

function releaseIfMine(path: string, mine: LockHolder): void {
  const holder = readHolder(path);
  if (typeof holder === "object" && holder.pid === mine.pid && holder.started === mine.started && holder.host === mine.host) rmSync(path, {force: true});
}
