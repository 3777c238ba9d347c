/**
 * An endpoint's token counts are untrusted data (issue 38, cases 2 and 3):
 * `parley run` through the command line against a fake OpenAI endpoint on
 * 127.0.0.1 that sends negative counts, counts as strings, 1e30, fractions
 * and "NaN". The run finishes, the counts it could not use are empty cells
 * (with one warning line per field), nothing is priced below zero, and the
 * checkpoints and response cache it leaves make every rerun work.
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {readdirSync, readFileSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {parley, scratch} from "../support/cli.js";
import {pricedGlee} from "../support/pricedGlee.js";
import {queryRun} from "../../loaders/io/parquet.js";

const {dir: tempDir, keep} = scratch("parley-hostile-usage-");

/** stderr's lines that warn about `field`. */
const warnings = (stderr: string, field: string) => stderr.split("\n").filter((l) => l.includes(`${field} is`));

/** The turns' token columns: how many LLM turns, how many of each column are known, and their sums. */
async function tokenColumns(out: string) {
  const [row] = await queryRun<{turns: number; input: number; output: number; cached: number; input_sum: number | null; output_sum: number | null}>(
    out,
    ["turns"],
    "SELECT count(*)::INTEGER AS turns, count(input_tokens)::INTEGER AS input, count(output_tokens)::INTEGER AS output, count(cached_input_tokens)::INTEGER AS cached, sum(input_tokens)::DOUBLE AS input_sum, sum(output_tokens)::DOUBLE AS output_sum FROM turns WHERE raw IS NOT NULL",
  );
  return row!;
}

test("issue 38, case 2: negative usage (prompt_tokens -1e9) is unknown, never a negative cost: --max-cost still stops the run, and the folder stays usable", async () => {
  const run = await pricedGlee(tempDir(), keep, {games: 6, usage: () => ({prompt_tokens: -1e9, completion_tokens: 100, total_tokens: -999999900})});
  const out = join(run.dir, "out");
  const first = await parley(["run", run.config, "--out", out, "--max-cost", "5"], run.env);
  // Each call counts at its reservation ($1.10 or $1.36), never at -$1,000,000.
  assert.ok(run.server.answered.length >= 2 && run.server.answered.length <= 4, `${run.server.answered.length} calls answered under --max-cost 5`);
  assert.equal(first.code, 1, first.stderr);
  assert.match(first.stderr, /--max-cost \$5 stopped the run/);
  assert.deepEqual(warnings(first.stderr, "usage.prompt_tokens"), [
    "parley: openai endpoint (model fake-openai): usage.prompt_tokens is -1000000000, not a token count (an integer from 0 to 10,000,000): recorded as unknown (null); --max-cost counts such a call at its reservation; later ones are not reported again",
  ]);
  const spent = JSON.parse(first.stdout).cost_usd.total;
  assert.ok(spent > 0 && spent <= 5, `recorded $${spent}`);
  assert.equal(JSON.parse(readFileSync(join(out, ".parley", "spend.json"), "utf8")).usd, spent);

  // The same folder with a larger budget: not refused, the games played to the end.
  const rerun = await parley(["run", run.config, "--out", out, "--max-cost", "100", "--quiet"], run.env);
  assert.equal(rerun.code, 0, rerun.stderr);
  assert.equal(JSON.parse(rerun.stdout).games, 6);
  const t = await tokenColumns(out);
  assert.equal(t.input, 0, "no input count is known");
  assert.equal(t.output, t.turns, "the output counts were fine");
  assert.equal(t.output_sum, 100 * t.turns);
});

test("issue 38, case 3: counts as strings, 1e30, fractions and \"NaN\" are empty cells with one warning per field; the tables are written and reruns from the checkpoints and the cache work", async () => {
  const hostile = [
    {prompt_tokens: "1000", completion_tokens: 1e30, prompt_tokens_details: {cached_tokens: "5"}},
    {prompt_tokens: 1e30, completion_tokens: "100"},
    {prompt_tokens: 999.5, completion_tokens: "NaN", prompt_tokens_details: {cached_tokens: -3}},
    {prompt_tokens: "NaN", completion_tokens: 2.5},
  ];
  const run = await pricedGlee(tempDir(), keep, {games: 4, usage: (request) => hostile[request.index % hostile.length]});
  const out = join(run.dir, "out");
  const cache = join(run.dir, "cache");
  const first = await parley(["run", run.config, "--out", out, "--cache", cache, "--quiet"], run.env);
  assert.equal(first.code, 0, first.stderr);
  for (const field of ["usage.prompt_tokens", "usage.completion_tokens", "usage.prompt_tokens_details.cached_tokens"]) {
    assert.equal(warnings(first.stderr, field).length, 1, `one line for ${field}:\n${first.stderr}`);
  }
  assert.match(first.stderr, /usage\.prompt_tokens is "1000", not a token count/);
  assert.match(first.stderr, /usage\.completion_tokens is 1e\+30, not a token count/);
  assert.equal(first.stderr.split("\n").filter(Boolean).length, 3, first.stderr);
  const summary = JSON.parse(first.stdout);
  assert.equal(summary.games, 4);
  // Every call unknown: each counts at its reservation, $1.103 for a first call, $1.358 for a second (2 calls a game).
  assert.ok(Math.abs(summary.cost_usd.total - 4 * (1.103 + 1.358)) < 1e-9, `recorded $${summary.cost_usd.total}`);
  const t = await tokenColumns(out);
  assert.equal(t.turns, 8);
  assert.deepEqual([t.input, t.output, t.cached, t.input_sum, t.output_sum], [0, 0, 0, null, null]);

  // The same command again: every game from its checkpoint, one of them as an earlier Parley wrote it, with the counts as sent.
  const checkpoints = join(out, ".parley", "checkpoints");
  const name = readdirSync(checkpoints).find((n) => n.endsWith(".json"))!;
  const saved = JSON.parse(readFileSync(join(checkpoints, name), "utf8"));
  const llmTurn = saved.turns.find((t: {raw?: string}) => t.raw !== undefined);
  Object.assign(llmTurn, {input_tokens: "1000", output_tokens: 1e30, cached_input_tokens: -3});
  writeFileSync(join(checkpoints, name), JSON.stringify(saved));
  const again = await parley(["run", run.config, "--out", out, "--cache", cache, "--quiet"], run.env);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(JSON.parse(again.stdout).resumed, 4);
  assert.deepEqual(await tokenColumns(out), t);
  // A new folder on the same response cache: every answer from the cache, nothing sent.
  const calls = run.server.requests.length;
  const fromCache = await parley(["run", run.config, "--out", join(run.dir, "out2"), "--cache", cache, "--quiet"], run.env);
  assert.equal(fromCache.code, 0, fromCache.stderr);
  assert.equal(JSON.parse(fromCache.stdout).llm.cache_hits, 8);
  assert.equal(run.server.requests.length, calls);
  assert.deepEqual(await tokenColumns(join(run.dir, "out2")), t);
});
