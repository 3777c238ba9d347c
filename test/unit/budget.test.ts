/**
 * The budget's parts on their own: an endpoint's token counts read as
 * untrusted data (llm/usage.ts and each provider's usage), the most a
 * request can be billed (llm/callBound.ts), the reservations of
 * runner/budget.ts, and the spend journal of runner/spendJournal.ts after a
 * kill, a torn line or a crash in the middle of folding. Costs are checked
 * against hand arithmetic at $1,000 per million tokens (a token is $0.001).
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {openaiUsage} from "../../loaders/llm/openaiChat.js";
import {anthropicUsage} from "../../loaders/llm/anthropicMessages.js";
import {geminiUsage} from "../../loaders/llm/geminiGenerate.js";
import {checkedUsage, MAX_CALL_TOKENS} from "../../loaders/llm/usage.js";
import {inputBound, outputLimit, PER_MESSAGE, PER_REQUEST} from "../../loaders/llm/callBound.js";
import {sumUsage} from "../../loaders/llm/harness.js";
import {BudgetExhausted, type BudgetedRequest} from "../../loaders/llm/types.js";
import {RunBudget, reservationCost} from "../../loaders/runner/budget.js";
import {previousSpend, SpendJournal} from "../../loaders/runner/spendJournal.js";
import {CheckpointConflict} from "../../loaders/runner/checkpoint.js";

const price = {input_per_million: 1000, output_per_million: 1000, as_of: null};

/** A usage reader's reports, as [field, value] pairs. */
function reports(): {list: Array<[string, unknown]>; report: (field: string, value: unknown) => void} {
  const list: Array<[string, unknown]> = [];
  return {list, report: (field, value) => void list.push([field, value])};
}

test("each provider's usage: a count that is negative, a string, a fraction, NaN, infinite or above 10 million is unknown (null) and reported by field", () => {
  for (const bad of [-1e9, "1000", 999.5, Number.NaN, Infinity, 1e30, MAX_CALL_TOKENS + 1, {}, true]) {
    const r = reports();
    assert.deepEqual(openaiUsage({prompt_tokens: bad, completion_tokens: 7} as never, r.report), {input_tokens: null, output_tokens: 7}, String(bad));
    assert.deepEqual(r.list, [["usage.prompt_tokens", bad]]);
  }
  const r = reports();
  assert.deepEqual(openaiUsage(undefined, r.report), {input_tokens: null, output_tokens: null}, "no usage at all: unknown, not 0");
  assert.deepEqual(r.list.map(([f]) => f), ["usage.prompt_tokens", "usage.completion_tokens"]);
  assert.deepEqual(openaiUsage({prompt_tokens: 10, completion_tokens: 0, prompt_tokens_details: {cached_tokens: "4"}} as never), {input_tokens: 10, output_tokens: 0, cached_input_tokens: null});
  assert.deepEqual(openaiUsage({prompt_tokens: MAX_CALL_TOKENS, completion_tokens: 0} as never), {input_tokens: MAX_CALL_TOKENS, output_tokens: 0}, "the bound itself is a count");

  // Anthropic: the input is a sum, unknown when a part is.
  assert.deepEqual(anthropicUsage({input_tokens: 50, cache_read_input_tokens: -3000, output_tokens: 9} as never), {input_tokens: null, output_tokens: 9, cached_input_tokens: null});
  assert.deepEqual(anthropicUsage({input_tokens: "50", output_tokens: 9} as never), {input_tokens: null, output_tokens: 9});
  // Gemini: absent counts are 0 (its JSON leaves zeros out), but not the prompt's; the output is a sum too.
  assert.deepEqual(geminiUsage({promptTokenCount: 10, candidatesTokenCount: 4, thoughtsTokenCount: 1.5} as never), {input_tokens: 10, output_tokens: null, cached_input_tokens: 0, reasoning_tokens: null});
  assert.deepEqual(geminiUsage({candidatesTokenCount: 4} as never), {input_tokens: null, output_tokens: 4, cached_input_tokens: 0, reasoning_tokens: 0});
  assert.deepEqual(geminiUsage("lots" as never), {input_tokens: null, output_tokens: null});
});

test("usage stored before counts were checked is read back with the bad counts unknown; a decision's sum is unknown when one vote's is", () => {
  assert.deepEqual(checkedUsage({input_tokens: "1000", output_tokens: 1e30, cached_input_tokens: 4, reasoning_tokens: -1}), {input_tokens: null, output_tokens: null, cached_input_tokens: 4, reasoning_tokens: null});
  assert.deepEqual(checkedUsage(undefined), {input_tokens: null, output_tokens: null});
  assert.deepEqual(sumUsage([{input_tokens: 10, output_tokens: 2, latency_ms: 5}, {input_tokens: null, output_tokens: 3, latency_ms: 9}, {input_tokens: 7, output_tokens: 1, latency_ms: 1}]), {input_tokens: null, output_tokens: 6, latency_ms: 9});
});

test("a request's bound: its UTF-8 bytes (so 3 tokens for a Chinese character), template markers and schema on top; its output limit as the client sends it", () => {
  const messages = [{role: "system" as const, content: "abc"}, {role: "user" as const, content: "价格"}];
  assert.equal(inputBound(messages, {max_tokens: 10}), PER_REQUEST + 2 * PER_MESSAGE + 3 + 6);
  const schema = {type: "object", properties: {a: {type: "integer"}}} as never;
  assert.ok(inputBound(messages, {max_tokens: 10, response_schema: schema}) > inputBound(messages, {max_tokens: 10}) + JSON.stringify(schema).length);
  assert.equal(outputLimit("openai", "m", {max_tokens: 100}), 100);
  assert.equal(outputLimit("openai", "o3", {max_tokens: 100, reasoning_model: true, reasoning_effort: "low"}), 100 + 1024, "max_completion_tokens counts the reasoning");
  assert.equal(outputLimit("anthropic", "claude-sonnet-4-5", {max_tokens: 100, thinking_budget: 2048}), 2148);
  assert.equal(outputLimit("gemini", "gemini-2.5-flash", {max_tokens: 100, thinking_budget: 512}), 612);
});

/** A request of `bytes` bytes of user text and 100 tokens of output: bound 64 + 16 + bytes tokens in. */
const request = (bytes: number, player = "p"): BudgetedRequest => ({player, provider: "openai", model: "m", messages: [{role: "user", content: "x".repeat(bytes)}], sampling: {max_tokens: 100}});

/** A fresh state directory, removed after `body`. */
async function inState(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "parley-budget-"));
  try {
    await body(dir);
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
}

test("reservations: a call is refused when it would pass the budget with the others in flight; settled calls free the rest; unknown usage keeps the reservation; nothing is negative", () =>
  inState(async (dir) => {
    const prices = new Map([["openai/m", price]]);
    // 920 bytes: 1,000 tokens in and 100 out at most, $1.10.
    assert.ok(Math.abs(reservationCost(price, request(920)) - 1.1) < 1e-12);
    const budget = new RunBudget(prices, 3, new SpendJournal(dir));
    const a = await budget.reserve(request(920, "a"));
    const b = await budget.reserve(request(920, "b"));
    await assert.rejects(budget.reserve(request(920)), (e: unknown) => e instanceof BudgetExhausted && /--max-cost \$3\.00: a call of p may cost up to \$1\.10 and \$2\.20 is spent or reserved/.test((e as Error).message));
    assert.ok(Math.abs(budget.refused!.committed - 2.2) < 1e-12);
    budget.settle(a, {input_tokens: 300, output_tokens: 50}); // $0.35
    budget.settle(b, {input_tokens: null, output_tokens: 50}); // unknown: $1.10 stays
    assert.ok(Math.abs(budget.committed - 1.45) < 1e-12);
    const c = await budget.reserve(request(920, "a"));
    budget.settle(c, {input_tokens: 0, output_tokens: 0}); // an HTTP error: not billed
    assert.deepEqual(Object.keys(budget.players).sort(), ["a", "b"]);
    assert.ok(Math.abs(budget.players.a! - 0.35) < 1e-12 && Math.abs(budget.players.b! - 1.1) < 1e-12);
    await budget.close();
    assert.ok(Math.abs(previousSpend(dir) - 1.45) < 1e-12);
    assert.deepEqual(readdirSync(dir), ["spend.json"], "the journal is folded into spend.json at the end");
  }));

test("after a kill the journal counts every unsettled reservation at its amount, skips a line cut short, and folding it in twice counts it once", () =>
  inState(async (dir) => {
    const prices = new Map([["openai/m", price]]);
    const budget = new RunBudget(prices, null, new SpendJournal(dir));
    const settled = await budget.reserve(request(920));
    budget.settle(settled, {input_tokens: 1000, output_tokens: 100});
    await Promise.all([budget.reserve(request(920)), budget.reserve(request(1920))]); // in flight at the "kill": $1.10 and $2.10
    // The kill: no close. What a reservation's promise resolved on is on disk already.
    const journal = join(dir, "spend-journal-1.jsonl");
    const lines = readFileSync(journal, "utf8").trim().split("\n");
    assert.ok(lines.length >= 3, lines.join("\n"));
    appendFileSync(journal, '{"r":9,"us'); // a batch cut short: its calls were never sent
    // The settlement went to disk with the next batch: the settled call at its cost, the others at their reservation.
    const after = previousSpend(dir);
    assert.ok(Math.abs(after - (1.1 + 1.1 + 2.1)) < 1e-12, `${after}`);

    // A crash between writing spend.json and removing the journals it folded in: the journal is not counted again.
    writeFileSync(join(dir, "spend.json"), JSON.stringify({usd: after, journal: 1}));
    assert.equal(previousSpend(dir), after);
    const next = new SpendJournal(dir);
    assert.equal(next.earlier, after);
    assert.deepEqual(readdirSync(dir), ["spend.json"]);
    await next.close();
    assert.equal(previousSpend(dir), after);
  }));

test("a spend record holding a negative amount (written when negative usage was priced) is refused with what to do", () =>
  inState(async (dir) => {
    writeFileSync(join(dir, "spend.json"), JSON.stringify({usd: -160000000}));
    assert.throws(() => previousSpend(dir), (e: unknown) => e instanceof CheckpointConflict && /a negative amount, -160000000: written by a Parley that priced an endpoint's negative token counts\); .* write \{"usd": <dollars spent>\} into it, or delete it to count from zero$/.test((e as Error).message));
  }));
