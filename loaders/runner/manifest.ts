/**
 * The reproducibility manifest written beside every run's and ingest's
 * tables (`<out>/manifest.json`; a shard writes `manifest.shard-<i>.json`):
 * what produced them, so a number can be traced back. It holds the config
 * as given and its sha256, Parley's version and git commit, the versions of
 * the SDKs and engines, the seed, the chance scheme of a run (runner/chance.ts),
 * start and end times, counts of games,
 * calls, cached calls and rule breaks, and per LLM player the model as
 * requested and as the API reported it with the sha256 of every distinct
 * system prompt sent (llm/promptLog.ts), so a changed prompt template shows
 * as a new hash, and its harness factors (llm/harness.ts: legal moves
 * listed, structured output, retries after a rule break, votes), every one
 * spelled out; a run config's generalisation protocol resolved (its
 * held-out configurations as configuration ids; runner/generalisationConfig.ts);
 * an adaptive run's decisions (run/adaptive.ts: each batch, what it chose and
 * why, the rank interval widths then). No key or secret is ever part of it:
 * players name the environment variable of their key, never its value.
 */
import {createHash} from "node:crypto";
import {existsSync, readdirSync, readFileSync, statSync} from "node:fs";
import {join, resolve} from "node:path";
import {projectRoot} from "../projectConfig.js";
import {writeFileAtomic} from "../io/atomic.js";
import {redactUrl, redactUrls} from "../io/printable.js";
import {readRunFile} from "../io/runFile.js";
import {promptLog} from "../llm/promptLog.js";
import type {Harness} from "../llm/harness.js";
import type {GeneralisationProtocol} from "../../src/lib/generalisation.js";

const PACKAGES = ["@observablehq/framework", "@duckdb/node-api", "@duckdb/duckdb-wasm", "openai", "@anthropic-ai/sdk", "@google/genai", "apache-arrow", "parquet-wasm"];

function packageVersion(name: string): string | null {
  try {
    return JSON.parse(readFileSync(join(projectRoot, "node_modules", name, "package.json"), "utf8")).version ?? null;
  } catch {
    return null;
  }
}

/** The checkout's commit, read from .git without running git (null outside a git checkout). */
export function gitCommit(root = projectRoot): string | null {
  const dotGit = join(root, ".git");
  try {
    if (!existsSync(dotGit)) return null;
    let gitDir = dotGit;
    // A worktree's (or submodule's) .git is a file naming its git directory.
    if (statSync(dotGit).isFile()) {
      const named = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, "utf8"))?.[1];
      if (!named) return null;
      gitDir = resolve(root, named.trim());
    }
    const commonFile = join(gitDir, "commondir");
    const common = existsSync(commonFile) ? resolve(gitDir, readFileSync(commonFile, "utf8").trim()) : gitDir;
    const head = readFileSync(join(gitDir, "HEAD"), "utf8").trim();
    if (/^[0-9a-f]{40}$/.test(head)) return head;
    const ref = /^ref: (.+)$/.exec(head)?.[1];
    if (!ref) return null;
    const loose = join(common, ref);
    if (existsSync(loose)) return readFileSync(loose, "utf8").trim();
    const packed = join(common, "packed-refs");
    if (!existsSync(packed)) return null;
    for (const line of readFileSync(packed, "utf8").split("\n")) {
      const [sha, name] = line.split(" ");
      if (name === ref) return sha;
    }
    return null;
  } catch {
    return null;
  }
}

export const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");

export interface ManifestInput {
  kind: "run" | "ingest";
  /** The config file's text (runs) or the ingest's adapter and input. */
  config: unknown;
  configText?: string;
  seed?: number | null;
  /** A run's chance scheme (runner/chance.ts); src/lib/sharedChance.ts reads a run manifest without one as per-game. */
  chance?: string | null;
  /** LLM players; `harness` their harness factors (llm/harness.ts), recorded when given. */
  llmPlayers?: {id: string; provider: string; model: string; base_url?: string | null; harness?: Harness}[];
  started: Date;
  counts: Record<string, number>;
  shard?: string | null;
  /** An adaptive run's decisions and stop (run/adaptive.ts AdaptiveSummary). */
  adaptive?: unknown;
  /** The run config's generalisation protocol, as parsed (held-out configurations resolved to ids). */
  generalisation?: GeneralisationProtocol;
}

export function buildManifest(input: ManifestInput): Record<string, unknown> {
  const configText = input.configText ?? JSON.stringify(input.config);
  return {
    kind: input.kind,
    parley: {version: readVersion(), commit: gitCommit()},
    // URLs without their credentials (a base_url with user:password@): the manifest is meant to be shared. The hash is of the file as given.
    config: redactUrls(input.config),
    config_sha256: sha256(configText),
    ...(input.shard && {shard: input.shard}),
    seed: input.seed ?? null,
    ...(input.chance && {chance: input.chance}),
    started: input.started.toISOString(),
    finished: new Date().toISOString(),
    node: process.version,
    packages: Object.fromEntries(PACKAGES.map((p) => [p, packageVersion(p)])),
    counts: input.counts,
    ...(input.adaptive !== undefined && {adaptive: input.adaptive}),
    llm_players: (input.llmPlayers ?? []).map((p) => {
      const log = promptLog.get(p.id);
      return {
        id: p.id,
        provider: p.provider,
        model_requested: p.model,
        base_url: p.base_url ? redactUrl(p.base_url) : null,
        models_reported: log ? [...log.reportedModels].sort() : [],
        system_prompts: log ? [...log.systemPrompts].map(([sha, calls]) => ({sha256: sha, calls})).sort((a, b) => (a.sha256 < b.sha256 ? -1 : 1)) : [],
        ...(p.harness && {harness: p.harness}),
      };
    }),
    ...(input.generalisation && {generalisation: input.generalisation}),
  };
}

function readVersion(): string | null {
  try {
    return JSON.parse(readFileSync(join(projectRoot, "package.json"), "utf8")).version ?? null;
  } catch {
    return null;
  }
}

/** Writes the manifest atomically; a shard's name carries its index. */
export async function writeManifest(outDir: string, manifest: Record<string, unknown>, shardIndex: number | null = null): Promise<string> {
  const path = join(outDir, shardIndex === null ? "manifest.json" : `manifest.shard-${shardIndex}.json`);
  await writeFileAtomic(path, JSON.stringify(manifest, null, 2) + "\n");
  return path;
}

/**
 * The manifest of a run or ingest directory: `manifest.json`, else (a
 * sharded run) the first shard's; null when there is none, it is not JSON,
 * or it is not a file inside the directory (io/runFile.ts: a link out of
 * the run is not followed, so its content never reaches a report or the site).
 */
export function readManifest(dir: string): Record<string, unknown> | null {
  const shards = existsSync(dir) && statSync(dir).isDirectory() ? readdirSync(dir).filter((f) => /^manifest\.shard-\d+\.json$/.test(f)) : [];
  shards.sort((x, y) => Number(/\d+/.exec(x)![0]) - Number(/\d+/.exec(y)![0]));
  for (const name of ["manifest.json", ...shards]) {
    const file = readRunFile(dir, name);
    if (!file) continue;
    if ("problem" in file) return null;
    try {
      return JSON.parse(file.text);
    } catch {
      return null;
    }
  }
  return null;
}
