/**
 * What this process's LLM players were actually sent and who answered, for
 * the run's manifest (run/manifest.ts): per player, the sha256 of every
 * distinct system prompt (the rules and instructions a game's narrator or
 * GLEE's Appendix D.2 text puts there, so a changed template gives a new
 * hash) with its call count, the model names the API reported, and the
 * tokens of the requests sent (run/cost.ts prices them). One
 * shared instance per process, like stats.ts.
 */
import {createHash} from "node:crypto";
import type {ChatMessage, Completion} from "./types.js";

export interface PlayerPrompts {
  /** sha256 of the system prompt → calls that used it. */
  systemPrompts: Map<string, number>;
  reportedModels: Set<string>;
  /** Tokens of the requests actually sent (a cached answer sends none and costs nothing). */
  inputTokens: number;
  outputTokens: number;
  /** Of inputTokens, those the provider read from its prompt cache (billed at the cached rate). */
  cachedInputTokens: number;
  /** Of inputTokens, those written to the provider's prompt cache (billed at the cache-write price). */
  cacheWriteTokens: number;
}

export const promptLog = new Map<string, PlayerPrompts>();

/** Records one call of `player`. */
export function recordCall(player: string, messages: readonly ChatMessage[], completion: Completion): void {
  let entry = promptLog.get(player);
  if (!entry) promptLog.set(player, (entry = {systemPrompts: new Map(), reportedModels: new Set(), inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0}));
  if (!completion.cached) {
    entry.inputTokens += completion.usage.input_tokens ?? 0;
    entry.outputTokens += completion.usage.output_tokens ?? 0;
    entry.cachedInputTokens += completion.usage.cached_input_tokens ?? 0;
    entry.cacheWriteTokens += completion.usage.cache_write_tokens ?? 0;
  }
  const system = messages.filter((m) => m.role === "system").map((m) => m.content).join("\n\n");
  const hash = createHash("sha256").update(system).digest("hex");
  entry.systemPrompts.set(hash, (entry.systemPrompts.get(hash) ?? 0) + 1);
  if (completion.model) entry.reportedModels.add(completion.model);
}
