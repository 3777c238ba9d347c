/**
 * `prompt_layout`, an LLM player's harness factor, through `parley run`
 * against an OpenAI-protocol endpoint on loopback that caches prompts as
 * OpenAI documents (test/support/fakeLlmRules.ts: a repeated prefix of at
 * least 1,024 tokens, in steps of 128). The same 40-round GLEE bargaining
 * game (every offer rejected until the last round) is played by two
 * players in the authors' layout and by two in the "fixed-system" layout,
 * each layout on its own endpoint, each seat its own model name (a cache
 * of its own). In the fixed layout every request keeps the game's system
 * message and begins with the whole previous request but its last
 * message's format, so each call is billed cached for all of that the rule
 * allows, recomputed here from the recorded requests; the authors' layout
 * rewrites the system message every turn (offer, then decision format)
 * and is billed less, for as many input tokens.
 * The manifest records each player's layout with its other harness factors.
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {readFileSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {parley, scratch} from "../support/cli.js";
import {startFakeLlm, type FakeRequest} from "../support/fakeLlm.js";
import {gleeBot, roundOf} from "../support/gleeBot.js";
import {queryRun} from "../../loaders/io/parquet.js";

const {dir: tempDir, keep} = scratch("parley-layout-");
const ROUNDS = 40;

/** gleeBot, rejecting every offer before the last round so that the game plays all its rounds. */
const respond = gleeBot({misbehave: (r) => (/"decision"/.test(`${r.system}\n${r.lastUser}`) && roundOf(`${r.system}\n${r.lastUser}`) < ROUNDS ? {text: '```json\n{"decision": "reject"}\n```'} : null)});

/** A request's prompt as the cache compares it: each message's role, a NUL, its content and a \u0001. */
const promptText = (r: FakeRequest): string => [{role: "system", content: r.system}, ...r.turns].map((m) => `${m.role}\u0000${m.content}\u0001`).join("");

/** How many characters two prompts share at their start. */
function sharedChars(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** OpenAI's documented rule: the longest repeated prefix, from 1,024 tokens on, in steps of 128 (fake tokens: 4 characters). */
const openaiCached = (prefixChars: number): number => {
  const tokens = Math.floor(prefixChars / 4);
  return tokens < 1024 ? 0 : Math.floor(tokens / 128) * 128;
};

test('prompt_layout "fixed-system": one system message all game, each request the previous one extended, billed cached as OpenAI documents; the authors\' layout alternates its system message and reuses the call two before; the manifest records both', async () => {
  const [authorsEndpoint, fixedEndpoint] = await Promise.all([startFakeLlm("openai", respond, {caching: true}), startFakeLlm("openai", respond, {caching: true})]);
  keep(authorsEndpoint);
  keep(fixedEndpoint);
  const player = (id: string, base_url: string, extra: object = {}) => ({id, provider: "openai", model: `model-${id}`, base_url, max_tokens: 200, max_retries: 0, ...extra});
  const dir = tempDir();
  writeFileSync(join(dir, "run.json"), JSON.stringify({
    game: "glee/bargaining",
    grid: {delta_a: [0.9], delta_b: [0.9], money: [1000], horizon: [ROUNDS], complete_information: [true], messages: [true]},
    players: [player("a", authorsEndpoint.baseURL), player("a-b", authorsEndpoint.baseURL), player("f", fixedEndpoint.baseURL, {prompt_layout: "fixed-system"}), player("f-b", fixedEndpoint.baseURL, {prompt_layout: "fixed-system"})],
    lineups: [["a", "a-b"], ["f", "f-b"]],
    seed: 1,
  }));
  const out = join(dir, "out");
  const done = await parley(["run", join(dir, "run.json"), "--out", out, "--quiet"]);
  assert.equal(done.code, 0, done.stderr);

  const turns = await queryRun(out, ["turns", "players"], `
    SELECT p.agent, t.seat, t.turn, t.action, t.rule_break, t.input_tokens, t.cached_input_tokens
    FROM turns t JOIN players p USING (game_id, seat) ORDER BY p.agent, t.turn`);
  const of = (agent: string) => turns.filter((t) => t.agent === agent);
  // Both games played alike: all 40 rounds, the same moves.
  assert.equal(of("f").length, ROUNDS);
  assert.deepEqual([...of("f"), ...of("f-b")].map((t) => [t.turn, t.action, t.rule_break]), [...of("a"), ...of("a-b")].map((t) => [t.turn, t.action, t.rule_break]));

  for (const [agent, endpoint] of [["f", fixedEndpoint], ["f-b", fixedEndpoint], ["a", authorsEndpoint], ["a-b", authorsEndpoint]] as const) {
    const requests = endpoint.requests.filter((r) => r.model === `model-${agent}`);
    const recorded = of(agent);
    assert.equal(requests.length, recorded.length, `${agent}: a request per turn`);
    const fixed = agent.startsWith("f");
    requests.forEach((r, k) => {
      // Billed cached as OpenAI documents: the longest start this prompt shares with an earlier one of the model, from 1,024 tokens in steps of 128.
      const shared = requests.slice(0, k).map((before) => sharedChars(promptText(before), promptText(r)));
      const longest = Math.max(0, ...shared);
      assert.equal(Number(recorded[k].cached_input_tokens), openaiCached(longest), `${agent}, call ${k + 1}: cached tokens`);
      if (k === 0) return;
      const before = requests[k - 1];
      if (fixed) {
        // One system message; the previous request but its last message, which this one resends without the format that ended it.
        assert.equal(r.system, requests[0].system, `${agent}, request ${k + 1}: the game's system message`);
        assert.deepEqual(r.turns.slice(0, before.turns.length - 1), before.turns.slice(0, -1), `${agent}, request ${k + 1} begins with request ${k}`);
        const format = before.lastUser.slice(r.turns[before.turns.length - 1].content.length);
        assert.ok(before.lastUser.startsWith(r.turns[before.turns.length - 1].content) && format.startsWith("\n"), `${agent}, request ${k}: its format ends its last user message`);
        assert.equal(longest, shared[k - 1], `${agent}, request ${k + 1} shares the most with the request before`);
        assert.ok(longest >= promptText(before).length - format.length - 2);
      } else {
        // The system message changes at every call (the offer's format, then the decision's): a call shares its start only with the call two before.
        assert.notEqual(r.system, before.system, `${agent}, request ${k + 1}: a new system message`);
        if (k >= 2) assert.ok(longest === shared[k - 2] && shared[k - 1] < shared[k - 2], `${agent}, request ${k + 1} shares the most with request ${k - 1}`);
      }
    });
    assert.ok(recorded.some((t) => Number(t.cached_input_tokens) > 0), `${agent}: prompts past the 1,024-token minimum`);
  }
  // The same words, moved: as many input tokens in either layout (a newline more per call), more of them billed cached in the fixed layout.
  const total = (agents: string[], column: "input_tokens" | "cached_input_tokens") => agents.flatMap(of).reduce((n, t) => n + Number(t[column]), 0);
  const [fixedInput, authorsInput] = [total(["f", "f-b"], "input_tokens"), total(["a", "a-b"], "input_tokens")];
  assert.ok(Math.abs(fixedInput - authorsInput) <= 2 * ROUNDS, `input tokens ${fixedInput} and ${authorsInput}`);
  const [fixedCached, authorsCached] = [total(["f", "f-b"], "cached_input_tokens"), total(["a", "a-b"], "cached_input_tokens")];
  assert.ok(fixedCached > authorsCached, `cached: fixed-system ${fixedCached}, the authors' layout ${authorsCached}`);

  const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8"));
  const layouts = Object.fromEntries(manifest.llm_players.map((p: {id: string; harness: {prompt_layout: string}}) => [p.id, p.harness.prompt_layout]));
  assert.deepEqual(layouts, {a: "authors", "a-b": "authors", f: "fixed-system", "f-b": "fixed-system"});
});
