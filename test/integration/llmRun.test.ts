/**
 * `parley run` with LLM players, end to end, as a child process against
 * fake OpenAI, Anthropic and Gemini servers on 127.0.0.1 (test/support/):
 * games complete through transport failures, rule breaks are counted
 * exactly, a SIGKILL mid-run followed by the same command re-issues no
 * answered call and writes no duplicate row, and the API key's value is in
 * no output file and no log.
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {readdirSync, readFileSync, statSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {scratch, startParley} from "../support/cli.js";
import {startFakeLlm, scripted, type FakeLlmServer, type Reply} from "../support/fakeLlm.js";
import {gleeBot} from "../support/gleeBot.js";
import {queryRun} from "../../loaders/io/parquet.js";

const KEY = "sk-parley-" + "c0ffee5eed".repeat(4);
const {dir: tempDir, keep} = scratch("parley-llm-run-");
const servers = {push: (...list: FakeLlmServer[]) => list.forEach(keep)};

/** Runs `parley run` in a child process; `onStart` may kill it. */
function parleyRun(args: string[], onStart?: (kill: () => void) => void, env: NodeJS.ProcessEnv = {}) {
  const {child, done} = startParley(["run", ...args], {PARLEY_FAKE_KEY: KEY, ...env});
  onStart?.(() => child.kill("SIGKILL"));
  return done;
}

function player(id: string, server: FakeLlmServer) {
  return {id, provider: server.wire, model: `fake-${server.wire}`, base_url: server.baseURL, api_key_env: "PARLEY_FAKE_KEY", temperature: 1.0, max_tokens: 400, persona: null, timeout_ms: 2500, max_retries: 4};
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

// Bargaining: Alice's opening offer is first malformed JSON, then out of range, then fine (2 rule breaks).
// Negotiation: Bob answers every decision in prose, so after max_attempts = 3 the game is aborted (3 rule breaks).
const misbehave = (r: {system: string; lastUser: string}): Reply | null => {
  const alice = /^(Let's play a game\.\nIn this game, there are two players\. You are playing as Alice|You are Alice\.)/.test(r.system);
  if (alice && r.lastUser.startsWith("Round 1\nSend your offer") && r.lastUser.includes("divide")) return {text: 'Sure: {"alice_gain": 900, "bob_gain": }'};
  if (alice && r.lastUser.includes("malformed JSON")) return {text: '```json\n{"alice_gain": 1500, "bob_gain": -500, "message": "All for me."}\n```'};
  if (r.system.includes("You are playing as Bob. You are looking for a product") && r.system.includes('"AcceptOffer"')) return {text: "I accept your kind offer."};
  return null;
};

test("LLM players on three providers: games complete through 429/500/drops, rule breaks counted exactly, no key anywhere", async () => {
  const bot = gleeBot({misbehave});
  const openai = await startFakeLlm("openai", scripted([{status: 429, retryAfter: "1"}, {status: 500}, {drop: true}], bot));
  const anthropic = await startFakeLlm("anthropic", scripted([{status: 503}, {text: "slow but fine", delayMs: 4000}], bot));
  const gemini = await startFakeLlm("gemini", bot);
  servers.push(openai, anthropic, gemini);
  const dir = tempDir();
  const out = join(dir, "out");
  const config = join(dir, "llm-three.json");
  writeFileSync(
    config,
    JSON.stringify({
      family: ["bargaining", "negotiation"],
      grid: {
        bargaining: {delta_a: [0.9], delta_b: [0.8], money: [1000], horizon: [12], complete_information: [true], messages: [true]},
        negotiation: {factor_a: [0.8], factor_b: [1.2], money: [100], horizon: [12], complete_information: [true], messages: [true]},
      },
      players: [player("oa", openai), player("an", anthropic), player("ge", gemini)],
      pairs: [["oa", "an"], ["ge", "oa"], ["an", "ge"]],
      games_per_pair: 2,
      seed: 7,
      concurrency: 4,
    }),
  );
  const r = await parleyRun([config, "--out", out]);
  assert.equal(r.code, 0, r.stderr);
  const summary = JSON.parse(r.stdout);
  assert.equal(summary.planned, 12);
  assert.equal(summary.games, 12);
  assert.equal(summary.failed, 0);
  assert.match(r.stderr, /games 12\/12 · calls \d+ \(0 cached\) · tokens [\d.]+k? in, [\d.]+k? out · rule breaks 30 · errors \d+/);

  const games = await queryRun(out, ["games"], "SELECT family, ended_by, count(*)::INTEGER AS n, count(DISTINCT game_id)::INTEGER AS ids FROM games GROUP BY ALL ORDER BY family");
  assert.deepEqual(games, [
    {family: "bargaining", ended_by: "agreement", n: 6, ids: 6},
    {family: "negotiation", ended_by: "rule_break", n: 6, ids: 6},
  ]);
  const breaks = await queryRun(
    out,
    ["turns", "games"],
    `SELECT g.family, t.attempt, t.rule_break_reason AS reason, count(*)::INTEGER AS n
     FROM turns t JOIN games g USING (game_id)
     WHERE t.rule_break GROUP BY ALL ORDER BY family, attempt`,
  );
  assert.deepEqual(breaks, [
    {family: "bargaining", attempt: 1, reason: "the reply contains malformed JSON; expected one valid JSON object", n: 6},
    {family: "bargaining", attempt: 2, reason: "alice_gain: 1500 is above the maximum 1000", n: 6},
    {family: "negotiation", attempt: 1, reason: "the reply contains no JSON object", n: 6},
    {family: "negotiation", attempt: 2, reason: "the reply contains no JSON object", n: 6},
    {family: "negotiation", attempt: 3, reason: "the reply contains no JSON object", n: 6},
  ]);
  const [check] = await queryRun(
    out,
    ["turns"],
    `SELECT count(*)::INTEGER AS rows, count(DISTINCT (game_id, turn))::INTEGER AS distinct_turns,
            count(*) FILTER (WHERE raw IS NULL OR input_tokens IS NULL OR output_tokens IS NULL OR latency_ms IS NULL)::INTEGER AS missing,
            count(*) FILTER (WHERE rule_break AND raw = 'Sure: {"alice_gain": 900, "bob_gain": }')::INTEGER AS raw_kept
     FROM turns`,
  );
  // Bargaining: 3 tries for Alice's offer + reject + counter-offer + accept; negotiation: offer + 3 tries.
  assert.deepEqual(check, {rows: 6 * 6 + 6 * 4, distinct_turns: 60, missing: 0, raw_kept: 6});
  // Every call answered once: the transport failures were retried, nothing was asked twice.
  // (anthropic's slow answer came after the client's timeout, so it was never delivered.)
  const answered = [openai, anthropic, gemini].reduce((n, s) => n + s.answered.length, 0);
  assert.equal(answered, 60);
  assert.equal(openai.requests.length - openai.answered.length, 3);

  // The key was sent to the servers, and is in no file of the output and in no log line.
  assert.ok(openai.requests[0]!.credential?.includes(KEY));
  for (const file of walk(out)) assert.ok(!readFileSync(file).includes(KEY), `${file} contains the API key`);
  assert.ok(!r.stdout.includes(KEY) && !r.stderr.includes(KEY), "the key appears in the command's output");
});

test("kill -9 mid-run, then the same command: remaining games finish, no answered call is re-issued, no row is duplicated", async () => {
  // Each game has its own parameters, so every call of the run has a distinct request body.
  let answeredBeforeKill = 0;
  let holding = false;
  const bot = gleeBot({delayMs: 40});
  const hold = (r: Parameters<typeof bot>[0]) => (holding ? ({hold: true} as Reply) : bot(r));
  const openai = await startFakeLlm("openai", hold);
  const gemini = await startFakeLlm("gemini", hold);
  servers.push(openai, gemini);
  const dir = tempDir();
  const out = join(dir, "out");
  const config = join(dir, "llm-resume.json");
  writeFileSync(
    config,
    JSON.stringify({
      family: "bargaining",
      grid: {delta_a: [0.8, 0.9, 0.95, 1], delta_b: [0.8, 0.9], money: [1000], horizon: [12], complete_information: [true], messages: [true]},
      players: [player("oa", openai), player("ge", gemini)],
      pairs: [["oa", "ge"]],
      games_per_pair: 1,
      seed: 3,
      concurrency: 2,
    }),
  );
  const total = 8 * 4; // 8 games; offer, reject, counter-offer, accept
  const answered = () => openai.answered.length + gemini.answered.length;

  // First run: once 12 calls are answered, stop answering, give the client time to record what it got, then SIGKILL.
  const first = await parleyRun([config, "--out", out], (kill) => {
    const poll = setInterval(() => {
      if (answered() < 12) return;
      clearInterval(poll);
      holding = true;
      answeredBeforeKill = answered();
      setTimeout(kill, 1000);
    }, 5);
  });
  assert.equal(first.signal, "SIGKILL");
  const checkpoints = readdirSync(join(out, ".parley", "checkpoints")).filter((f) => f.endsWith(".json"));
  assert.ok(checkpoints.length >= 1 && checkpoints.length < 8, `${checkpoints.length} games finished before the kill`);

  // Second run: same command.
  holding = false;
  const second = await parleyRun([config, "--out", out]);
  assert.equal(second.code, 0, second.stderr);
  const summary = JSON.parse(second.stdout);
  assert.equal(summary.resumed, checkpoints.length);
  assert.equal(summary.played, 8 - checkpoints.length);
  assert.equal(summary.games, 8);
  assert.ok(summary.llm.cache_hits > 0, "calls of interrupted games were answered by the cache");

  // Every call answered once over both runs: what the first run got was never asked again.
  const hashes = [...openai.answered, ...gemini.answered].map((q) => q.bodyHash);
  assert.equal(new Set(hashes).size, hashes.length, "an answered call was sent again");
  assert.equal(hashes.length, total);
  assert.ok(answeredBeforeKill >= 12);

  const [games] = await queryRun(out, ["games"], "SELECT count(*)::INTEGER AS n, count(DISTINCT game_id)::INTEGER AS ids, count(*) FILTER (WHERE ended_by = 'agreement')::INTEGER AS agreed FROM games");
  assert.deepEqual(games, {n: 8, ids: 8, agreed: 8});
  const [turns] = await queryRun(out, ["turns"], "SELECT count(*)::INTEGER AS n, count(DISTINCT (game_id, turn))::INTEGER AS ids FROM turns");
  assert.deepEqual(turns, {n: total, ids: total});

  // A third run finds everything done and sends nothing.
  const before = openai.requests.length + gemini.requests.length;
  const third = await parleyRun([config, "--out", out, "--quiet"]);
  assert.equal(third.code, 0, third.stderr);
  assert.equal(JSON.parse(third.stdout).resumed, 8);
  assert.equal(openai.requests.length + gemini.requests.length, before);
  assert.equal(third.stderr, "");
});

test("a changed config is refused in a directory holding another run's checkpoints", async () => {
  const gemini = await startFakeLlm("gemini", gleeBot());
  servers.push(gemini);
  const dir = tempDir();
  const out = join(dir, "out");
  const config = join(dir, "small.json");
  const write = (seed: number) =>
    writeFileSync(config, JSON.stringify({family: "bargaining", grid: {delta_a: [0.9], delta_b: [0.9], money: [100], horizon: [12], complete_information: [true], messages: [false]}, players: [player("ge", gemini)], pairs: "self", seed}));
  write(1);
  assert.equal((await parleyRun([config, "--out", out, "--quiet"])).code, 0);
  write(2);
  const r = await parleyRun([config, "--out", out, "--quiet"]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^parley run: .* holds checkpoints of a different run definition/);
  // A player whose key variable is unset is refused before any game, naming the variable.
  const noKey = await parleyRun([config, "--out", join(dir, "other"), "--quiet"], undefined, {PARLEY_FAKE_KEY: ""});
  assert.equal(noKey.code, 2);
  assert.match(noKey.stderr, /player ge: environment variable PARLEY_FAKE_KEY \(api_key_env\) is not set/);
});

test("an endpoint that stays down fails its games without recording them; the next run plays them", async () => {
  const gemini = await startFakeLlm("gemini", () => ({status: 500}));
  servers.push(gemini);
  const dir = tempDir();
  const out = join(dir, "out");
  const config = join(dir, "down.json");
  writeFileSync(
    config,
    JSON.stringify({
      family: "bargaining",
      grid: {delta_a: [0.9], delta_b: [0.9], money: [100], horizon: [12], complete_information: [true], messages: [false]},
      players: [{...player("ge", gemini), max_retries: 1}, "rubinstein"],
      pairs: [["ge", "rubinstein"], ["rubinstein", "rubinstein"]],
    }),
  );
  const down = await parleyRun([config, "--out", out]);
  assert.equal(down.code, 1);
  assert.match(down.stderr, /1 game\(s\) could not be finished \(first: bargaining-0-ge-vs-rubinstein-0: gemini fake-gemini: .*500.* \(gave up after 2 attempts\)\); run the same command again/);
  assert.equal(JSON.parse(down.stdout).games, 1, "the built-in game is recorded");
  assert.equal(gemini.requests.length, 2);
  gemini.setResponder(gleeBot());
  const up = await parleyRun([config, "--out", out, "--quiet"]);
  assert.equal(up.code, 0, up.stderr);
  assert.deepEqual([JSON.parse(up.stdout).resumed, JSON.parse(up.stdout).played, JSON.parse(up.stdout).games], [1, 1, 2]);
});
