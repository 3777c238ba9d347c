/**
 * A file of a run directory (its manifest.json, say) read for what it says,
 * to be shown in a dataset card, a report or the site: read only when it is
 * a regular file inside the directory. A link out of the run (to a secrets
 * file, or anything else the person running parley may read) is not
 * followed, so its content cannot end up in something published.
 */
import {lstatSync, readFileSync, realpathSync, statSync} from "node:fs";
import {join, sep} from "node:path";

/** Files larger than this are not read. */
export const MAX_RUN_FILE_BYTES = 16 << 20;

export type RunFile = {text: string} | {problem: string};

/**
 * The text of `<dir>/<name>`; null when there is no such entry; `problem`
 * (a phrase: "is a link to /x, outside the run directory") when it is not a
 * regular file inside `dir` of at most MAX_RUN_FILE_BYTES, or cannot be read.
 */
export function readRunFile(dir: string, name: string): RunFile | null {
  const path = join(dir, name);
  try {
    lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    return {problem: `cannot be read (${(error as Error).message})`};
  }
  try {
    const real = realpathSync(path);
    if (!real.startsWith(realpathSync(dir) + sep)) return {problem: `is a link to ${real}, outside the run directory`};
    const stats = statSync(real);
    if (!stats.isFile()) return {problem: "is not a file"};
    if (stats.size > MAX_RUN_FILE_BYTES) return {problem: `is larger than ${MAX_RUN_FILE_BYTES >> 20} MiB`};
    return {text: readFileSync(real, "utf8")};
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {problem: code === "ENOENT" || code === "ELOOP" ? "is a link that leads nowhere" : `cannot be read (${(error as Error).message})`};
  }
}
