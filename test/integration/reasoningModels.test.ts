/**
 * Reasoning models as players, end to end: a GLEE bargaining run, a
 * gamma-Bench game and a NegotiationArena scenario, each `parley run`
 * against strict loopback endpoints (test/support/reasoningFakes.ts) that
 * refuse what each provider documents it refuses and answer in each
 * provider's documented shapes: OpenAI's o4-mini with a reasoning effort,
 * Anthropic with extended thinking (a budget on Sonnet 4.5, adaptive
 * thinking at an effort on Opus 4.7, in GLEE), Gemini 2.5 Flash with a thinking
 * budget, and a local OpenAI-compatible model thinking between <think>
 * tags (its first reply cut off inside them by the token limit). No request
 * is refused; the thinking lands in turns.reasoning, never in
 * turns.message, turns.raw, the answer (its decoy JSON is never the move)
 * or any later prompt; the token columns hold each API's usage.
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {writeFileSync} from "node:fs";
import {join} from "node:path";
import {parley as parleyCli, scratch} from "../support/cli.js";
import type {FakeRequest, Responder} from "../support/fakeLlm.js";
import {gleeBot} from "../support/gleeBot.js";
import {FAKE_KEY_ENV, THINKING_MARK, reasoningPlayers, startReasoningFakes} from "../support/reasoningFakes.js";
import {queryRun} from "../../loaders/io/parquet.js";

const {dir: tempDir, keep} = scratch("parley-reasoning-");

/** Answers each game's prompts: gamma-Bench's guess, NegotiationArena's ultimatum tags, GLEE's JSON (gleeBot). */
const respond: Responder = (r: FakeRequest) => {
  if (/chosen_number/.test(r.system + r.lastUser)) return {text: `{"chosen_number": "30"}`};
  if (/You are Player BLUE\./.test(r.system)) return {text: "<my name> Player BLUE </my name>\n<move> 1 / 1 </move>\n<my resources> Dollars: 0 </my resources>\n<reason> anything beats nothing </reason>\n<player answer> ACCEPT </player answer>\n<message> Fine. </message>\n<newly proposed trade> NONE </newly proposed trade>"};
  if (/Player RED/.test(r.system)) return {text: "<my name> Player RED </my name>\n<move> 1 / 1 </move>\n<my resources> Dollars: 10 </my resources>\n<reason> keep nine </reason>\n<player answer> NONE </player answer>\n<message> One for you. </message>\n<newly proposed trade> Player RED Gives Dollars: 1 | Player BLUE Gives Dollars: 0 </newly proposed trade>"};
  return gleeBot()(r);
};

test("GLEE bargaining, gamma-Bench and NegotiationArena with reasoning models of all three providers and a local <think> model: nothing refused, thinking kept apart, token columns filled", async () => {
  const fakes = await startReasoningFakes(respond, {cutFirst: true});
  for (const s of fakes.all) keep(s);
  const players = reasoningPlayers(fakes);
  const pairs = [["gpt", "claude"], ["gemini", "local"]];
  const configs = {
    // Claude Opus 4.7 takes only adaptive thinking: an effort, no budget.
    glee: {game: "glee/bargaining", grid: {horizon: [3]}, players: [...players, {...players[1], id: "opus", model: "claude-opus-4-7", thinking_budget: undefined, reasoning_effort: "high"}], lineups: [...pairs, ["opus", "gemini"]], seed: 1},
    gamabench: {game: "gamabench/guessing", grid: {rounds: [2]}, n_players: 4, players, lineups: [["gpt", "claude", "gemini", "local"]], seed: 1},
    negotiationarena: {game: "negotiationarena/ultimatum", grid: {iterations: [2], stake: [10]}, players, lineups: pairs, seed: 1},
  };
  const outs = await Promise.all(
    Object.entries(configs).map(async ([name, config]) => {
      const dir = tempDir();
      writeFileSync(join(dir, `${name}.json`), JSON.stringify(config));
      const r = await parleyCli(["run", join(dir, `${name}.json`), "--out", join(dir, "out"), "--quiet"], {[FAKE_KEY_ENV]: "sk-fake"});
      assert.equal(r.code, 0, `${name}: ${r.stderr}`);
      return [name, join(dir, "out")] as const;
    }),
  );

  // No request refused; each provider got the documented request shape.
  for (const s of fakes.all) assert.equal(s.requests.length, s.answered.length, `${s.baseURL}: ${s.requests.length - s.answered.length} requests refused`);
  // The three runs share the fakes, so the first request to a fake may come from any of them: Claude Sonnet's is found by its model (Opus, GLEE only, is checked below).
  const [openai, anthropic, gemini, local] = fakes.all.map((s) => s.requests.find((q) => q.model !== "claude-opus-4-7")!.body as Record<string, any>);
  assert.deepEqual([openai!.max_completion_tokens, openai!.reasoning_effort, "max_tokens" in openai!, "temperature" in openai!], [300 + 1024, "low", false, false]);
  assert.deepEqual([anthropic!.max_tokens, anthropic!.thinking, "temperature" in anthropic!], [300 + 1024, {type: "enabled", budget_tokens: 1024}, false]);
  assert.deepEqual(anthropic!.system.at(-1).cache_control, {type: "ephemeral"});
  assert.deepEqual(anthropic!.messages.at(-1).content.at(-1).cache_control, {type: "ephemeral"});
  const opus = fakes.anthropic.requests.find((q) => q.model === "claude-opus-4-7")!.body as Record<string, any>;
  assert.deepEqual([opus.max_tokens, opus.thinking, opus.output_config, "temperature" in opus], [300 + 24576, {type: "adaptive", display: "summarized"}, {effort: "high"}, false]);
  assert.deepEqual([gemini!.generationConfig.maxOutputTokens, gemini!.generationConfig.thinkingConfig], [300 + 8192, {thinkingBudget: 8192, includeThoughts: true}]);
  assert.deepEqual([local!.max_tokens, local!.temperature, "reasoning_effort" in local!], [300 + 512, 0.6, false]);
  // The thinking never went back to any model, the player's own later prompts included.
  for (const s of fakes.all) for (const q of s.requests) assert.ok(!JSON.stringify(q.body).includes(THINKING_MARK), `thinking resent in ${q.path}`);

  for (const [name, out] of outs) {
    const rows = await queryRun(out, ["turns", "players"], `
      SELECT p.agent, t.rule_break, t.message, t.raw, t.reasoning, t.input_tokens, t.output_tokens, t.cached_input_tokens, t.reasoning_tokens, t.cache_write_tokens
      FROM turns t JOIN players p USING (game_id, seat) ORDER BY t.game_id, t.turn`);
    const agents = new Set(rows.map((r) => r.agent));
    assert.deepEqual([...agents].sort(), ["claude", "gemini", "gpt", "local", ...(name === "glee" ? ["opus"] : [])].sort(), name);
    for (const r of rows) {
      const where = `${name} ${r.agent}`;
      // OpenAI's reasoning models return no thinking, only its token count; the others return it.
      if (r.agent === "gpt") assert.ok(!String(r.reasoning ?? "").includes(THINKING_MARK), where);
      else assert.ok(String(r.reasoning).includes(THINKING_MARK), `${where}: turns.reasoning holds the thinking`);
      for (const col of ["message", "raw"] as const) assert.ok(!String(r[col] ?? "").includes(THINKING_MARK), `${where}: no thinking in turns.${col}`);
      assert.ok(Number(r.input_tokens) > 0 && Number(r.output_tokens) > 0, where);
      if (r.agent === "local") {
        assert.deepEqual([r.cached_input_tokens, r.reasoning_tokens], [null, null], `${where}: the server did not say, so unknown`);
      } else {
        assert.ok(Number(r.reasoning_tokens) > 0 && Number(r.reasoning_tokens) < Number(r.output_tokens), `${where}: reasoning_tokens, part of output_tokens`);
        assert.ok(r.cached_input_tokens !== null && Number(r.cached_input_tokens) <= Number(r.input_tokens), `${where}: cached_input_tokens`);
        // Only Anthropic reports writes to its cache.
        assert.equal(r.cache_write_tokens === null, !["claude", "opus"].includes(String(r.agent)), `${where}: cache_write_tokens`);
      }
    }
  }
  // The local model's reply cut inside <think> has no answer: a rule break, asked again; its thinking is still kept.
  const cut = (await Promise.all(outs.map(([, out]) => queryRun(out, ["turns", "players"], `SELECT t.rule_break_reason, t.raw, t.reasoning FROM turns t JOIN players p USING (game_id, seat) WHERE p.agent = 'local' AND t.rule_break`)))).flat();
  assert.equal(cut.length, 1);
  assert.equal(cut[0]!.raw, "");
  assert.match(String(cut[0]!.reasoning), /and then$/);
  // GLEE: the decoy in the thinking ({"decision": "decoy", "alice_gain": -1}) was never read; the bot's real answers end each game by an agreement in round 2.
  const glee = await queryRun(outs[0]![1], ["games"], `SELECT rounds, ended_by FROM games ORDER BY game_id`);
  assert.deepEqual(glee.map((g) => [g.rounds, g.ended_by]), [[2, "agreement"], [2, "agreement"], [2, "agreement"]]);
});

test("a config asking for what a provider refuses stops before any call, in one line naming the player and the key", async () => {
  const fakes = await startReasoningFakes(respond);
  for (const s of fakes.all) keep(s);
  const players = reasoningPlayers(fakes).map((p) => (p.id === "claude" ? {...p, temperature: 0.7} : p));
  const dir = tempDir();
  writeFileSync(join(dir, "bad.json"), JSON.stringify({game: "glee/bargaining", players, lineups: [["gpt", "claude"]], seed: 1}));
  const r = await parleyCli(["run", join(dir, "bad.json"), "--out", join(dir, "out"), "--quiet"], {[FAKE_KEY_ENV]: "sk-fake"});
  assert.notEqual(r.code, 0);
  const lines = r.stderr.trim().split("\n");
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0]!, /players\[1\] \(claude\): "temperature": Anthropic's extended thinking does not allow a temperature/);
  assert.equal(fakes.all.reduce((n, s) => n + s.requests.length, 0), 0, "no request sent");
});

test("the strict endpoints refuse what each provider documents it refuses, in its error shape", async () => {
  const fakes = await startReasoningFakes(() => ({text: "{}"}));
  for (const s of fakes.all) keep(s);
  const post = async (url: string, body: unknown) => {
    const r = await fetch(url, {method: "POST", headers: {"content-type": "application/json"}, body: JSON.stringify(body)});
    return {status: r.status, body: (await r.json()) as any};
  };
  const messages = [{role: "user", content: "hi"}];
  const openai = (body: object) => post(`${fakes.openai.baseURL}/chat/completions`, {model: "o3", messages, ...body});
  let r = await openai({max_tokens: 10});
  assert.deepEqual([r.status, r.body.error.param, r.body.error.code, r.body.error.type], [400, "max_tokens", "unsupported_parameter", "invalid_request_error"]);
  r = await openai({max_completion_tokens: 10, temperature: 0.2});
  assert.deepEqual([r.status, r.body.error.param, r.body.error.code], [400, "temperature", "unsupported_value"]);
  r = await openai({max_completion_tokens: 10, reasoning_effort: "minimal"});
  assert.deepEqual([r.status, r.body.error.param], [400, "reasoning_effort"], "minimal is gpt-5's only");
  r = await post(`${fakes.openai.baseURL}/chat/completions`, {model: "gpt-4o", messages, max_tokens: 10, reasoning_effort: "low"});
  assert.deepEqual([r.status, r.body.error.param], [400, "reasoning_effort"]);
  assert.equal((await openai({max_completion_tokens: 10, reasoning_effort: "high"})).status, 200);

  const anthropic = (body: object) => post(`${fakes.anthropic.baseURL}/v1/messages`, {model: "claude-sonnet-4-5", messages, ...body});
  for (const [body, message] of [
    [{max_tokens: 2000, thinking: {type: "enabled", budget_tokens: 512}}, /budget_tokens: Input should be greater than or equal to 1024/],
    [{max_tokens: 1024, thinking: {type: "enabled", budget_tokens: 1024}}, /`max_tokens` must be greater than `thinking.budget_tokens`/],
    [{max_tokens: 2000, temperature: 0.5, thinking: {type: "enabled", budget_tokens: 1024}}, /`temperature` may only be set to 1 when thinking is enabled/],
  ] as const) {
    r = await anthropic(body);
    assert.deepEqual([r.status, r.body.type, r.body.error.type], [400, "error", "invalid_request_error"]);
    assert.match(r.body.error.message, message);
  }
  assert.equal((await anthropic({max_tokens: 2000, thinking: {type: "enabled", budget_tokens: 1024}})).status, 200);
  const opus47 = (body: object) => post(`${fakes.anthropic.baseURL}/v1/messages`, {model: "claude-opus-4-7", messages, max_tokens: 2000, ...body});
  assert.match((await opus47({thinking: {type: "enabled", budget_tokens: 1024}})).body.error.message, /"thinking.type.enabled" is not supported for this model/);
  assert.equal((await anthropic({thinking: {type: "adaptive"}, output_config: {effort: "low"}})).status, 400, "no adaptive thinking before 4.6");
  assert.equal((await opus47({thinking: {type: "adaptive", display: "summarized"}, output_config: {effort: "high"}})).status, 200);

  const gemini = (model: string, thinkingBudget: number) => post(`${fakes.gemini.baseURL}/v1beta/models/${model}:generateContent`, {contents: [{role: "user", parts: [{text: "hi"}]}], generationConfig: {thinkingConfig: {thinkingBudget}}});
  r = await gemini("gemini-2.5-pro", 0);
  assert.deepEqual([r.status, r.body.error.code, r.body.error.status], [400, 400, "INVALID_ARGUMENT"]);
  assert.match(r.body.error.message, /only works in thinking mode/);
  assert.match((await gemini("gemini-2.5-flash", 30000)).body.error.message, /between 0 and 24576/);
  assert.equal((await gemini("gemini-2.5-flash", 0)).status, 200);
});
