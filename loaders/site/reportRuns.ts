/**
 * The runs a report is about: each directory given to `parley report`,
 * checked (it exists, is a directory, holds tables), named, and with what
 * its manifests (run/manifest.ts) and spend files (run/cost.ts) say.
 */
import {existsSync, readdirSync, statSync} from "node:fs";
import {basename, join, resolve} from "node:path";
import {isRunDirectory} from "../io/runTables.js";
import {hasSpendRecord, previousSpend} from "../runner/spendJournal.js";
import {runState, tableContents, type RunManifestInfo} from "../ownRuns/describe.js";

export interface StudyRun {
  /** Unique within the report: the directory's name, numbered when two share it. */
  name: string;
  dir: string;
  /** Game ids it holds, e.g. glee/bargaining. */
  games: string[];
  /** Its manifest.json, or each shard's manifest.shard-<i>.json; empty when there is none. */
  manifests: RunManifestInfo[];
  /** Dollars spent on its LLM calls, all processes and shards (spend.json), or null when nothing was priced. */
  spendUsd: number | null;
}

/** The games (ids such as glee/bargaining) a run directory holds: its partitions, or what its flat tables name (loaders/ownRuns/describe.ts). */
async function runGames(dir: string): Promise<string[]> {
  const {partitions} = runState(dir);
  return partitions.length ? partitions : (await tableContents(dir)).games.map((g) => g.game);
}

/** Why a directory cannot be reported on; the command prints it as one line. */
export class StudyRunError extends Error {}

export async function readStudyRuns(dirs: readonly string[]): Promise<StudyRun[]> {
  const runs: StudyRun[] = [];
  const taken = new Set<string>();
  for (const given of dirs) {
    const dir = resolve(given);
    if (!existsSync(dir)) throw new StudyRunError(`${given} not found; expected a directory written by "parley run" or "parley ingest"`);
    if (!statSync(dir).isDirectory()) throw new StudyRunError(`${given} is a file, expected a directory written by "parley run" or "parley ingest"`);
    if (!isRunDirectory(dir)) throw new StudyRunError(`${given} holds no tables (expected game=<id>/games.parquet as "parley run" writes, or games.parquet)`);
    let name = basename(dir);
    for (let i = 2; taken.has(name); i++) name = `${basename(dir)}-${i}`;
    taken.add(name);
    runs.push({name, dir, games: await runGames(dir), manifests: runState(dir).manifests, spendUsd: spend(dir)});
  }
  return runs;
}

function spend(dir: string): number | null {
  const state = join(dir, ".parley");
  if (!existsSync(state)) return null;
  const dirs = [state, ...readdirSync(state).filter((n) => n.startsWith("shard=")).map((n) => join(state, n))].filter(hasSpendRecord);
  if (!dirs.length) return null;
  try {
    return dirs.reduce((sum, d) => sum + previousSpend(d), 0);
  } catch {
    // A spend record that cannot be read: the run's spend is unknown (parley run names the file when it resumes).
    return null;
  }
}
