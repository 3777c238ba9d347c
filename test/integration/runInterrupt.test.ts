/**
 * `parley run` against hostile and careless use, as real child processes on
 * real directories (LLM players against a fake endpoint on 127.0.0.1):
 * a second run on the same --out is refused while the first lives; Ctrl-C
 * writes the finished games, releases the lock and resumes without sending
 * any call twice; game ids that collided or broke the old checkpoint names
 * resume; a failure while writing the second table leaves the old tables;
 * a SIGKILL'd run's temp files and lock are cleaned up by the next run.
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {spawn} from "node:child_process";
import {existsSync, readdirSync, readFileSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {root, scratch, startParley} from "../support/cli.js";
import {startFakeLlm, type FakeLlmServer, type Reply} from "../support/fakeLlm.js";
import {gleeBot} from "../support/gleeBot.js";
import {queryRun} from "../../loaders/io/parquet.js";
import {lockPath} from "../../loaders/io/outputLock.js";

const {dir: tempDir, keep} = scratch("parley-run-interrupt-");
const servers = {push: (...list: FakeLlmServer[]) => list.forEach(keep)};
const start = (args: string[]) => startParley(args, {PARLEY_FAKE_KEY: "sk-test"});
const parley = (args: string[]) => start(args).done;

/** Waits until `condition` has been seen true once (staged files come and go: asking again could miss it). */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 6000; i++) {
    if (condition()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.fail(`timed out waiting for ${what}`);
}

const llm = (id: string, server: FakeLlmServer) => ({id, provider: server.wire, model: "fake", base_url: server.baseURL, api_key_env: "PARLEY_FAKE_KEY", timeout_ms: 20000, max_retries: 2});
const bargaining = {delta_a: [0.8, 0.9, 0.95, 1], delta_b: [0.8, 0.9], money: [1000], horizon: [12], complete_information: [true], messages: [true]};
const checkpointFiles = (out: string) => (existsSync(join(out, ".parley", "checkpoints")) ? readdirSync(join(out, ".parley", "checkpoints")).filter((f) => f.endsWith(".json")) : []);

/** Everything under `dir` that an interrupted write leaves: temp files and unfinished generations. */
const leftovers = (dir: string) => readdirSync(dir, {recursive: true}).map(String).filter((p) => /\.tmp-\d+-|\.stale-/.test(p));

test("a second run on the same --out is refused naming the first; Ctrl-C writes the finished games and a rerun sends no call twice", async () => {
  // Answers take 200 ms; while `gate` is set they wait for it, so the first run is surely still playing when the second starts.
  let gate: Promise<void> | null = null;
  let open = () => {};
  const bot = gleeBot({delayMs: 200});
  const server = await startFakeLlm("gemini", async (r): Promise<Reply> => {
    if (gate) await gate;
    return bot(r);
  });
  servers.push(server);
  const dir = tempDir();
  const out = join(dir, "out");
  const config = join(dir, "slow.json");
  writeFileSync(config, JSON.stringify({family: "bargaining", grid: bargaining, players: [llm("p", server), llm("q", server)], pairs: [["p", "q"]], seed: 5, concurrency: 2}));

  const a = start(["run", config, "--out", out]);
  await until(() => checkpointFiles(out).length >= 1, "a first finished game");
  gate = new Promise((resolve) => (open = resolve));

  const b = await parley(["run", config, "--out", out, "--quiet"]);
  assert.equal(b.code, 2, b.stderr);
  assert.match(b.stderr, new RegExp(`^parley run: ${out} is in use by parley run \\(pid ${a.child.pid} on [^,]+, started [^)]+\\); wait for it to finish, stop it \\(kill -INT ${a.child.pid}\\), or use another --out\\n$`));

  a.child.kill("SIGINT");
  gate = null;
  open(); // calls in flight are answered now, after the signal
  const first = await a.done;
  assert.equal(first.code, 130, first.stderr);
  const finished = Number(/interrupted by SIGINT: (\d+) of 8 games finished and written to /.exec(first.stderr)?.[1]);
  assert.ok(finished >= 1 && finished < 8, first.stderr);
  assert.match(first.stderr, /run the same command again to resume\n$/);
  assert.equal(existsSync(lockPath(out)), false, "the lock is released");
  assert.equal(checkpointFiles(out).length, finished);
  const [games] = await queryRun(out, ["games"], "SELECT count(*)::INTEGER AS n, count(DISTINCT game_id)::INTEGER AS ids FROM games");
  assert.deepEqual(games, {n: finished, ids: finished});
  const [turns] = await queryRun(out, ["turns"], "SELECT count(DISTINCT game_id)::INTEGER AS n FROM turns");
  assert.equal(turns.n, finished);

  const again = await parley(["run", config, "--out", out, "--quiet"]);
  assert.equal(again.code, 0, again.stderr);
  const summary = JSON.parse(again.stdout);
  assert.deepEqual([summary.resumed, summary.played, summary.games, summary.turns], [finished, 8 - finished, 8, 32]);
  // Every request the endpoint ever saw was a distinct call: nothing in flight at the signal was asked again.
  const hashes = server.requests.map((r) => r.bodyHash);
  assert.equal(new Set(hashes).size, hashes.length, "a call was sent twice");
  assert.equal(hashes.length, 32);
  assert.deepEqual(leftovers(out), []);
});

test("player ids that collided or broke the old checkpoint names: every game is kept once and a rerun plays nothing", async () => {
  const server = await startFakeLlm("gemini", gleeBot());
  servers.push(server);
  const dir = tempDir();
  const out = join(dir, "out");
  const config = join(dir, "ids.json");
  // The longest id allowed (io/ids.ts) is longer than a file name may be.
  const ids = ["a/b", "a~2Fb", "a~b", "%", "~~", "x".repeat(256), "joueur ü 😀"];
  const grid = {...bargaining, delta_a: [0.9], delta_b: [0.9], messages: [false]};
  writeFileSync(config, JSON.stringify({family: "bargaining", grid, players: ids.map((id) => llm(id, server)), pairs: "self", seed: 2}));
  const first = await parley(["run", config, "--out", out, "--quiet"]);
  assert.equal(first.code, 0, first.stderr);
  assert.equal(JSON.parse(first.stdout).games, ids.length);
  const sent = server.requests.length;

  const second = await parley(["run", config, "--out", out, "--quiet"]);
  assert.equal(second.code, 0, second.stderr);
  assert.deepEqual([JSON.parse(second.stdout).resumed, JSON.parse(second.stdout).played], [ids.length, 0]);
  assert.equal(server.requests.length, sent, "the rerun sent requests");
  const rows = await queryRun(out, ["games"], "SELECT alice_agent AS id FROM games ORDER BY id");
  assert.deepEqual(rows.map((r) => r.id), [...ids].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));
});

test("a failure while writing the turns table leaves the old games and turns; a fixed rerun writes both", async () => {
  const dir = tempDir();
  const out = join(dir, "out");
  const config = join(dir, "builtin.json");
  writeFileSync(config, JSON.stringify({family: "bargaining", grid: bargaining, players: ["rubinstein", "fair"], pairs: [["rubinstein", "fair"]], seed: 1}));
  assert.equal((await parley(["run", config, "--out", out, "--resume", "--quiet"])).code, 0);
  const snapshot = async () =>
    (await queryRun(out, ["games", "turns"], "SELECT (SELECT string_agg(DISTINCT run_id ORDER BY run_id) FROM games) AS run_id, (SELECT count(*)::INTEGER FROM turns) AS turns"))[0];
  const before = await snapshot();

  // One checkpoint now says something new in its games row, and holds a turn number DuckDB cannot store as INTEGER.
  const file = join(out, ".parley", "checkpoints", checkpointFiles(out)[0]!);
  const saved = JSON.parse(readFileSync(file, "utf8"));
  saved.row.run_id = "edited";
  saved.turns[0].turn = 2 ** 40;
  writeFileSync(file, JSON.stringify(saved));
  const failed = await parley(["run", config, "--out", out, "--resume", "--quiet"]);
  assert.equal(failed.code, 1);
  assert.match(failed.stderr, /turn|INT32|INTEGER/i, failed.stderr);
  assert.deepEqual(await snapshot(), before, "the old set is whole");
  assert.deepEqual(leftovers(out), []);

  saved.turns[0].turn = 0;
  writeFileSync(file, JSON.stringify(saved));
  assert.equal((await parley(["run", config, "--out", out, "--resume", "--quiet"])).code, 0);
  assert.deepEqual(await snapshot(), {run_id: "builtin,edited", turns: before.turns});
});

test("SIGTERM stops a run without checkpoints leaving the old tables; after a SIGKILL the next run takes over the lock and removes the temp files", async () => {
  const dir = tempDir();
  const out = join(dir, "out");
  const small = join(dir, "small.json");
  writeFileSync(small, JSON.stringify({family: "bargaining", grid: bargaining, players: ["rubinstein"], pairs: "self", seed: 1}));
  const big = join(root, "data", "runs", "default.json");
  assert.equal((await parley(["run", small, "--out", out])).code, 0);
  const count = async () => (await queryRun(out, ["games"], "SELECT count(*)::INTEGER AS n FROM games"))[0].n;
  assert.equal(await count(), 8);
  const staging = () => leftovers(out).some((p) => p.endsWith(".jsonl"));

  // Another config into a directory holding the small run's tables: --replace (without it, refused up front).
  const term = start(["run", big, "--out", out, "--replace"]);
  await until(staging, "the big run to stage rows");
  term.child.kill("SIGTERM");
  const stopped = await term.done;
  assert.equal(stopped.code, 143, stopped.stderr);
  assert.match(stopped.stderr, new RegExp(`parley run: SIGTERM: stopped; ${out} is unchanged`));
  assert.equal(existsSync(lockPath(out)), false);
  assert.equal(await count(), 8);

  const killed = start(["run", big, "--out", out, "--replace"]);
  // Its lock too: a temp file of the process can appear before it holds the lock (failed once on a fresh clone).
  await until(() => existsSync(lockPath(out)) && staging() && leftovers(out).some((p) => p.includes(`.tmp-${killed.child.pid}-`)), "the big run to take the lock and stage rows");
  killed.child.kill("SIGKILL");
  assert.equal((await killed.done).signal, "SIGKILL");
  assert.ok(existsSync(lockPath(out)));
  assert.ok(leftovers(out).length > 0);

  const next = await parley(["run", small, "--out", out]);
  assert.equal(next.code, 0, next.stderr);
  assert.match(next.stderr, new RegExp(`^parley run: took over the lock of parley run \\(pid ${killed.child.pid} on [^,]+, started [^)]+\\), which is no longer running\\n$`, "m"));
  assert.deepEqual(leftovers(out), []);
  assert.equal(existsSync(lockPath(out)), false);
  assert.equal(await count(), 8);
});

test("parley ingest refuses an --out another process holds, naming it", async () => {
  const dir = tempDir();
  const out = join(dir, "out");
  const holder = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"]);
  try {
    const {mkdirSync} = await import("node:fs");
    mkdirSync(join(out, ".parley"), {recursive: true});
    writeFileSync(lockPath(out), JSON.stringify({pid: holder.pid, host: (await import("node:os")).hostname(), started: new Date().toISOString(), command: "run"}));
    const r = await parley(["ingest", "dond", join(root, "test", "fixtures", "dond", "hand.txt"), "--out", out]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, new RegExp(`^parley ingest: ${out} is in use by parley run \\(pid ${holder.pid} on `));
  } finally {
    holder.kill();
  }
});
