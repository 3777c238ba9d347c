/**
 * LlmAgent's conversation (GLEE (Shapira et al. 2024) D.2) against a stub `complete`: one
 * system message, one user message per turn, the model's replies kept as
 * assistant turns, re-asks that state the error, a fresh conversation each
 * round for myopic persuasion buyers, and reasoning never placed in the
 * action the opponent sees.
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {persuasion} from "../../loaders/papers/glee/persuasion.js";
import {bargaining} from "../../loaders/papers/glee/bargaining.js";
import {deriveRng} from "../../src/lib/rng.js";
import {gleeRules, gleeUpdate} from "../../loaders/papers/glee/narrator.js";
import {LlmAgent} from "../../loaders/papers/glee/llmAgent.js";
import {parseLlmPlayerSpec} from "../../loaders/llm/playerSpec.js";
import type {Complete} from "../../loaders/llm/complete.js";
import type {ChatMessage} from "../../loaders/llm/types.js";
import type {GameState} from "../../loaders/papers/glee/types.js";

function stub(answer: (messages: ChatMessage[]) => string) {
  const calls: {messages: ChatMessage[]; sample: string}[] = [];
  const complete: Complete = async (messages, _sampling, sample) => {
    calls.push({messages, sample});
    return {text: answer(messages), usage: {input_tokens: 10, output_tokens: 3}, finish_reason: "stop", latency_ms: 5, cached: false, attempts: 1};
  };
  return {complete, calls};
}

const spec = (extra: object = {}) => parseLlmPlayerSpec({id: "m", provider: "openai", model: "x", base_url: "http://127.0.0.1:1/v1", ...extra}, "test");

test("bargaining: system + one user message per turn, re-ask with the error, reasoning kept private", async () => {
  const state = bargaining.start({family: "bargaining", delta_a: 0.9, delta_b: 0.8, money: 1000, horizon: 12, complete_information: true, messages: true}, "g", deriveRng(1, "g")) as unknown as GameState;
  let n = 0;
  const {complete, calls} = stub(() => (n++ === 0 ? "I offer 900 to me." : '<reasoning>Bob discounts more.</reasoning> {"alice_gain": 700, "bob_gain": 300, "message": "Take it."}'));
  const alice = new LlmAgent(spec({chain_of_thought: true}), {family: "bargaining", player: "alice", gameId: "g"}, complete, "7/");
  const obs = state.observe("alice");
  const first = await alice.act(obs);
  assert.equal(first.parse_error, "the reply contains no JSON object");
  assert.equal(first.raw, "I offer 900 to me.");
  obs.retry = {attempt: 2, error: first.parse_error!}; // as the runner does (observations may be lazy objects, not plain data)
  const second = await alice.act(obs);
  assert.deepEqual(second.action, {type: "offer", alice_gain: 700, bob_gain: 300, message: "Take it."});
  assert.equal(second.reasoning, "Bob discounts more.");
  assert.deepEqual(second.usage, {input_tokens: 10, output_tokens: 3, latency_ms: 5});
  assert.equal(calls[1]!.sample, "7/g/alice");
  const roles = calls[1]!.messages.map((m) => m.role);
  assert.deepEqual(roles, ["system", "user", "assistant", "user"]);
  assert.ok(calls[1]!.messages[0]!.content.startsWith(gleeRules(state.observe("alice"))));
  assert.equal(calls[1]!.messages[1]!.content, gleeUpdate(state.observe("alice"), null));
  assert.match(calls[1]!.messages[0]!.content, /^Let's play a game\. In this game, there are two players\. You are playing as Alice\. You and Bob need to divide \$1,000 between you\./);
  assert.match(calls[1]!.messages[3]!.content, /^Your previous answer broke the rules: the reply contains no JSON object\.\nPlease answer again\.\nSend your offer to divide \$1,000/);
  // What Bob is shown comes from the applied action: the reasoning is not in it.
  state.apply(second.action as never);
  assert.ok(!gleeUpdate(state.observe("bob"), null).includes("discounts"));
  assert.ok(gleeUpdate(state.observe("bob"), null).includes("Take it."));
});

test("persuasion: a myopic buyer starts a fresh conversation every round; a long-living one keeps it", async () => {
  for (const buyer_type of ["myopic", "long_living"] as const) {
    const state = persuasion.start(
      {family: "persuasion", prior: 0.5, value_high: 1.5, money: 100, horizon: 3, complete_information: true, message_type: "binary", buyer_type},
      "p",
      deriveRng(2, "p"),
    ) as unknown as GameState;
    const {complete, calls} = stub((messages) => (messages[messages.length - 1]!.content.includes('"claim"') ? '{"claim": "high"}' : '{"decision": "accept"}'));
    const agents = {
      alice: new LlmAgent(spec(), {family: "persuasion", player: "alice", gameId: "p"}, complete),
      bob: new LlmAgent(spec(), {family: "persuasion", player: "bob", gameId: "p"}, complete),
    };
    while (!state.isTerminal()) {
      const player = state.currentPlayer()!;
      const reply = await agents[player].act(state.observe(player));
      assert.equal(state.validate(reply.action), null);
      state.apply(reply.action as never);
    }
    const bobCalls = calls.filter((c) => c.sample === "p/bob").map((c) => c.messages.length);
    assert.deepEqual(bobCalls, buyer_type === "myopic" ? [2, 2, 2] : [2, 4, 6]);
  }
});
