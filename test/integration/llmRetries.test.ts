/**
 * A player's `retries` through `parley run` (a process, as a user runs it;
 * issue 38 item 8): requests counted at the fake endpoint for 0, 1 and 3
 * retries, each with and without three votes, and for a player that keeps
 * the run's `max_attempts`, against a model whose every answer breaks the
 * rules. In GLEE bargaining the conversation keeps each broken answer, so
 * every retry's request is new; in a matrix game of the game-theoretic
 * workflows paper it does not, so retries after the same error repeat the
 * request byte for byte, and each must still be sent (its own cache sample),
 * never answered from the response cache. The manifest records what was
 * played.
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {readFileSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {parley, scratch} from "../support/cli.js";
import {startFakeLlm, type FakeRequest} from "../support/fakeLlm.js";
import {queryRun} from "../../loaders/io/parquet.js";

const {dir: tempDir, keep} = scratch("parley-retries-");

const INPUT = 100;
const OUTPUT = 7;
/** Neither JSON nor GLEE's or the matrix games' tags: a rule break in every game. */
const NONSENSE = "I am not sure yet.";
const MAX_ATTEMPTS = 2;

const settings = [
  {id: "r0", retries: 0},
  {id: "r0-votes", retries: 0, votes: 3},
  {id: "r1", retries: 1},
  {id: "r1-votes", retries: 1, votes: 3},
  {id: "r3", retries: 3},
  {id: "r3-votes", retries: 3, votes: 3},
  // No `retries`: the run's max_attempts.
  {id: "run-default"},
  {id: "run-default-votes", votes: 3},
];
/** Answers one decision takes: retries + 1, else the run's max_attempts. */
const attemptsOf = (s: (typeof settings)[number]) => (s.retries ?? MAX_ATTEMPTS - 1) + 1;

test("retries 0, 1 and 3, with and without votes, and the run's max_attempts: the endpoint counts (retries + 1) × votes requests per decision, none answered from the cache, and the manifest says so", async () => {
  const server = await startFakeLlm("openai", () => ({text: NONSENSE, inputTokens: INPUT, outputTokens: OUTPUT}));
  keep(server);
  const dir = tempDir();
  const ids = settings.map((s) => s.id);
  const players = settings.map(({id, ...harness}) => ({id, provider: "openai", model: id, base_url: server.baseURL, temperature: 0.7, max_retries: 0, ...harness}));
  writeFileSync(
    join(dir, "run.json"),
    JSON.stringify({
      game: ["glee/bargaining", "gtllm/prisoners_dilemma"],
      grid: {"glee/bargaining": {money: [100], horizon: [2], messages: [false]}},
      players: [...players, "rubinstein", "equilibrium"],
      lineups: {"glee/bargaining": ids.map((id) => [id, "rubinstein"]), "gtllm/prisoners_dilemma": ids.map((id) => [id, "equilibrium"])},
      max_attempts: MAX_ATTEMPTS,
      seed: 3,
    }),
  );
  const out = join(dir, "out");
  const r = await parley(["run", join(dir, "run.json"), "--out", out, "--quiet"]);
  assert.equal(r.code, 0, r.stderr);
  const summary = JSON.parse(r.stdout);
  assert.equal(summary.games, 2 * ids.length);
  assert.equal(summary.llm.cache_hits, 0, "a retry is never answered from the response cache");

  // Each game asks the LLM seat one decision, which breaks the rules on every attempt.
  const sent = (id: string, game: "glee" | "matrix") => server.requests.filter((q: FakeRequest) => q.model === id && (game === "glee") === !q.lastUser.includes("<s>")).length;
  for (const s of settings) {
    const expected = attemptsOf(s) * (s.votes ?? 1);
    assert.equal(sent(s.id, "glee"), expected, `${s.id}: requests in GLEE bargaining`);
    assert.equal(sent(s.id, "matrix"), expected, `${s.id}: requests in the prisoner's dilemma`);
  }
  assert.equal(server.requests.length, 2 * settings.reduce((n, s) => n + attemptsOf(s) * (s.votes ?? 1), 0));

  // The turns: one rule break per attempt, each with the reply and every vote's tokens.
  const rows = await queryRun<{agent: string; game: string; attempt: number; rule_break: boolean; raw: string; input_tokens: number; output_tokens: number}>(
    out,
    ["turns", "players", "games"],
    `SELECT p.agent, g.game, t.attempt, t.rule_break, t.raw, t.input_tokens, t.output_tokens FROM turns t JOIN players p ON p.game_id = t.game_id AND p.seat = t.seat JOIN games g ON g.game_id = t.game_id
     WHERE p.agent NOT IN ('rubinstein', 'equilibrium') ORDER BY p.agent, g.game, t.turn`,
  );
  for (const s of settings) {
    for (const game of ["glee/bargaining", "gtllm/prisoners_dilemma"]) {
      const mine = rows.filter((t) => t.agent === s.id && t.game === game);
      const votes = s.votes ?? 1;
      assert.deepEqual(
        mine.map((t) => [t.attempt, t.rule_break, t.raw, Number(t.input_tokens), Number(t.output_tokens)]),
        Array.from({length: attemptsOf(s)}, (_, i) => [i + 1, true, NONSENSE, votes * INPUT, votes * OUTPUT]),
        `${s.id} in ${game}`,
      );
    }
  }

  // The manifest records the retries that were played.
  const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8"));
  const harness = Object.fromEntries(manifest.llm_players.map((p: {id: string; harness: {retries: number; votes: number}}) => [p.id, [p.harness.retries, p.harness.votes]]));
  assert.deepEqual(harness, Object.fromEntries(settings.map((s) => [s.id, [attemptsOf(s) - 1, s.votes ?? 1]])));
});
