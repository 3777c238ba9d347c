/**
 * A small dense linear program solver: maximise cᵀx subject to A x ≤ b and
 * x ≥ 0, with b ≥ 0 (so x = 0 is feasible and no first phase is needed),
 * by the simplex method on a tableau. The lowest-indexed improving column
 * enters; among the rows tied in the ratio test, the one with the largest
 * pivot leaves, so the tableau is never divided by a coefficient at
 * rounding level (the programs of nashAveraging.ts are degenerate, every
 * right-hand side 0, so every ratio ties: leaving by lowest index instead,
 * as Bland's rule does, pivoted on entries of 1e-11 and left a tableau that
 * called a bounded program unbounded, for about 1 random evaluation matrix
 * in 60). Largest-pivot ties can cycle in principle, so after ten times
 * as many degenerate pivots in a row as there are columns, ties leave by
 * Bland's rule until the objective moves again, which cannot cycle (a
 * program's first stretch of degenerate pivots is long: every row is tied
 * at 0 until the bound Σ q ≤ 1 leaves) (Bland 1977, "New
 * finite pivoting rules for the simplex method"; Chvátal 1983, "Linear
 * Programming", ch. 3). For the few dozen variables of an evaluation
 * matrix (nashAveraging.ts). Pure.
 */

export interface LinearProgramResult {
  /** "optimal", or "unbounded" when the objective grows without limit. */
  status: "optimal" | "unbounded";
  x: number[];
  value: number;
}

const EPS = 1e-11;

/** Maximises cᵀx over {x ≥ 0 : A x ≤ b}; every b[i] must be ≥ 0. */
export function maximise(c: readonly number[], a: readonly (readonly number[])[], b: readonly number[]): LinearProgramResult {
  const n = c.length;
  const m = b.length;
  if (b.some((v) => !(v >= 0))) throw new Error("linear program: every right-hand side must be ≥ 0 (x = 0 feasible)");
  // Tableau rows: [A | I | b]; the objective row holds −c (reduced costs).
  const width = n + m + 1;
  const t = a.map((row, i) => {
    const r = new Float64Array(width);
    for (let j = 0; j < n; j++) r[j] = row[j];
    r[n + i] = 1;
    r[width - 1] = b[i];
    return r;
  });
  const objective = new Float64Array(width);
  for (let j = 0; j < n; j++) objective[j] = -c[j];
  const basis = Array.from({length: m}, (_, i) => n + i);
  const scale = Math.max(1, ...c.map(Math.abs), ...a.flat().map(Math.abs));
  let degenerate = 0;
  for (let iteration = 0; ; iteration++) {
    if (iteration >= 50 * (n + m) + 1000) throw new Error(`linear program: no optimum after ${iteration} pivots`);
    const bland = degenerate >= 10 * (n + m);
    let enter = -1;
    for (let j = 0; j < n + m; j++) {
      if (objective[j] < -EPS * scale) {
        enter = j;
        break;
      }
    }
    if (enter < 0) break;
    let leave = -1;
    let best = Infinity;
    for (let i = 0; i < m; i++) {
      const coef = t[i][enter];
      if (coef <= EPS * scale) continue;
      const ratio = t[i][width - 1] / coef;
      if (ratio < best - EPS || (Math.abs(ratio - best) <= EPS && (bland ? basis[i] < basis[leave] : coef > t[leave][enter]))) {
        best = ratio;
        leave = i;
      }
    }
    if (leave < 0) return {status: "unbounded", x: [], value: Infinity};
    degenerate = best <= EPS ? degenerate + 1 : 0;
    pivot(t, objective, leave, enter);
    basis[leave] = enter;
  }
  const x = new Array<number>(n).fill(0);
  basis.forEach((v, i) => {
    if (v < n) x[v] = Math.max(0, t[i][width - 1]);
  });
  return {status: "optimal", x, value: x.reduce((s, v, j) => s + v * c[j], 0)};
}

/** Makes column `col` a unit column with its 1 in row `row`. */
function pivot(t: Float64Array[], objective: Float64Array, row: number, col: number): void {
  const r = t[row];
  const d = r[col];
  for (let j = 0; j < r.length; j++) r[j] /= d;
  const eliminate = (other: Float64Array) => {
    const f = other[col];
    if (f === 0) return;
    for (let j = 0; j < r.length; j++) other[j] -= f * r[j];
    other[col] = 0;
  };
  t.forEach((other, i) => i !== row && eliminate(other));
  eliminate(objective);
}
