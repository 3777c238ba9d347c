/**
 * The chance scheme a run keeps when its config names none: the scheme of
 * the same run definition already played into its output directory, so that
 * a resumed run never mixes games of two schemes. A directory played before
 * the scheme existed holds that run's per-game fingerprint (resume.ts counts
 * the scheme only when it is "common", so a per-game run's fingerprint is
 * the one runs had before), and resumes per-game; a new directory, or one
 * holding another run definition, takes the config's default.
 */
import {existsSync, readFileSync} from "node:fs";
import {join} from "node:path";
import {currentManifest} from "../io/tableSet.js";
import {runFingerprint} from "./resume.js";
import {runStateDir, tableSetOptions, type Shard} from "./shard.js";
import {CHANCE_SCHEMES, type ChanceScheme} from "./chance.js";
import type {RunConfig} from "./runConfigTypes.js";

/** The run fingerprints recorded in `outDir` for `shard`: its checkpoints', its tables' writer's, and the shard layout's. */
function recordedRuns(outDir: string, shard: Shard | null): Set<string> {
  const found = new Set<string>();
  const read = (path: string): string | null => {
    try {
      return existsSync(path) ? readFileSync(path, "utf8") : null;
    } catch {
      return null;
    }
  };
  const checkpoints = read(join(runStateDir(outDir, shard), "run-fingerprint"));
  if (checkpoints) found.add(checkpoints.trim());
  const writer = currentManifest(outDir, tableSetOptions(outDir, shard))?.writer;
  if (writer?.command === "run") found.add(writer.key);
  const layout = read(join(outDir, ".parley", "shards.json"));
  try {
    const run = layout ? (JSON.parse(layout) as {run?: unknown}).run : null;
    if (typeof run === "string") found.add(run);
  } catch {
    // A broken layout is reported by shard.ts when the run claims the directory.
  }
  return found;
}

/** The scheme of the run `config` describes as `outDir` already holds it (any scheme), or null when it holds none. */
export function keptChance(outDir: string, shard: Shard | null, config: RunConfig): ChanceScheme | null {
  const recorded = recordedRuns(outDir, shard);
  if (!recorded.size) return null;
  return CHANCE_SCHEMES.find((chance) => recorded.has(runFingerprint({...config, chance}))) ?? null;
}
