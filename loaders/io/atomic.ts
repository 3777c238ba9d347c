/**
 * Atomic file writes: write beside the target, then rename over it, so that a
 * crash leaves either the old file or the new one, never half of one.
 */
import {closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync, writeSync} from "node:fs";
import {dirname, basename, join} from "node:path";
import {randomBytes} from "node:crypto";

/** A fresh temporary path in the same directory as `target` (same filesystem, so rename is atomic). */
export function tempPathFor(target: string): string {
  mkdirSync(dirname(target), {recursive: true});
  return join(dirname(target), `.${basename(target)}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`);
}

/** Runs `write(tmp)` and renames tmp over `target`; removes tmp if `write` throws. */
export async function writeAtomic<T>(target: string, write: (tmp: string) => Promise<T> | T): Promise<T> {
  const tmp = tempPathFor(target);
  try {
    const result = await write(tmp);
    renameSync(tmp, target);
    return result;
  } catch (error) {
    rmSync(tmp, {force: true});
    throw error;
  }
}

export function writeFileAtomic(target: string, data: string | Uint8Array): Promise<void> {
  // "wx": the temporary name is random, and a file (or link) already there is never written through.
  return writeAtomic(target, (tmp) => writeFileSync(tmp, data, {flag: "wx"}));
}

/**
 * Writes `data` to `target` so that it survives a crash or a power cut
 * once this returns: into a fresh temporary file beside it (created
 * exclusively), flushed to disk (fsync), renamed over the target, and the
 * folder flushed too (so the rename itself is on disk). A crash at any
 * point leaves the old file or the new one, never an empty or partial one.
 */
export function writeFileDurable(target: string, data: string | Uint8Array): void {
  const tmp = tempPathFor(target);
  const bytes = typeof data === "string" ? Buffer.from(data) : data;
  try {
    const fd = openSync(tmp, "wx");
    try {
      for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, target);
  } catch (error) {
    rmSync(tmp, {force: true});
    throw error;
  }
  syncFolder(dirname(target));
}

/** Flushes a folder's entries to disk; where folders cannot be opened or flushed (Windows), the rename is as durable as the system makes it. */
function syncFolder(dir: string): void {
  let fd: number;
  try {
    fd = openSync(dir, "r");
  } catch {
    return;
  }
  try {
    fsyncSync(fd);
  } catch (error) {
    if (!["EISDIR", "EINVAL", "EPERM", "EBADF", "ENOTSUP"].includes((error as NodeJS.ErrnoException).code ?? "")) throw error;
  } finally {
    closeSync(fd);
  }
}
