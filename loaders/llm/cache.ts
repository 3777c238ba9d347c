/**
 * A response cache on disk, keyed by the sha256 of what determines an
 * answer — provider, model, sampling parameters, the messages, and a sample
 * key (see below). Re-running a run replays cached answers instead of
 * calling the provider again, which makes re-runs free and lets a killed run
 * resume without re-issuing a finished call.
 *
 * The sample key (e.g. "<seed>/<game_id>/alice") keeps two games that
 * happen to send identical prompts at temperature > 0 from sharing one
 * sample; without it, every repetition of a configuration would get the
 * first game's opening move.
 *
 * Storage: append-only segments of JSON lines, one segment per process
 * (<dir>/segment-<time>-<pid>.jsonl), each entry written with one write(2)
 * before `put` returns. Opening the cache indexes every segment (key ->
 * file, offset, length; answers stay on disk), so a miss costs no I/O and a
 * put one append — a file per entry cost several file-system operations per
 * call and was the bottleneck at high concurrency (bench/llm.bench.ts). A
 * kill can only cut the last line of a segment short; a line that does not
 * parse is ignored, so an entry is either whole or absent. Entries hold the
 * answer and its metadata, never request headers, and answers are scrubbed
 * of API keys before they are stored (complete.ts), so no key can end up in
 * the cache even from an endpoint that echoes one. Processes sharing a directory do not see each other's new
 * entries until they reopen it.
 */
import {createHash} from "node:crypto";
import {closeSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, writeSync} from "node:fs";
import {join} from "node:path";
import type {ChatMessage, Completion, Provider, Sampling} from "./types.js";
import {checkedUsage} from "./usage.js";

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
  /** The model's thinking (absent in entries written before it was kept, and when there was none). */
  thinking?: string | null;
  usage: Completion["usage"];
  finish_reason: string | null;
  /** The model the API reported (absent in entries written before it was kept). */
  reported_model?: string | null;
  latency_ms: number;
  attempts: number;
  created: string;
}

interface Location {
  segment: number;
  offset: number;
  length: number;
}

export class ResponseCache {
  private readonly segments: string[] = [];
  private readonly readers = new Map<number, number>();
  private readonly index = new Map<string, Location>();
  private writer: {fd: number; segment: number; offset: number} | null = null;

  constructor(readonly dir: string) {
    mkdirSync(dir, {recursive: true});
    for (const name of readdirSync(dir).filter((n) => n.startsWith("segment-") && n.endsWith(".jsonl")).sort()) {
      this.indexSegment(join(dir, name));
    }
  }

  private indexSegment(path: string): void {
    const segment = this.segments.push(path) - 1;
    const data = readFileSync(path);
    for (let start = 0; start < data.length; ) {
      const end = data.indexOf(10, start);
      if (end < 0) break; // a line cut short by a kill
      try {
        const key = (JSON.parse(data.subarray(start, end).toString("utf8")) as Entry).key;
        if (typeof key === "string") this.index.set(key, {segment, offset: start, length: end - start});
      } catch {
        // unreadable line: not an entry
      }
      start = end + 1;
    }
  }

  /** Number of entries. */
  get size(): number {
    return this.index.size;
  }

  /** The cached completion for `key`, or null. An unreadable entry counts as a miss. */
  async get(key: string): Promise<Completion | null> {
    const at = this.index.get(key);
    if (!at) return null;
    try {
      let fd = this.readers.get(at.segment);
      if (fd === undefined) this.readers.set(at.segment, (fd = openSync(this.segments[at.segment]!, "r")));
      const buffer = Buffer.alloc(at.length);
      readSync(fd, buffer, 0, at.length, at.offset);
      const e = JSON.parse(buffer.toString("utf8")) as Entry;
      if (e.key !== key || typeof e.text !== "string") return null;
      // Counts checked again: an entry written before usage was checked may hold "1000" or 1e30 (usage.ts).
      return {text: e.text, ...(e.thinking && {thinking: e.thinking}), usage: checkedUsage(e.usage), finish_reason: e.finish_reason, ...(e.reported_model && {model: e.reported_model}), latency_ms: e.latency_ms, cached: true, attempts: 0};
    } catch {
      return null;
    }
  }

  /** Appends an entry; when the promise resolves the entry is in the file (the OS's page cache). */
  async put(key: string, parts: Pick<CacheKeyParts, "provider" | "model" | "sample">, completion: Completion): Promise<void> {
    const entry: Entry = {
      key,
      provider: parts.provider,
      model: parts.model,
      sample: parts.sample,
      text: completion.text,
      ...(completion.thinking && {thinking: completion.thinking}),
      usage: completion.usage,
      finish_reason: completion.finish_reason,
      reported_model: completion.model ?? null,
      latency_ms: completion.latency_ms,
      attempts: completion.attempts,
      created: new Date().toISOString(),
    };
    if (!this.writer) {
      const path = join(this.dir, `segment-${Date.now().toString(36)}-${process.pid}.jsonl`);
      this.writer = {fd: openSync(path, "ax"), segment: this.segments.push(path) - 1, offset: 0};
    }
    const line = Buffer.from(JSON.stringify(entry) + "\n");
    // One synchronous append: a few microseconds into the page cache, and no other
    // callback can interleave a second entry in the middle of this one.
    let written = 0;
    while (written < line.length) written += writeSync(this.writer.fd, line, written, line.length - written);
    this.index.set(key, {segment: this.writer.segment, offset: this.writer.offset, length: line.length - 1});
    this.writer.offset += line.length;
  }

  /** Closes the files (the cache stays usable: they reopen on demand). */
  close(): void {
    if (this.writer) closeSync(this.writer.fd);
    this.writer = null;
    for (const fd of this.readers.values()) closeSync(fd);
    this.readers.clear();
  }
}
