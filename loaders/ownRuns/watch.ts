/**
 * Watching a study as it runs (`parley dev`): Framework's preview re-runs a
 * data loader when the loader's own file changes, and pushes the new files
 * to the open pages. So every `interval` ms this looks at each configured
 * run directory (no DuckDB: file names, counts and times only) and, when a
 * run has changed (a game checkpointed, tables or manifest written, the run
 * started or finished), touches src/data/runs/[run].tar.ts; the loader then
 * reads the run again, finished games from its checkpoints while it is
 * still going (describe.ts). A change of the config's "runs" (or of a run's
 * games) rewrites src/generated/runs.js (site.ts), which reloads the pages
 * that import it.
 */
import {statSync, utimesSync} from "node:fs";
import {join} from "node:path";
import {projectRoot} from "../projectConfig.js";
import {readRuns} from "./configuredRuns.js";
import {runState} from "./describe.js";
import {prepareRuns} from "./runArchives.js";

export const RUN_LOADER = join(projectRoot, "src/data/runs/[run].tar.ts");

const mtime = (path: string): number | null => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
};

/** What changes when a run gains games or finishes: per configured run, its state's counts and the times of the files it commits. */
export function runsFingerprint(env: NodeJS.ProcessEnv = process.env): string {
  let config;
  try {
    config = readRuns(env);
  } catch (error) {
    return `config: ${(error as Error).message}`;
  }
  return JSON.stringify({
    config: mtime(config.configPath),
    runs: config.runs.map((run) => {
      const state = runState(run.dir);
      return [run.slug, state.checkpoints, state.partitions, state.running !== null, state.manifests.length, mtime(join(run.dir, "tables.json")), mtime(join(run.dir, "manifest.json"))];
    }),
  });
}

export interface RunWatcher {
  /** Looks once; returns whether the runs changed (and the loader was touched). */
  check(): Promise<boolean>;
  stop(): void;
}

/** Watches the configured runs for a preview; `loader` is the file whose change makes Framework re-run the run archives. */
export interface WatchOptions {
  /** Milliseconds between looks (0: only when `check` is called). */
  interval?: number;
  /** The file touched on a change. */
  loader?: string;
  /** Rewrites the generated module (tests pass their own, to leave src/ alone). */
  prepare?: (env: NodeJS.ProcessEnv) => Promise<unknown>;
  onChange?: () => void;
}

export function watchRuns(env: NodeJS.ProcessEnv = process.env, {interval = 2000, loader = RUN_LOADER, prepare = prepareRuns, onChange}: WatchOptions = {}): RunWatcher {
  let last = runsFingerprint(env);
  let busy = false;
  const check = async () => {
    const now = runsFingerprint(env);
    if (now === last) return false;
    last = now;
    await prepare(env);
    const time = new Date();
    utimesSync(loader, time, time);
    onChange?.();
    return true;
  };
  const timer = interval > 0 ? setInterval(() => {
    if (busy) return;
    busy = true;
    check().catch((error) => process.stderr.write(`parley dev: watching runs: ${(error as Error).message}\n`)).finally(() => (busy = false));
  }, interval) : null;
  timer?.unref();
  return {check, stop: () => timer && clearInterval(timer)};
}
