/**
 * Charts for the GLEE family pages: a metric's distribution per agent, a
 * parameter-impact view (mean metric by parameter value, one line per agent)
 * and the Table 6 statistics. Each takes plain rows from the SQL in
 * src/lib/gleeMetrics.ts and returns a DOM node; empty input gives a short
 * note instead of an empty chart.
 */
import * as Plot from "@observablehq/plot";
import {plot} from "./figure.js";

/** Framework's `width` can be tiny before the page is laid out; below this, margins would leave no room to draw. */
const MIN_WIDTH = 360;

const note = (text: string) => {
  const p = document.createElement("p");
  p.textContent = text;
  return p;
};

export interface MetricValue {
  agent: string;
  value: number;
  /** Games with this value (default 1): grouped rows (metricValuesSQL's) are drawn as the games they stand for, without one object per game. */
  games?: number;
}

type Weighted = {value: number; games?: number};
const gamesOf = (d: Weighted) => d.games ?? 1;

/**
 * Plot.boxX's statistics of the games behind weighted values: quartiles as
 * d3.quantile (R-7: linear between order statistics at (N − 1)p), whiskers to
 * the extreme values within 1.5 IQR of the box, the values beyond as outliers.
 */
export function boxStats(rows: readonly Weighted[]): {q1: number; median: number; q3: number; lo: number; hi: number; outliers: number[]} {
  const sorted = rows.filter((d) => gamesOf(d) > 0 && Number.isFinite(d.value)).sort((a, b) => a.value - b.value);
  const ends: number[] = []; // ends[i]: games up to and including sorted[i]
  for (const d of sorted) ends.push((ends.at(-1) ?? 0) + gamesOf(d));
  const total = ends.at(-1) ?? 0;
  const at = (index: number) => {
    let lo = 0;
    let hi = sorted.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ends[mid] > index) hi = mid;
      else lo = mid + 1;
    }
    return sorted[lo].value;
  };
  const quantile = (p: number) => {
    const h = (total - 1) * p;
    const i = Math.floor(h);
    const below = at(i);
    return h === i ? below : below + (at(i + 1) - below) * (h - i);
  };
  const [q1, median, q3] = [0.25, 0.5, 0.75].map(quantile);
  const [low, high] = [q1 * 2.5 - q3 * 1.5, q3 * 2.5 - q1 * 1.5]; // Plot's fences, rounding included
  const inside = sorted.filter((d) => d.value >= low && d.value <= high).map((d) => d.value);
  // Rounding in the fences can leave no value inside (every game has one value): no whisker, as Plot draws none.
  return {q1, median, q3, lo: inside.length ? Math.min(...inside) : NaN, hi: inside.length ? Math.max(...inside) : NaN, outliers: sorted.filter((d) => d.value < low || d.value > high).map((d) => d.value)};
}

/** Box plot of a metric's per-game values for each agent (in the seat the rows were taken from), drawn as Plot.boxX draws it. */
export function MetricByAgent(rows: MetricValue[], {width = 640, label = "metric"}: {width?: number; label?: string} = {}): Element {
  const agents = [...new Set(rows.filter((r) => gamesOf(r) > 0).map((r) => r.agent))].sort();
  if (!agents.length) return note("No games to show.");
  const boxes = agents.map((agent) => ({agent, ...boxStats(rows.filter((r) => r.agent === agent))}));
  const outliers = boxes.flatMap((b) => b.outliers.map((value) => ({agent: b.agent, value})));
  return plot({
    width: Math.max(width, MIN_WIDTH),
    height: 60 + 28 * agents.length,
    marginLeft: 120,
    x: {label, grid: true},
    y: {label: null, domain: agents},
    marks: [
      Plot.ruleY(boxes, {y: "agent", x1: "lo", x2: "hi"}),
      Plot.barX(boxes, {y: "agent", x1: "q1", x2: "q3", fill: "#ccc"}),
      Plot.tickX(boxes, {y: "agent", x: "median", strokeWidth: 2}),
      Plot.dot(outliers, {y: "agent", x: "value"}),
    ],
  });
}

/** Histogram of a metric over all games: plain values, or values with their number of games. */
export function MetricHistogram(values: readonly number[] | readonly Weighted[], {width = 640, label = "metric"}: {width?: number; label?: string} = {}): Element {
  const rows = values.map((d) => (typeof d === "number" ? {value: d, games: 1} : {value: d.value, games: gamesOf(d)}));
  if (!rows.some((d) => d.games > 0)) return note("No games to show.");
  return plot({
    width: Math.max(width, MIN_WIDTH),
    height: 220,
    marginLeft: 56,
    x: {label},
    y: {label: "games", grid: true},
    marks: [Plot.rectY(rows, Plot.binX<Plot.RectYOptions>({y: "sum"}, {x: "value", y: "games", thresholds: 20})), Plot.ruleY([0])],
  });
}

export interface ImpactRow {
  value: string;
  agent: string;
  mean: number;
  n: number;
}

/**
 * Label positions that do not overlap: each label's wanted position `y`
 * moved as little as possible so that neighbours are at least `gap` apart
 * (in the same units), order kept. Returns the positions in the input's order.
 */
export function spreadLabels(ys: readonly number[], gap: number): number[] {
  const order = ys.map((y, i) => ({y, i})).sort((a, b) => a.y - b.y || a.i - b.i);
  // Clusters of labels closer than `gap` are laid out `gap` apart around their mean, merging as they grow.
  const blocks: {start: number; items: {y: number; i: number}[]}[] = [];
  for (const item of order) {
    blocks.push({start: item.y, items: [item]});
    for (;;) {
      const last = blocks[blocks.length - 1];
      const mean = last.items.reduce((t, x) => t + x.y, 0) / last.items.length;
      last.start = mean - (gap * (last.items.length - 1)) / 2;
      const prev = blocks[blocks.length - 2];
      if (!prev || prev.start + gap * prev.items.length <= last.start) break;
      prev.items.push(...last.items);
      blocks.pop();
    }
  }
  const out = new Array<number>(ys.length);
  for (const block of blocks) block.items.forEach((item, k) => (out[item.i] = block.start + gap * k));
  return out;
}

/** Mean metric by parameter value (x, in the given order), one line per agent. */
export function ParameterImpact(rows: ImpactRow[], {width = 640, parameter = "parameter", label = "metric", order = [] as string[]} = {}): Element {
  if (!rows.length) return note("No games to show.");
  const domain = order.length ? order : [...new Set(rows.map((r) => r.value))];
  const lastValue = [...domain].reverse().find((v) => rows.some((r) => r.value === v));
  const last = rows.filter((r) => r.value === lastValue);
  const means = rows.map((r) => r.mean).filter(Number.isFinite);
  const span = Math.max(...means) - Math.min(...means) || 1;
  const spread = spreadLabels(last.map((r) => r.mean), (13 / (360 - 50)) * span);
  const ends = last.map((r, i) => ({...r, label_y: spread[i]}));
  return plot({
    width: Math.max(width, MIN_WIDTH),
    height: 360,
    marginRight: 110,
    x: {type: "point", domain, label: parameter, padding: 0.3},
    y: {label: `mean ${label}`, grid: true},
    color: {legend: true},
    marks: [
      Plot.line(rows, {x: "value", y: "mean", stroke: "agent"}),
      Plot.dot(rows, {x: "value", y: "mean", fill: "agent", tip: true, title: (d: ImpactRow) => `${d.agent}\n${parameter} = ${d.value}\nmean ${label}: ${d.mean.toFixed(3)} (n = ${d.n})`}),
      // Each line's name at its end, moved apart where ends are close (13 px a label), so no two names overlap.
      Plot.text(ends, {x: "value", y: "label_y", text: "agent", dx: 6, textAnchor: "start", fill: "agent"}),
    ],
  });
}
