/**
 * Cost accounting and `--max-cost` against a fake OpenAI server on
 * 127.0.0.1: every reply is billed as 1,000 input tokens at $1,000 per
 * million, so each call costs exactly $1 and the budget arithmetic can be
 * checked by hand.
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {readdirSync, readFileSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {parley, scratch, startParley} from "../support/cli.js";
import {pricedGlee} from "../support/pricedGlee.js";
import {startFakeLlm, type FakeLlmServer} from "../support/fakeLlm.js";
import {gleeBot} from "../support/gleeBot.js";
import {queryRun} from "../../loaders/io/parquet.js";

const KEY = "sk-parley-" + "b0dget0000".repeat(4);
const {dir: tempDir, keep} = scratch("parley-max-cost-");

/**
 * A run of `games` bargaining games of an LLM player (a fake OpenAI server
 * whose every answer costs 1,000 input tokens) against fair, priced at $1,000
 * per million input tokens in a scratch parley.config.json.
 */
async function pricedRun(games: number): Promise<{dir: string; config: string; env: NodeJS.ProcessEnv; server: FakeLlmServer}> {
  const bot = gleeBot();
  const server = await startFakeLlm("openai", async (request) => ({...(await bot(request)), inputTokens: 1000, outputTokens: 0}));
  keep(server);
  const dir = tempDir();
  const settings = join(dir, "parley.config.json");
  writeFileSync(settings, JSON.stringify({prices: {"openai/fake-openai": {input_per_million: 1000, output_per_million: 5, as_of: "2026-11-22"}}}));
  const config = join(dir, "run.json");
  writeFileSync(config, JSON.stringify({
    family: "bargaining",
    grid: {delta_a: [0.9], delta_b: [0.8], money: [1000], horizon: [4], complete_information: [true], messages: [false]},
    players: [{id: "oa", provider: "openai", model: "fake-openai", base_url: server.baseURL, api_key_env: "PARLEY_FAKE_KEY", max_tokens: 200}, "fair"],
    pairs: [["oa", "fair"]], games_per_pair: games, seed: 5, concurrency: 1,
  }));
  const env = {PARLEY_FAKE_KEY: KEY, PARLEY_CONFIG: settings};
  return {dir, config, env, server};
}

test("--max-cost stops starting games before the budget would be passed, and a larger budget resumes with no call repeated", async () => {
  const {dir, config, env, server} = await pricedRun(6);

  // Without a budget: the cost of the whole run, and of one game (every game is the same).
  const full = await parley(["run", config, "--out", join(dir, "full"), "--quiet"], env);
  assert.equal(full.code, 0, full.stderr);
  const whole = JSON.parse(full.stdout);
  assert.equal(whole.cost_usd.total, whole.llm.completions, "one dollar per call");
  const perGame = whole.cost_usd.total / 6;
  assert.ok(Number.isInteger(perGame) && perGame > 0);

  // Budget 2.5 games: game 1 starts (nothing spent), game 2 (spent 1 game + 1 projected = 2 ≤ 2.5), game 3 would make 3: stop.
  const out = join(dir, "budget");
  const stopped = await parley(["run", config, "--out", out, "--max-cost", String(2.5 * perGame)], env);
  assert.equal(stopped.code, 1);
  assert.match(stopped.stderr, /--max-cost \$[\d.]+ stopped the run: \$2\.00 is spent and the next game's projected cost, \$1\.00, would pass it; \$[\d.]+ spent in all; 2 of 6 games finished/);
  assert.match(stopped.stderr, / · cost \$\d+\.\d\d/, "cost on the progress line");
  const partial = JSON.parse(stopped.stdout);
  assert.equal(partial.games, 2);
  assert.equal(partial.stopped, "max-cost");
  assert.equal(partial.cost_usd.total, 2 * perGame);
  const [{n}] = await queryRun<{n: number}>(out, ["games"], "SELECT count(*)::INTEGER AS n FROM games");
  assert.equal(n, 2, "the finished games are kept");

  // A larger budget resumes: four more games, the spend counted across both processes, nothing asked twice.
  const before = server.answered.length;
  const resumed = await parley(["run", config, "--out", out, "--max-cost", String(100 * perGame), "--quiet"], env);
  assert.equal(resumed.code, 0, resumed.stderr);
  const done = JSON.parse(resumed.stdout);
  assert.equal(done.games, 6);
  assert.equal(done.resumed, 2);
  assert.equal(done.cost_usd.total, 6 * perGame);
  assert.equal(server.answered.length - before, 4 * perGame, "only the four new games' calls were sent");
});

test("--max-cost needs a price for every LLM player and an amount", async () => {
  const dir = tempDir();
  const settings = join(dir, "parley.config.json");
  writeFileSync(settings, JSON.stringify({prices: {"openai/other": {input_per_million: 1, output_per_million: 1}}}));
  const config = join(dir, "run.json");
  writeFileSync(config, JSON.stringify({family: "bargaining", players: [{id: "oa", provider: "openai", model: "fake-openai", base_url: "http://127.0.0.1:9", api_key_env: "PARLEY_FAKE_KEY"}, "fair"], pairs: [["oa", "fair"]]}));
  const env = {PARLEY_FAKE_KEY: KEY, PARLEY_CONFIG: settings};
  const unpriced = await parley(["run", config, "--out", join(dir, "o"), "--max-cost", "5"], env);
  assert.equal(unpriced.code, 2);
  assert.match(unpriced.stderr.trim(), /^parley run: --max-cost needs a price for openai\/fake-openai: add it to "prices" in parley.config.json/);
  const bad = await parley(["run", config, "--out", join(dir, "o"), "--max-cost", "five"], env);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr.trim(), /^parley run: --max-cost: expected an amount in US dollars above 0/);
  writeFileSync(settings, JSON.stringify({prices: {"openai/fake-openai": {input_per_million: -1, output_per_million: 1}}}));
  const negative = await parley(["run", config, "--out", join(dir, "o"), "--max-cost", "5"], env);
  assert.equal(negative.code, 2);
  assert.match(negative.stderr.trim(), /prices\["openai\/fake-openai"\]\.input_per_million: expected a number ≥ 0/);
});

test("a spend record that cannot be read stops a resumed run with one line, rather than counting the budget from zero", async () => {
  const {dir, config, env, server} = await pricedRun(3);
  const out = join(dir, "out");
  const first = await parley(["run", config, "--out", out, "--max-cost", "1.5", "--quiet"], env);
  assert.equal(first.code, 1, first.stderr);
  const spendFile = join(out, ".parley", "spend.json");
  assert.ok(JSON.parse(readFileSync(spendFile, "utf8")).usd > 0);
  // A crash on a filesystem that reordered the write: the file is there, empty.
  writeFileSync(spendFile, "");
  const calls = server.answered.length;
  const resumed = await parley(["run", config, "--out", out, "--max-cost", "100", "--quiet"], env);
  assert.equal(resumed.code, 2, resumed.stderr);
  assert.match(resumed.stderr.trim(), /^parley run: .*spend\.json: not a readable spend record \(.*\); the run's earlier spend is unknown, so --max-cost cannot be kept: write \{"usd": <dollars spent>\} into it, or delete it to count from zero$/);
  assert.equal(server.answered.length, calls, "no call was made");
});

/** The summary line --max-cost ends a run with. */
const BUDGET_LINE = /^parley run: --max-cost \$[\d.]+ stopped the run: [^\n]+; [\d.$]+ spent in all; \d+ of \d+ games finished and written to [^\n]+; run again with a larger --max-cost to resume$/m;

test("issue 38, case 1: --max-cost 5 at concurrency 8 never lets the endpoint bill more than $5", async () => {
  const run = await pricedGlee(tempDir(), keep, {games: 20, delayMs: 20});
  const out = join(run.dir, "out");
  const r = await parley(["run", run.config, "--out", out, "--max-cost", "5", "--concurrency", "8"], run.env);
  assert.ok(run.billedCents() <= 500, `the endpoint billed $${run.billedCents() / 100} under --max-cost 5`);
  assert.ok(run.server.answered.length > 0, "some calls were affordable");
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, BUDGET_LINE);
  const summary = JSON.parse(r.stdout);
  assert.equal(summary.stopped, "max-cost");
  // What the run records covers what the endpoint billed (unsettled or unknown calls at their reservation) and stays within the budget.
  assert.ok(summary.cost_usd.total * 100 >= run.billedCents() - 1e-6 && summary.cost_usd.total <= 5, `recorded $${summary.cost_usd.total}`);
  const [{n}] = await queryRun<{n: number}>(out, ["games"], "SELECT count(*)::INTEGER AS n FROM games");
  assert.equal(n, summary.games, "the finished games are written");
});

test("issue 38, case 1: --max-cost 1 with 6 games planned sends no call it cannot afford and exits 1 with one line saying so", async () => {
  const run = await pricedGlee(tempDir(), keep, {games: 6});
  const r = await parley(["run", run.config, "--out", join(run.dir, "out"), "--max-cost", "1", "--quiet"], run.env);
  assert.equal(run.server.requests.length, 0, `the endpoint billed $${run.billedCents() / 100} under --max-cost 1`);
  assert.equal(r.code, 1, r.stderr);
  // The first call may cost up to its 1,003-token bound and 100 output tokens, $1.103: more than the budget.
  assert.equal(r.stderr, r.stderr.match(BUDGET_LINE)![0] + "\n");
  assert.match(r.stderr, /stopped the run: a call that may cost up to \$1\.10 was not sent with \$0\.00 spent or reserved; \$0\.0000 spent in all; 0 of 6 games finished/);
});

test("issue 38, case 4: kill -9 in mid-run, then the same --max-cost 30: both processes together get at most $30 billed, and the finished games stay", async () => {
  const run = await pricedGlee(tempDir(), keep, {games: 40, delayMs: 40});
  const out = join(run.dir, "out");
  const first = startParley(["run", run.config, "--out", out, "--max-cost", "30", "--quiet"], run.env);
  // Kill it with calls in flight, once it has been billed about $11.
  while (run.server.answered.length < 10) {
    if (first.child.exitCode !== null) assert.fail(`the first run ended before it was killed: ${(await first.done).stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  first.child.kill("SIGKILL");
  const killed = await first.done;
  assert.equal(killed.signal, "SIGKILL");
  const billedByFirst = run.billedCents();
  const finishedByFirst = readdirSync(join(out, ".parley", "checkpoints")).filter((n) => n.endsWith(".json")).length;

  const second = await parley(["run", run.config, "--out", out, "--max-cost", "30", "--quiet"], run.env);
  assert.ok(run.billedCents() <= 3000, `the endpoint billed $${run.billedCents() / 100} across both processes ($${billedByFirst / 100} before the kill) under --max-cost 30`);
  assert.equal(second.code, 1, second.stderr);
  assert.match(second.stderr, BUDGET_LINE);
  const summary = JSON.parse(second.stdout);
  assert.equal(summary.resumed, finishedByFirst, "the games the killed process finished are kept");
  assert.ok(summary.cost_usd.total * 100 >= run.billedCents() - 1e-6 && summary.cost_usd.total <= 30, `recorded $${summary.cost_usd.total}`);
  const [{n}] = await queryRun<{n: number}>(out, ["games"], "SELECT count(*)::INTEGER AS n FROM games");
  assert.equal(n, summary.games);
  assert.ok(n >= finishedByFirst);
});
