/**
 * Harness factors end to end (loaders/llm/harness.ts): `parley run` against
 * the fake OpenAI, Anthropic and Gemini servers (test/support/fakeLlm.ts,
 * which enforce each provider's documented structured-output constraints
 * and answer in its documented shape). A GLEE bargaining game, a gamma-Bench
 * guessing game and a NegotiationArena buy/sell scenario finish with every
 * setting: legal moves listed, structured output on each provider, one
 * retry after a rule break, and a vote of three samples; the manifest
 * records every player's factors. Then two runs that differ only in one
 * factor (legal moves listed) go through `parley compare`, whose rule-break
 * rate and payoff rows are checked against the turns and players tables.
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {readFileSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {parley as parleyCli, scratch} from "../support/cli.js";
import {startFakeLlm, type FakeLlmServer, type FakeRequest, type Reply, type Wire} from "../support/fakeLlm.js";
import {queryRun} from "../../loaders/io/parquet.js";

const {dir: tempDir, keep} = scratch("parley-harness-");
const parley = (args: string[]) => parleyCli(args, {PARLEY_FAKE_KEY: "sk-fake"});
const fake = async (wire: Wire, respond: Parameters<typeof startFakeLlm>[1]) => {
  const server = await startFakeLlm(wire, respond);
  keep(server);
  return server;
};

/** Which game a request is for, from the paper's words in its prompt. */
function gameOf(r: FakeRequest): "glee" | "guessing" | "buy_sell" {
  const text = r.system + r.turns.map((t) => t.content).join("\n");
  if (/chosen_number/.test(text)) return "guessing";
  if (/buying or selling an object/.test(text)) return "buy_sell";
  return "glee";
}

/** A legal answer in the paper's free-text format. */
function freeText(r: FakeRequest, price = 55, share = 50): string {
  const game = gameOf(r);
  if (game === "guessing") return '{"chosen_number": "33"}';
  if (game === "buy_sell") {
    // Two proposals, then the buyer's standing counter-offer is accepted (the seller has four).
    if (r.turns.filter((t) => t.role === "assistant").length >= 2) return "<reason> fine </reason>\n<player answer> ACCEPT </player answer>\n<newly proposed trade> NONE </newly proposed trade>\n<message> deal </message>";
    return `<my resources> X: 1 </my resources>\n<my goals> sell </my goals>\n<reason> fair </reason>\n<player answer> PROPOSAL </player answer>\n<newly proposed trade> Player RED Gives X: 1 | Player BLUE Gives ZUP: ${price} </newly proposed trade>\n<message> ${price} ZUP </message>`;
  }
  if (/\{"decision": "accept"\} or \{"decision": "reject"\}\s*$/.test(r.system)) return '{"decision": "accept"}';
  return `{"alice_gain": ${share}, "bob_gain": ${100 - share}}`;
}

/** Values the seats of these games would pick, by field; other fields take their minimum (or null when they may be null). */
const PICK: Record<string, number> = {alice_gain: 50, bob_gain: 50, amount: 33, red_X: 1, blue_ZUP: 55};
const PREFER = ["offer", "choose", "PROPOSAL", "decision", "ACCEPT"];

/** A legal answer to a structured-output request, read off its schema (JSON Schema or Gemini's form): `{"action": ...}`. */
function structured(r: FakeRequest): string {
  const action = r.structured!.schema.properties.action;
  const branches: Record<string, any>[] = action.anyOf ?? [action];
  const rank = (b: Record<string, any>) => {
    const i = PREFER.indexOf(b.properties.type.enum[0]);
    return i < 0 ? PREFER.length : i;
  };
  const branch = [...branches].sort((x, y) => rank(x) - rank(y))[0];
  const out: Record<string, unknown> = {};
  for (const [field, s] of Object.entries(branch.properties as Record<string, any>)) {
    const types = (Array.isArray(s.type) ? s.type : [s.type]).map((t: string) => t.toLowerCase());
    const canBeNull = types.includes("null") || s.nullable === true;
    if (s.enum) out[field] = s.enum.includes("accept") ? "accept" : s.enum.find((v: unknown) => v !== null);
    else if (field in PICK) out[field] = PICK[field];
    else if (canBeNull) out[field] = null;
    else if (types.includes("string")) out[field] = "ok";
    else out[field] = s.minimum ?? 0;
  }
  return JSON.stringify({action: out});
}

const INPUT = 100;
const OUTPUT = 7;

/** The responder of every fake: structured requests get a conforming action, the "retry" model breaks the rules on every first attempt, the "vote" model answers two samples in three alike. */
function responder() {
  const count = new Map<string, number>();
  return (r: FakeRequest): Reply => {
    const n = count.get(r.model) ?? 0;
    count.set(r.model, n + 1);
    if (r.structured) return {text: structured(r), inputTokens: INPUT, outputTokens: OUTPUT};
    if (r.model === "retry" && n % 2 === 0) return {text: "I am not sure yet.", inputTokens: INPUT, outputTokens: OUTPUT};
    if (r.model === "vote") return {text: freeText(r, n % 3 === 1 ? 60 : 55, n % 3 === 1 ? 60 : 50), inputTokens: INPUT, outputTokens: OUTPUT};
    return {text: freeText(r), inputTokens: INPUT, outputTokens: OUTPUT};
  };
}

const player = (id: string, wire: Wire, baseURL: string, extra: Record<string, unknown>) => ({
  id, provider: wire, model: id.replace(/^so-/, ""), base_url: baseURL, api_key_env: "PARLEY_FAKE_KEY", temperature: 0.7, max_tokens: 300, timeout_ms: 5000, max_retries: 0, ...extra,
});

async function run(config: Record<string, unknown>): Promise<string> {
  const dir = tempDir();
  writeFileSync(join(dir, "run.json"), JSON.stringify(config));
  const out = join(dir, "out");
  const r = await parley(["run", join(dir, "run.json"), "--out", out, "--quiet"]);
  assert.equal(r.code, 0, r.stderr);
  return out;
}

test("every harness setting plays GLEE bargaining, gamma-Bench guessing and NegotiationArena buy/sell to the end; the manifest records the factors", async () => {
  const servers = Object.fromEntries(await Promise.all((["openai", "anthropic", "gemini"] as const).map(async (w) => [w, await fake(w, responder())]))) as Record<Wire, FakeLlmServer>;
  const players = [
    player("listed", "openai", servers.openai.baseURL, {legal_moves: true}),
    player("so-openai", "openai", servers.openai.baseURL, {structured_output: true}),
    player("so-anthropic", "anthropic", servers.anthropic.baseURL, {structured_output: true}),
    player("so-gemini", "gemini", servers.gemini.baseURL, {structured_output: true}),
    player("retry", "openai", servers.openai.baseURL, {retries: 1}),
    player("vote", "openai", servers.openai.baseURL, {votes: 3}),
  ];
  const ids = players.map((p) => p.id);
  const out = await run({
    game: ["glee/bargaining", "gamabench/guessing", "negotiationarena/buy_sell"],
    grid: {"glee/bargaining": {money: [100], horizon: [2], messages: [false]}, "gamabench/guessing": {rounds: [2]}},
    players: [...players, "fair", "level-1", "split-difference"],
    lineups: {
      "glee/bargaining": ids.map((id) => [id, "fair"]),
      "gamabench/guessing": ids.map((id) => [id, ...new Array(9).fill("level-1")]),
      "negotiationarena/buy_sell": ids.map((id) => [id, "split-difference"]),
    },
    concurrency: 1,
    seed: 5,
  });

  // Every game of every player ends as its game ends, never by a rule break.
  const ended = await queryRun(out, ["games", "players"], `SELECT p.agent, g.game, g.ended_by FROM games g JOIN players p USING (game_id) WHERE p.seat = 0 ORDER BY p.agent, g.game`);
  assert.equal(ended.length, 18);
  for (const g of ended) assert.notEqual(g.ended_by, "rule_break", `${g.agent} in ${g.game}`);
  const turns = await queryRun(out, ["turns", "players"], `SELECT p.agent, t.game_id, t.attempt, t.rule_break, t.input_tokens, t.output_tokens, t.raw FROM turns t JOIN players p ON p.game_id = t.game_id AND p.seat = t.seat WHERE t.seat = 0 AND t.attempt IS NOT NULL ORDER BY t.game_id, t.turn`);
  const of = (agent: string) => turns.filter((t) => t.agent === agent);
  for (const id of ["listed", "so-openai", "so-anthropic", "so-gemini", "vote"]) {
    assert.ok(of(id).length >= 3, id);
    assert.ok(of(id).every((t) => !t.rule_break), `${id}: no rule break`);
  }

  // Legal moves listed: after the paper's request, in every request of that player only.
  const requests = (wire: Wire, model: string) => servers[wire].requests.filter((r) => r.model === model);
  assert.ok(requests("openai", "listed").every((r) => /\n\nLegal moves now \(answer in the format asked above\):\n- /.test(r.lastUser)));
  assert.ok(!requests("openai", "retry").some((r) => /Legal moves now/.test(r.lastUser)));
  // Structured output: each provider's documented request (the fakes refuse a malformed one with a 400), answered in its shape.
  for (const wire of ["openai", "anthropic", "gemini"] as const) {
    const sent = requests(wire, wire);
    assert.ok(sent.length >= 3 && sent.every((r) => r.structured !== null), wire);
  }
  const body = (wire: Wire) => requests(wire, wire)[0].body as Record<string, any>;
  assert.equal(body("openai").response_format.json_schema.strict, true);
  assert.deepEqual(body("anthropic").tool_choice, {type: "tool", name: "game_action"});
  assert.equal(body("gemini").generationConfig.responseMimeType, "application/json");
  assert.ok(of("so-anthropic").every((t) => JSON.parse(t.raw as string).action), "the tool_use input is the answer");
  // Retries: every decision broke the rules once, then answered (retries 1 = two answers).
  const retry = of("retry");
  assert.ok(retry.length >= 6);
  assert.deepEqual(retry.map((t) => [t.attempt, t.rule_break]), retry.map((_, i) => (i % 2 === 0 ? [1, true] : [2, false])));
  // Votes: three calls per decision, every sample's tokens on the decision's row.
  const vote = of("vote");
  assert.equal(requests("openai", "vote").length, 3 * vote.length);
  assert.ok(vote.every((t) => t.input_tokens === 3 * INPUT && t.output_tokens === 3 * OUTPUT));
  // The two-in-three answer wins: GLEE's offer is 50/50 and the buy/sell price 55 (the odd sample asked 60).
  const voted = await queryRun(out, ["turns", "players"], `SELECT t.action, t.price FROM turns t JOIN players p ON p.game_id = t.game_id AND p.seat = t.seat WHERE p.agent = 'vote' AND t.game_id LIKE '%buy_sell%' AND t.seat = 0 AND t.action = 'PROPOSAL'`);
  assert.ok(voted.length && voted.every((t) => t.price === 55), JSON.stringify(voted));

  const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8"));
  const harness = Object.fromEntries(manifest.llm_players.map((p: {id: string; harness: unknown}) => [p.id, p.harness]));
  const none = {legal_moves: false, structured_output: false, retries: 2, votes: 1, prompt_layout: "authors"};
  assert.deepEqual(harness, {
    listed: {...none, legal_moves: true},
    "so-openai": {...none, structured_output: true},
    "so-anthropic": {...none, structured_output: true},
    "so-gemini": {...none, structured_output: true},
    retry: {...none, retries: 1},
    vote: {...none, votes: 3},
  });
});

test("parley compare of two runs differing only in legal moves listed: rule-break rate and payoff effects with the paired tests", async () => {
  // Unlisted, the model first asks for more than the pie (a rule break), then 60 of 100; listed, it offers 50 at once.
  const server = await fake("openai", (r: FakeRequest) => {
    if (/Legal moves now/.test(r.lastUser)) return {text: freeText(r, 55, 50)};
    const broke = r.turns.some((t) => t.role === "assistant" && /"alice_gain": 90/.test(t.content));
    return {text: broke ? freeText(r, 55, 60) : '{"alice_gain": 90, "bob_gain": 90}'};
  });
  const config = (extra: Record<string, unknown>) => ({
    run_id: "harness", game: "glee/bargaining",
    grid: {delta_a: [0.8, 0.9], delta_b: [0.8, 0.9], money: [100], horizon: [2], messages: [false], complete_information: [true]},
    players: [player("m", "openai", server.baseURL, extra), "fair"], lineups: [["m", "fair"]], seed: 2,
  });
  const [a, b] = await Promise.all([run(config({})), run(config({legal_moves: true}))]);
  const r = await parley(["compare", a, b]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, "", "the manifests differ only in the compared player");
  const rows = JSON.parse(r.stdout).rows as {metric: string; n: number; mean_diff: number; p_t: number; p_perm: number; p_t_holm: number}[];
  const row = (metric: string) => rows.find((x) => x.metric === metric)!;
  // Second method: the rates and returns from each run's tables, paired by configuration.
  type Row = Record<string, unknown>;
  const rates = (dir: string): Promise<Row[]> => queryRun(dir, ["turns", "games"], `SELECT g.config_id, avg(CASE WHEN t.rule_break THEN 1 ELSE 0 END)::DOUBLE AS rate FROM turns t JOIN games g USING (game_id) WHERE t.seat = 0 AND t.attempt IS NOT NULL GROUP BY ALL ORDER BY g.config_id`);
  const returns = (dir: string): Promise<Row[]> => queryRun(dir, ["players", "games"], `SELECT g.config_id, p."return"::DOUBLE AS r FROM players p JOIN games g USING (game_id) WHERE p.seat = 0 ORDER BY g.config_id`);
  const [ra, rb, pa, pb] = await Promise.all([rates(a), rates(b), returns(a), returns(b)]);
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  assert.equal(ra.length, 4);
  assert.ok(ra.every((x) => (x.rate as number) > 0) && rb.every((x) => x.rate === 0), "unlisted breaks the rules, listed does not");
  const rate = row("rule-break rate, seat 0");
  assert.equal(rate.n, 4);
  assert.ok(Math.abs(rate.mean_diff - mean(rb.map((x, i) => (x.rate as number) - (ra[i].rate as number)))) < 1e-12);
  assert.ok(rate.mean_diff < 0 && Math.abs(rate.p_perm - 2 / 16) < 1e-12, "every pair lower: the exact sign-flip p is 2/16");
  const payoff = row("return, seat 0");
  assert.ok(Math.abs(payoff.mean_diff - mean(pb.map((x, i) => (x.r as number) - (pa[i].r as number)))) < 1e-9);
  assert.ok(rows.every((x) => x.p_t_holm !== undefined));
});
