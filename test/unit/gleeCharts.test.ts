// The GLEE family pages draw a metric's box plot from one row per distinct
// value and its number of games (metricValuesSQL), not one row per game:
// boxStats must give what Plot.boxX computes on the expanded games
// (d3.quantile's quartiles, whiskers to the extreme values within 1.5 IQR,
// the values beyond as outliers).
import {test} from "node:test";
import assert from "node:assert/strict";
import {quantile} from "d3";
import {boxStats} from "../../src/components/gleeCharts.js";
import {expandValues} from "../../src/lib/pages/gleeFamily.js";
import {mulberry32} from "../../src/lib/olsOneHot.js";

/** Plot.boxX's statistics of plain values, as its source computes them. */
function plotBox(values: number[]) {
  const [q1, median, q3] = [0.25, 0.5, 0.75].map((p) => quantile(values, p)!);
  const [low, high] = [q1 * 2.5 - q3 * 1.5, q3 * 2.5 - q1 * 1.5];
  const inside = values.filter((v) => v >= low && v <= high);
  return {q1, median, q3, lo: inside.length ? Math.min(...inside) : NaN, hi: inside.length ? Math.max(...inside) : NaN, outliers: [...new Set(values.filter((v) => v < low || v > high))].sort((a, b) => a - b)};
}

test("boxStats of grouped values equals Plot.boxX's statistics of the games they stand for", () => {
  const random = mulberry32(7);
  for (let trial = 0; trial < 200; trial++) {
    const distinct = 1 + Math.floor(random() * 12);
    // Values from a skewed distribution (so that some fall beyond the whiskers), each with 0–9 games.
    const rows = Array.from({length: distinct}, (_, i) => ({agent: "a", value: Math.round(1000 * (random() ** 4) * (random() < 0.1 ? 20 : 1)) / 1000 + i * 1e-6, games: Math.floor(random() * 10)}));
    if (!rows.some((r) => r.games > 0)) continue;
    const games = expandValues(rows).map((d) => d.value);
    const got = boxStats(rows);
    const want = plotBox(games);
    for (const key of ["q1", "median", "q3", "lo", "hi"] as const) assert.ok(Object.is(got[key], want[key]) || Math.abs(got[key] - want[key]) <= 1e-12, `trial ${trial} ${key}: ${got[key]} vs ${want[key]}`);
    assert.deepEqual(got.outliers, want.outliers, `trial ${trial} outliers`);
  }
});

test("boxStats by hand: values 0 (3 games), 1 (1 game), 10 (1 game)", () => {
  // Games 0, 0, 0, 1, 10: Q1 = 0, median = 0, Q3 = 1 (positions 1, 2, 3 of 0…4); fences −1.5 and 2.5, so 10 is an outlier.
  assert.deepEqual(boxStats([{value: 1, games: 1}, {value: 0, games: 3}, {value: 10, games: 1}]), {q1: 0, median: 0, q3: 1, lo: 0, hi: 1, outliers: [10]});
  // Games 0 and 1: Q1 = 0.25, median = 0.5, Q3 = 0.75 (linear between the two).
  assert.deepEqual(boxStats([{value: 0}, {value: 1}]), {q1: 0.25, median: 0.5, q3: 0.75, lo: 0, hi: 1, outliers: []});
});
