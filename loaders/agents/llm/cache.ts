/**
 * A response cache on disk: one JSON file per completed call, named by the
 * sha256 of what determines the answer — provider, model, sampling
 * parameters, the messages, and a sample key (see below). Re-running a run
 * replays cached answers instead of calling the provider again, which makes
 * re-runs free and lets a killed run resume without re-issuing a finished
 * call.
 *
 * The sample key (e.g. "<game_id>/alice") keeps two games that happen to
 * send identical prompts at temperature > 0 from sharing one sample; without
 * it, every repetition of a configuration would get the first game's
 * opening move.
 *
 * Entries are written atomically (temp file + rename), so a kill leaves
 * either a whole entry or none. Entries hold the answer and its metadata,
 * never the request headers, so no API key can end up in the cache.
 */
import {createHash} from "node:crypto";
import {existsSync, mkdirSync} from "node:fs";
import {readFile, rename, rm, writeFile} from "node:fs/promises";
import {join} from "node:path";
import type {ChatMessage, Completion, Provider, Sampling} from "./types.js";

export interface CacheKeyParts {
  provider: Provider;
  model: string;
  sampling: Sampling;
  messages: ChatMessage[];
  sample: string;
}

/** The hex sha256 that names a cache entry; stable under key order of `sampling`. */
export function cacheKey(parts: CacheKeyParts): string {
  const sampling = Object.fromEntries(Object.entries(parts.sampling).filter(([, v]) => v !== undefined).sort(([a], [b]) => a.localeCompare(b)));
  const canonical = JSON.stringify([1, parts.provider, parts.model, sampling, parts.sample, parts.messages.map((m) => [m.role, m.content])]);
  return createHash("sha256").update(canonical).digest("hex");
}

interface Entry {
  key: string;
  provider: Provider;
  model: string;
  sample: string;
  text: string;
  usage: Completion["usage"];
  finish_reason: string | null;
  latency_ms: number;
  attempts: number;
  created: string;
}

export class ResponseCache {
  private readonly shards = new Set<string>();
  private seq = 0;

  constructor(readonly dir: string) {}

  private path(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  /** The cached completion for `key`, or null. An unreadable entry counts as a miss. */
  async get(key: string): Promise<Completion | null> {
    // existsSync first: a miss is the common case in a fresh run, and a failed open costs far more than a stat.
    if (!existsSync(this.path(key))) return null;
    let raw: string;
    try {
      raw = await readFile(this.path(key), "utf8");
    } catch {
      return null;
    }
    try {
      const e = JSON.parse(raw) as Entry;
      if (e.key !== key || typeof e.text !== "string") return null;
      return {text: e.text, usage: e.usage, finish_reason: e.finish_reason, latency_ms: e.latency_ms, cached: true, attempts: 0};
    } catch {
      return null;
    }
  }

  async put(key: string, parts: Pick<CacheKeyParts, "provider" | "model" | "sample">, completion: Completion): Promise<void> {
    const entry: Entry = {
      key,
      provider: parts.provider,
      model: parts.model,
      sample: parts.sample,
      text: completion.text,
      usage: completion.usage,
      finish_reason: completion.finish_reason,
      latency_ms: completion.latency_ms,
      attempts: completion.attempts,
      created: new Date().toISOString(),
    };
    // Atomic like io/atomic.ts (temp file in the same directory, then rename), but asynchronous so
    // that a burst of completions does not stall the event loop, and with each shard directory created once.
    const shard = join(this.dir, key.slice(0, 2));
    if (!this.shards.has(shard)) {
      mkdirSync(shard, {recursive: true});
      this.shards.add(shard);
    }
    const target = this.path(key);
    const tmp = join(shard, `.${key}.tmp-${process.pid}-${this.seq++}`);
    try {
      await writeFile(tmp, JSON.stringify(entry) + "\n");
      await rename(tmp, target);
    } catch (error) {
      await rm(tmp, {force: true});
      throw error;
    }
  }
}
