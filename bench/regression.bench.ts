/**
 * Regression speed (issue 5): one GLEE fit on 100,000 synthetic bargaining
 * games with 40 design columns (intercept; δ_A, δ_B: 3 each; M: 2; market: 7;
 * Alice and Bob agents: 12 each), in Node. Target: under 500 ms per fit.
 * Prints the fit alone, the fit with the 20-split held-out RMSE, and (for
 * scale) ml-regression-multivariate-linear on the same dense design.
 */
import {performance} from "node:perf_hooks";
import MultivariateLinearRegression from "ml-regression-multivariate-linear";
import {fitGlee, type GleeRow} from "../src/lib/gleeDesign.js";
import {mulberry32} from "../src/lib/olsOneHot.js";

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
}
