/**
 * Harness factors of an LLM player (loaders/llm/harness.ts): the legal
 * actions' JSON schema per game family (structured output) and its
 * Gemini form, checked against the fake providers' documented constraints;
 * the legal-moves listing; the majority vote's tally and tie rule; the
 * player settings' validation; per-player retries in the game loop; and
 * the rule-break rate rows of a two-run comparison, by hand.
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {games, gameDef} from "../../loaders/registry/games.js";
import {deriveRng} from "../../src/lib/rng.js";
import {actionSchema, geminiSchema, legalActionsSchema, readStructuredAnswer, anthropicTool, openaiResponseFormat, geminiResponseConfig} from "../../loaders/llm/structuredOutput.js";
import {legalMovesText, withLegalMoves} from "../../loaders/llm/legalMoves.js";
import {majorityVote, moveOf} from "../../loaders/llm/majorityVote.js";
import {attemptSample, harnessOf, sumUsage, voteSample, voteSampling} from "../../loaders/llm/harness.js";
import {cacheKey} from "../../loaders/llm/cache.js";
import {parseLlmPlayerSpec, LLM_PLAYER_FIELDS} from "../../loaders/llm/playerSpec.js";
import {LlmPlayer, llmPlayerDef} from "../../loaders/llm/llmPlayer.js";
import {stopAgentsOnAbort} from "../../loaders/runner/interrupt.js";
import {nodeEngine} from "../../loaders/study/engine.js";
import {startSession} from "../../loaders/study/session.js";
import {gleeNarrator} from "../../loaders/papers/glee/narrator.js";
import {checkAction} from "../../loaders/contract/legal.js";
import {playGame} from "../../loaders/runner/gameLoop.js";
import {compareRuns, withRuleBreaks} from "../../src/lib/compare.js";
import {nonConforming, structuredProblem} from "../support/fakeStructured.js";
import type {ActionSpec, GameState, Params} from "../../loaders/contract/game.js";
import type {Complete} from "../../loaders/llm/complete.js";
import type {ChatMessage, Sampling} from "../../loaders/llm/types.js";
import type {Narrator} from "../../loaders/contract/narrator.js";
import {AGENT_FIELDS, withAct, type Agent} from "../../loaders/contract/agent.js";
import type {SeatRow} from "../../src/lib/ratingsData.js";
import {inSequence} from "../../loaders/runner/chance.js";

const defaults = (id: string): Params => Object.fromEntries(gameDef(id).params.map((p) => [p.name, p.default])) as Params;

/** The legal actions of the first seat to move at the start of `id` with its default parameters. */
function firstLegal(id: string): {legal: ActionSpec[]; state: GameState; seat: number} {
  const state = gameDef(id).start(defaults(id), {gameId: "g", nSeats: 2, chance: inSequence(deriveRng(1, "g"))});
  let m = state.next();
  if (m.kind === "chance") {
    state.chance!(inSequence(deriveRng(1, "c")));
    m = state.next();
  }
  if (m.kind !== "seats") throw new Error(`${id}: no seat to move`);
  return {legal: state.legal(m.seats[0]), state, seat: m.seats[0]};
}

test("GLEE bargaining's offer as a strict JSON schema, by hand", () => {
  const legal: ActionSpec[] = [{type: "offer", numbers: {alice_gain: {min: 0, max: 1000}, bob_gain: {min: 0, max: 1000}}, sum: {fields: ["alice_gain", "bob_gain"], equals: 1000}, text: {field: "message", required: true}}];
  assert.deepEqual(legalActionsSchema(legal), {
    name: "game_action",
    description: "Your move in the game now: exactly one of the legal actions.",
    schema: {
      type: "object",
      properties: {
        action: {
          type: "object",
          description: 'The action "offer". alice_gain + bob_gain must equal 1000.',
          properties: {type: {type: "string", enum: ["offer"]}, alice_gain: {type: "number", minimum: 0, maximum: 1000}, bob_gain: {type: "number", minimum: 0, maximum: 1000}, message: {type: "string"}},
          required: ["type", "alice_gain", "bob_gain", "message"],
          additionalProperties: false,
        },
      },
      required: ["action"],
      additionalProperties: false,
    },
  });
  assert.equal(legalActionsSchema([]), null);
  // With chain of thought, a private reasoning field comes first (generated before the action).
  const cot = legalActionsSchema(legal, {reasoning: true})!.schema;
  assert.deepEqual(Object.keys(cot.properties as object), ["reasoning", "action"]);
  assert.deepEqual(cot.required, ["reasoning", "action"]);
  assert.equal(structuredProblem("openai", {response_format: openaiResponseFormat(legalActionsSchema(legal, {reasoning: true})!)}), null);
});

test("two legal actions are anyOf branches; lists, optional fields and choices, by hand", () => {
  // gamma-Bench's pirate plan, Deal or No Deal's optional counts and required message, a choice with null allowed.
  assert.deepEqual(actionSchema({type: "propose", lists: {plan: {length: 2, item: {min: 0, max: 100, integer: true}}}, sum: {fields: ["plan"], equals: 100}}).properties, {
    type: {type: "string", enum: ["propose"]},
    plan: {type: "array", items: {type: "integer", minimum: 0, maximum: 100}, minItems: 2, maxItems: 2},
  });
  const dond = actionSchema({type: "message", text: {field: "message", required: true}, numbers: {book: {min: 0, max: 1, integer: true}}, optional: ["book"]});
  assert.deepEqual(dond.properties, {type: {type: "string", enum: ["message"]}, book: {type: ["integer", "null"], minimum: 0, maximum: 1}, message: {type: "string"}});
  assert.deepEqual(dond.required, ["type", "book", "message"]);
  assert.deepEqual(actionSchema({type: "vote", choices: {who: ["a", null]}}).properties, {type: {type: "string", enum: ["vote"]}, who: {type: ["string", "null"], enum: ["a", null]}});
  const two = legalActionsSchema(firstLegal("gamabench/battle_royale").legal)!;
  const action = (two.schema.properties as Record<string, {anyOf: unknown[]}>).action;
  assert.equal(action.anyOf.length, 2);
});

test("Gemini's Schema form: upper-case types, nullable, string enums marked enum, item counts as strings, no additionalProperties", () => {
  const s = actionSchema({type: "message", text: {field: "message", required: false}, lists: {plan: {length: 3, item: {min: 0}}}, optional: ["plan"]});
  assert.deepEqual(geminiSchema(s), {
    type: "OBJECT",
    description: 'The action "message".',
    properties: {
      type: {type: "STRING", enum: ["message"], format: "enum"},
      plan: {type: "ARRAY", nullable: true, items: {type: "NUMBER", minimum: 0}, minItems: "3", maxItems: "3"},
      message: {type: "STRING", nullable: true},
    },
    propertyOrdering: ["type", "plan", "message"],
    required: ["type", "plan", "message"],
  });
});

test("every game's first legal actions give a schema each provider accepts, and a legal action conforms to it", () => {
  let checked = 0;
  for (const def of games) {
    let legal: ActionSpec[];
    try {
      legal = firstLegal(def.id).legal;
    } catch {
      continue; // games that need more than two seats or a chance node first are covered by their families' others
    }
    const s = legalActionsSchema(legal);
    if (!s) continue;
    checked++;
    assert.equal(structuredProblem("openai", {response_format: openaiResponseFormat(s)}), null, def.id);
    assert.equal(structuredProblem("anthropic", anthropicTool(s)), null, def.id);
    assert.equal(structuredProblem("gemini", {generationConfig: geminiResponseConfig(s)}), null, def.id);
    // The smallest legal value of each field (sum rules aside) is an instance of the schema, in both forms.
    const spec = legal[0];
    const action: Record<string, unknown> = {type: spec.type};
    for (const [f, r] of Object.entries(spec.numbers ?? {})) action[f] = r.min ?? 0;
    for (const [f, {length, item}] of Object.entries(spec.lists ?? {})) action[f] = new Array(length).fill(item.min ?? 0);
    for (const [f, values] of Object.entries(spec.choices ?? {})) action[f] = values[0];
    if (spec.text) action[spec.text.field] = spec.text.required ? "hello" : null;
    assert.equal(nonConforming(s.schema, {action}), null, def.id);
    assert.equal(nonConforming(geminiSchema(s.schema), {action}), null, `${def.id} (Gemini)`);
    assert.notEqual(nonConforming(s.schema, {action: {...action, type: "nonsense"}}), null, def.id);
    // The listing names every legal action type, one line each.
    assert.deepEqual(legalMovesText(legal).split("\n").slice(1).map((l) => l.replace(/^- ([^:]+).*$/, "$1")), legal.map((x) => x.type), def.id);
  }
  assert.ok(checked >= 20, `checked ${checked} games`);
  // And the fakes refuse what the providers refuse.
  const bad = {type: "object", properties: {action: {type: "object", properties: {x: {type: "number"}}, required: []}}, required: ["action"], additionalProperties: false};
  assert.match(structuredProblem("openai", {response_format: {type: "json_schema", json_schema: {name: "a", schema: bad, strict: true}}})!, /additionalProperties/);
  assert.match(structuredProblem("openai", {response_format: {type: "json_schema", json_schema: {name: "a b", schema: bad, strict: true}}})!, /name/);
  assert.match(structuredProblem("anthropic", {tools: [{name: "t", input_schema: {type: "array"}}], tool_choice: {type: "tool", name: "t"}})!, /object/);
  assert.match(structuredProblem("anthropic", {tools: [{name: "t", input_schema: {type: "object"}}], tool_choice: {type: "tool", name: "u"}})!, /not found/);
  assert.match(structuredProblem("gemini", {generationConfig: {responseSchema: {type: "OBJECT"}}})!, /response_mime_type/);
  assert.match(structuredProblem("gemini", {generationConfig: {responseMimeType: "application/json", responseSchema: {type: "OBJECT", additionalProperties: false}}})!, /Unknown name "additionalProperties"/);
});

test("a structured answer is the action, its null (unused optional) fields left out; anything else is a rule break", () => {
  assert.deepEqual(readStructuredAnswer('{"action": {"type": "PROPOSAL", "red_X": 3, "blue_Y": null, "message": "hi"}}'), {action: {type: "PROPOSAL", red_X: 3, message: "hi"}});
  assert.deepEqual(readStructuredAnswer('{"reasoning": " Bob discounts more. ", "action": {"type": "offer", "price": 3}}'), {action: {type: "offer", price: 3}, reasoning: "Bob discounts more."});
  assert.deepEqual(readStructuredAnswer("not json"), {error: "structured output: the answer is not JSON"});
  assert.deepEqual(readStructuredAnswer('{"move": 3}'), {error: 'structured output: expected an object with an "action" object'});
});

test("legal moves listed: a paragraph after the last user message, in the game's terms; nothing legal, nothing added", () => {
  const legal: ActionSpec[] = [
    {type: "PROPOSAL", numbers: {red_X: {min: 0, max: 25, integer: true}}, optional: ["red_X"], text: {field: "message", required: false}},
    {type: "propose", lists: {plan: {length: 2, item: {min: 0, max: 100, integer: true}}}, sum: {fields: ["plan"], equals: 100}},
    {type: "decide", choices: {choice: ["go", "stay"]}},
    {type: "offer", numbers: {price: {min: 0}}},
    {type: "miss"},
  ];
  assert.equal(legalMovesText(legal), [
    "Legal moves now (answer in the format asked above):",
    "- PROPOSAL: red_X (optional): a whole number from 0 to 25; message: an optional text",
    "- propose: plan: a list of 2 entries, each a whole number from 0 to 100; plan must equal 100",
    '- decide: choice: one of "go", "stay"',
    "- offer: price: a number of at least 0",
    "- miss",
  ].join("\n"));
  const messages: ChatMessage[] = [{role: "system", content: "rules"}, {role: "user", content: "Your move."}];
  assert.deepEqual(withLegalMoves(messages, legal.slice(2, 3)), [{role: "system", content: "rules"}, {role: "user", content: 'Your move.\n\nLegal moves now (answer in the format asked above):\n- decide: choice: one of "go", "stay"'}]);
  assert.deepEqual(withLegalMoves([{role: "system", content: "rules"}], legal.slice(4)), [{role: "system", content: "rules"}, {role: "user", content: "Legal moves now (answer in the format asked above):\n- miss"}]);
  assert.deepEqual(withLegalMoves(messages, []), messages);
  assert.equal(messages[1].content, "Your move.", "the narrator's messages are not changed in place");
});

test("majority vote: the modal legal move wins, messages do not split a move, ties go to the earliest sample, no legal sample leaves the first", () => {
  const legal: ActionSpec[] = [{type: "offer", numbers: {price: {min: 0, max: 10}}, text: {field: "message", required: false}}];
  const s = (price: number | null, message = "", isLegal = true) => ({action: price === null ? null : {type: "offer", price, message}, legal: isLegal});
  // 4, 7, 7 (different messages), 4, 7: 7 has three votes; its first sample is index 1.
  const r = majorityVote([s(4, "a"), s(7, "b"), s(7, "c"), s(4, "d"), s(7, "e")], legal);
  assert.equal(r.winner, 1);
  assert.deepEqual(r.tally.map((t) => [t.votes, t.first]), [[2, 0], [3, 1]]);
  assert.equal(r.legal, 5);
  // A tie 1-1 after an illegal first sample: the earliest legal move (index 1) wins.
  assert.equal(majorityVote([s(null, "", false), s(3), s(5)], legal).winner, 1);
  // Illegal samples do not vote even when they agree: 9, 9 illegal, 2 legal → 2.
  assert.equal(majorityVote([s(9, "", false), s(9, "", false), s(2)], legal).winner, 2);
  assert.equal(majorityVote([s(null, "", false), s(11, "", false)], legal).winner, 0);
  assert.equal(moveOf({type: "offer", message: "x", price: 3}, legal), moveOf({price: 3, type: "offer", message: "y"}, legal));
  assert.throws(() => majorityVote([], legal), /no samples/);
});

test("player settings: harness factors validated with one-line errors, absent unless set, documented in the config reference", () => {
  const base = {id: "m", provider: "openai", model: "x", base_url: "http://127.0.0.1:1/v1"};
  const plain = parseLlmPlayerSpec(base, "run.json players[0]");
  for (const k of ["legal_moves", "structured_output", "retries", "votes", "prompt_layout"]) assert.ok(!(k in plain), `${k} absent by default (fingerprints of older configs unchanged)`);
  assert.ok(!("votes" in parseLlmPlayerSpec({...base, votes: 1, legal_moves: false}, "x")));
  const full = parseLlmPlayerSpec({...base, legal_moves: true, structured_output: true, retries: 0, votes: 3}, "x");
  assert.deepEqual([full.legal_moves, full.structured_output, full.retries, full.votes], [true, true, 0, 3]);
  assert.throws(() => parseLlmPlayerSpec({...base, votes: 0}, "run.json players[0]"), {message: 'run.json players[0] (m): "votes" must be an integer from 1 to 25, got 0'});
  assert.throws(() => parseLlmPlayerSpec({...base, retries: -1}, "run.json players[0]"), {message: 'run.json players[0] (m): "retries" must be null or an integer from 0 to 99, got -1'});
  assert.throws(() => parseLlmPlayerSpec({...base, retries: 1.5}, "p"), /"retries" must be null or an integer/);
  assert.throws(() => parseLlmPlayerSpec({...base, legal_moves: "yes"}, "p"), {message: 'p (m): "legal_moves" must be true or false, got "yes"'});
  assert.throws(() => parseLlmPlayerSpec({...base, structured_output: 1}, "p"), /"structured_output" must be true or false/);
  for (const k of ["legal_moves", "structured_output", "retries", "votes", "prompt_layout"]) assert.ok(LLM_PLAYER_FIELDS.some((f) => f.key === k), `${k} in the reference`);
  // Anthropic cannot force a tool while thinking: refused before any call, naming the player and key.
  const claude = {id: "c", provider: "anthropic", model: "claude-sonnet-4-5", base_url: "http://127.0.0.1:1"};
  assert.throws(() => parseLlmPlayerSpec({...claude, structured_output: true, thinking_budget: 2048}, "p"), {message: 'p (c): "structured_output": Anthropic cannot force a tool while thinking; drop "thinking_budget" or structured_output'});
  assert.equal(parseLlmPlayerSpec({...claude, structured_output: true}, "p").structured_output, true);
  assert.equal(parseLlmPlayerSpec({...base, structured_output: true, reasoning_effort: "low", model: "o4-mini"}, "p").structured_output, true);
  // The run's max_attempts stays the default: retries = max_attempts − 1 unless the player sets its own.
  assert.deepEqual(harnessOf(plain, 3), {legal_moves: false, structured_output: false, retries: 2, votes: 1, prompt_layout: "authors"});
  assert.deepEqual(harnessOf(full, 3), {legal_moves: true, structured_output: true, retries: 0, votes: 3, prompt_layout: "authors"});
});

test("the response cache tells the factors apart: the schema is part of the sampling key, each vote its own sample, and a plain call keeps its key", () => {
  const messages: ChatMessage[] = [{role: "user", content: "Your move."}];
  const key = (sampling: Sampling, sample = "7/g/alice") => cacheKey({provider: "openai", model: "x", sampling, messages, sample});
  const schema = legalActionsSchema([{type: "offer", numbers: {price: {min: 0}}}])!;
  assert.notEqual(key({max_tokens: 9, response_schema: schema}), key({max_tokens: 9}));
  assert.notEqual(key({max_tokens: 9}, voteSample("7/g/alice", 1)), key({max_tokens: 9}));
  // A sampling without the new field hashes as before it existed (undefined fields are left out).
  assert.equal(key({max_tokens: 9, response_schema: undefined}), key({max_tokens: 9}));
});

test("vote samples: the first is the decision's own cache sample, the others their own; usage summed, latency the longest", () => {
  assert.deepEqual([0, 1, 2].map((i) => voteSample("7/g/alice", i)), ["7/g/alice", "7/g/alice#vote2", "7/g/alice#vote3"]);
  assert.deepEqual(sumUsage([{input_tokens: 10, output_tokens: 3, latency_ms: 5}, {input_tokens: 11, output_tokens: 4, latency_ms: 9}]), {input_tokens: 21, output_tokens: 7, latency_ms: 9});
  const one = {input_tokens: 1, output_tokens: 2, latency_ms: 3};
  assert.equal(sumUsage([one]), one);
  // A seed moves on per vote (k samples with one seed would be one answer k times), wrapping within 32 bits.
  assert.deepEqual([0, 1, 2].map((i) => voteSampling({max_tokens: 9, seed: 7}, i)), [{max_tokens: 9, seed: 7}, {max_tokens: 9, seed: 8}, {max_tokens: 9, seed: 9}]);
  assert.equal(voteSampling({max_tokens: 9, seed: 2 ** 31 - 1}, 1).seed, -(2 ** 31));
  assert.deepEqual(voteSampling({max_tokens: 9}, 2), {max_tokens: 9});
});

const seat = (params: Params) => ({game: "glee/bargaining", gameId: "g", seat: 0, seatName: "alice", nSeats: 2, params});
const bargainingParams = {delta_a: 0.9, delta_b: 0.8, money: 1000, horizon: 12, complete_information: true, messages: true};

function stub(answer: (messages: ChatMessage[], sample: string, sampling: Sampling) => string) {
  const calls: {messages: ChatMessage[]; sample: string; sampling: Sampling}[] = [];
  const complete: Complete = async (messages, sampling, sample) => {
    calls.push({messages, sample, sampling});
    return {text: answer(messages, sample, sampling), usage: {input_tokens: 10, output_tokens: 3}, finish_reason: "stop", latency_ms: 5, cached: false, attempts: 1};
  };
  return {complete, calls};
}

test("the LLM player with each factor: listing appended, schema sent and the answer read as the action, k votes summed", async () => {
  const spec = (extra: object) => parseLlmPlayerSpec({id: "m", provider: "openai", model: "x", base_url: "http://127.0.0.1:1/v1", ...extra}, "test");
  const state = gameDef("glee/bargaining").start(bargainingParams, {gameId: "g", nSeats: 2, chance: inSequence(deriveRng(1, "g"))});
  const obs = state.observe(0);
  const answer = '{"alice_gain": 600, "bob_gain": 400, "message": "fair"}';
  // Without factors the messages are the narrator's, byte for byte.
  const plain = stub(() => answer);
  await new LlmPlayer(spec({}), seat(bargainingParams), gleeNarrator as Narrator, plain.complete).act(obs);
  const narrated = gleeNarrator.messages(obs as never, [], "", null, {personality: null, negotiation_suffix: null, prompts: null, workflow: false});
  assert.deepEqual(plain.calls[0].messages, narrated);
  assert.ok(!("response_schema" in plain.calls[0].sampling));

  const listed = stub(() => answer);
  const reply = await new LlmPlayer(spec({legal_moves: true}), seat(bargainingParams), gleeNarrator as Narrator, listed.complete).act(obs);
  assert.deepEqual(listed.calls[0].messages, withLegalMoves(narrated, obs.legal));
  assert.deepEqual(reply.action, {type: "offer", alice_gain: 600, bob_gain: 400, message: "fair"});

  const structured = stub(() => '{"action": {"type": "offer", "alice_gain": 700, "bob_gain": 300, "message": "take it"}}');
  const s = await new LlmPlayer(spec({structured_output: true}), seat(bargainingParams), gleeNarrator as Narrator, structured.complete).act(obs);
  assert.deepEqual(structured.calls[0].sampling.response_schema, legalActionsSchema(obs.legal));
  assert.deepEqual(s.action, {type: "offer", alice_gain: 700, bob_gain: 300, message: "take it"});
  assert.equal(state.validate(0, s.action), null);
  // With chain of thought the schema asks for the reasoning first; it is kept apart from the action.
  const thinking = stub(() => '{"reasoning": "Bob discounts more.", "action": {"type": "offer", "alice_gain": 700, "bob_gain": 300, "message": "take it"}}');
  const t = await new LlmPlayer(spec({structured_output: true, chain_of_thought: true}), seat(bargainingParams), gleeNarrator as Narrator, thinking.complete).act(obs);
  assert.deepEqual(thinking.calls[0].sampling.response_schema, legalActionsSchema(obs.legal, {reasoning: true}));
  assert.equal(t.reasoning, "Bob discounts more.");
  assert.deepEqual(t.action, {type: "offer", alice_gain: 700, bob_gain: 300, message: "take it"});

  // Three votes: 700 / 500 / 700 → 700 (the first sample's), all three samples' tokens.
  const offers = [700, 500, 700];
  const voted = stub((_m, sample) => {
    const i = sample.endsWith("#vote3") ? 2 : sample.endsWith("#vote2") ? 1 : 0;
    return JSON.stringify({alice_gain: offers[i], bob_gain: 1000 - offers[i], message: `sample ${i + 1}`});
  });
  const v = await new LlmPlayer(spec({votes: 3}), seat(bargainingParams), gleeNarrator as Narrator, voted.complete, "7/").act(obs);
  assert.deepEqual(voted.calls.map((c) => c.sample).sort(), ["7/g/alice", "7/g/alice#vote2", "7/g/alice#vote3"]);
  assert.deepEqual(v.action, {type: "offer", alice_gain: 700, bob_gain: 300, message: "sample 1"});
  assert.deepEqual(v.usage, {input_tokens: 30, output_tokens: 9, latency_ms: 5});
  assert.equal(checkAction(obs.legal, v.action), null);
});

test("retries per player: an agent's own maxAttempts overrides the run's (retries 0 = one answer), others keep the run's", async () => {
  const spec = parseLlmPlayerSpec({id: "m", provider: "openai", model: "x", base_url: "http://127.0.0.1:1/v1", retries: 0}, "t");
  assert.equal(new LlmPlayer(spec, seat(bargainingParams), gleeNarrator as Narrator, stub(() => "").complete).maxAttempts, 1);
  const breaker = (maxAttempts?: number): Agent => ({act: () => ({action: {type: "nonsense"}}), ...(maxAttempts !== undefined && {maxAttempts})});
  const accept: Agent = {act: (o) => ({action: {type: o.legal[0].type === "offer" ? "offer" : o.legal[0].type, alice_gain: 500, bob_gain: 500, decision: "accept"}})};
  const count = async (a: Agent) => (await playGame(gameDef("glee/bargaining"), bargainingParams, "g", [a, accept], {seed: 1, maxAttempts: 3})).turns.filter((t) => t.seat === 0).length;
  assert.equal(await count(breaker()), 3, "the run's max_attempts");
  assert.equal(await count(breaker(1)), 1, "retries 0");
  assert.equal(await count(breaker(5)), 5, "retries 4");
});

test("a retry is its own cache sample, and with a seed its own seed: asked again with the request byte for byte, it is never handed the cached answer that broke the rules", async () => {
  assert.deepEqual([1, 2, 3].map((n) => attemptSample("7/g/alice", n)), ["7/g/alice", "7/g/alice#attempt2", "7/g/alice#attempt3"]);
  // A narrator that drops the broken answer (the matrix games' one prompt per decision): the same error twice gives the same messages.
  const def = gameDef("gtllm/prisoners_dilemma");
  const params = defaults("gtllm/prisoners_dilemma");
  const state = def.start(params, {gameId: "g", nSeats: 2, chance: inSequence(deriveRng(1, "g"))});
  const spec = parseLlmPlayerSpec({id: "m", provider: "openai", model: "x", base_url: "http://127.0.0.1:1/v1", seed: 7, votes: 2}, "t");
  const nonsense = stub(() => "I am not sure yet.");
  const player = llmPlayerDef(spec, nonsense.complete, "7/").create({game: def.id, gameId: "g", seat: 0, seatName: "alice", nSeats: 2, params});
  const error = "no answer between <s> and </s>";
  for (const attempt of [1, 2, 3]) await player.act({...state.observe(0), ...(attempt > 1 && {retry: {attempt, error}})}, deriveRng(1, "r"));
  const [, , a2v1, a2v2, a3v1, a3v2] = nonsense.calls;
  assert.deepEqual(a3v1.messages, a2v1.messages, "attempts 2 and 3 send the same messages");
  assert.deepEqual(nonsense.calls.map((c) => c.sample), ["7/g/alice", "7/g/alice#vote2", "7/g/alice#attempt2", "7/g/alice#attempt2#vote2", "7/g/alice#attempt3", "7/g/alice#attempt3#vote2"]);
  // Six calls, six seeds: attempt n's votes follow the earlier attempts'.
  assert.deepEqual(nonsense.calls.map((c) => c.sampling.seed), [7, 8, 9, 10, 11, 12]);
  const key = (c: (typeof nonsense.calls)[number], sampling = c.sampling) => cacheKey({provider: "openai", model: "x", sampling, messages: c.messages, sample: c.sample});
  assert.equal(new Set(nonsense.calls.map((c) => key(c))).size, 6);
  // Without a seed too: the sample alone tells the retries apart.
  assert.notEqual(key(a3v2, {max_tokens: 9}), key(a2v2, {max_tokens: 9}));
});

test("an agent wrapped with a new act keeps every other field of the agent contract (its max attempts, traits, finish), so no wrapper can drop one", async () => {
  let finishedWith: unknown = null;
  // Typed as every field of Agent: a field added to the contract fails to compile here until the test gives it.
  const agent: Required<Agent> = {act: () => ({action: "inner"}), traits: {model: "x"}, maxAttempts: 1, finish: (r) => void (finishedWith = r)};
  assert.deepEqual(Object.keys(AGENT_FIELDS).sort(), Object.keys(agent).sort());
  const wrapped = withAct(agent, () => ({action: "outer"}));
  for (const field of Object.keys(AGENT_FIELDS) as (keyof Agent)[]) {
    if (field === "act" || typeof agent[field] === "function") continue;
    assert.equal(wrapped[field], agent[field], field);
  }
  assert.deepEqual(wrapped.act({} as never, deriveRng(1, "x")), {action: "outer"});
  await wrapped.finish!({returns: [1, 2]} as never);
  assert.deepEqual(finishedWith, {returns: [1, 2]});
  // An LLM player's retries survive the run's interrupt wrapper (it once passed on act, finish and traits only).
  const spec = parseLlmPlayerSpec({id: "m", provider: "openai", model: "x", base_url: "http://127.0.0.1:1/v1", retries: 0}, "t");
  const factory = stopAgentsOnAbort(() => llmPlayerDef(spec, stub(() => "").complete).create(seat(bargainingParams)), new AbortController().signal);
  const stopped = factory("m", seat(bargainingParams));
  assert.equal(stopped.maxAttempts, 1);
  assert.deepEqual(stopped.traits, {model: "x", workflow: false});
});

test("retries in an experiment's game (a person against an LLM player, as `parley play` serves it): the player's own, else the experiment's max_attempts", async () => {
  const calls = async (retries: number | undefined) => {
    const nonsense = stub(() => "I am not sure yet.");
    const spec = parseLlmPlayerSpec({id: "m", provider: "openai", model: "x", base_url: "http://127.0.0.1:1/v1", ...(retries !== undefined && {retries})}, "t");
    const engine = {...nodeEngine, agents: [...nodeEngine.agents, llmPlayerDef(spec, nonsense.complete)]};
    // The person offers first; the model, asked to decide, never answers legally: the game ends after its last attempt.
    const session = await startSession({game: "glee/bargaining", params: {money: 100, horizon: 4}, seats: ["human", "m"], seed: 1, max_attempts: 4}, engine);
    assert.ok("ok" in (await session.submit({type: "offer", alice_gain: 50, bob_gain: 50})));
    const done = session.finished()!;
    assert.equal(done.row.ended_by, "rule_break");
    assert.equal(done.turns.filter((t) => t.seat === 1).length, nonsense.calls.length);
    return nonsense.calls.length;
  };
  assert.deepEqual([await calls(0), await calls(1), await calls(3), await calls(undefined)], [1, 2, 4, 4]);
});

test("two runs differing in a harness factor: rule-break rate per seat and payoff, paired, by hand", () => {
  const row = (game_id: string, seat: number, agent: string, score: number, config: string): SeatRow => ({game_id, family: "glee/bargaining", cluster: config, config, repetition: 0, seat, agent, score});
  const a = [row("a1", 0, "m", 400, "0"), row("a1", 1, "rational", 600, "0"), row("a2", 0, "m", 300, "1"), row("a2", 1, "rational", 700, "1"), row("a3", 0, "m", 500, "2"), row("a3", 1, "rational", 500, "2")];
  const b = [row("b1", 0, "m", 500, "0"), row("b1", 1, "rational", 500, "0"), row("b2", 0, "m", 500, "1"), row("b2", 1, "rational", 500, "1"), row("b3", 0, "m", 450, "2"), row("b3", 1, "rational", 550, "2")];
  // Run A: seat 0 broke 2 of 4, 1 of 2, 0 of 3 attempts; run B (listed moves): 0 of 2, 0 of 1, 1 of 4. The built-in seat 1 never breaks a rule.
  const countsA = [["a1", 0, 4, 2], ["a2", 0, 2, 1], ["a3", 0, 3, 0], ["a1", 1, 2, 0], ["a2", 1, 1, 0], ["a3", 1, 2, 0]];
  const countsB = [["b1", 0, 2, 0], ["b2", 0, 1, 0], ["b3", 0, 4, 1], ["b1", 1, 2, 0], ["b2", 1, 1, 0], ["b3", 1, 2, 0]];
  const c = (rows: (string | number)[][]) => rows.map(([game_id, seat, attempts, rule_breaks]) => ({game_id: game_id as string, seat: seat as number, attempts: attempts as number, rule_breaks: rule_breaks as number}));
  const r = compareRuns(withRuleBreaks(a, c(countsA)), withRuleBreaks(b, c(countsB)));
  assert.deepEqual(r.rows.map((x) => x.metric), ["return, seat 0", "return, seat 1", "rule-break rate, seat 0", "total return"]);
  const rate = r.rows.find((x) => x.metric === "rule-break rate, seat 0")!;
  // Differences B − A: 0 − 1/2, 0 − 1/2, 1/4 − 0 → mean −0.25, sd √((0.0625·2 + 0.25)/2) = √0.1875.
  assert.equal(rate.n, 3);
  assert.ok(Math.abs(rate.mean_diff - -0.25) < 1e-12);
  assert.ok(Math.abs(rate.sd - Math.sqrt(0.1875)) < 1e-12);
  // Exact sign flips of (−0.5, −0.5, 0.25): |sum| ≥ 0.75 whenever the two halves share a sign (sums ±0.75, ±1.25), else 0.25: 4 of 8.
  assert.equal(rate.p_perm, 4 / 8);
  const ret = r.rows.find((x) => x.metric === "return, seat 0")!;
  assert.ok(Math.abs(ret.mean_diff - (100 + 200 - 50) / 3) < 1e-9);
  // Without turns' counts (an older caller) there are no rate rows.
  assert.ok(!compareRuns(a, b).rows.some((x) => x.metric.startsWith("rule-break")));
});
