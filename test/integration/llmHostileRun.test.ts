/**
 * `parley run` against hostile or careless endpoints and configs, as a
 * child process with fake servers on 127.0.0.1: an endpoint that echoes the
 * API key in its answers, Retry-After values of an hour or beyond what a
 * timer can hold, and numeric settings out of any sane range.
 */
import {test, after} from "node:test";
import assert from "node:assert/strict";
import {spawn} from "node:child_process";
import {mkdtempSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {dirname, join} from "node:path";
import {fileURLToPath} from "node:url";
import {startFakeLlm, scripted, type FakeLlmServer} from "../support/fakeLlm.js";
import {gleeBot} from "../support/gleeBot.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const servers: FakeLlmServer[] = [];
const dirs: string[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
  for (const d of dirs) rmSync(d, {recursive: true, force: true});
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "parley-hostile-"));
  dirs.push(d);
  return d;
}

interface Child {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `parley run` in a child process. A run that hangs (the failure some
 * of these tests guard against) is killed after `killAfterMs`, so that it
 * fails its assertions instead of stalling the suite.
 */
function parleyRun(args: string[], env: NodeJS.ProcessEnv, killAfterMs = 60_000): Promise<Child> {
  const child = spawn(process.execPath, ["--import", "tsx", join(root, "loaders/cli.ts"), "run", ...args], {
    cwd: root,
    env: {...process.env, ...env},
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c) => (stdout += c));
  child.stderr.on("data", (c) => (stderr += c));
  const guard = setTimeout(() => child.kill("SIGKILL"), killAfterMs);
  return new Promise((resolve) =>
    child.on("close", (code, signal) => {
      clearTimeout(guard);
      resolve({code, signal, stdout, stderr});
    }),
  );
}

const bargaining = {delta_a: [0.9], delta_b: [0.9], money: [100], horizon: [12], complete_information: [true], messages: [true]};

function writeConfig(dir: string, players: unknown[], pairs: unknown): string {
  const path = join(dir, "run.json");
  writeFileSync(path, JSON.stringify({family: "bargaining", grid: bargaining, players, pairs, seed: 1}));
  return path;
}

test("a numeric setting out of range (timeout_ms 1e12) is a config error naming the key, exit 2, before any request", async () => {
  const server = await startFakeLlm("openai", () => ({text: "{}"}));
  servers.push(server);
  const dir = tempDir();
  const config = writeConfig(dir, [{id: "oa", provider: "openai", model: "m", base_url: server.baseURL, timeout_ms: 1e12}, "rubinstein"], [["oa", "rubinstein"]]);
  const r = await parleyRun([config, "--out", join(dir, "out")], {});
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stderr, `parley run: ${config}: players[0].timeout_ms: expected an integer from 1000 to 3600000, got 1000000000000\n`);
  assert.equal(server.requests.length, 0);
});

test("Retry-After: 3600 waits only max_retry_wait_ms, and the progress line says the endpoint asked for an hour", async () => {
  const server = await startFakeLlm("openai", scripted([{status: 429, retryAfter: "3600"}], gleeBot()));
  servers.push(server);
  const dir = tempDir();
  const config = writeConfig(dir, [{id: "oa", provider: "openai", model: "m", base_url: server.baseURL, max_retry_wait_ms: 200}, "rubinstein"], [["oa", "rubinstein"]]);
  // Without the cap this run would stall for an hour; the guard kills it after 30 s.
  const r = await parleyRun([config, "--out", join(dir, "out")], {}, 30_000);
  assert.equal(r.code, 0, r.stderr);
  const summary = JSON.parse(r.stdout);
  assert.equal(summary.games, 1);
  assert.deepEqual(summary.llm.failed_attempts, {rate_limit: 1});
  assert.match(r.stderr, /games 0\/1 · .* · errors 1 · waiting 0\.2 s \(endpoint asked 3600 s, capped\)\n/);
  assert.equal(server.requests.length, server.answered.length + 1);
});

test("Retry-After beyond what a timer holds (1e10 s), garbage and far-future dates: capped waits, no TimeoutOverflowWarning", async () => {
  const server = await startFakeLlm(
    "gemini",
    scripted([{status: 429, retryAfter: "10000000000"}, {status: 503, retryAfter: "1e10"}, {status: 429, retryAfter: "Fri, 31 Dec 9999 23:59:59 GMT"}], gleeBot()),
  );
  servers.push(server);
  const dir = tempDir();
  const config = writeConfig(dir, [{id: "ge", provider: "gemini", model: "m", base_url: server.baseURL, max_retry_wait_ms: 200}, "rubinstein"], [["ge", "rubinstein"]]);
  const r = await parleyRun([config, "--out", join(dir, "out")], {}, 30_000);
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /TimeoutOverflowWarning|does not fit into a 32-bit signed integer/);
  assert.match(r.stderr, /waiting 0\.2 s \(endpoint asked 10000000000 s, capped\)/);
  assert.match(r.stderr, /waiting 0\.2 s \(endpoint asked \d{12} s, capped\)/, "the date in year 9999");
  assert.ok(r.stderr.length < 4000, `stderr is ${r.stderr.length} bytes`);
  assert.deepEqual(JSON.parse(r.stdout).llm.failed_attempts, {rate_limit: 2, server: 1});
});
