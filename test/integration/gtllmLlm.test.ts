/**
 * Matrix and tree games of Game-theoretic LLM workflows (Hua et al. 2024)
 * with two LLM players, end to end: `parley run` as a child process against
 * a fake OpenAI-compatible endpoint on 127.0.0.1. One player runs the §4.4
 * workflow (its sub-questions and summary are real calls, cached, counted
 * and stored as turns rows), both talk for two rounds before every move, a
 * SIGKILL mid-run followed by the same command re-sends no answered call,
 * and `parley gtllm-stats` reads the result.
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {mkdirSync, readdirSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {parley, scratch, startParley} from "../support/cli.js";
import {startFakeLlm, type FakeRequest, type Reply} from "../support/fakeLlm.js";
import {queryRun} from "../../loaders/io/parquet.js";

const {dir: tempDir, keep} = scratch("parley-gtllm-llm-");
const env = {PARLEY_FAKE_KEY: "sk-fake-gtllm"};

/** A model that follows the prompts: sub-questions and actions answer choice_1, talk proposes choice_1; Bob's first Stag Hunt action is prose once (a rule break). */
function model(r: FakeRequest): Reply {
  const prompt = r.lastUser;
  if (prompt.includes("### Your Action")) {
    if (prompt.includes("Your previous answer broke the rules")) return {text: "<s>choice_1</s>"};
    if (prompt.includes("You are playing as Bob") && prompt.includes("reward of 3 and Alice will receive a reward of 3")) return {text: "the first one"};
    return {text: "I follow my analysis. <s>choice_1</s>", delayMs: 15};
  }
  if (prompt.includes("### Summary of Thinking Chains")) return {text: "<s>always choose choice_1</s>", delayMs: 15};
  if (prompt.includes("Potential Action") || prompt.includes("Action Given Your Action")) return {text: "<r>it pays the most</r><s>choice_1</s>", delayMs: 15};
  if (prompt.includes("### Negotiation\n")) return {text: "<s>Let us both choose choice_1.</s>", delayMs: 15};
  return {text: "?"};
}

test("two LLM players talk and one runs the workflow; kill -9 mid-run, the same command finishes with no answered call sent again", async () => {
  let holding = false;
  const server = await startFakeLlm("openai", (r) => (holding ? {hold: true} : model(r)));
  keep(server);
  const dir = tempDir();
  const out = join(dir, "out");
  const config = join(dir, "gt.json");
  const player = (id: string, extra: Record<string, unknown>) => ({id, provider: "openai", model: "fake-model", base_url: server.baseURL, api_key_env: "PARLEY_FAKE_KEY", temperature: 1, max_tokens: 300, timeout_ms: 5000, max_retries: 2, ...extra});
  writeFileSync(config, JSON.stringify({
    game: ["gtllm/stag_hunt", "gtllm/battle_of_sexes", "gtllm/escalation", "gtllm/monopoly"],
    grid: {negotiation_rounds: [2]},
    players: [player("wf", {workflow: true, personality: "witty"}), player("raw", {negotiation_suffix: 6})],
    pairs: [["wf", "raw"], ["raw", "wf"]],
    seed: 4,
    concurrency: 2,
  }));
  // Per game: 2×2 matrix: 4 messages + 2 actions + workflow 2 + 2 + 1 = 11; Escalation (3 decision nodes, ends after choice_1): 4 + 1 + 3 + 1 = 9;
  // Monopoly (2 nodes): 4 + 1 + 2 + 1 = 8; Bob's Stag Hunt answer is asked again once. Two pairings: 2 × (11 + 1 + 11 + 9 + 8) = 80 calls.
  const total = 80;
  const checkpoints = () => readdirSync(join(out, ".parley", "checkpoints")).filter((f) => f.endsWith(".json"));

  const first = startParley(["run", config, "--out", out], env);
  await new Promise<void>((resolve) => {
    const poll = setInterval(() => {
      if (server.answered.length < 30) return;
      clearInterval(poll);
      holding = true;
      setTimeout(() => {
        first.child.kill("SIGKILL");
        resolve();
      }, 800);
    }, 5);
  });
  assert.equal((await first.done).signal, "SIGKILL");
  const done = checkpoints().length;
  assert.ok(done >= 1 && done < 8, `${done} games finished before the kill`);

  holding = false;
  const second = await parley(["run", config, "--out", out, "--quiet"], env);
  assert.equal(second.code, 0, second.stderr);
  const summary = JSON.parse(second.stdout);
  assert.deepEqual([summary.resumed, summary.games], [done, 8]);
  const hashes = server.answered.map((q) => q.bodyHash);
  assert.equal(new Set(hashes).size, hashes.length, "an answered call was sent again");
  assert.equal(hashes.length, total);

  // The prompts: the personality line, the game rules under neutral labels, the talk log, the strategy prepended, the §6.5 suffix last.
  const wfAction = server.answered.find((q) => q.lastUser.includes("### Your Action") && q.lastUser.includes("### Strategy You Have Derived"))!;
  assert.equal(wfAction.system, "You are a witty assistant that carefully answer the question.");
  const rawAction = server.answered.find((q) => q.lastUser.includes("### Your Action") && q.lastUser.includes("You are playing as Bob") && !q.lastUser.includes("### Strategy") && !q.lastUser.includes("broke the rules"))!;
  assert.equal(rawAction.system, "You are a rational assistant that carefully answer the question.");
  assert.match(rawAction.lastUser, /Alice said in round 1: Let us both choose choice_1\.\nBob replied in round 1: Let us both choose choice_1\./);
  // §6.5 prompt 6 in the authors' code's words (the opponent named), after the talk.
  assert.match(rawAction.lastUser, /\n\n\nYou must make your own choice regardless what Alice says\.\n$/);
  assert.doesNotMatch(rawAction.lastUser, /stag|hare|opera|football/i);
  const treeTalk = server.answered.find((q) => q.lastUser.includes("### Negotiation\n") && q.lastUser.includes("sequential move game") && q.lastUser.includes("before the first action"))!;
  assert.match(treeTalk.lastUser, /If Alice chooses choice_1, Alice will receive a reward of 0 and Bob will receive a reward of 0\./);

  // Tables: every call is a turns row, the workflow's as action "workflow" with its step; the games record who used it.
  const [turns] = await queryRun(out, ["turns"], `SELECT count(*)::INTEGER AS n, count(*) FILTER (WHERE action = 'workflow')::INTEGER AS workflow,
    count(*) FILTER (WHERE workflow_step = 'summary')::INTEGER AS summaries, count(*) FILTER (WHERE phase = 'talk')::INTEGER AS talk,
    count(*) FILTER (WHERE rule_break)::INTEGER AS rule_breaks, count(DISTINCT (game_id, turn))::INTEGER AS ids FROM turns`);
  assert.deepEqual(turns, {n: total, workflow: 2 * (5 + 5 + 4 + 3), summaries: 8, talk: 8 * 4, rule_breaks: 2, ids: total});
  const [broken] = await queryRun(out, ["turns"], "SELECT rule_break_reason, raw FROM turns WHERE rule_break LIMIT 1");
  assert.deepEqual(broken, {rule_break_reason: "no answer between <s> and </s>", raw: "the first one"});
  const games = await queryRun(out, ["games"], "SELECT game, alice_agent, alice_workflow, bob_workflow, alice_model, path, is_ne, is_po_ne, talk_messages FROM games ORDER BY game, alice_agent");
  assert.equal(games.length, 8);
  for (const g of games) {
    assert.equal(g.alice_workflow, g.alice_agent === "wf");
    assert.equal(g.bob_workflow, g.alice_agent !== "wf");
    assert.equal(g.alice_model, "fake-model");
    assert.equal(g.talk_messages, 4);
  }
  // Everyone answers choice_1: (stag, stag) and (opera, opera) are equilibria; stopping at once is Escalation's SPE; staying out of Monopoly is not (it is an equilibrium outcome, Bob threatening to fight: any_ne_rate 1).
  assert.deepEqual(games.map((g) => [g.game, g.path, g.is_ne, g.is_po_ne]), [
    ["gtllm/battle_of_sexes", "choice_1 choice_1", true, true], ["gtllm/battle_of_sexes", "choice_1 choice_1", true, true],
    ["gtllm/escalation", "choice_1", true, true], ["gtllm/escalation", "choice_1", true, true],
    ["gtllm/monopoly", "choice_1", false, false], ["gtllm/monopoly", "choice_1", false, false],
    ["gtllm/stag_hunt", "choice_1 choice_1", true, true], ["gtllm/stag_hunt", "choice_1 choice_1", true, true],
  ]);

  const stats = await parley(["gtllm-stats", out], env);
  assert.equal(stats.code, 0, stats.stderr);
  const rows = JSON.parse(stats.stdout);
  assert.equal(rows.length, 8);
  assert.deepEqual(rows.find((r: {game: string; alice_agent: string}) => r.game === "gtllm/monopoly" && r.alice_agent === "wf"), {
    game: "gtllm/monopoly", alice_agent: "wf", bob_agent: "raw", negotiation_rounds: 2, workflow_alice: true, workflow_bob: false, n: 1, ne_rate: 0, po_ne_rate: 0, any_ne_rate: 1,
  });
});

test("a game added as one JSON file (PARLEY_GAMES_DIR) is listed, played by built-in agents and scored; a broken file is named on one line", async () => {
  const dir = tempDir();
  const games = join(dir, "games");
  mkdirSync(games);
  const citation = {short: "textbook", title: "Coordination", authors: "Schelling", year: 1960, section: ""};
  writeFileSync(join(games, "meet.json"), JSON.stringify({id: "mine/meet", title: "Meet", description: "Pick the same place.", citation, kind: "matrix", rows: ["north", "south", "east"], cols: ["north", "south"], payoffs: [[[2, 2], [0, 0]], [[0, 0], [1, 1]], [[0, 0], [0, 0]]]}));
  writeFileSync(join(games, "broken.json"), JSON.stringify({id: "mine/broken", title: "B", description: "d", citation, kind: "matrix", rows: ["a"], cols: ["a"], payoffs: [[[1, 2, 3]]], extra: 1}));
  const withGames = {...env, PARLEY_GAMES_DIR: games};
  const listed = await parley(["games"], withGames);
  assert.equal(listed.code, 0, listed.stderr);
  assert.ok(JSON.parse(listed.stdout).some((g: {id: string}) => g.id === "mine/meet"));
  assert.equal(listed.stderr, `parley games: ${join(games, "broken.json")}: extra: unknown key for a matrix game; expected id, title, description, citation, kind, rows, cols, payoffs; the game is left out\n`);

  const config = join(dir, "meet-run.json");
  writeFileSync(config, JSON.stringify({game: "mine/meet", grid: {negotiation_rounds: [0, 2]}, players: ["equilibrium", "best-response", "random"], games_per_lineup: 3, seed: 1}));
  const out = join(dir, "out");
  const run = await parley(["run", config, "--out", out, "--quiet"], withGames);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(JSON.parse(run.stdout).games, 2 * 9 * 3);
  const stats = JSON.parse((await parley(["gtllm-stats", out], withGames)).stdout);
  const eq = stats.filter((r: {alice_agent: string; bob_agent: string}) => r.alice_agent === "equilibrium" && r.bob_agent === "equilibrium");
  assert.deepEqual(eq.map((r: {negotiation_rounds: number; ne_rate: number; po_ne_rate: number}) => [r.negotiation_rounds, r.ne_rate, r.po_ne_rate]), [[0, 1, 1], [2, 1, 1]]);
  // Without the directory the game is unknown, and the config error says so.
  const unknown = await parley(["run", config, "--out", join(dir, "out2"), "--quiet"], env);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /game: unknown game "mine\/meet"/);
});
