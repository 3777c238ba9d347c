/**
 * `prompt_layout`, an LLM player's harness factor, through `parley run`
 * against an OpenAI-protocol endpoint on loopback that caches prompts as
 * OpenAI documents (test/support/fakeLlmRules.ts: a repeated prefix of at
 * least 1,024 tokens, in steps of 128). The same 40-round GLEE bargaining
 * game (every offer rejected until the last round) is played by two
 * players in the authors' layout and by two in the "fixed-system" layout,
 * each layout on its own endpoint, each seat its own model name (a cache
 * of its own). In the fixed layout every request keeps the game's system
 * message and begins with the whole previous request, so each call is
 * billed cached for all of the previous prompt the rule allows, recomputed
 * here from the recorded requests; the authors' layout rewrites the system
 * message every turn (offer, then decision format) and is billed less.
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

/** The characters of a request's prompt as the cache compares them: each message's role, content and two separators. */
const promptChars = (r: FakeRequest): number => ["system", ...r.turns.map((t) => t.role)].length * 2 + "system".length + r.system.length + r.turns.reduce((n, t) => n + t.role.length + t.content.length, 0);

/** OpenAI's documented rule: the longest repeated prefix, from 1,024 tokens on, in steps of 128 (fake tokens: 4 characters). */
const openaiCached = (prefixChars: number): number => {
  const tokens = Math.floor(prefixChars / 4);
  return tokens < 1024 ? 0 : Math.floor(tokens / 128) * 128;
};

test('prompt_layout "fixed-system": one system message all game, each request the previous one extended, billed cached as OpenAI documents; the authors\' layout alternates its system message; the manifest records both', async () => {
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

  const share = (agents: string[]) => {
    const rows = agents.flatMap(of);
    return rows.reduce((n, t) => n + Number(t.cached_input_tokens), 0) / rows.reduce((n, t) => n + Number(t.input_tokens), 0);
  };
  for (const [agent, endpoint] of [["f", fixedEndpoint], ["f-b", fixedEndpoint], ["a", authorsEndpoint], ["a-b", authorsEndpoint]] as const) {
    const requests = endpoint.requests.filter((r) => r.model === `model-${agent}`);
    const recorded = of(agent);
    assert.equal(requests.length, recorded.length, `${agent}: a request per turn`);
    const systems = new Set(requests.map((r) => r.system));
    if (agent.startsWith("f")) {
      assert.equal(systems.size, 1, `${agent}: one system message all game`);
      requests.forEach((r, k) => {
        if (k > 0) assert.deepEqual(r.turns.slice(0, requests[k - 1].turns.length), requests[k - 1].turns, `${agent}, request ${k + 1} begins with request ${k}`);
        // Billed cached: the whole previous prompt, as far as the rule's minimum and steps allow.
        assert.equal(Number(recorded[k].cached_input_tokens), k === 0 ? 0 : openaiCached(promptChars(requests[k - 1])), `${agent}, call ${k + 1}: cached tokens`);
      });
      assert.ok(requests.some((r, k) => k > 0 && openaiCached(promptChars(requests[k - 1])) > 0), `${agent}: prompts past the 1,024-token minimum`);
    } else {
      assert.ok(systems.size >= 2 && requests.every((r, k) => k === 0 || r.system !== requests[k - 1].system), `${agent}: the system message changes at every call (offer, then decision)`);
    }
  }
  const fixed = share(["f", "f-b"]);
  const authors = share(["a", "a-b"]);
  assert.ok(fixed > authors + 0.1, `fixed-system ${(100 * fixed).toFixed(1)} % cached, the authors' layout ${(100 * authors).toFixed(1)} %`);

  const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8"));
  const layouts = Object.fromEntries(manifest.llm_players.map((p: {id: string; harness: {prompt_layout: string}}) => [p.id, p.harness.prompt_layout]));
  assert.deepEqual(layouts, {a: "authors", "a-b": "authors", f: "fixed-system", "f-b": "fixed-system"});
});
