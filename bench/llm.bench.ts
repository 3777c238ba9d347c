/**
 * LLM call throughput (issue 4): `complete` (limiter, retries bookkeeping,
 * response cache writes, the official SDK) against a loopback endpoint in
 * another process that answers every request after 100 ms. At concurrency c
 * the ideal throughput is c / 0.1 s; printed is the achieved share of it and
 * the client's CPU time per call. Target: ratio >= 0.9 at concurrency 32.
 */
import {spawn, type ChildProcess} from "node:child_process";
import {mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {dirname, join} from "node:path";
import {fileURLToPath} from "node:url";
import {performance} from "node:perf_hooks";
import {createInterface} from "node:readline";
import os from "node:os";
import {createCompleter, providerCall, type Endpoint} from "../loaders/agents/llm/complete.js";
import {ResponseCache} from "../loaders/agents/llm/cache.js";
import {Limiter} from "../loaders/agents/llm/limiter.js";
import {newStats} from "../loaders/agents/llm/stats.js";
import type {Provider} from "../loaders/agents/llm/types.js";

const LATENCY_MS = 100;
const root = join(dirname(fileURLToPath(import.meta.url)), "..");

async function startServer(wire: Provider): Promise<{url: string; child: ChildProcess}> {
  const child = spawn(process.execPath, ["--import", "tsx", join(root, "test/support/fakeLlmProcess.ts"), wire, String(LATENCY_MS)], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({input: child.stdout!}).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`fake server exited (${code})`)));
  });
  return {url: line.trim(), child};
}

async function measure(wire: Provider, url: string, concurrency: number, cacheDir: string | null) {
  const endpoint: Endpoint = {provider: wire, model: "bench", baseURL: url, timeoutMs: 10_000, maxRetries: 2};
  const stats = newStats();
  const complete = createCompleter(endpoint, providerCall(endpoint, "bench-key"), {
    cache: cacheDir ? new ResponseCache(cacheDir) : null,
    limiter: new Limiter({maxConcurrency: concurrency, requestsPerMinute: null}),
    stats,
  });
  const messages = [
    {role: "system" as const, content: "Let's play a game. ".repeat(40)},
    {role: "user" as const, content: "Round 1\nDo you accept this offer?"},
  ];
  const run = async (calls: number, tag: string) => {
    let next = 0;
    const worker = async () => {
      while (next < calls) await complete(messages, {max_tokens: 50, temperature: 1}, `${tag}-${next++}`);
    };
    await Promise.all(Array.from({length: concurrency}, worker));
  };
  await run(concurrency * 2, `warm-${wire}-${concurrency}`); // connections, JIT
  const calls = Math.max(40, concurrency * 15);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await run(calls, `bench-${wire}-${concurrency}`);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const throughput = calls / seconds;
  const ideal = concurrency / (LATENCY_MS / 1000);
  return {throughput, ratio: throughput / ideal, cpuMsPerCall: (cpu.user + cpu.system) / 1000 / calls, failed: stats.failedCalls};
}

export default async function (): Promise<void> {
  const cacheDir = mkdtempSync(join(tmpdir(), "parley-llm-bench-"));
  // With the response cache (what a run does), at every level for OpenAI's protocol, at 32 for the
  // others; and once without the cache, to show what caching costs.
  const plan: [Provider, number[], boolean][] = [["openai", [1, 8, 32, 64], true], ["openai", [32], false], ["anthropic", [32], true], ["gemini", [32], true]];
  console.log(`loopback endpoint in a child process, ${LATENCY_MS} ms per answer; ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)}`);
  try {
    for (const [wire, levels, cached] of plan) {
      const {url, child} = await startServer(wire);
      try {
        for (const c of levels) {
          const r = await measure(wire, url, c, cached ? cacheDir : null);
          console.log(
            `${wire.padEnd(9)} concurrency ${String(c).padStart(2)}${cached ? "" : " (no cache)"}: ${r.throughput.toFixed(1).padStart(6)} calls/s, ` +
              `ratio ${r.ratio.toFixed(3)} of ideal ${(c / (LATENCY_MS / 1000)).toFixed(0)}/s, CPU ${r.cpuMsPerCall.toFixed(2)} ms/call` +
              (r.failed ? `, ${r.failed} failed` : ""),
          );
        }
      } finally {
        child.kill("SIGTERM");
      }
    }
  } finally {
    rmSync(cacheDir, {recursive: true, force: true});
  }
}
