/**
 * The Lemke–Howson algorithm (Lemke & Howson 1964; von Stengel, "Computing
 * equilibria for two-person games", 2002, §3) by complementary pivoting on
 * the two best-response polytopes
 *   P = {x ≥ 0 : Bᵀx ≤ 1},   Q = {y ≥ 0 : A y ≤ 1}
 * (each player's payoffs mapped to [1, 2], which leaves equilibria unchanged
 * and makes the fixed pivot tolerances mean the same at any payoff scale).
 * Labels 0..m−1 are Alice's rows, m..m+n−1 Bob's columns. Starting from the
 * artificial equilibrium (0, 0) and dropping one label, the path ends at a
 * Nash equilibrium. Ties in the ratio test are broken lexicographically, so
 * degenerate games cannot make it cycle.
 *
 * `lemkeHowsonAll` runs it from every label, and then again from every
 * equilibrium found so far with every label dropped, until nothing new
 * appears (the equilibria reachable in the Lemke–Howson graph). This need
 * not be all equilibria of the game.
 */
import {normalizeGame, type Bimatrix} from "./bimatrix.js";
import type {MixedProfile} from "./supportEnumeration.js";

interface Tableau {
  /** rows × (m + n) coefficients indexed by label, plus rhs at the end. */
  t: number[][];
  /** Basic variable (label) of each row. */
  basis: number[];
  /** Labels of the initial basis, in order: the lexicographic tie-break columns. */
  lexColumns: number[];
}

const EPS = 1e-12;

function cloneTableau(x: Tableau): Tableau {
  return {t: x.t.map((r) => r.slice()), basis: x.basis.slice(), lexColumns: x.lexColumns};
}

/** Enters `label` into the basis; returns the label that leaves. */
function pivot(tab: Tableau, label: number): number {
  const {t, basis, lexColumns} = tab;
  const rhs = t[0].length - 1;
  let best = -1;
  for (let r = 0; r < t.length; r++) {
    const piv = t[r][label];
    if (piv <= EPS) continue;
    if (best < 0) {
      best = r;
      continue;
    }
    // Lexicographic minimum ratio: rhs first, then the initial-basis columns.
    const pb = t[best][label];
    let cmp = t[r][rhs] / piv - t[best][rhs] / pb;
    for (let c = 0; Math.abs(cmp) <= 1e-12 && c < lexColumns.length; c++) cmp = t[r][lexColumns[c]] / piv - t[best][lexColumns[c]] / pb;
    if (cmp < 0) best = r;
  }
  if (best < 0) throw new Error(`Lemke–Howson: unbounded pivot on label ${label} (payoffs not positive?)`);
  const row = t[best];
  const d = row[label];
  for (let c = 0; c < row.length; c++) row[c] /= d;
  for (let r = 0; r < t.length; r++) {
    if (r === best) continue;
    const f = t[r][label];
    if (f === 0) continue;
    for (let c = 0; c < row.length; c++) t[r][c] -= f * row[c];
  }
  const leaving = basis[best];
  basis[best] = label;
  return leaving;
}

/** Initial tableaux at the artificial equilibrium (0, 0). */
function initialTableaux(game: Bimatrix): {p: Tableau; q: Tableau} {
  const m = game.a.length;
  const n = game.a[0].length;
  const {a, b} = normalizeGame(game);
  const A = a.map((r) => r.map((v) => v + 1));
  const B = b.map((r) => r.map((v) => v + 1));
  // P: one row per column j: Σ_i B[i][j] x_i + s_j = 1; x_i has label i, s_j label m + j.
  const p: Tableau = {
    t: Array.from({length: n}, (_, j) => [...A.map((_, i) => B[i][j]), ...Array.from({length: n}, (_, k) => (k === j ? 1 : 0)), 1]),
    basis: Array.from({length: n}, (_, j) => m + j),
    lexColumns: Array.from({length: n}, (_, j) => m + j),
  };
  // Q: one row per row i: r_i + Σ_j A[i][j] y_j = 1; r_i has label i, y_j label m + j.
  const q: Tableau = {
    t: Array.from({length: m}, (_, i) => [...Array.from({length: m}, (_, k) => (k === i ? 1 : 0)), ...A[i], 1]),
    basis: Array.from({length: m}, (_, i) => i),
    lexColumns: Array.from({length: m}, (_, i) => i),
  };
  return {p, q};
}

function profileOf(p: Tableau, q: Tableau, m: number, n: number): MixedProfile | null {
  const x = new Array<number>(m).fill(0);
  const y = new Array<number>(n).fill(0);
  const rhs = m + n;
  p.basis.forEach((label, r) => {
    if (label < m) x[label] = p.t[r][rhs];
  });
  q.basis.forEach((label, r) => {
    if (label >= m) y[label - m] = q.t[r][rhs];
  });
  const sx = x.reduce((s, v) => s + v, 0);
  const sy = y.reduce((s, v) => s + v, 0);
  if (sx <= EPS || sy <= EPS) return null; // the artificial equilibrium
  return {x: x.map((v) => Math.max(0, v) / sx), y: y.map((v) => Math.max(0, v) / sy)};
}

/** Follows the path that drops `label` from the completely labelled pair (p, q); mutates copies. */
function follow(start: {p: Tableau; q: Tableau}, label: number, m: number, n: number, maxPivots: number) {
  const p = cloneTableau(start.p);
  const q = cloneTableau(start.q);
  // The variable with this label is nonbasic in exactly one tableau (at a nondegenerate vertex pair): enter it there.
  let inP = !p.basis.includes(label);
  let entering = label;
  for (let step = 0; step < maxPivots; step++) {
    const leaving = pivot(inP ? p : q, entering);
    if (leaving === label) return {p, q, profile: profileOf(p, q, m, n)};
    entering = leaving;
    inP = !inP;
  }
  throw new Error(`Lemke–Howson: no equilibrium after ${maxPivots} pivots from label ${label}`);
}

/** One Lemke–Howson path from the artificial equilibrium, dropping `label` (0 ≤ label < m + n). */
export function lemkeHowson(game: Bimatrix, label = 0): MixedProfile {
  const m = game.a.length;
  const n = game.a[0].length;
  if (!(label >= 0 && label < m + n)) throw new RangeError(`lemkeHowson: label must be in [0, ${m + n}), got ${label}`);
  const result = follow(initialTableaux(game), label, m, n, 50 * (m + n) ** 2 + 1000);
  if (!result.profile) throw new Error("Lemke–Howson: path returned to the artificial equilibrium");
  return result.profile;
}

/** Whether two profiles agree to `tolerance` in every probability (rounded keys would split values near a rounding boundary). */
export function sameProfile(e: MixedProfile, f: MixedProfile, tolerance = 1e-7): boolean {
  return e.x.every((v, i) => Math.abs(v - f.x[i]) <= tolerance) && e.y.every((v, j) => Math.abs(v - f.y[j]) <= tolerance);
}

/**
 * Equilibria reachable by Lemke–Howson: from the artificial equilibrium with
 * every label, then from each new equilibrium with every label, until no new
 * one appears or `maxPaths` paths have been followed.
 */
export function lemkeHowsonAll(game: Bimatrix, {maxPaths = 20000}: {maxPaths?: number} = {}): {equilibria: MixedProfile[]; paths: number; exhausted: boolean} {
  const m = game.a.length;
  const n = game.a[0].length;
  const labels = m + n;
  const maxPivots = 50 * labels * labels + 1000;
  const found: MixedProfile[] = [];
  const queue: Array<{p: Tableau; q: Tableau}> = [initialTableaux(game)];
  let paths = 0;
  while (queue.length) {
    const vertex = queue.shift()!;
    for (let label = 0; label < labels; label++) {
      if (paths >= maxPaths) return {equilibria: found, paths, exhausted: false};
      paths++;
      let end;
      try {
        end = follow(vertex, label, m, n, maxPivots);
      } catch {
        continue; // a degenerate start vertex can have no path for this label; other labels still count
      }
      if (!end.profile) continue;
      if (found.some((e) => sameProfile(e, end.profile!))) continue;
      found.push(end.profile);
      queue.push({p: end.p, q: end.q});
    }
  }
  return {equilibria: found, paths, exhausted: true};
}
