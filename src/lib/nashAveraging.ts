/**
 * Nash averaging (Balduzzi, Tuyls, Pérolat and Graepel 2018, "Re-evaluating
 * Evaluation", NeurIPS, agent-vs-agent Nash averaging): given an antisymmetric evaluation matrix A
 * (A[i][j] the log-odds of agent i beating agent j, A = −Aᵀ), play the
 * symmetric zero-sum meta-game whose payoff is A, take its maximum-entropy
 * Nash equilibrium p*, and score each agent by its expected log-odds
 * against p*: skill = A p*. Every skill is ≤ 0, and 0 exactly for the
 * agents p* plays. Because p* is the maximum-entropy equilibrium, adding a
 * copy of an agent splits that agent's mass between the copies and changes
 * no agent's skill (the paper's theorem that Nash averaging with the
 * maxent equilibrium is invariant to redundant copies): the property that
 * makes it a clone-robust summary.
 *
 * Method. p is an equilibrium exactly when (A p)_j ≤ 0 for every j (no
 * agent does better than even against p; the game's value is 0). The
 * equilibria form a polytope; the maximum-entropy one is found in two
 * exact steps rather than by a general convex solver:
 *
 * 1. Its support is the largest support of any equilibrium (entropy's
 *    gradient is infinite at a zero coordinate, so p* is positive wherever
 *    some equilibrium is). That support S grows from empty by linear
 *    programs (linearProgram.ts): maximise the mass on the agents not yet
 *    in S over {q ≥ 0 : A q ≤ 0, Σ q ≤ 1}; the agents the answer plays join
 *    S, until the most is 0. (One program over the unbounded cone
 *    {q ≥ 0 : A q ≤ 0}, which this replaced, reached q of 1e13 and
 *    answered wrongly or "unbounded" for about 3 % of tournament-shaped
 *    matrices.)
 * 2. On S, every equilibrium has (A p)_S = 0 (an agent some optimal
 *    strategy plays earns the value against every optimal strategy), so p*
 *    maximises entropy subject to A_SS p = 0, A_{¬S,S} p ≤ 0 and Σ p = 1.
 *    Its Lagrange dual is smooth: p_i ∝ exp(−(A_SSᵀν + A_{¬S,S}ᵀλ)_i), and
 *    log Σ_i exp(−(…)_i) is minimised over ν free and λ ≥ 0 by projected
 *    Newton steps (Bertsekas 1982, "Projected Newton methods for
 *    optimization problems with simple constraints"), damped where a full
 *    step does not decrease it (Levenberg–Marquardt).
 *    A strictly feasible point exists on S (Goldman–Tucker strict
 *    complementarity), so the dual has a minimiser and Newton converges.
 *
 * Pure: no DOM, no Node API.
 */
import {maximise} from "./linearProgram.js";
import {solveLinear} from "./supportEnumeration.js";

export interface NashAverage {
  /** The maximum-entropy Nash equilibrium's probability of each agent. */
  mass: number[];
  /** A p*: each agent's expected log-odds against the equilibrium (≤ 0; 0 on its support). */
  skill: number[];
}

/** Entries closer to zero than this (relative to A's largest) count as zero: an agent so near the support is in it. */
const SUPPORT_TOLERANCE = 1e-9;

/** An agent some equilibrium gives at least this much mass is in the support; rounding gives less. */
const SUPPORT_MASS = 1e-9;

/** Checks that `a` is square and antisymmetric (to rounding). */
function checkAntisymmetric(a: readonly (readonly number[])[]): void {
  const k = a.length;
  const scale = Math.max(1, ...a.flat().map(Math.abs));
  for (let i = 0; i < k; i++) {
    if (a[i].length !== k) throw new Error(`Nash averaging: row ${i} has ${a[i].length} entries, expected ${k}`);
    for (let j = 0; j < k; j++) if (!Number.isFinite(a[i][j]) || Math.abs(a[i][j] + a[j][i]) > 1e-9 * scale) throw new Error(`Nash averaging: the evaluation matrix is not antisymmetric at (${i}, ${j})`);
  }
}

/** The largest support of any equilibrium (step 1 of the module comment). */
export function equilibriumSupport(a: readonly (readonly number[])[]): number[] {
  const k = a.length;
  const inSupport = new Array<boolean>(k).fill(false);
  for (;;) {
    const outside = inSupport.map((s) => !s);
    if (!outside.includes(true)) break;
    const q = equilibriumOutside(a, outside);
    const found = q?.map((v, j) => outside[j] && v > SUPPORT_MASS);
    if (!found?.includes(true)) break;
    found.forEach((f, j) => f && (inSupport[j] = true));
  }
  return Array.from({length: k}, (_, j) => j).filter((j) => inSupport[j]);
}

/**
 * An equilibrium, scaled by at most 1, with the most mass on the agents
 * `outside`, or null when every equilibrium gives them none: maximise
 * Σ_{j outside} q_j over {q ≥ 0 : A q ≤ 0, Σ q ≤ 1}. Every right-hand side
 * but one is 0, so the program is degenerate, and floating-point pivots can
 * still stop it short (about 1 game in 1,500 of the unit test's): an answer
 * is taken only when it is an equilibrium by multiplication, and an answer
 * of none is checked once more with the agents' order reversed, which
 * changes every pivot.
 */
function equilibriumOutside(a: readonly (readonly number[])[], outside: readonly boolean[]): number[] | null {
  const k = a.length;
  const scale = Math.max(1, ...a.flat().map(Math.abs));
  for (const order of [a.map((_, j) => j), a.map((_, j) => k - 1 - j)]) {
    const rows = [...order.map((i) => order.map((j) => a[i][j])), new Array<number>(k).fill(1)];
    const b = [...new Array<number>(k).fill(0), 1];
    const {status, x, value} = maximise(order.map((j) => (outside[j] ? 1 : 0)), rows, b);
    if (status !== "optimal") throw new Error("Nash averaging: the support program is unbounded (not an antisymmetric matrix?)");
    if (!(value > SUPPORT_MASS)) continue;
    const q = new Array<number>(k).fill(0);
    order.forEach((j, n) => (q[j] = x[n]));
    const total = q.reduce((t, v) => t + v, 0);
    if (a.every((row) => row.reduce((t, v, j) => t + v * q[j], 0) <= 1e-9 * scale * total)) return q;
  }
  return null;
}

/** The maximum-entropy Nash equilibrium of the symmetric zero-sum game with payoff `a` (antisymmetric). */
export function maxentNash(a: readonly (readonly number[])[]): number[] {
  checkAntisymmetric(a);
  const k = a.length;
  if (k === 0) return [];
  const scale = Math.max(1, ...a.flat().map(Math.abs));
  const support = equilibriumSupport(a.map((row) => row.map((v) => (Math.abs(v) < SUPPORT_TOLERANCE * scale ? 0 : v))));
  const onSupport = maxentOnSupport(
    support.map((i) => support.map((j) => a[i][j])),
    a.map((_, i) => i).filter((i) => !support.includes(i)).map((i) => support.map((j) => a[i][j])),
  );
  const mass = new Array<number>(k).fill(0);
  support.forEach((i, s) => (mass[i] = onSupport[s]));
  return mass;
}

/** Nash averaging: the maximum-entropy equilibrium and every agent's skill against it. */
export function nashAverage(a: readonly (readonly number[])[]): NashAverage {
  const mass = maxentNash(a);
  const scale = Math.max(1, ...a.flat().map(Math.abs));
  // 0 on the support up to rounding (a skill is never above 0): written as 0, not as 1e-16.
  const skill = a.map((row) => row.reduce((t, v, j) => t + v * mass[j], 0)).map((s) => (Math.abs(s) < 1e-12 * scale ? 0 : s));
  return {mass, skill};
}

/**
 * Maximum entropy over {p > 0 : E p = 0, F p ≤ 0, Σ p = 1} (step 2 of the
 * module comment): projected Newton on the dual variables (ν for E's rows,
 * free; λ ≥ 0 for F's rows).
 */
function maxentOnSupport(e: number[][], f: number[][]): number[] {
  const s = e.length;
  if (s === 1) return [1];
  const g = [...e, ...f];
  const free = e.length;
  const dim = g.length;
  const v = new Array<number>(dim).fill(0);
  const massOf = (dual: readonly number[]) => {
    const u = Array.from({length: s}, (_, i) => -dual.reduce((t, d, r) => t + d * g[r][i], 0));
    const top = Math.max(...u);
    const w = u.map((x) => Math.exp(x - top));
    const z = w.reduce((t, x) => t + x, 0);
    return {p: w.map((x) => x / z), value: top + Math.log(z)};
  };
  let {p, value} = massOf(v);
  for (let iteration = 0; iteration < 500; iteration++) {
    // ∇ = −G p; the Hessian is G (diag p − p pᵀ) Gᵀ.
    const gp = g.map((row) => row.reduce((t, x, i) => t + x * p[i], 0));
    const grad = gp.map((x) => -x);
    const active = (r: number) => r >= free && v[r] <= 0 && grad[r] > 0;
    const residual = Math.max(0, ...grad.map((d, r) => (r < free ? Math.abs(d) : v[r] > 0 ? Math.abs(d) : Math.max(0, -d))));
    if (residual < 1e-13) break;
    const idx = Array.from({length: dim}, (_, r) => r).filter((r) => !active(r));
    const hess = idx.map((r) => idx.map((c) => {
      let h = 0;
      for (let i = 0; i < s; i++) h += g[r][i] * g[c][i] * p[i];
      return h - gp[r] * gp[c];
    }));
    // Directions that move no probability make the Hessian singular: a small ridge picks the shortest step.
    // Where that step fails the line search (a Hessian of rank below the active rows', as when the equilibrium
    // puts little mass on an agent), the ridge grows tenfold until the step succeeds (Levenberg–Marquardt damping),
    // turning it towards the projected gradient, along which the dual's value surely decreases: halving the
    // undamped step instead went back and forth between two vertices and stopped far from the equilibrium.
    const diagonal = Math.max(1e-12, ...hess.map((row, r) => row[r]));
    let accepted = false;
    for (let ridge = 1e-10 * diagonal; ridge < 1e30 * diagonal; ridge = Math.max(ridge * 10, 1e-8 * diagonal)) {
      const step = solveLinear(hess.map((row, r) => row.map((h, c) => (r === c ? h + ridge : h))), idx.map((r) => -grad[r]), 0) ?? idx.map((r) => -grad[r] / ridge);
      const next = v.slice();
      idx.forEach((r, n) => (next[r] = r < free ? v[r] + step[n] : Math.max(0, v[r] + step[n])));
      const trial = massOf(next);
      const decrease = next.reduce((acc, x, r) => acc + grad[r] * (x - v[r]), 0);
      if (trial.value <= value + 1e-4 * decrease + 1e-15 * Math.abs(value)) {
        v.splice(0, dim, ...next);
        ({p, value} = trial);
        accepted = true;
        break;
      }
    }
    if (!accepted) break;
  }
  return p;
}
