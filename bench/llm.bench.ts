/**
 * LLM call throughput (issue 4): `complete` (limiter, retries bookkeeping,
 * response cache writes, the official SDK) against a loopback endpoint in
 * another process that answers every request after 100 ms. At concurrency c
 * the ideal throughput is c / 0.1 s; printed is the achieved share of it
 * (median of 3 trials after a warm-up, with the range) and the client's CPU
 * time per call. Target: ratio >= 0.9 at concurrency 32. "budget" is a
 * priced run under --max-cost: every call also reserved, flushed to the
 * spend journal before it is sent and settled after (runner/budget.ts),
 * against the same line with the cache only. The endpoint shares
 * the machine's cores with the client, so a busy machine lowers the ratio;
 * the load average is printed first.
 */
import {spawn, type ChildProcess} from "node:child_process";
import {mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {dirname, join} from "node:path";
import {fileURLToPath} from "node:url";
import {performance} from "node:perf_hooks";
import {createInterface} from "node:readline";
import os from "node:os";
import {createCompleter, providerCall, type Complete, type Endpoint} from "../loaders/llm/complete.js";
import {ResponseCache} from "../loaders/llm/cache.js";
import {Limiter} from "../loaders/llm/limiter.js";
import {newStats} from "../loaders/llm/stats.js";
import {httpFetch} from "../loaders/llm/httpFetch.js";
import type {Provider} from "../loaders/llm/types.js";
import {RunBudget} from "../loaders/runner/budget.js";
import {SpendJournal} from "../loaders/runner/spendJournal.js";

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

const messages = [
  {role: "system" as const, content: "Let's play a game. ".repeat(40)},
  {role: "user" as const, content: "Round 1\nDo you accept this offer?"},
];
let tag = 0;

/** `calls` completions through `complete` with at most `concurrency` in flight; every call is distinct (no cache hits). */
async function drive(complete: Complete, concurrency: number, calls: number): Promise<void> {
  const prefix = `t${tag++}`;
  let next = 0;
  const worker = async () => {
    while (next < calls) await complete(messages, {max_tokens: 50, temperature: 1}, `${prefix}-${next++}`);
  };
  await Promise.all(Array.from({length: concurrency}, worker));
}

interface Trial {
  ratio: number;
  throughput: number;
  cpuMsPerCall: number;
}

/**
 * The machine's ceiling for comparison: the same requests as bare keep-alive
 * HTTP POSTs (httpFetch.ts, no SDK, no limiter, no cache).
 */
function bareHttp(url: string): Complete {
  return async (msgs, sampling, sample) => {
    const body = JSON.stringify({model: "bench", messages: msgs, ...sampling, user: sample});
    const response = await httpFetch(`${url}/chat/completions`, {method: "POST", body, headers: {"content-type": "application/json"}});
    const json = (await response.json()) as {choices: {message: {content: string}}[]};
    return {text: json.choices[0]!.message.content, usage: {input_tokens: 0, output_tokens: 0}, finish_reason: null, latency_ms: 0, cached: false, attempts: 1};
  };
}

/** Median (by ratio) of `trials` timed runs at `concurrency`, after a warm-up at the same level. */
async function measure(wire: Provider, url: string, concurrency: number, cacheDir: string | null, bare = false, budgetDir: string | null = null, trials = 3): Promise<Trial & {failed: number; spread: [number, number]}> {
  const endpoint: Endpoint = {provider: wire, model: "bench", baseURL: url, timeoutMs: 10_000, maxRetries: 2};
  const stats = newStats();
  const prices = new Map([[`${wire}/bench`, {input_per_million: 1, output_per_million: 1, as_of: null}]]);
  const budget = budgetDir ? new RunBudget(prices, 1e9, new SpendJournal(budgetDir)) : null;
  const complete = bare
    ? bareHttp(url)
    : createCompleter(endpoint, providerCall(endpoint, "bench-key"), {
        cache: cacheDir ? new ResponseCache(cacheDir) : null,
        limiter: new Limiter({maxConcurrency: concurrency, requestsPerMinute: null}),
        stats,
        budget,
      });
  await drive(complete, concurrency, Math.max(100, concurrency * 4)); // sockets, JIT
  const results: Trial[] = [];
  for (let t = 0; t < trials; t++) {
    const calls = Math.max(40, concurrency * 12);
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await drive(complete, concurrency, calls);
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const throughput = calls / seconds;
    results.push({throughput, ratio: throughput / (concurrency / (LATENCY_MS / 1000)), cpuMsPerCall: (cpu.user + cpu.system) / 1000 / calls});
  }
  await budget?.close();
  results.sort((a, b) => a.ratio - b.ratio);
  return {...results[Math.floor(trials / 2)]!, failed: stats.failedCalls, spread: [results[0]!.ratio, results[trials - 1]!.ratio]};
}

export default async function (): Promise<void> {
  const cacheDir = mkdtempSync(join(tmpdir(), "parley-llm-bench-"));
  // With the response cache (what a run does), at every level for OpenAI's protocol, at 32 for the
  // others; and once without the cache, to show what caching costs.
  // Last, bare HTTP at 32: what this machine allows right now, whatever the client does.
  const plan: [Provider, number[], "cache" | "no cache" | "budget" | "bare http"][] = [
    ["openai", [1, 8, 32, 64], "cache"],
    ["openai", [8, 32], "budget"],
    ["openai", [32], "no cache"],
    ["anthropic", [32], "cache"],
    ["gemini", [32], "cache"],
    ["openai", [32], "bare http"],
  ];
  console.log(`loopback endpoint in a child process, ${LATENCY_MS} ms per answer; ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)}`);
  try {
    for (const [wire, levels, mode] of plan) {
      const {url, child} = await startServer(wire);
      try {
        for (const c of levels) {
          const budgetDir = mode === "budget" ? mkdtempSync(join(tmpdir(), "parley-llm-bench-spend-")) : null;
          const r = await measure(wire, url, c, mode === "cache" || mode === "budget" ? cacheDir : null, mode === "bare http", budgetDir);
          if (budgetDir) rmSync(budgetDir, {recursive: true, force: true});
          console.log(
            `${(mode === "bare http" ? "bare http" : wire).padEnd(9)} concurrency ${String(c).padStart(2)}${mode === "no cache" ? " (no cache)" : mode === "budget" ? " (budget)" : ""}: ${r.throughput.toFixed(1).padStart(6)} calls/s, ` +
              `ratio ${r.ratio.toFixed(3)} of ideal ${(c / (LATENCY_MS / 1000)).toFixed(0)}/s (trials ${r.spread[0].toFixed(2)}-${r.spread[1].toFixed(2)}), CPU ${r.cpuMsPerCall.toFixed(2)} ms/call` +
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
