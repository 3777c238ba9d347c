/**
 * Regression speed (issue 5): one GLEE fit on 100,000 synthetic bargaining
 * games with 40 design columns (intercept; δ_A, δ_B: 3 each; M: 2; market: 7;
 * Alice and Bob agents: 12 each). Target: under 500 ms per fit.
 * - Node: the fit alone, with the 20-split held-out RMSE, the pair variant,
 *   and (for scale) ml-regression-multivariate-linear on the same dense design.
 * - Headless Chromium: the same fit with the site's own bundled modules
 *   (dist/_import/lib/*.js), and the time until each GLEE analysis page has
 *   drawn everything (target < 5 s). Builds the site into a scratch directory
 *   unless PARLEY_BENCH_DIST names a built one; skipped without Chromium.
 */
import {existsSync, readdirSync} from "node:fs";
import {join} from "node:path";
import {performance} from "node:perf_hooks";
import MultivariateLinearRegression from "ml-regression-multivariate-linear";
import {fitGlee, type GleeRow} from "../src/lib/gleeDesign.js";
import {mulberry32} from "../src/lib/olsOneHot.js";
import {serveStatic} from "../loaders/site/serve.js";
import {datasetsConfig} from "../loaders/projectConfig.js";
import {buildInto, launch, visit} from "../test/browser/harness.js";

export function syntheticBargaining(n: number, seed = 1): GleeRow[] {
  const random = mulberry32(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
  const agents = Array.from({length: 13}, (_, i) => `agent-${String(i + 1).padStart(2, "0")}`);
  const deltas = [0.8, 0.9, 0.95, 1];
  const rows: GleeRow[] = [];
  for (let i = 0; i < n; i++) {
    const a = pick(agents);
    const b = pick(agents);
    const delta_a = pick(deltas);
    const horizon = pick([12, null]);
    const messages = random() < 0.5;
    const y = 0.5 + 0.01 * agents.indexOf(a) - 0.005 * agents.indexOf(b) + (messages ? 0.03 : 0) - (delta_a < 0.9 ? 0.02 : 0) + 0.13 * (random() - 0.5);
    rows.push({
      family: "bargaining", alice_agent: a, bob_agent: b, delta_a, delta_b: pick(deltas), money: pick([100, 10000, 1000000]),
      horizon, complete_information: random() < 0.5, messages, efficiency: y, alice_self_gain: y, bob_self_gain: 1 - y, fairness: y,
    });
  }
  return rows;
}

function time<T>(fn: () => T, runs = 5): {ms: number; result: T} {
  let result = fn(); // warm-up
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    result = fn();
    times.push(performance.now() - t0);
  }
  times.sort((x, y) => x - y);
  return {ms: times[Math.floor(times.length / 2)], result};
}

/** The same synthetic games and fit inside a page, with the site's bundled modules. Returns the median ms. */
async function browserBench(): Promise<void> {
  const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!existsSync(chromium)) {
    console.log(`headless Chromium: skipped (${chromium} not found)`);
    return;
  }
  const started = performance.now();
  const dist = process.env.PARLEY_BENCH_DIST ?? (await buildInto(datasetsConfig().dir ?? "/nonexistent"));
  if (!process.env.PARLEY_BENCH_DIST) console.log(`site build for the browser bench: ${((performance.now() - started) / 1000).toFixed(1)} s (set PARLEY_BENCH_DIST to reuse a build)`);
  const lib = join(dist, "_import/lib");
  if (!existsSync(lib)) {
    console.log(`headless Chromium: skipped (${dist} is not a built site: the build failed?)`);
    return;
  }
  const module = (name: string) => `/_import/lib/${readdirSync(lib).find((f) => f.startsWith(`${name}.`) && f.endsWith(".js"))}`;
  const server = await serveStatic(dist);
  const browser = await launch();
  try {
    const {page} = await visit(browser, server, "/");
    // A string, not a function: tsx would add helpers that do not exist in the page.
    const ms = (await page.evaluate(`(async () => {
      const {fitGlee} = await import(${JSON.stringify(module("gleeDesign"))});
      const {mulberry32} = await import(${JSON.stringify(module("olsOneHot"))});
      const random = mulberry32(1);
      const pick = (xs) => xs[Math.floor(random() * xs.length)];
      const agents = Array.from({length: 13}, (_, i) => "agent-" + String(i + 1).padStart(2, "0"));
      const deltas = [0.8, 0.9, 0.95, 1];
      const rows = [];
      for (let i = 0; i < 100000; i++) {
        const y = random();
        rows.push({family: "bargaining", alice_agent: pick(agents), bob_agent: pick(agents), delta_a: pick(deltas), delta_b: pick(deltas),
          money: pick([100, 10000, 1000000]), horizon: pick([12, null]), complete_information: random() < 0.5, messages: random() < 0.5, alice_self_gain: y});
      }
      const times = [];
      let columns = 0;
      for (let r = 0; r < 6; r++) {
        const t0 = performance.now();
        const fit = fitGlee(rows, {family: "bargaining", metric: "alice_self_gain", holdout: false});
        times.push(performance.now() - t0);
        columns = fit.columns.length;
      }
      times.shift();
      times.sort((a, b) => a - b);
      return [times[2], columns];
    })()`)) as [number, number];
    console.log(`fit (coefficients, SEs, 95% CIs), headless Chromium: ${ms[0].toFixed(0)} ms median of 5, ${ms[1]} columns (target < 500 ms)`);
    await page.context().close();
    for (const path of ["/glee-regression", "/glee-pairs"]) {
      const t0 = performance.now();
      const visited = await visit(browser, server, path);
      // visit() returns once DuckDB is idle and the DOM has not changed for 1 s.
      const ready = performance.now() - t0 - 1000;
      const errors = await visited.page.locator(".observablehq--error").count();
      await visited.page.context().close();
      console.log(`page ${path} ready (everything drawn): ${(ready / 1000).toFixed(2)} s (target < 5 s)${visited.problems.length || errors ? `; problems: ${[...visited.problems, `${errors} cell errors`].join("; ")}` : ""}`);
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

export default async function (): Promise<void> {
  const n = 100_000;
  const rows = syntheticBargaining(n);
  const plain = time(() => fitGlee(rows, {family: "bargaining", metric: "alice_self_gain", holdout: false}));
  const columns = plain.result.columns.length;
  console.log(`games: ${n.toLocaleString("en-US")}, design columns: ${columns} (incl. intercept), estimated: ${plain.result.p}`);
  console.log(`fit (coefficients, SEs, 95% CIs), Node: ${plain.ms.toFixed(0)} ms median of 5 (target < 500 ms)`);
  const full = time(() => fitGlee(rows, {family: "bargaining", metric: "alice_self_gain"}), 3);
  console.log(`fit + held-out RMSE over 20 splits of 80/20, Node: ${full.ms.toFixed(0)} ms median of 3 (rmse ${full.result.rmse!.mean.toFixed(4)} ± ${full.result.rmse!.sd.toFixed(4)})`);
  const pairs = time(() => fitGlee(rows, {family: "bargaining", metric: "alice_self_gain", pairs: true, holdout: false}), 3);
  console.log(`pair-variant fit (${pairs.result.columns.length} columns), Node: ${pairs.ms.toFixed(0)} ms median of 3`);
  // Reference: the dense-matrix library on the same design (one run; it copies X three times).
  const design = plain.result.columns.slice(1);
  const index = new Map(design.map((c, j) => [`${c.feature}\u0000${c.level}`, j]));
  const features = ["delta_a", "delta_b", "money", "market", "alice_agent", "bob_agent"];
  // Levels spelled as gleeDesign formats them.
  const levelOf = (r: GleeRow, f: string) => {
    switch (f) {
      case "delta_a": return String(r.delta_a);
      case "delta_b": return String(r.delta_b);
      case "money": return `1e${Math.log10(r.money!)}`;
      case "market": return `CI=${r.complete_information ? "yes" : "no"}, MA=${r.messages ? "yes" : "no"}, T=${r.horizon ?? "∞"}`;
      default: return String(r[f as keyof GleeRow]);
    }
  };
  const X = rows.map((r) => {
    const x = new Array<number>(design.length).fill(0);
    for (const f of features) {
      const j = index.get(`${f}\u0000${levelOf(r, f)}`);
      if (j !== undefined) x[j] = 1;
    }
    return x;
  });
  const Y = rows.map((r) => [r.alice_self_gain!]);
  const t0 = performance.now();
  const mlr = new MultivariateLinearRegression(X, Y);
  const mlrMs = performance.now() - t0;
  const maxDiff = Math.max(...design.map((c, j) => Math.abs(mlr.weights[j][0] - plain.result.beta[j + 1])));
  console.log(`ml-regression-multivariate-linear on the dense 100,000 × ${design.length + 1} design: ${mlrMs.toFixed(0)} ms (max |Δcoef| vs ours ${maxDiff.toExponential(1)})`);
  await browserBench();
}
