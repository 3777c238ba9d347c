/**
 * Deal or No Deal with two LLM players on a fake OpenAI-compatible server on
 * 127.0.0.1, as `parley run` child processes: Alice plays with the belief
 * workflow (`workflow: true`: a sub-call reads the last two offers before
 * each message, its row is stored, the decision's row carries the belief),
 * Bob without. Malformed answers (no <s> tag; an unreadable sub-call) are
 * rule breaks. A SIGKILL mid-run and the same command again finish the run
 * without any answered call, sub-calls included, being sent twice.
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {readdirSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {scratch, startParley} from "../support/cli.js";
import {startFakeLlm, type FakeRequest, type Reply} from "../support/fakeLlm.js";
import {queryRun} from "../../loaders/io/parquet.js";
import {BeliefTracker} from "../../src/lib/dondBelief.js";

const {dir: tempDir, keep} = scratch("parley-dond-llm-");

const items = (text: string) => /There are (\d+) books, (\d+) hats, and (\d+) balls in total\./.exec(text)!.slice(1).map(Number);
const offer = (x: number[]) => `book=${x[0]} hat=${x[1]} ball=${x[2]}`;
/** "I take book=a hat=b ball=c; you take book=… " → the speaker's share. */
const proposed = (line: string | undefined) => {
  const m = line && /I take book=(\d+) hat=(\d+) ball=(\d+)/.exec(line);
  return m ? m.slice(1).map(Number) : null;
};

/**
 * The scripted model. Alice asks for every hat and ball, Bob for every book
 * and ball, Alice then for the hats and one ball, and Bob halts; both write
 * Alice's last proposal. Bob's first answer of a game is prose (a rule
 * break); on the second point Alice's sub-call is answered with nonsense.
 */
function dondBot(r: FakeRequest): Reply {
  const text = r.lastUser;
  const c = items(text);
  const alice = text.includes("You are playing the role of Alice.");
  if (text.includes("### Question")) {
    if (c[0] === 2) return {text: "They both want a fair deal."};
    const mine = proposed(/Your last message: (.*)/.exec(text)?.[1]);
    const theirs = proposed(/'s reply: (.*)/.exec(text)?.[1]);
    return {text: `<my_offer>${mine ? offer(mine) : "none"}</my_offer> <their_offer>${theirs ? offer(theirs) : "none"}</their_offer>`};
  }
  // The authors' log: "Alice said in round 1: …", "Bob replied in round 1: …".
  const log = text.split("\n").filter((l) => /^(Alice said|Bob replied) in round \d+: /.test(l));
  if (text.includes("### Present Deal")) {
    const last = [...log].reverse().find((l) => proposed(l))!;
    const share = proposed(last)!;
    const mine = last.startsWith(alice ? "Alice" : "Bob") ? share : c.map((n, k) => n - share[k]);
    return {text: `<deal>${offer(mine)}</deal>`};
  }
  const say = (x: number[]) => ({text: `<s>I take ${offer(x)}; you take ${offer(c.map((n, k) => n - x[k]))}.</s>`});
  if (alice) return log.length === 0 ? say([0, c[1], c[2]]) : say([0, c[1], 1]);
  if (log.length === 1 && !text.includes("broke the rules")) return {text: "I think we should split it evenly."};
  return log.length === 1 ? say([c[0], 0, c[2]]) : {text: "<s>halt negotiation</s>"};
}

const player = (id: string, baseURL: string, workflow: boolean) => ({
  id, provider: "openai", model: "fake-model", base_url: baseURL, api_key_env: "PARLEY_FAKE_KEY", temperature: 1, max_tokens: 300, timeout_ms: 20000, max_retries: 2, ...(workflow && {workflow: true}),
});

test("two LLM players, one with the belief workflow: sub-calls stored, malformed answers are rule breaks, a kill -9 and rerun repeat no call", async () => {
  let holding = false;
  const server = await startFakeLlm("openai", (r) => (holding ? {hold: true} : dondBot(r)));
  keep(server);
  const dir = tempDir();
  const out = join(dir, "out");
  const config = join(dir, "dond-llm.json");
  writeFileSync(config, JSON.stringify({
    game: "dond/negotiation", grid: {point: [0, 1]}, players: [player("wf", server.baseURL, true), player("raw", server.baseURL, false)],
    lineups: [["wf", "raw"]], seed: 2, concurrency: 1,
  }));

  // 8 calls a game: Alice 1; Bob 2 (prose, then the retry); Alice's sub-call and message; Bob's halt; two deals.
  const first = startParley(["run", config, "--out", out, "--quiet"], {PARLEY_FAKE_KEY: "sk-fake"});
  const poll = setInterval(() => {
    if (server.answered.length < 11) return;
    clearInterval(poll);
    holding = true;
    setTimeout(() => first.child.kill("SIGKILL"), 800);
  }, 5);
  assert.equal((await first.done).signal, "SIGKILL");
  const finished = readdirSync(join(out, ".parley", "checkpoints")).filter((f) => f.endsWith(".json")).length;
  assert.equal(finished, 1, "the first game finished before the kill, the second did not");

  holding = false;
  const second = startParley(["run", config, "--out", out, "--quiet"], {PARLEY_FAKE_KEY: "sk-fake"});
  const done = await second.done;
  assert.equal(done.code, 0, done.stderr);
  const summary = JSON.parse(done.stdout);
  assert.deepEqual([summary.resumed, summary.played, summary.games], [1, 1, 2]);
  const hashes = server.answered.map((q) => q.bodyHash);
  assert.equal(new Set(hashes).size, hashes.length, "an answered call was sent again");
  assert.equal(hashes.length, 16);

  const games = await queryRun(out, ["games"], `SELECT point, alice_agent, bob_agent, rounds, ended_by, selection_by, agreement, alloc_a, alloc_b FROM games ORDER BY point`);
  assert.deepEqual(games, [
    {point: 0, alice_agent: "wf", bob_agent: "raw", rounds: 2, ended_by: "halt", selection_by: "bob", agreement: true, alloc_a: [0, 1, 1], alloc_b: [1, 0, 2]},
    {point: 1, alice_agent: "wf", bob_agent: "raw", rounds: 2, ended_by: "halt", selection_by: "bob", agreement: true, alloc_a: [0, 3, 1], alloc_b: [2, 0, 1]},
  ]);
  const turns = await queryRun(out, ["turns", "games"], `SELECT g.point, t.turn, t.round, t.seat, t.action, t.rule_break, t.rule_break_reason AS reason, len(t.belief)::INTEGER AS belief, t.book, t.hat, t.ball
    FROM turns t JOIN games g USING (game_id) ORDER BY g.point, t.turn`);
  const expect = (point: number, subCall: {rule_break: boolean; reason: string | null}, belief: number, deal: number[], bobDeal: number[]) => [
    {point, turn: 0, round: 1, seat: 0, action: "message", rule_break: false, reason: null, belief: point === 0 ? 26 : 9, book: null, hat: null, ball: null},
    {point, turn: 1, round: 1, seat: 1, action: null, rule_break: true, reason: "expected your message inside <s>…</s>", belief: null, book: null, hat: null, ball: null},
    {point, turn: 2, round: 1, seat: 1, action: "message", rule_break: false, reason: null, belief: null, book: null, hat: null, ball: null},
    {point, turn: 3, round: 2, seat: 0, action: "workflow", ...subCall, belief: null, book: null, hat: null, ball: null},
    {point, turn: 4, round: 2, seat: 0, action: "message", rule_break: false, reason: null, belief, book: null, hat: null, ball: null},
    {point, turn: 5, round: 2, seat: 1, action: "halt", rule_break: false, reason: null, belief: null, book: null, hat: null, ball: null},
    {point, turn: 6, round: 3, seat: 0, action: "deal", rule_break: false, reason: null, belief: null, book: deal[0], hat: deal[1], ball: deal[2]},
    {point, turn: 7, round: 3, seat: 1, action: "deal", rule_break: false, reason: null, belief: null, book: bobDeal[0], hat: bobDeal[1], ball: bobDeal[2]},
  ];
  // The belief after Alice's (0,1,3) was answered by Bob's (1,0,3), by the same update the scripted agent runs.
  const tracker = new BeliefTracker([1, 1, 3]);
  tracker.mine([0, 1, 3]);
  tracker.theirs([1, 0, 3]);
  assert.deepEqual(turns, [
    ...expect(0, {rule_break: false, reason: null}, tracker.belief.length, [0, 1, 1], [1, 0, 2]),
    // Point 1's sub-call is nonsense: a rule break of that row, the belief stays the prior (9 valuations).
    ...expect(1, {rule_break: true, reason: "workflow: expected <my_offer>book=x hat=y ball=z</my_offer> and <their_offer>book=x hat=y ball=z</their_offer> (or none)"}, 9, [0, 3, 1], [2, 0, 1]),
  ]);
  assert.ok(tracker.belief.length < 26 && tracker.belief.length > 0);
  // The workflow's reflection reached Alice's message prompt.
  const prompt = server.answered.find((q) => q.lastUser.includes("Workflow-aided Reflection") && q.lastUser.includes("Bob replied in round 1: I take book=1 hat=0 ball=3"))!;
  assert.match(prompt.lastUser, new RegExp(`${tracker.belief.length} of the 26 possible valuations of Bob`));
});
