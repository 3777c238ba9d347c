/**
 * Economics Arena's history environment with an LLM seat, end to end:
 * `parley run` as a child process against a fake OpenAI-compatible server on
 * 127.0.0.1, one model against four rational agents in a session of 6 runs
 * (beauty contest) and 4 runs (second-price auction). Each later run's
 * prompt must hold exactly the previous runs' choices (the last ≤ 3; in the
 * auction also everyone's private values) and the player's own id, as the
 * turns table records them; malformed JSON, out-of-range answers and missing
 * keys are rule breaks recorded with the raw answer and reason, and the
 * session goes on. `parley econarena-stats` then reads the run.
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {writeFileSync} from "node:fs";
import {join} from "node:path";
import {parley as parleyCli, scratch} from "../support/cli.js";
import {startFakeLlm, type FakeRequest} from "../support/fakeLlm.js";
import {queryRun} from "../../loaders/io/parquet.js";

const {dir: tempDir, keep} = scratch("parley-ea-llm-");
const parley = (args: string[]) => parleyCli(args, {PARLEY_FAKE_KEY: "sk-fake"});

/** The run a request is for, from "has been hold for N run(s)" (run 1 has no history). */
const runOf = (r: FakeRequest) => {
  const m = /has been hold for (\d+) run\(s\)/.exec(r.turns.map((t) => t.content).join("\n"));
  return m ? Number(m[1]) + 1 : 1;
};
/** The history JSON a request shows, with the id it says is the player's. */
const historyOf = (r: FakeRequest) => {
  const m = /shown below \(your id is (\d+)\): (\[.*\])\n/.exec(r.lastUser);
  return m ? {id: Number(m[1]), runs: JSON.parse(m[2]) as Record<string, unknown>[]} : null;
};

test("history environment: each later run's prompt holds exactly the previous runs' choices; malformed JSON, out-of-range answers and missing keys are rule breaks", async () => {
  const respond = (r: FakeRequest) => {
    const run = runOf(r);
    const retry = /broke the rules/.test(r.lastUser);
    if (/auction bidder/.test(r.system)) {
      if (run === 2 && !retry) return {text: `{"goal": "payoff", "previous bid": 40, "previous payoff": 100, "bid": 250, "reason": "over assets"}`};
      return {text: JSON.stringify(run === 1 ? {understanding: "second price", bid: 40, reason: "shade"} : {goal: "payoff", "previous bid": 40, "previous payoff": 100, bid: 40 + run, reason: "r"})};
    }
    if (run === 2 && !retry) return {text: `{"goal": "win", "previous answer": 10, "answer": 12,, "reason": }`};
    if (run === 3 && !retry) return {text: `{"goal": "win", "previous answer": 10, "answer": 150, "reason": "big"}`};
    if (run === 4 && !retry) return {text: `{"goal": "win", "previous answer": 10, "reason": "forgot the answer"}`};
    if (run === 5) return {text: "I choose zero."};
    const answer = 10 * run;
    return {text: "```json\n" + JSON.stringify(run === 1 ? {understanding: "2/3 of the mean", "popular answer": 33, answer, reason: "level 1"} : {goal: "win", "previous answer": answer - 10, answer, reason: "lower"}) + "\n```"};
  };
  const server = await startFakeLlm("openai", respond);
  keep(server);
  const dir = tempDir();
  const config = join(dir, "history.json");
  const llm = {id: "fake", provider: "openai", model: "fake-model", base_url: server.baseURL, api_key_env: "PARLEY_FAKE_KEY", temperature: 1, max_tokens: 300, timeout_ms: 5000, max_retries: 1};
  writeFileSync(config, JSON.stringify({
    game: ["econarena/beauty_contest", "econarena/auction"],
    grid: {"econarena/beauty_contest": {environment: ["rational"], runs: [6]}, "econarena/auction": {environment: ["rational"], runs: [4]}},
    players: [llm, "rational"],
    lineups: {"econarena/beauty_contest": [["rational", "fake", "rational", "rational", "rational"]], "econarena/auction": [["fake", "rational", "rational", "rational", "rational"]]},
    max_attempts: 2,
    seed: 5,
  }));
  const out = join(dir, "out");
  const r = await parley(["run", config, "--out", out, "--quiet"]);
  assert.equal(r.code, 0, r.stderr);

  // Beauty contest: the model sits at id 1. Runs 2–4 break the rules once and recover; run 5 breaks twice and forfeits.
  const choices = await queryRun<{run: number; seat: number; strategy: number | null}>(out, ["turns"], `SELECT run, seat, strategy FROM turns WHERE game = 'econarena/beauty_contest' AND payoff IS NOT NULL ORDER BY run, seat`);
  const byRun = new Map<number, (number | null)[]>();
  for (const c of choices) (byRun.get(c.run) ?? byRun.set(c.run, []).get(c.run)!)[c.seat] = c.strategy;
  assert.deepEqual([1, 2, 3, 4, 5, 6].map((run) => byRun.get(run)![1]), [10, 20, 30, 40, null, 60]);
  const beautyFirsts = server.requests.filter((q) => /clever game player/.test(q.system) && !/broke the rules/.test(q.lastUser));
  assert.deepEqual(beautyFirsts.map(runOf), [1, 2, 3, 4, 5, 6]);
  for (const q of beautyFirsts) {
    const run = runOf(q);
    const h = historyOf(q);
    if (run === 1) {
      assert.equal(h, null);
      assert.match(q.lastUser, /you can assume that other are all perfectly rational players\.\n\nPlease just strictly output a JSON string, which has following keys:\n\n- understanding/);
      continue;
    }
    assert.equal(h!.id, 1, "the player's own id");
    const shown = Array.from({length: Math.min(3, run - 1)}, (_, k) => run - Math.min(3, run - 1) + k);
    assert.deepEqual(h!.runs, shown.map((j) => ({run: j, choices: Object.fromEntries(byRun.get(j)!.map((c, id) => [String(id), c]))})), `run ${run}`);
    assert.match(q.lastUser, /\n- goal: str, briefly check/);
  }

  const breaks = await queryRun<{run: number; attempt: number; reason: string; raw: string}>(out, ["turns"], `SELECT run, attempt, rule_break_reason AS reason, raw FROM turns WHERE game = 'econarena/beauty_contest' AND rule_break ORDER BY run, attempt`);
  assert.deepEqual(breaks.map((b) => [b.run, b.attempt, b.reason]), [
    [2, 1, "the reply contains malformed JSON; expected one valid JSON object"],
    [3, 1, "amount: 150 is above the maximum 100"],
    [4, 1, `missing key "answer"`],
    [5, 1, "the reply contains no JSON object"],
    [5, 2, "the reply contains no JSON object"],
  ]);
  assert.equal(breaks[0].raw, `{"goal": "win", "previous answer": 10, "answer": 12,, "reason": }`);
  // The retry says what was wrong.
  assert.ok(server.requests.some((q) => /broke the rules: missing key "answer"/.test(q.lastUser)));

  // Auction: the history shows everyone's bids, private values and payoffs; the model (id 0) bid over its assets once.
  const bids = await queryRun<{run: number; seat: number; strategy: number; value: number; payoff: number}>(out, ["turns"], `SELECT run, seat, strategy, value, payoff FROM turns WHERE game = 'econarena/auction' AND payoff IS NOT NULL ORDER BY run, seat`);
  const auctionFirsts = server.requests.filter((q) => /auction bidder/.test(q.system) && !/broke the rules/.test(q.lastUser));
  assert.deepEqual(auctionFirsts.map(runOf), [1, 2, 3, 4]);
  for (const q of auctionFirsts.slice(1)) {
    const run = runOf(q);
    const h = historyOf(q)!;
    assert.equal(h.id, 0);
    assert.match(q.lastUser, /Notice that everyone's original asset and private value will stay unchanged\./);
    assert.deepEqual(h.runs.map((x) => [x.run, x.bids, x["private values"]]), Array.from({length: run - 1}, (_, k) => {
      const rows = bids.filter((b) => b.run === k + 1);
      return [k + 1, Object.fromEntries(rows.map((b) => [String(b.seat), b.strategy])), Object.fromEntries(rows.map((b) => [String(b.seat), b.value]))];
    }));
  }
  const [overAssets] = await queryRun<{reason: string}>(out, ["turns"], `SELECT rule_break_reason AS reason FROM turns WHERE game = 'econarena/auction' AND rule_break`);
  assert.deepEqual(overAssets, {reason: "bid 250 is higher than the assets 100"});

  const stats = await parley(["econarena-stats", out]);
  assert.equal(stats.code, 0, stats.stderr);
  const rows = JSON.parse(stats.stdout) as Record<string, unknown>[];
  const fakeBeauty = rows.find((x) => x.game === "econarena/beauty_contest" && x.agent === "fake")!;
  assert.deepEqual([fakeBeauty.environment, fakeBeauty.n, fakeBeauty.rule_break_rate, fakeBeauty.win_rate], ["rational + history", 6, 4 / 6, 0]);
  const fakeAuction = rows.find((x) => x.game === "econarena/auction" && x.agent === "fake")!;
  assert.deepEqual([fakeAuction.format, fakeAuction.n, fakeAuction.rule_break_rate], ["second", 4, 1 / 4]);
});
