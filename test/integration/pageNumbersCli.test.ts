// Numbers the pages computed themselves, from the command line: Table 10's Best and Human rows of Game-theoretic
// LLM workflows (Hua et al. 2024) from the 50 hard points, and NegotiationArena's (Bianchi et al. 2024) §5.1 probes
// on the authors' buy/sell logs, each against a computation written out in the test.
import {test} from "node:test";
import assert from "node:assert/strict";
import {existsSync} from "node:fs";
import {join} from "node:path";
import {datasetsConfig} from "../../loaders/projectConfig.js";
import {parley, scratch} from "../support/cli.js";

const tmp = scratch("parley-page-numbers-");
const printed = async (args: string[]) => {
  const run = await parley(args);
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout);
};

test("Table 10's Best and Human rows: parley ingest dond-hard50, then the dond-best and dond-human-row measures", async () => {
  const dir = join(tmp.dir(), "hard50");
  const ingest = await parley(["ingest", "dond-hard50", "data/dond/hard50.json", "--out", dir]);
  assert.equal(ingest.code, 0, ingest.stderr);
  const best = await printed(["stats", "gtllm", dir, "--measure", "dond-best"]);
  // Printed: 5.82, 6.66, 12.48 over the 44 points with an envy-free allocation.
  assert.deepEqual([best.n, best.score_a.toFixed(2), best.score_b.toFixed(2), best.total.toFixed(2)], [44, "5.82", "6.66", "12.48"]);
  const human = await printed(["stats", "gtllm", dir, "--measure", "dond-human-row"]);
  // 25 agreements, 19 envy free, 20 Pareto optimal of 44 (test/unit/dondHumanRow.test.ts recomputes them in TypeScript).
  assert.deepEqual([human.parley.n, human.parley.agreement * 44, human.parley.envy_free * 44, human.parley.pareto_optimal * 44].map((x: number) => Math.round(x * 1e9) / 1e9), [44, 25, 19, 20]);
  assert.deepEqual([human.printed.pareto_optimal, human.printed.envy_free], [0.4317, 0.4545]);
  assert.match(human.differences.at(-1).recomputed, /likely swapped/);
  // Without the points' outcomes: one line saying what is missing.
  const empty = join(tmp.dir(), "dond");
  assert.equal((await parley(["ingest", "dond", "test/fixtures/dond/hand.txt", "--out", empty])).code, 0);
  const none = await parley(["stats", "gtllm", empty, "--measure", "dond-human-row"]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /no human outcomes of the hard points/);
});

const shared = datasetsConfig().dir;
const logs = shared && join(shared, "negotiationarena");

test("NegotiationArena §5.1 on the authors' buy/sell logs: split the difference and bad counter-offers as the page computes them", {skip: !(logs && existsSync(logs)) && "no negotiationarena/ in the datasets directory"}, async () => {
  const dir = join(tmp.dir(), "na");
  assert.equal((await parley(["ingest", "negotiationarena", logs!, "--out", dir])).code, 0);
  const sequences = (await parley(["stats", "negotiationarena", dir, "--measure", "price-sequences"])).stdout.trim().split("\n").map((l) => JSON.parse(l)) as {p1: number | null; p2: number | null; p2_agent: string; prices: number[]}[];
  // Pearson r of each proposal against the midpoint of the two before it, written out.
  const points = sequences.flatMap((s) => s.prices.slice(2).map((next, k) => [(s.prices[k] + s.prices[k + 1]) / 2, next]));
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const [mx, my] = [mean(points.map((p) => p[0])), mean(points.map((p) => p[1]))];
  const cov = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const r = cov / Math.sqrt(points.reduce((s, [x]) => s + (x - mx) ** 2, 0) * points.reduce((s, [, y]) => s + (y - my) ** 2, 0));
  const split = await printed(["stats", "negotiationarena", dir, "--measure", "split-the-difference"]);
  assert.equal(split.n, points.length);
  assert.ok(Math.abs(split.r - r) < 1e-12, `${split.r} vs ${r}`);
  const bad = await printed(["stats", "negotiationarena", dir, "--measure", "bad-counter-offers"]);
  for (const row of bad) {
    const own = sequences.filter((s) => s.p2_agent === row.buyer && s.p1 !== null && s.p2 !== null);
    assert.deepEqual([row.n, row.bad], [own.length, own.filter((s) => s.p2! > s.p1!).length], row.buyer);
  }
  const anchoring = await printed(["stats", "negotiationarena", dir, "--measure", "anchoring"]);
  assert.equal(anchoring.n, sequences.filter((s) => s.p1 !== null && (s as {final_price?: number | null}).final_price !== null).length);
});
