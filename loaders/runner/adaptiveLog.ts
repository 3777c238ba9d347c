/**
 * The decisions of an adaptive run (src/lib/adaptivePlan.ts), kept beside
 * its checkpoints as <state>/adaptive.json and rewritten, atomically, after
 * every decision and before its games start: a resumed run takes them over,
 * plays what they chose and not yet finished, and never chooses a game
 * twice. A directory's checkpoints belong to one kind of run: a run without
 * --adaptive does not continue an adaptive one (`refuseAdaptiveState`), nor
 * an adaptive run one played without it (`refuseFixedState`).
 */
import {existsSync, readFileSync} from "node:fs";
import {join} from "node:path";
import {writeFileAtomic} from "../io/atomic.js";
import {CheckpointConflict, type Checkpoints} from "./checkpoint.js";
import type {BatchDecision} from "../../src/lib/adaptivePlan.js";

const LOG = "adaptive.json";

export const adaptiveLogPath = (state: string): string => join(state, LOG);

/** The decisions recorded in `state`, or null when the directory holds none. */
export function readAdaptiveLog(state: string): BatchDecision[] | null {
  const path = adaptiveLogPath(state);
  if (!existsSync(path)) return null;
  let saved: {decisions?: unknown};
  try {
    saved = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new CheckpointConflict(`${path}: unreadable adaptive log (${(error as Error).message}); its finished games cannot be told apart from chosen ones: use another --out directory`);
  }
  if (!Array.isArray(saved?.decisions) || saved.decisions.some((d) => typeof d?.batch !== "number" || !Array.isArray(d?.picks))) {
    throw new CheckpointConflict(`${path}: not an adaptive log (expected {"decisions": [{"batch": 0, "picks": [...]}, ...]}); use another --out directory`);
  }
  return saved.decisions as BatchDecision[];
}

export function writeAdaptiveLog(state: string, decisions: readonly BatchDecision[]): Promise<void> {
  return writeFileAtomic(adaptiveLogPath(state), JSON.stringify({decisions}) + "\n");
}

/** Throws when `state` holds an adaptive run's decisions (a run without --adaptive would play other games under them). */
export function refuseAdaptiveState(state: string): void {
  if (existsSync(adaptiveLogPath(state))) {
    throw new CheckpointConflict(`${state} holds an adaptive run (games chosen as results came in): run the same command with --adaptive to resume it, or use another --out directory`);
  }
}

/** Throws when `state` holds finished games of a run played without --adaptive (no decisions recorded). */
export function refuseFixedState(state: string, checkpoints: Checkpoints): void {
  if (!existsSync(adaptiveLogPath(state)) && checkpoints.size > 0) {
    throw new CheckpointConflict(`${state} holds games of a run played without --adaptive: resume it without --adaptive, or use another --out directory`);
  }
}
