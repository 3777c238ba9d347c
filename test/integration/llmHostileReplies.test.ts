/**
 * Replies of hostile shapes through `parley run` (a process, against fake
 * endpoints on loopback; issue 38 items 5 and 6): JSON nested 200,000 deep
 * in the model's text, two megabytes of back-ticks, and JSON nested as deep
 * in the provider's reply body (in fields the clients read and fields they
 * do not, for each provider). Each is a rule break with the reply and its
 * tokens kept, or a bad reply retried, never a crash; the other games
 * finish untouched; every retry is sent (none answered from the response
 * cache); and a second run answered from the first's response cache sends
 * nothing and writes the same turns.
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {writeFileSync} from "node:fs";
import {join} from "node:path";
import {parley, scratch} from "../support/cli.js";
import {startFakeLlm, type FakeLlmServer, type FakeRequest, type Reply, type Wire} from "../support/fakeLlm.js";
import {gleeBot} from "../support/gleeBot.js";
import {queryRun} from "../../loaders/io/parquet.js";

const {dir: tempDir, keep} = scratch("parley-hostile-replies-");

const DEPTH = 200_000;
const deepObject = `${'{"a":'.repeat(DEPTH)}1${"}".repeat(DEPTH)}`;
const deepArray = `${"[".repeat(DEPTH)}${"]".repeat(DEPTH)}`;
const INPUT = 1000;
const OUTPUT = 100;

const bargaining = {delta_a: [0.9], delta_b: [0.9], money: [100], horizon: [12], complete_information: [true], messages: [true]};

/** A run of one GLEE bargaining game per LLM player, each against rubinstein. */
function writeConfig(dir: string, players: Record<string, unknown>[]): string {
  const path = join(dir, "run.json");
  writeFileSync(path, JSON.stringify({family: "bargaining", grid: bargaining, players: [...players, "rubinstein"], pairs: players.map((p) => [p.id, "rubinstein"]), seed: 1}));
  return path;
}

const player = (id: string, server: FakeLlmServer, extra: Record<string, unknown> = {}) => ({id, provider: server.wire, model: id, base_url: server.baseURL, temperature: 0.7, ...extra});

type Turn = Record<string, unknown> & {game_id: string; seat: number; attempt: number | null; rule_break: boolean; rule_break_reason: string | null; raw: string | null};

/** Every turns row, in order (BigInt counts as numbers). */
async function turnsOf(out: string): Promise<Turn[]> {
  const rows = await queryRun(out, ["turns"], "SELECT * FROM turns ORDER BY game_id, turn");
  return rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === "bigint" ? Number(v) : v]))) as Turn[];
}

/** The LLM seat's rows of `agent`'s game. */
const seatRows = (turns: Turn[], agent: string) => turns.filter((t) => t.game_id.includes(`-${agent}-vs-`) && t.seat === 0);

/** Runs the config, then again into a new folder with the first run's response cache: nothing is sent and the turns are the same. */
async function runTwice(config: string, dir: string, servers: FakeLlmServer[]): Promise<{out: string; summary: Record<string, any>; turns: Turn[]}> {
  const out = join(dir, "out");
  const r = await parley(["run", config, "--out", out]);
  assert.equal(r.code, 0, r.stderr.slice(-3000));
  assert.doesNotMatch(r.stderr, /Maximum call stack|RangeError|agent failed/);
  const summary = JSON.parse(r.stdout);
  const turns = await turnsOf(out);
  const sent = servers.map((s) => s.requests.length);
  const again = await parley(["run", config, "--out", join(dir, "again"), "--cache", join(out, ".parley", "llm-cache"), "--quiet"]);
  assert.equal(again.code, 0, again.stderr.slice(-3000));
  assert.deepEqual(servers.map((s) => s.requests.length), sent, "the rerun sent nothing: every answer came from the cache");
  assert.deepEqual(await turnsOf(join(dir, "again")), turns, "the rerun from the cache wrote the same turns");
  return {out, summary, turns};
}

/** The rows of a game an endpoint answered well: every decision legal at once. */
function assertClean(turns: Turn[], agent: string): void {
  const rows = seatRows(turns, agent);
  assert.ok(rows.length >= 1, agent);
  assert.ok(rows.every((t) => !t.rule_break && t.attempt === 1 && typeof t.raw === "string" && (t.input_tokens as number) > 0), `${agent}: ${JSON.stringify(rows.map((t) => t.rule_break_reason))}`);
}

test("a reply of JSON nested 200,000 deep is a rule break with its text and tokens kept; the next answer plays on, the other game is untouched, and a rerun from the cache writes the same turns", async () => {
  const deep = `{"alice_gain": 50, "bob_gain": 50, "message": ${deepObject}}`;
  const bot = gleeBot();
  let hostile = true;
  const server = await startFakeLlm("openai", (q) => {
    if (q.model === "deep" && hostile) {
      hostile = false;
      return {text: deep, inputTokens: INPUT, outputTokens: OUTPUT};
    }
    return bot(q);
  });
  keep(server);
  const dir = tempDir();
  const config = writeConfig(dir, [player("deep", server), player("fine", server)]);
  const {summary, turns} = await runTwice(config, dir, [server]);
  assert.equal(summary.games, 2);
  assert.equal(summary.llm.cache_hits, 0);

  const [first, second] = seatRows(turns, "deep");
  assert.deepEqual(
    {attempt: first.attempt, rule_break: first.rule_break, reason: first.rule_break_reason, raw: first.raw === deep, input_tokens: first.input_tokens, output_tokens: first.output_tokens},
    {attempt: 1, rule_break: true, reason: "the reply's JSON object is nested more than 64 levels deep; expected one flat JSON object", raw: true, input_tokens: INPUT, output_tokens: OUTPUT},
  );
  assert.deepEqual([second.attempt, second.rule_break, second.action], [2, false, "offer"]);
  // GLEE keeps the broken answer in the conversation: the retry was sent with it, and answered by the endpoint.
  const asked = server.requests.filter((q) => q.model === "deep");
  assert.equal(asked[1].turns.filter((t) => t.role === "assistant")[0]?.content, deep);
  assert.equal(asked.length, seatRows(turns, "deep").length, "one request per answer: no retry came from the cache");
  assertClean(turns, "fine");
});

test("two megabytes of back-ticks: every attempt a rule break with the reply and its tokens kept, each retry sent to the endpoint, the game's fallback after the last; the other game is untouched", async () => {
  const ticks = "`".repeat(2_000_000);
  const bot = gleeBot();
  const server = await startFakeLlm("openai", (q) => (q.model === "ticks" ? {text: ticks, inputTokens: INPUT, outputTokens: OUTPUT} : bot(q)));
  keep(server);
  const dir = tempDir();
  const config = writeConfig(dir, [player("ticks", server), player("fine", server)]);
  const {summary, turns} = await runTwice(config, dir, [server]);
  assert.equal(summary.games, 2);
  assert.equal(summary.llm.cache_hits, 0);

  const rows = seatRows(turns, "ticks");
  assert.deepEqual(
    rows.map((t) => [t.attempt, t.rule_break, t.rule_break_reason, t.raw === ticks, t.input_tokens, t.output_tokens]),
    [1, 2, 3].map((attempt) => [attempt, true, "the reply contains no JSON object", true, INPUT, OUTPUT]),
  );
  const asked = server.requests.filter((q) => q.model === "ticks");
  assert.equal(asked.length, 3, "three attempts, three requests");
  assert.equal(new Set(asked.map((q) => q.bodyHash)).size, 3);
  const games = await queryRun<{game_id: string; ended_by: string}>(join(dir, "out"), ["games"], "SELECT game_id, ended_by FROM games ORDER BY game_id");
  assert.deepEqual(games.map((g) => g.ended_by === "rule_break"), games.map((g) => g.game_id.includes("-ticks-")));
  assertClean(turns, "fine");
});

/** A 200 body of `wire` as the provider's JSON, `parts` spliced in as raw JSON text (so they may nest past any stack). */
function rawBody(wire: Wire, parts: {answer?: string; model?: string; stop?: string; extra?: string; tool?: string}): string {
  const text = parts.answer ?? JSON.stringify("");
  const extra = parts.extra ? `,"x":${parts.extra}` : "";
  if (wire === "openai") {
    return `{"id":"c","object":"chat.completion","created":1,"model":${parts.model ?? '"m"'},"choices":[{"index":0,"message":{"role":"assistant","content":${text}},"finish_reason":${parts.stop ?? '"stop"'}}],"usage":{"prompt_tokens":${INPUT},"completion_tokens":${OUTPUT}}${extra}}`;
  }
  if (wire === "anthropic") {
    const block = parts.tool ? `{"type":"tool_use","id":"t","name":"game_action","input":${parts.tool}}` : `{"type":"text","text":${text}}`;
    return `{"id":"m","type":"message","role":"assistant","model":${parts.model ?? '"m"'},"content":[${block}],"stop_reason":${parts.stop ?? '"end_turn"'},"stop_sequence":null,"usage":{"input_tokens":${INPUT},"output_tokens":${OUTPUT}}${extra}}`;
  }
  return `{"candidates":[{"content":{"role":"model","parts":[{"text":${text}}]},"finishReason":${parts.stop ?? '"STOP"'},"index":0}],"usageMetadata":{"promptTokenCount":${INPUT},"candidatesTokenCount":${OUTPUT}},"modelVersion":${parts.model ?? '"m"'}${extra}}`;
}

/** A legal structured answer to GLEE bargaining: an even split, or accepting. */
function structured(q: FakeRequest): string {
  const action = q.structured!.schema.properties.action;
  const types = ((action.anyOf ?? [action]) as {properties: {type: {enum: string[]}}}[]).map((b) => b.properties.type.enum[0]);
  return JSON.stringify({action: types.includes("offer") ? {type: "offer", alice_gain: 50, bob_gain: 50, message: "An even split."} : {type: "decision", decision: "accept"}});
}

test("JSON nested 200,000 deep in the provider's reply body: ignored where no answer is read, a bad reply retried where text was due, the model's own deep answer (Anthropic's tool input) a rule break kept whole", async () => {
  const bot = gleeBot();
  const served = new Map<string, number>();
  /** The n-th request (from 0) of a model. */
  const nth = (q: FakeRequest) => {
    const n = served.get(q.model) ?? 0;
    served.set(q.model, n + 1);
    return n;
  };
  const botText = async (q: FakeRequest) => JSON.stringify(((await bot(q)) as {text: string}).text);
  const respond = async (q: FakeRequest): Promise<Reply> => {
    const n = nth(q);
    if (q.wire === "openai") {
      // The model's name and stop reason nested deep (the answer is fine), then an answer that is not text, then plain answers.
      if (n === 0) return {body: rawBody("openai", {answer: await botText(q), model: deepArray, stop: deepObject, extra: deepObject})};
      if (n === 1) return {body: rawBody("openai", {answer: deepArray})};
    }
    if (q.wire === "anthropic" && n === 0) return {body: rawBody("anthropic", {tool: `{"action":${deepObject}}`, model: deepArray, extra: deepObject})};
    if (q.wire === "gemini") {
      if (n === 0) return {body: rawBody("gemini", {answer: deepArray})};
      if (n === 1) return {body: rawBody("gemini", {answer: await botText(q), model: deepObject, extra: deepArray})};
    }
    return q.structured ? {text: structured(q), inputTokens: INPUT, outputTokens: OUTPUT} : {...((await bot(q)) as {text: string}), inputTokens: INPUT, outputTokens: OUTPUT};
  };
  const wires: Wire[] = ["openai", "anthropic", "gemini"];
  const [oa, an, ge] = await Promise.all(wires.map((w) => startFakeLlm(w, respond)));
  for (const s of [oa, an, ge]) keep(s);
  const dir = tempDir();
  const config = writeConfig(dir, [player("oa", oa, {max_retries: 1}), player("an", an, {structured_output: true}), player("ge", ge, {max_retries: 1})]);
  const {summary, turns} = await runTwice(config, dir, [oa, an, ge]);
  assert.equal(summary.games, 3);
  assert.equal(summary.failed, 0);
  // The answers that were not text: one bad reply each from OpenAI and Gemini, each retried once.
  assert.deepEqual(summary.llm.failed_attempts, {bad_response: 2});
  assertClean(turns, "oa");
  assertClean(turns, "ge");

  const [broken, next] = seatRows(turns, "an");
  assert.deepEqual(
    {attempt: broken.attempt, rule_break: broken.rule_break, reason: broken.rule_break_reason, input_tokens: broken.input_tokens, output_tokens: broken.output_tokens},
    {attempt: 1, rule_break: true, reason: "structured output: the answer is nested more than 64 levels deep", input_tokens: INPUT, output_tokens: OUTPUT},
  );
  // The tool's input, written back as JSON text whole.
  assert.equal(broken.raw, `{"action":${deepObject}}`);
  assert.deepEqual([next.attempt, next.rule_break], [2, false]);
});
