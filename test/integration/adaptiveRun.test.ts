/**
 * `parley run --adaptive` end to end: four fake language models of known
 * strength (test/support/fakeBtModel.ts) on a loopback endpoint play
 * gamma-Bench's guessing game, two seats; the run is killed (SIGKILL)
 * mid-way and the same command finishes it: no answered call is sent again,
 * no chosen game is lost or played twice, the decisions made before the
 * kill are kept as they were, and the manifest records every batch. Then
 * `parley ratings` reads the run, and the flags' mistakes are one line each.
 * Under --max-cost the endpoint never bills more than the budget; adaptive
 * games draw the chance of the config's scheme as planned games do.
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {readFileSync, readdirSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {parley, scratch, startParley} from "../support/cli.js";
import {startFakeLlm} from "../support/fakeLlm.js";
import {BT_MAX, btGuesser, btModel} from "../support/fakeBtModel.js";
import {queryRun} from "../../loaders/io/parquet.js";
import {adaptiveLogPath, readAdaptiveLog} from "../../loaders/runner/adaptiveLog.js";
import {CheckpointConflict} from "../../loaders/runner/checkpoint.js";

const {dir: tempDir, keep} = scratch("parley-adaptive-");
const env = {PARLEY_FAKE_KEY: "sk-fake-adaptive"};
const STRENGTHS = {strong: 1.5, good: 0.5, middling: -0.5, weak: -1.5};

test("an adaptive run killed mid-way resumes: no call sent twice, no game lost or repeated, earlier decisions kept; the manifest has every batch", async () => {
  let holding = false;
  const answer = btGuesser(11);
  const server = await startFakeLlm("openai", (r) => (holding ? {hold: true} : answer(r)));
  keep(server);
  const dir = tempDir();
  const config = join(dir, "bt.json");
  const out = join(dir, "out");
  const player = (id: string, s: number) => ({id, provider: "openai", model: btModel(s), base_url: server.baseURL, api_key_env: "PARLEY_FAKE_KEY", temperature: 1, max_tokens: 50, persona: null, timeout_ms: 5000, max_retries: 2});
  writeFileSync(config, JSON.stringify({
    game: "gamabench/guessing",
    grid: {rounds: [1], max: [BT_MAX], ratio: [0.5, 2 / 3]},
    players: Object.entries(STRENGTHS).map(([id, s]) => player(id, s)),
    n_players: 2,
    lineups: "all",
    games_per_lineup: 10,
    seed: 2,
    concurrency: 4,
  }));
  const args = ["run", config, "--out", out, "--adaptive", "--max-games", "120", "--quiet"];
  const first = startParley(args, env);
  await new Promise<void>((resolve) => {
    // A run that ends by itself fails the assertions below instead of leaving this wait open.
    void first.done.then(() => (clearInterval(poll), resolve()));
    const poll = setInterval(() => {
      if (server.answered.length < 40) return;
      clearInterval(poll);
      holding = true;
      setTimeout(() => {
        first.child.kill("SIGKILL");
        resolve();
      }, 500);
    }, 5);
  });
  const killed = await first.done;
  assert.equal(killed.signal, "SIGKILL", killed.stderr);
  const before = readFileSync(join(out, ".parley", "adaptive.jsonl"), "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line));
  const finished = readdirSync(join(out, ".parley", "checkpoints")).filter((f) => f.endsWith(".json")).length;
  assert.ok(finished >= 16 && finished < 120, `${finished} games finished before the kill`);

  holding = false;
  const second = await startParley(args, env).done;
  assert.equal(second.code, 0, second.stderr);
  const summary = JSON.parse(second.stdout);

  const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8"));
  const batches = manifest.adaptive.batches;
  // The decisions recorded before the kill stand as they were (a stop, which chooses nothing, would be made again).
  const kept = before.filter((d: {stop: string | null}) => !d.stop);
  assert.deepEqual(batches.slice(0, kept.length), kept);
  const chosen: string[] = batches.flatMap((b: {picks: {config: number; games: {lineup: string[]; repetition: number}[]}[]}) =>
    b.picks.flatMap((p) => p.games.map((g) => JSON.stringify([p.config, g.lineup, g.repetition]))));
  assert.equal(new Set(chosen).size, chosen.length, "a game was chosen twice");
  assert.ok(chosen.length <= 120);
  assert.equal(summary.resumed, finished);
  assert.equal(summary.games, chosen.length);
  assert.deepEqual(summary.adaptive, {stopped: manifest.adaptive.stopped, games_chosen: chosen.length, batches: batches.length, target_rank_width: 0, max_rank_width: manifest.adaptive.final.max_width});
  assert.ok(["separated", "max-games"].includes(manifest.adaptive.stopped));
  // Every chosen game is in the tables once, and nothing else. Guessing prompts do not name the game, so calls are
  // counted rather than told apart: two per game, each answered once (a replayed game's answered calls come from the cache).
  const rows = await queryRun(out, ["games", "players"], `SELECT g.config_id AS config, list(p.agent ORDER BY p.seat) AS lineup, g.repetition
    FROM games g JOIN players p USING (game_id) GROUP BY g.game_id, g.config_id, g.repetition`);
  assert.deepEqual(rows.map((r) => JSON.stringify([r.config, r.lineup, r.repetition])).sort(), [...chosen].sort());
  assert.equal(server.answered.length, 2 * chosen.length);
  // Each batch says what it saw and chose and why; both seat orders of a match play together.
  assert.deepEqual(Object.keys(batches[3]).sort(), ["batch", "picks", "seen", "stop", "widths"].concat(batches[3].checked ? ["checked"] : []).sort());
  assert.equal(batches[0].widths, null);
  for (const b of batches) {
    for (const p of b.picks) {
      assert.ok(["seed", "explore", "gain"].includes(p.why));
      assert.deepEqual(p.games.map((g: {lineup: string[]}) => g.lineup.join()), [p.games[0].lineup.join(), [...p.games[0].lineup].reverse().join()]);
    }
  }
  // The strongest model leads; `parley ratings` reads the run like any other.
  const ratings = await parley(["ratings", out, "--resamples", "200"], env);
  assert.equal(ratings.code, 0, ratings.stderr);
  const agents = JSON.parse(ratings.stdout).agents;
  assert.equal(agents[0].agent, "strong");
  assert.equal(agents.at(-1).agent, "weak");

  // Run again: nothing is left to choose or play, and nothing is sent.
  const sent = server.requests.length;
  const third = await startParley(args, env).done;
  assert.equal(third.code, 0, third.stderr);
  assert.deepEqual([JSON.parse(third.stdout).played, server.requests.length], [0, sent]);
  // Without --adaptive the directory is refused, on one line.
  const fixed = await startParley(["run", config, "--out", out, "--quiet"], env).done;
  assert.equal(fixed.code, 2);
  assert.equal(fixed.stderr, `parley run: ${join(out, ".parley")} holds an adaptive run (games chosen as results came in): run the same command with --adaptive to resume it, or use another --out directory\n`);
});

/** The summary line --max-cost ends a run with (as maxCost.test.ts has it). */
const BUDGET_LINE = /^parley run: --max-cost \$[\d.]+ stopped the run: [^\n]+; [\d.$]+ spent in all; \d+ of \d+ games finished and written to [^\n]+; run again with a larger --max-cost to resume$/m;

test("an adaptive run under --max-cost never lets the endpoint bill more than the budget, and a larger budget goes on with no call sent twice", async () => {
  // Every answer is billed 100 input tokens at $1,000 per million: 10 cents a call, two calls a game (each call reserves
  // its request's bytes at that price first, over a dollar); what the endpoint billed is its answered calls × 10 cents,
  // whatever the run records.
  const answer = btGuesser(5);
  const server = await startFakeLlm("openai", (r) => {
    const reply = answer(r);
    return "text" in reply ? {...reply, inputTokens: 100, outputTokens: 0} : reply;
  });
  keep(server);
  const dir = tempDir();
  const settings = join(dir, "parley.config.json");
  const prices = Object.fromEntries(Object.values(STRENGTHS).map((s) => [`openai/${btModel(s)}`, {input_per_million: 1000, output_per_million: 0, as_of: "2026-11-28"}]));
  writeFileSync(settings, JSON.stringify({prices}));
  const config = join(dir, "bt.json");
  const player = (id: string, s: number) => ({id, provider: "openai", model: btModel(s), base_url: server.baseURL, api_key_env: "PARLEY_FAKE_KEY", temperature: 1, max_tokens: 50, persona: null, timeout_ms: 5000, max_retries: 2});
  writeFileSync(config, JSON.stringify({
    game: "gamabench/guessing", grid: {rounds: [1], max: [BT_MAX], ratio: [0.5, 2 / 3]},
    players: Object.entries(STRENGTHS).map(([id, s]) => player(id, s)), n_players: 2, lineups: "all", games_per_lineup: 10, seed: 3, concurrency: 4,
  }));
  const budgetEnv = {...env, PARLEY_CONFIG: settings};
  const out = join(dir, "out");
  const args = (maxCost: number) => ["run", config, "--out", out, "--adaptive", "--max-games", "40", "--max-cost", String(maxCost)];

  const stopped = await parley(args(3), budgetEnv);
  assert.equal(stopped.code, 1, stopped.stderr);
  assert.ok(server.answered.length * 10 <= 300, `the endpoint billed $${server.answered.length / 10} under --max-cost 3`);
  assert.match(stopped.stderr, BUDGET_LINE);
  const summary = JSON.parse(stopped.stdout);
  assert.equal(summary.stopped, "max-cost");
  assert.equal(summary.adaptive.stopped, null, "the planner did not stop: the budget did");
  const finished = readdirSync(join(out, ".parley", "checkpoints")).filter((f) => f.endsWith(".json")).length;
  assert.ok(finished >= 2 && summary.games === finished, `${finished} games finished`);

  const billed = server.answered.length;
  const resumed = await parley([...args(100), "--quiet"], budgetEnv);
  assert.equal(resumed.code, 0, resumed.stderr);
  const done = JSON.parse(resumed.stdout);
  assert.ok(["separated", "max-games"].includes(done.adaptive.stopped));
  assert.equal(done.resumed, finished);
  // Two calls a game, each answered once: the games cut short by the budget replay their answered calls from the cache.
  assert.equal(server.answered.length, 2 * done.games, `billed ${billed} then ${server.answered.length - billed} calls for ${done.games} games`);
  // Each call is settled at 10 cents, in both processes: a game cut short by a refused call waits for its other seat's
  // call to end (gameLoop.ts), so none is left in flight, counted at its reservation, when a process closes its record.
  assert.ok(Math.abs(done.cost_usd.total - server.answered.length / 10) < 1e-9, `recorded $${done.cost_usd.total} for ${server.answered.length} calls, ${billed} of them by the first process`);
});

test("adaptive games draw the chance of the config's scheme: under common chance every game of a configuration and repetition draws alike, as the planned run's do", async () => {
  // A buy/sell draws the seller's cost and the buyer's value; the scripted agents decide the rest.
  const dir = tempDir();
  const config = join(dir, "market.json");
  writeFileSync(config, JSON.stringify({game: "negotiationarena/buy_sell", grid: {valuation_spread: [20, 40]}, players: ["rational", "split-difference", "random"], n_players: 2, lineups: "all", games_per_lineup: 4, seed: 9}));
  const adaptive = join(dir, "adaptive");
  const planned = join(dir, "planned");
  const a = await parley(["run", config, "--out", adaptive, "--adaptive", "--max-games", "40", "--quiet"]);
  assert.equal(a.code, 0, a.stderr);
  assert.equal((await parley(["run", config, "--out", planned, "--quiet"])).code, 0);
  const draws = async (out: string) =>
    (await queryRun<{game_id: string; config: number; repetition: number; draw: string}>(out, ["games"], "SELECT game_id, config_id AS config, repetition, concat_ws('/', seller_cost, buyer_value) AS draw FROM games ORDER BY game_id"));
  const chosen = await draws(adaptive);
  const fixed = new Map((await draws(planned)).map((g) => [`${g.config}/${g.repetition}`, g.draw]));
  assert.ok(chosen.length >= 24);
  // Every adaptive game drew what the planned run's games of its configuration and repetition drew (lineups and seat orders alike).
  for (const g of chosen) if (g.repetition < 4) assert.equal(g.draw, fixed.get(`${g.config}/${g.repetition}`), g.game_id);
  const cells = new Map<string, Set<string>>();
  for (const g of chosen) cells.set(`${g.config}/${g.repetition}`, (cells.get(`${g.config}/${g.repetition}`) ?? new Set()).add(g.draw));
  assert.ok([...cells.values()].every((d) => d.size === 1), "two games of one configuration and repetition drew differently");
  assert.ok(new Set(chosen.map((g) => g.draw)).size > 2, "the draws differ between configurations and repetitions");
});

test("the decision log: a last line cut short by a crash is dropped (no game of it had started); a bad line before it is refused, named", () => {
  const state = tempDir();
  const decision = (batch: number) => JSON.stringify({batch, seen: 0, widths: null, stop: null, picks: []});
  writeFileSync(adaptiveLogPath(state), `${decision(0)}\n${decision(1)}\n${decision(2).slice(0, 20)}`);
  assert.deepEqual(readAdaptiveLog(state), {decisions: [JSON.parse(decision(0)), JSON.parse(decision(1))], whole: false});
  writeFileSync(adaptiveLogPath(state), `${decision(0)}\n{"batch": 1\n${decision(2)}\n`);
  assert.throws(() => readAdaptiveLog(state), (e: Error) => e instanceof CheckpointConflict && e.message === `${adaptiveLogPath(state)}:2: unreadable decision (Expected ',' or '}' after property value in JSON at position 11); the games chosen after it cannot be told apart: use another --out directory`);
  writeFileSync(adaptiveLogPath(state), `${decision(0)}\n${decision(2)}\n`);
  assert.throws(() => readAdaptiveLog(state), /adaptive\.jsonl:2: expected decision 1 /);
});

test("--adaptive's mistakes: its flags alone, a sharded run, lineups that compare no one", async () => {
  const dir = tempDir();
  const config = join(dir, "self.json");
  writeFileSync(config, JSON.stringify({game: "gamabench/guessing", grid: {rounds: [1]}, players: ["level-1", "level-2"], n_players: 3, lineups: "self", seed: 1}));
  const stray = await parley(["run", config, "--out", join(dir, "a"), "--max-games", "10"]);
  assert.deepEqual([stray.code, stray.stderr], [2, "parley run: --max-games goes with --adaptive\n"]);
  const sharded = await parley(["run", config, "--out", join(dir, "b"), "--adaptive", "--shard", "0/2"]);
  assert.deepEqual([sharded.code, sharded.stderr], [2, "parley run: --adaptive chooses each batch of games from every result so far, so it cannot be split with --shard\n"]);
  const self = await parley(["run", config, "--out", join(dir, "c"), "--adaptive"]);
  assert.deepEqual([self.code, self.stderr], [2, `parley run: ${config}: --adaptive: gamabench/guessing: no lineup seats two different agents, so its games compare no one (adaptive sampling needs lineups such as "all", or pairs of different agents)\n`]);
});
