/**
 * `parley run` against hostile or careless endpoints and configs, as a
 * child process with fake servers on 127.0.0.1: an endpoint that echoes the
 * API key in its answers, Retry-After values of an hour or beyond what a
 * timer can hold, and numeric settings out of any sane range.
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {readdirSync, readFileSync, statSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {parley, scratch} from "../support/cli.js";
import {startFakeLlm, scripted, type FakeLlmServer, type FakeRequest, type Reply, type Wire} from "../support/fakeLlm.js";
import {gleeBot} from "../support/gleeBot.js";
import {queryRun} from "../../loaders/io/parquet.js";

const {dir: tempDir, keep} = scratch("parley-hostile-");
const servers = {push: (...list: FakeLlmServer[]) => list.forEach(keep)};

/** Runs `parley run` in a child process, killed after `killAfterMs` if it hangs (the failure some of these tests guard against). */
const parleyRun = (args: string[], env: NodeJS.ProcessEnv, killAfterMs = 60_000) => parley(["run", ...args], env, killAfterMs);

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

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

test("an endpoint that echoes API keys: every player's key is scrubbed from turns, checkpoints, cache and the other player's prompt", async () => {
  // One key per player; the Gemini one has characters that URL-encoding changes, as an echoed `?key=` would show them.
  const keys = {openai: "sk-echo-" + "a1b2c3d4e5".repeat(3), anthropic: "sk-ant-echo-" + "f6e7d8c9b0".repeat(3), gemini: "AIza/echo+" + "0123456789".repeat(3) + "=="};
  const forms = Object.values(keys).flatMap((k) => [k, encodeURIComponent(k)]);
  // A proxy in front of all three endpoints that echoes every credential it has seen, in prose, in the
  // JSON message (which the other player is shown) and in private reasoning.
  const seen = new Set<string>();
  const bot = gleeBot();
  const echo = async (request: FakeRequest): Promise<Reply> => {
    if (request.credential) seen.add(request.credential);
    const said = [...seen].map((c) => `${c} (key=${encodeURIComponent(c.replace(/^Bearer /, ""))})`).join(", ");
    const reply = (await bot(request)) as {text: string};
    const fenced = /```json\n(.*)\n```/.exec(reply.text)!;
    const json = JSON.parse(fenced[1]!);
    if ("message" in json) json.message += ` Your headers: ${said}`;
    return {text: `<reasoning>The request carried ${said}.</reasoning>\nI was sent ${said}.\n\`\`\`json\n${JSON.stringify(json)}\n\`\`\``};
  };
  const wires: Wire[] = ["openai", "anthropic", "gemini"];
  const [oa, an, ge] = await Promise.all(wires.map((w) => startFakeLlm(w, echo)));
  servers.push(oa!, an!, ge!);
  const player = (id: string, server: FakeLlmServer) => ({id, provider: server.wire, model: `echo-${server.wire}`, base_url: server.baseURL, api_key_env: `PARLEY_ECHO_KEY_${server.wire.toUpperCase()}`, chain_of_thought: true});
  const dir = tempDir();
  const out = join(dir, "out");
  const config = writeConfig(dir, [player("oa", oa!), player("an", an!), player("ge", ge!), "rubinstein"], [["oa", "an"], ["an", "ge"], ["ge", "oa"], ["rubinstein", "ge"]]);
  const env = {PARLEY_ECHO_KEY_OPENAI: keys.openai, PARLEY_ECHO_KEY_ANTHROPIC: keys.anthropic, PARLEY_ECHO_KEY_GEMINI: keys.gemini};
  const r = await parleyRun([config, "--out", out], env);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).games, 4);
  // The echo really happened: each server got its own player's key, and every reply quoted keys.
  for (const server of [oa!, an!, ge!]) assert.ok(server.requests[0]!.credential!.includes(keys[server.wire]), server.wire);

  const present = (text: string) => forms.filter((f) => text.includes(f));
  // Parquet is compressed, so read it through DuckDB; every other file (checkpoints, cache) is text.
  const turns = await queryRun<{raw: string; message: string | null; reasoning: string | null}>(out, ["turns"], "SELECT raw, message, reasoning FROM turns WHERE raw IS NOT NULL");
  const games = await queryRun(out, ["games"], "SELECT * FROM games");
  assert.deepEqual(present(JSON.stringify(turns)), [], "turns.parquet holds a key");
  assert.deepEqual(present(JSON.stringify(games, (_k, v) => (typeof v === "bigint" ? String(v) : v))), [], "games.parquet holds a key");
  for (const file of walk(out)) assert.deepEqual(present(readFileSync(file, "utf8")), [], `${file} holds a key`);
  assert.ok(walk(join(out, ".parley", "llm-cache")).length > 0 && walk(join(out, ".parley", "checkpoints")).length === 4);
  // ... and what was stored says where a key was.
  // The first credential quoted is whichever request reached the proxy first: an OpenAI one is "Bearer <key>".
  assert.ok(turns.length > 0 && turns.every((t) => /I was sent (Bearer )?\[redacted\] \(key=\[redacted\]\)/.test(t.raw) && t.reasoning?.includes("[redacted]")));
  assert.ok(turns.some((t) => t.message?.includes("Your headers: ") && t.message.includes("Bearer [redacted] (key=[redacted])")));
  // The other player's provider saw the echoing player's message, scrubbed: no request body holds any key.
  for (const server of [oa!, an!, ge!]) {
    for (const request of server.requests) assert.deepEqual(present(JSON.stringify(request.body)), [], `a request to ${server.wire} carries a key in its body`);
  }
  assert.ok([oa!, an!, ge!].some((s) => s.requests.some((q) => q.lastUser.includes("Your headers: "))), "messages were forwarded to the other player");
  assert.deepEqual(present(r.stdout + r.stderr), []);
});
