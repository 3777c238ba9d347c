/**
 * Model-pair heatmap (GLEE (Shapira et al. 2024) Figures 1, 21–23): rows Alice's agent,
 * columns Bob's agent, colour the pair's effect relative to the mean outcome
 * on a diverging scale centred at 0; the tooltip gives n and the CI.
 */
import * as Plot from "@observablehq/plot";
import {plot} from "./figure.js";
import type {PairEffect} from "../lib/gleeDesign.js";

export function PairHeatmap(effects: PairEffect[], {width = 640, label = "effect"}: {width?: number; label?: string} = {}): HTMLElement | SVGSVGElement {
  if (!effects.length) {
    const p = document.createElement("p");
    p.textContent = "No model pairs to show (no games match the filters).";
    return p;
  }
  const alice = [...new Set(effects.map((e) => e.alice))].sort();
  const bob = [...new Set(effects.map((e) => e.bob))].sort();
  const extent = Math.max(1e-9, ...effects.map((e) => Math.abs(e.effect)));
  const cell = Math.max(18, Math.min(44, (width - 220) / Math.max(1, bob.length)));
  return plot({
    width: Math.min(width, 220 + cell * bob.length + 40),
    height: 120 + cell * alice.length,
    marginLeft: 200,
    marginBottom: 110,
    padding: 0.04,
    x: {label: "Bob's agent", domain: bob, tickRotate: -40},
    y: {label: "Alice's agent", domain: alice},
    color: {type: "diverging", scheme: "RdBu", domain: [-extent, extent], pivot: 0, legend: true, label},
    marks: [
      Plot.cell(effects, {x: "bob", y: "alice", fill: "effect", inset: 0.5}),
      Plot.text(effects, {x: "bob", y: "alice", text: (d) => d.effect.toFixed(2), fontSize: Math.min(11, cell / 3.5), fill: (d) => (Math.abs(d.effect) > 0.6 * extent ? "white" : "black")}),
      Plot.tip(effects, Plot.pointer({
        x: "bob", y: "alice",
        title: (d) => `Alice: ${d.alice}\nBob: ${d.bob}\n${label}: ${d.effect.toFixed(3)} [${d.ci_low.toFixed(3)}, ${d.ci_high.toFixed(3)}]\nn = ${d.n} games`,
      })),
    ],
  });
}
