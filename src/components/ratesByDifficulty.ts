/** Game-theoretic LLM workflows (Hua et al. 2024) Table 9 as a chart: each outcome rate against difficulty, most difficult on the left. */
import * as Plot from "@observablehq/plot";
import {plot} from "./figure.js";
import type {DondStatsRow} from "../lib/dond.js";

const series: [keyof DondStatsRow, string][] = [
  ["agreement", "agreement"],
  ["envy_free", "envy free"],
  ["pareto_optimal", "Pareto optimal"],
  ["both", "envy free and Pareto optimal"],
];

export function RatesByDifficulty(rows: DondStatsRow[], {width = 640, height = 320} = {}): SVGSVGElement | HTMLElement {
  const long = rows.flatMap((r) => series.map(([key, label]) => ({difficulty: r.difficulty, rate: r[key], n: r.n, metric: label})));
  return plot({
    width,
    height,
    x: {label: "difficulty −‖v_A − v_B‖₁ →", reverse: true, ticks: rows.map((r) => r.difficulty), tickFormat: "d"},
    y: {label: "rate (%)", domain: [0, 100], grid: true, percent: true},
    color: {legend: true, domain: series.map(([, label]) => label)},
    marks: [
            Plot.line(long, {x: "difficulty", y: "rate", stroke: "metric", marker: "circle", sort: "difficulty"}),
      Plot.tip(long, Plot.pointer({x: "difficulty", y: "rate", stroke: "metric", title: (d) => `${d.metric}: ${(100 * d.rate).toFixed(1)}%\ndifficulty ${d.difficulty}, n = ${d.n}`})),
    ],
  });
}
