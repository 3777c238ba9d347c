/**
 * What this process's LLM players were actually sent and who answered, for
 * the run's manifest (run/manifest.ts): per player, the sha256 of every
 * distinct system prompt (the rules and instructions a game's narrator or
 * GLEE's Appendix D.2 text puts there, so a changed template gives a new
 * hash) with its call count and the model names the API reported (what
 * the calls cost is the run's budget's: runner/budget.ts). One shared
 * instance per process, like stats.ts.
 */
import {createHash} from "node:crypto";
import type {ChatMessage, Completion} from "./types.js";

export interface PlayerPrompts {
  /** sha256 of the system prompt → calls that used it. */
  systemPrompts: Map<string, number>;
  reportedModels: Set<string>;
}

export const promptLog = new Map<string, PlayerPrompts>();

/** Records one call of `player`. */
export function recordCall(player: string, messages: readonly ChatMessage[], completion: Completion): void {
  let entry = promptLog.get(player);
  if (!entry) promptLog.set(player, (entry = {systemPrompts: new Map(), reportedModels: new Set()}));
  const system = messages.filter((m) => m.role === "system").map((m) => m.content).join("\n\n");
  const hash = createHash("sha256").update(system).digest("hex");
  entry.systemPrompts.set(hash, (entry.systemPrompts.get(hash) ?? 0) + 1);
  if (completion.model) entry.reportedModels.add(completion.model);
}
