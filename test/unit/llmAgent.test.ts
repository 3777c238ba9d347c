/**
 * The LLM player in GLEE's conversation (GLEE (Shapira et al. 2024) D.2,
 * written by GLEE's narrator) against a stub `complete`: one system message,
 * one user message per turn, the model's replies kept as assistant turns,
 * re-asks that state the error, a fresh conversation each round for myopic
 * persuasion buyers, and reasoning never placed in the action the opponent
 * sees.
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {persuasion} from "../../loaders/papers/glee/persuasion.js";
import {bargaining} from "../../loaders/papers/glee/bargaining.js";
import {deriveRng} from "../../src/lib/rng.js";
import {gleeNarrator, gleeRules, gleeUpdate} from "../../loaders/papers/glee/narrator.js";
import {LlmPlayer} from "../../loaders/llm/llmPlayer.js";
import {parseLlmPlayerSpec} from "../../loaders/llm/playerSpec.js";
import type {Complete} from "../../loaders/llm/complete.js";
import type {ChatMessage} from "../../loaders/llm/types.js";
import type {Action, Params} from "../../loaders/contract/game.js";
import type {GleeObservation} from "../../loaders/papers/glee/types.js";
import type {Narrator} from "../../loaders/contract/narrator.js";
import {inSequence} from "../../loaders/runner/chance.js";

function stub(answer: (messages: ChatMessage[]) => string) {
  const calls: {messages: ChatMessage[]; sample: string}[] = [];
  const complete: Complete = async (messages, _sampling, sample) => {
    calls.push({messages, sample});
    return {text: answer(messages), usage: {input_tokens: 10, output_tokens: 3}, finish_reason: "stop", latency_ms: 5, cached: false, attempts: 1};
  };
  return {complete, calls};
}

const spec = (extra: object = {}) => parseLlmPlayerSpec({id: "m", provider: "openai", model: "x", base_url: "http://127.0.0.1:1/v1", ...extra}, "test");
const seat = (game: string, gameId: string, s: number, params: Params) => ({game, gameId, seat: s, seatName: s === 0 ? "alice" : "bob", nSeats: 2, params});

test("bargaining: system + one user message per turn, re-ask with the error, reasoning kept private", async () => {
  const params = {delta_a: 0.9, delta_b: 0.8, money: 1000, horizon: 12, complete_information: true, messages: true};
  const state = bargaining.start(params, {gameId: "g", nSeats: 2, chance: inSequence(deriveRng(1, "g"))});
  let n = 0;
  const {complete, calls} = stub(() => (n++ === 0 ? "I offer 900 to me." : '<reasoning>Bob discounts more.</reasoning> {"alice_gain": 700, "bob_gain": 300, "message": "Take it."}'));
  const alice = new LlmPlayer(spec({chain_of_thought: true}), seat("glee/bargaining", "g", 0, params), gleeNarrator as Narrator, complete, "7/");
  const first = await alice.act(state.observe(0));
  assert.equal(first.parse_error, "the reply contains no JSON object");
  assert.equal(first.raw, "I offer 900 to me.");
  // As the runner does: a fresh observation, with the error of the attempt before.
  const again = {...state.observe(0), retry: {attempt: 2, error: first.parse_error!}};
  const second = await alice.act(again);
  assert.deepEqual(second.action, {type: "offer", alice_gain: 700, bob_gain: 300, message: "Take it."});
  assert.equal(second.reasoning, "Bob discounts more.");
  assert.deepEqual(second.usage, {input_tokens: 10, output_tokens: 3, latency_ms: 5});
  assert.equal(calls[0]!.sample, "7/g/alice");
  // The retry is a sample of its own (never handed the cached answer it replaces).
  assert.equal(calls[1]!.sample, "7/g/alice#attempt2");
  const roles = calls[1]!.messages.map((m) => m.role);
  assert.deepEqual(roles, ["system", "user", "assistant", "user"]);
  const aliceSees = () => state.observe(0) as GleeObservation;
  const bobSees = () => state.observe(1) as GleeObservation;
  assert.ok(calls[1]!.messages[0]!.content.startsWith(gleeRules(aliceSees())));
  assert.equal(calls[1]!.messages[1]!.content, gleeUpdate(aliceSees(), null));
  // The authors' layout (eilamshapira/GLEE bargaining.py, D.2): the rules, then this turn's JSON format, in the system message.
  assert.match(calls[1]!.messages[0]!.content, /^Let's play a game\.\nIn this game, there are two players\. You are playing as Alice\.\nYou and Bob need to divide 1,000\$ between you\./);
  assert.match(calls[1]!.messages[0]!.content, /\nSend your offer to divide 1,000\$ and the message you attached in the JSON format:\n\{"alice_gain": The part that you will receive in your offer,\n/);
  assert.equal(calls[1]!.messages[1]!.content, "Round 1\nSend your offer to divide $1,000 and a message to Bob.");
  assert.match(calls[1]!.messages[3]!.content, /^Your previous answer broke the rules: the reply contains no JSON object\.\nPlease answer again\.\nSend your offer to divide 1,000\$/);
  // What Bob is shown comes from the applied action: the reasoning is not in it.
  state.apply([second.action as Action]);
  assert.ok(!gleeUpdate(bobSees(), null).includes("discounts"));
  assert.ok(gleeUpdate(bobSees(), null).includes("Take it."));
});

test("persuasion: a myopic buyer starts a fresh conversation every round; a long-living one keeps it", async () => {
  for (const buyer_type of ["myopic", "long_living"] as const) {
    const params = {prior: 0.5, value_high: 1.5, money: 100, horizon: 3, complete_information: true, message_type: "binary" as const, buyer_type};
    const state = persuasion.start(params, {gameId: "p", nSeats: 2, chance: inSequence(deriveRng(2, "p"))});
    // GLEE's own formats (persuasion.py, format_prompt.json) sit in the system message: the seller is asked whether to recommend.
    const {complete, calls} = stub((messages) => (messages[0]!.content.includes("Would you recommend") ? '{"decision": "yes"}' : '{"decision": "no"}'));
    const players = [0, 1].map((s) => new LlmPlayer(spec(), seat("glee/persuasion", "p", s, params), gleeNarrator as Narrator, complete));
    for (let mover = state.next(); mover.kind === "seats"; mover = state.next()) {
      const s = mover.seats[0];
      const reply = await players[s].act(state.observe(s));
      // GLEE's "yes" to recommending is the claim "high"; the buyer's "no" is a rejection.
      assert.deepEqual(reply.action, s === 0 ? {type: "message", claim: "high"} : {type: "decision", decision: "reject"});
      assert.equal(state.validate(s, reply.action), null);
      state.apply([reply.action as Action]);
    }
    const bobCalls = calls.filter((c) => c.sample === "p/bob").map((c) => c.messages.length);
    assert.deepEqual(bobCalls, buyer_type === "myopic" ? [2, 2, 2] : [2, 4, 6]);
  }
});
