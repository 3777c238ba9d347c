/**
 * Atomic file writes: write beside the target, then rename over it, so that a
 * crash leaves either the old file or the new one, never half of one.
 */
import {mkdirSync, renameSync, rmSync, writeFileSync} from "node:fs";
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
  return writeAtomic(target, (tmp) => writeFileSync(tmp, data));
}
