/**
 * A coefficient plot: each level's effect with its confidence interval, one
 * small panel per feature (sharing the x scale), relative to the feature's
 * baseline, which is drawn hollow at 0.
 */
import * as Plot from "@observablehq/plot";
import {plot} from "./figure.js";
import type {CoefRow} from "../lib/olsOneHot.js";

export interface CoefPlotOptions {
  width?: number;
  /** Show coefficients × 100 (percentage points); default true. */
  percent?: boolean;
  /** Leave out the intercept; default true. */
  hideIntercept?: boolean;
  /** What the outcome is, for the axis. */
  label?: string;
}

export function CoefPlot(rows: CoefRow[], {width = 640, percent = true, hideIntercept = true, label = "effect"}: CoefPlotOptions = {}): HTMLElement {
  const k = percent ? 100 : 1;
  const data = rows
    .filter((r) => !(hideIntercept && r.feature === "(intercept)"))
    .map((r) => ({...r, coef: k * r.coef, ci_low: k * r.ci_low, ci_high: k * r.ci_high, isBaseline: r.level === r.baseline}));
  const root = document.createElement("div");
  if (!data.length) {
    root.textContent = "No coefficients to show (no games match the filters).";
    return root;
  }
  const finite = data.flatMap((d) => [d.ci_low, d.ci_high, d.coef]).filter(Number.isFinite);
  const domain: [number, number] = [Math.min(0, ...finite), Math.max(0, ...finite)];
  const marginLeft = Math.min(280, 24 + 6.5 * Math.max(...data.map((d) => d.level.length)));
  for (const feature of new Set(data.map((d) => d.feature))) {
    const own = data.filter((d) => d.feature === feature);
    const title = document.createElement("div");
    title.textContent = feature;
    title.style.fontWeight = "600";
    title.style.marginTop = "0.5rem";
    root.append(
      title,
      plot({
        width,
        height: 30 + 20 * own.length,
        marginLeft,
        x: {label: `${label}${percent ? " (pp)" : ""} relative to baseline →`, grid: true, domain, nice: true},
        y: {label: null, domain: own.map((d) => d.level)},
        marks: [
          Plot.ruleX([0], {stroke: "currentColor", strokeOpacity: 0.4}),
          Plot.ruleY(own, {y: "level", x1: "ci_low", x2: "ci_high", stroke: "steelblue", strokeWidth: 2}),
          Plot.dot(own, {y: "level", x: "coef", fill: (d) => (d.isBaseline ? "white" : "steelblue"), stroke: "steelblue", r: 3.5}),
          Plot.tip(own, Plot.pointerY({
            y: "level", x: "coef",
            title: (d) => d.isBaseline
              ? `${d.feature} = ${d.level} (baseline)\nn = ${d.n}`
              : `${d.feature} = ${d.level}\n${d.coef.toFixed(2)} [${d.ci_low.toFixed(2)}, ${d.ci_high.toFixed(2)}] vs ${d.baseline}\nn = ${d.n}`,
          })),
        ],
      }),
    );
  }
  return root;
}
