/**
 * Leftovers of interrupted writes. Every temporary name Parley makes carries
 * the writer's pid (`.<target>.tmp-<pid>-<hex>`, see atomic.ts), so the next
 * writer into a directory can tell a file that a live process is still
 * filling from one whose writer died (kill -9, a crash, a power cut) and
 * remove the latter: staged JSON lines of a big run can be gigabytes.
 */
import {readdirSync, rmSync} from "node:fs";
import {join} from "node:path";

/** The pid inside a temporary name made by atomic.ts or tableSet.ts, or null for any other name. */
export function tempOwner(name: string): number | null {
  const match = /\.tmp-(\d+)-[0-9a-f]+/.exec(name);
  return match ? Number(match[1]) : null;
}

/**
 * True when a process with this pid exists on this host. EPERM means it
 * exists but belongs to another user; only ESRCH says it is gone.
 */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes the temporary files and directories in `dir` (not below it) whose
 * writing process is no longer alive, among names starting with `prefix`
 * (for shared directories such as the system's temp directory); returns
 * their names. Files of live processes, this one included, are kept, and so
 * is what this user may not delete.
 */
export function removeStaleTemps(dir: string, prefix = ""): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = tempOwner(name);
    if (pid === null || pid === process.pid || isProcessAlive(pid)) continue;
    try {
      rmSync(join(dir, name), {recursive: true, force: true});
      removed.push(name);
    } catch {
      // another user's leftovers in a shared directory: theirs to remove
    }
  }
  return removed;
}
