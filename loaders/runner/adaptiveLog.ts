/**
 * The decisions of an adaptive run (src/lib/adaptivePlan.ts), kept beside
 * its checkpoints as <state>/adaptive.jsonl, one decision a line, appended
 * after every decision and before its games start: a resumed run takes them
 * over, plays what they chose and not yet finished, and never chooses a
 * game twice. A line cut short by a crash is dropped on reading: no game of
 * that decision had started, and the decision is made again. A directory's
 * checkpoints belong to one kind of run: a run without --adaptive does not
 * continue an adaptive one (`refuseAdaptiveState`), nor an adaptive run one
 * played without it (`refuseFixedState`).
 */
import {appendFileSync, existsSync, mkdirSync, readFileSync} from "node:fs";
import {dirname, join} from "node:path";
import {writeFileDurable} from "../io/atomic.js";
import {CheckpointConflict, type Checkpoints} from "./checkpoint.js";
import type {BatchDecision} from "../../src/lib/adaptivePlan.js";

export const adaptiveLogPath = (state: string): string => join(state, "adaptive.jsonl");

/** The decisions recorded in `state`, and whether the file ends with a whole line; null when the directory holds none. */
export function readAdaptiveLog(state: string): {decisions: BatchDecision[]; whole: boolean} | null {
  const path = adaptiveLogPath(state);
  if (!existsSync(path)) return null;
  const text = readFileSync(path, "utf8");
  const lines = text.split("\n");
  const decisions: BatchDecision[] = [];
  for (const [n, line] of lines.entries()) {
    if (!line.trim()) continue;
    let decision: BatchDecision;
    try {
      decision = JSON.parse(line);
    } catch (error) {
      if (n === lines.length - 1) break; // the last line, cut short by a crash (a complete one ends with a newline)
      throw new CheckpointConflict(`${path}:${n + 1}: unreadable decision (${(error as Error).message}); the games chosen after it cannot be told apart: use another --out directory`);
    }
    if (decision?.batch !== decisions.length || !Array.isArray(decision?.picks)) {
      throw new CheckpointConflict(`${path}:${n + 1}: expected decision ${decisions.length} ({"batch": ${decisions.length}, "picks": [...], ...}); use another --out directory`);
    }
    decisions.push(decision);
  }
  return {decisions, whole: text === "" || text.endsWith("\n")};
}

/** Appends one decision (its line is whole once this returns). */
export function appendAdaptiveLog(state: string, decision: BatchDecision): void {
  mkdirSync(dirname(adaptiveLogPath(state)), {recursive: true});
  appendFileSync(adaptiveLogPath(state), JSON.stringify(decision) + "\n");
}

/** Replaces the log by `decisions`, atomically (a resumed run that drops a stop to decide again, or a line cut short). */
export function rewriteAdaptiveLog(state: string, decisions: readonly BatchDecision[]): void {
  writeFileDurable(adaptiveLogPath(state), decisions.map((d) => JSON.stringify(d) + "\n").join(""));
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
