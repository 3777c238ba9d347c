// Table 10's Human row (Hua et al. 2024, §5.5.1) recomputed from the human outcomes recorded with the
// authors' 50 points, in plain TypeScript (Def. 7 envy free, Def. 8 Pareto optimal), against the printed row.
import {test} from "node:test";
import assert from "node:assert/strict";
import {hardPoints} from "../../loaders/papers/gtllm/dond/hardPoints.js";
import {envyFree, hasEnvyFree, paretoOptimal, rest, value} from "../../src/lib/dondAllocation.js";
import {humanRowChecks} from "../../src/lib/dondPaper.js";

function humanRow() {
  const points = hardPoints().filter((p) => hasEnvyFree(p.counts, p.values_a, p.values_b));
  const rows = points.map((p) => {
    const xa = p.human_alloc_a;
    if (!xa) return {agreement: 0, score_a: 0, score_b: 0, envy_free: 0, pareto_optimal: 0};
    const a = value(p.values_a, xa);
    const b = value(p.values_b, rest(p.counts, xa));
    return {agreement: 1, score_a: a, score_b: b, envy_free: Number(envyFree(p.counts, p.values_a, p.values_b, xa)), pareto_optimal: Number(paretoOptimal(p.counts, p.values_a, p.values_b, a, b))};
  });
  const sum = (k: keyof (typeof rows)[number]) => rows.reduce((s, r) => s + r[k], 0);
  return {n: rows.length, sums: {agreement: sum("agreement"), envy_free: sum("envy_free"), pareto_optimal: sum("pareto_optimal"), score_a: sum("score_a"), score_b: sum("score_b")}};
}

test("the Human row over the 44 points: 25 agreements, 19 envy free, 20 Pareto optimal", () => {
  const {n, sums} = humanRow();
  assert.equal(n, 44);
  assert.deepEqual({agreement: sums.agreement, envy_free: sums.envy_free, pareto_optimal: sums.pareto_optimal}, {agreement: 25, envy_free: 19, pareto_optimal: 20});
  assert.equal((sums.score_a / n).toFixed(2), "3.41");
  assert.equal((sums.score_b / n).toFixed(2), "3.48");
});

test("against the printed row: agreement and scores differ, PO and EF look swapped", () => {
  const {n, sums} = humanRow();
  const recomputed = {n, rounds: null, agreement: sums.agreement / n, score_a: sums.score_a / n, score_b: sums.score_b / n, envy_free: sums.envy_free / n, pareto_optimal: sums.pareto_optimal / n, total: (sums.score_a + sums.score_b) / n};
  const checks = humanRowChecks(recomputed);
  const where = checks.map((c) => c.where);
  assert.deepEqual(where, [
    "Table 10, Human row, agreement", // printed .6817 = 29.99 of 44; recomputed 25/44 = .5682
    "Table 10, Human row, pareto optimal", // printed .4317 (19/44 = .43182 cut); recomputed 20/44
    "Table 10, Human row, envy free", // printed .4545 = 20/44; recomputed 19/44
    "Table 10, Human row, Alice",
    "Table 10, Human row, Bob",
    "Table 10, Human row, total",
    "Table 10, Human row, PO and EF",
  ]);
  assert.match(checks.at(-1)!.recomputed, /EF 0\.4318 \(19\.00 of 44\) and PO 0\.4545 \(20\.00 of 44\): the two printed columns are likely swapped/);
  // Printed as recomputed, nothing is reported.
  assert.deepEqual(humanRowChecks(recomputed, {table: "10", condition: "Human", model: "human", ...recomputed}), []);
});
