// Table 9 of Game-theoretic LLM workflows (Hua et al. 2024, §5.4) as printed: every rate is a whole
// number of dialogues out of its column's n, printed to four decimals, some rounded and some cut.
import {test} from "node:test";
import assert from "node:assert/strict";
import {PAPER_TABLE9, printedAs, table9Cells} from "../../src/lib/dondPaper.js";

test("printedAs tells rounding from truncation", () => {
  assert.equal(printedAs(7 / 13, 0.5385), "rounded"); // 0.538461…
  assert.equal(printedAs(7 / 13, 0.5384), "truncated");
  assert.equal(printedAs(12 / 27, 0.4444), "rounded"); // 0.4444…: both ways the same, called rounded
  assert.equal(printedAs(0.5, 0.5), "rounded");
  assert.equal(printedAs(7 / 13, 0.5383), "differs");
});

test("every printed rate of Table 9 is k/n, and the Pareto-optimal row is truncated where rounding differs", () => {
  const cells = table9Cells();
  assert.equal(cells.length, 40);
  assert.deepEqual(cells.filter((c) => c.how === "differs"), [], "a rate that is no whole number of dialogues");
  // By hand: 7/13 = 0.53846 (printed 0.5384), 25/57 = 0.43860 (0.4385), 41/85 = 0.48235 (0.4823; the same 41/85
  // is printed 0.4824 as the envy-free rate), 57/108 = 0.52778 (0.5277), 72/133 = 0.54135 (0.5413),
  // 94/177 = 0.53107 (0.5310), 102/189 = 0.53968 (0.5396), 116/210 = 0.55238 (0.5523), 120/217 = 0.55300 (0.5529);
  // 86/177 = 0.48588 (both, 0.4858), 94/189 = 0.49735 (both, 0.4973) and 108/210 = 0.51429 (both, 0.5142).
  const truncated = cells.filter((c) => c.how === "truncated").map((c) => `${c.rate} ${c.difficulty}: ${c.k}/${c.n}`);
  assert.deepEqual(truncated, [
    "pareto_optimal -2: 7/13",
    "pareto_optimal -4: 25/57",
    "pareto_optimal -5: 41/85",
    "pareto_optimal -6: 57/108",
    "pareto_optimal -7: 72/133",
    "pareto_optimal -8: 94/177",
    "both -8: 86/177",
    "pareto_optimal -9: 102/189",
    "both -9: 94/189",
    "pareto_optimal -10: 116/210",
    "both -10: 108/210",
    "pareto_optimal -11: 120/217",
  ]);
  // The counts at d = -11, from the authors' own selection run on the test split (select_deal_no_deal.py --distance 11):
  // agreement 160, envy free 148, Pareto optimal 120, both 112 of 217.
  const last = cells.filter((c) => c.difficulty === -11).map((c) => c.k);
  assert.deepEqual(last, [160, 148, 120, 112]);
  assert.equal(PAPER_TABLE9.at(-1)!.n, 217);
});
