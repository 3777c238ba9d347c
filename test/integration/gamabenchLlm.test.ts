/**
 * One gamma-Bench game with ten LLM seats, end to end: `parley run` as a
 * child process against a fake OpenAI-compatible server on 127.0.0.1. The
 * seats get the paper's Appendix C conversation (system rules, per-round
 * results, the request), malformed and out-of-range answers are recorded
 * as rule breaks and asked again, and the run scores like the paper's files.
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {writeFileSync} from "node:fs";
import {join} from "node:path";
import {parley as parleyCli, scratch} from "../support/cli.js";
import {startFakeLlm, type FakeRequest} from "../support/fakeLlm.js";
import {queryRun} from "../../loaders/io/parquet.js";

const {dir: tempDir, keep} = scratch("parley-gb-llm-");

const parley = (args: string[]) => parleyCli(args, {PARLEY_FAKE_KEY: "sk-fake"});

test("guess 2/3 of the average with ten LLM seats: Appendix C conversation, rule breaks recorded, scored like the paper's files", async () => {
  // Every first request of a round gets prose without JSON, every second an out-of-range number;
  // the retries (and everyone else) answer 30. Which seat gets which is arrival order: the counts are exact.
  const seen = new Map<string, number>();
  const respond = (r: FakeRequest) => {
    if (/broke the rules/.test(r.lastUser)) return {text: `{"chosen_number": "30"}`};
    const round = /^Now round (\d+) starts/.exec(r.lastUser)![1];
    const k = (seen.get(round) ?? 0) + 1;
    seen.set(round, k);
    if (k === 1) return {text: "I would pick about thirty."};
    if (k === 2) return {text: `{"chosen_number": 150}`};
    return {text: `{"chosen_number": "30"}`};
  };
  const server = await startFakeLlm("openai", respond);
  keep(server);
  const dir = tempDir();
  const config = join(dir, "guess.json");
  writeFileSync(config, JSON.stringify({
    game: "gamabench/guessing",
    grid: {rounds: [3]},
    players: [{id: "fake", provider: "openai", model: "fake-model", base_url: server.baseURL, api_key_env: "PARLEY_FAKE_KEY", temperature: 1, max_tokens: 200, persona: null, timeout_ms: 5000, max_retries: 2}],
    lineups: "self",
    seed: 3,
  }));
  const out = join(dir, "out");
  const r = await parley(["run", config, "--out", out, "--quiet"]);
  assert.equal(r.code, 0, r.stderr);
  const summary = JSON.parse(r.stdout);
  assert.deepEqual([summary.planned, summary.games, summary.players], [1, 1, 10]);

  // 3 rounds × (10 first answers + 2 retries) = 36 calls, all answered once.
  assert.equal(server.answered.length, 36);
  const first = server.requests[0];
  assert.match(first.system, /^\n\nYou are participating in a game played by 10 players over 3 rounds\.\n\nGame Rules:/);
  assert.match(first.lastUser, /^Now round 1 starts\./);
  // A round-3 request carries the earlier rounds as user / assistant / user results (Appendix C), not the old requests.
  const third = server.requests.find((q) => /Now round 3 starts/.test(q.lastUser) && !/broke the rules/.test(q.lastUser))!;
  assert.deepEqual(third.turns.map((t) => t.role), ["user", "assistant", "user", "user", "assistant", "user", "user"]);
  assert.match(third.turns[0].content, /^Game Results for Round 1:/);
  assert.equal(third.turns.filter((t) => /Now round/.test(t.content)).length, 1);

  const breaks = await queryRun(out, ["turns"], `SELECT round, attempt, rule_break_reason AS reason, count(*)::INTEGER AS n FROM turns WHERE rule_break GROUP BY ALL ORDER BY round, reason`);
  assert.deepEqual(breaks, [1, 2, 3].flatMap((round) => [
    {round, attempt: 1, reason: "amount: 150 is above the maximum 100", n: 1},
    {round, attempt: 1, reason: "the reply contains no JSON object", n: 1},
  ]));
  const [totals] = await queryRun(out, ["turns"], `SELECT count(*)::INTEGER AS n, count(*) FILTER (WHERE NOT rule_break)::INTEGER AS legal, count(DISTINCT (round, seat)) FILTER (WHERE NOT rule_break)::INTEGER AS decisions, count(*) FILTER (WHERE raw IS NULL)::INTEGER AS no_raw FROM turns`);
  assert.deepEqual(totals, {n: 36, legal: 30, decisions: 30, no_raw: 0});
  // Everyone chose 30: target 20, all win every round.
  const [game] = await queryRun(out, ["games", "players"], `SELECT g.game, g.model, g.n_players, g.rounds, g.ended_by, sum(p.return)::DOUBLE AS total FROM games g JOIN players p USING (game_id) GROUP BY ALL`);
  assert.deepEqual(game, {game: "gamabench/guessing", model: "fake", n_players: 10, rounds: 3, ended_by: "completed", total: 30});
  // Scored by the SQL that scores the paper's files: S1 = mean choice 30, rescaled (100 − 30)/100·100.
  const scores = await parley(["gamabench-scores", out]);
  assert.equal(scores.code, 0, scores.stderr);
  assert.deepEqual(JSON.parse(scores.stdout).fake.guessing_game, {mean: 70, sd: null, runs: 1});
});
