// An LLM player's `prompt_layout` (loaders/llm/playerOptions.ts), a harness factor: "authors" (the
// default) lays GLEE's conversation out as its code does, the system message rewritten every turn with
// that turn's answer format; "fixed-system" sends the rules alone as the system message, the same all
// game, and ends the last user message with this turn's format. The same GLEE games are played by the
// real LLM player in both layouts (a scripted model that reads the format from the prompt, as a model has
// to): the words are the same, the format moved; each fixed-system call begins with the whole previous
// call but its format.
import {test} from "node:test";
import assert from "node:assert/strict";
import {gameDef} from "../../loaders/registry/games.js";
import {parseLlmPlayerSpec} from "../../loaders/llm/playerSpec.js";
import {harnessOf} from "../../loaders/llm/harness.js";
import {LlmPlayer} from "../../loaders/llm/llmPlayer.js";
import {gleeNarrator} from "../../loaders/papers/glee/narrator.js";
import {playGame} from "../../loaders/runner/gameLoop.js";
import {resolveParams} from "../../loaders/contract/params.js";
import {gleeBot, roundOf} from "../support/gleeBot.js";
import type {Params} from "../../loaders/contract/game.js";
import type {Narrator} from "../../loaders/contract/narrator.js";
import type {Complete} from "../../loaders/llm/complete.js";
import type {ChatMessage} from "../../loaders/llm/types.js";
import type {FakeRequest} from "../support/fakeLlm.js";

const spec = (extra: object = {}) => parseLlmPlayerSpec({id: "m", provider: "openai", model: "x", base_url: "http://127.0.0.1:1/v1", ...extra}, "run.json players[0]");

/** A scripted model: gleeBot's answers (it reads the format in the system message and the last user message), rejecting every decision before round 4, and one unreadable answer (a rule break) at Alice's second call. */
function scriptedModel(): {complete: Complete; calls: {sample: string; messages: ChatMessage[]}[]} {
  const reject = '```json\n{"decision": "reject"}\n```';
  const bot = gleeBot({misbehave: (r) => (/"decision"/.test(`${r.system}\n${r.lastUser}`) && roundOf(`${r.system}\n${r.lastUser}`) < 4 ? {text: reject} : null)});
  const calls: {sample: string; messages: ChatMessage[]}[] = [];
  const complete: Complete = async (messages, _sampling, sample) => {
    calls.push({sample, messages});
    const mine = calls.filter((c) => c.sample === sample).length;
    const users = messages.filter((m) => m.role === "user");
    const request = {system: messages.find((m) => m.role === "system")?.content ?? "", lastUser: users.at(-1)?.content ?? ""} as FakeRequest;
    const reply = sample.endsWith("alice") && mine === 2 ? {text: "I would rather not say."} : await bot(request);
    return {text: "text" in reply ? reply.text : "", usage: {input_tokens: 10, output_tokens: 3}, finish_reason: "stop", latency_ms: 1, cached: false, attempts: 1};
  };
  return {complete, calls};
}

const FAMILIES: Record<string, Params> = {
  "glee/bargaining": {delta_a: 0.9, delta_b: 0.8, money: 1000, horizon: 12, complete_information: true, messages: true},
  "glee/negotiation": {factor_a: 0.8, factor_b: 1.2, money: 100, horizon: 12, complete_information: true, messages: true},
  "glee/persuasion": {horizon: 6, message_type: "text", buyer_type: "long_living"},
};

/** One game of `game` between two LLM players with `layout`; each seat's calls in order. */
async function played(game: string, layout: object) {
  const def = gameDef(game);
  const resolved = resolveParams(def, FAMILIES[game], 2);
  if ("error" in resolved) throw new Error(resolved.error);
  const model = scriptedModel();
  const seats = ["alice", "bob"].map((name, seat) => new LlmPlayer(spec(layout), {game, gameId: "g", seat, seatName: name, nSeats: 2, params: resolved.params}, gleeNarrator as Narrator, model.complete));
  const {turns} = await playGame(def, resolved.params, "g", seats, {seed: 3, maxAttempts: 3});
  const bySeat = ["alice", "bob"].map((name) => model.calls.filter((c) => c.sample.endsWith(name)).map((c) => c.messages));
  return {turns, bySeat};
}

const system = (messages: ChatMessage[]) => messages.find((m) => m.role === "system")!.content;

for (const game of Object.keys(FAMILIES)) {
  test(`${game}: "fixed-system" keeps one system message all game and moves each turn's format to the end of its user message`, async () => {
    const authors = await played(game, {});
    const fixed = await played(game, {prompt_layout: "fixed-system"});
    // The same answers were read, so the same game was played, turn for turn.
    assert.deepEqual(fixed.turns.map((t) => [t.seat, t.action, t.rule_break]), authors.turns.map((t) => [t.seat, t.action, t.rule_break]));
    assert.ok(authors.turns.some((t) => t.rule_break), "a rule break was played (asked again)");
    for (const seat of [0, 1]) {
      const a = authors.bySeat[seat];
      const f = fixed.bySeat[seat];
      assert.equal(f.length, a.length);
      assert.equal(new Set(f.map(system)).size, 1, `seat ${seat}: one system message in the fixed layout`);
      for (let k = 0; k < a.length; k++) {
        // The authors' system message is the fixed one, a newline and this turn's format; the fixed layout ends the last user message with them.
        const format = system(a[k]).slice(system(f[k]).length);
        assert.ok(system(a[k]).startsWith(system(f[k])) && (format === "" || format.startsWith("\n")), `seat ${seat}, call ${k + 1}: the rules lead both system messages`);
        const retry = a[k].at(-1)!.content.startsWith("Your previous answer broke the rules");
        assert.equal(f[k].at(-1)!.content, a[k].at(-1)!.content + (retry ? "" : format), `seat ${seat}, call ${k + 1}: the last user message`);
        // Everything between is the authors' conversation, message for message.
        assert.deepEqual(f[k].slice(1, -1), a[k].slice(1, -1), `seat ${seat}, call ${k + 1}: the history`);
        if (k > 0) {
          // Each call begins with the whole previous call but its format: a prompt cache can serve all of that.
          const before = f[k - 1];
          assert.deepEqual(f[k].slice(0, before.length - 1), before.slice(0, -1), `seat ${seat}, call ${k + 1} begins with call ${k}`);
          assert.ok(before.at(-1)!.content.startsWith(f[k][before.length - 1].content), `seat ${seat}, call ${k + 1}: call ${k}'s request, its format left out`);
        }
      }
    }
    if (game !== "glee/persuasion") {
      // The authors' layout alternates the offer's and the decision's formats: a call shares its system message only with every other call.
      const alice = authors.bySeat[0].map(system);
      assert.ok(new Set(alice).size >= 2 && alice.some((s, k) => k > 0 && s !== alice[k - 1]), "the authors' system message changes between calls");
    }
  });
}

test('prompt_layout: absent means "authors" (kept out of the spec, so older configs keep their fingerprints); the harness records it; anything else one clear error', () => {
  assert.equal("prompt_layout" in spec(), false);
  assert.equal("prompt_layout" in spec({prompt_layout: "authors"}), false);
  assert.equal(spec({prompt_layout: "fixed-system"}).prompt_layout, "fixed-system");
  assert.equal(harnessOf(spec(), 3).prompt_layout, "authors");
  assert.equal(harnessOf(spec({prompt_layout: "fixed-system"}), 3).prompt_layout, "fixed-system");
  assert.throws(() => spec({prompt_layout: "fixed"}), /^Error: run\.json players\[0\] \(m\): "prompt_layout" must be null or one of authors, fixed-system, got "fixed"$/);
});
