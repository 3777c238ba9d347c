/**
 * Charts for the GLEE family pages: a metric's distribution per agent, a
 * parameter-impact view (mean metric by parameter value, one line per agent)
 * and the Table 6 statistics. Each takes plain rows from the SQL in
 * src/lib/gleeMetrics.ts and returns a DOM node; empty input gives a short
 * note instead of an empty chart.
 */
import * as Plot from "@observablehq/plot";

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
}

/** Box plot of a metric's per-game values for each agent (in the seat the rows were taken from). */
export function MetricByAgent(rows: MetricValue[], {width = 640, label = "metric"}: {width?: number; label?: string} = {}): Element {
  if (!rows.length) return note("No games to show.");
  const agents = [...new Set(rows.map((r) => r.agent))].sort();
  return Plot.plot({
    width: Math.max(width, MIN_WIDTH),
    height: 60 + 28 * agents.length,
    marginLeft: 120,
    x: {label, grid: true},
    y: {label: null, domain: agents},
    marks: [Plot.boxX(rows, {x: "value", y: "agent"})],
  });
}

/** Histogram of a metric over all games. */
export function MetricHistogram(values: number[], {width = 640, label = "metric"}: {width?: number; label?: string} = {}): Element {
  if (!values.length) return note("No games to show.");
  return Plot.plot({
    width: Math.max(width, MIN_WIDTH),
    height: 220,
    marginLeft: 56,
    x: {label},
    y: {label: "games", grid: true},
    marks: [Plot.rectY(values, Plot.binX({y: "count"}, {x: (d: number) => d, thresholds: 20})), Plot.ruleY([0])],
  });
}

export interface ImpactRow {
  value: string;
  agent: string;
  mean: number;
  n: number;
}

/** Mean metric by parameter value (x, in the given order), one line per agent. */
export function ParameterImpact(rows: ImpactRow[], {width = 640, parameter = "parameter", label = "metric", order = [] as string[]} = {}): Element {
  if (!rows.length) return note("No games to show.");
  const domain = order.length ? order : [...new Set(rows.map((r) => r.value))];
  return Plot.plot({
    width: Math.max(width, MIN_WIDTH),
    height: 360,
    marginRight: 110,
    x: {type: "point", domain, label: parameter, padding: 0.3},
    y: {label: `mean ${label}`, grid: true},
    color: {legend: true},
    marks: [
      Plot.line(rows, {x: "value", y: "mean", stroke: "agent"}),
      Plot.dot(rows, {x: "value", y: "mean", fill: "agent", tip: true, title: (d: ImpactRow) => `${d.agent}\n${parameter} = ${d.value}\nmean ${label}: ${d.mean.toFixed(3)} (n = ${d.n})`}),
      Plot.text(rows, Plot.selectLast({x: "value", y: "mean", z: "agent", text: "agent", dx: 6, textAnchor: "start", fill: "agent"})),
    ],
  });
}
