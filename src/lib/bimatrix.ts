/**
 * Two-player normal-form (bimatrix) games: the data type the equilibrium
 * solvers take, its validation, payoffs of mixed profiles, best responses,
 * the Nash check every solver's answer goes through, and iterated
 * elimination of strictly dominated strategies (which keeps every Nash
 * equilibrium, so solvers may work on the reduced game).
 *
 * Row player = Alice with payoffs `a`, column player = Bob with payoffs `b`;
 * `a[i][j]` is Alice's payoff when she plays row i and Bob plays column j.
 */

export interface Bimatrix {
  rows: string[];
  cols: string[];
  a: number[][];
  b: number[][];
}

/** Throws an Error naming the field and cell when `game` is not an m × n bimatrix of finite numbers. */
export function checkBimatrix(game: unknown, where = "game"): Bimatrix {
  const g = game as Partial<Bimatrix>;
  if (!g || typeof g !== "object") throw new Error(`${where}: expected an object {rows, cols, a, b}`);
  for (const key of ["rows", "cols", "a", "b"] as const) {
    if (!Array.isArray(g[key])) throw new Error(`${where}: "${key}" must be an array`);
  }
  const {rows, cols, a, b} = g as Bimatrix;
  if (!rows.length || !cols.length) throw new Error(`${where}: "rows" and "cols" must be non-empty`);
  if (new Set(rows.map(String)).size !== rows.length) throw new Error(`${where}: "rows" has duplicate names`);
  if (new Set(cols.map(String)).size !== cols.length) throw new Error(`${where}: "cols" has duplicate names`);
  for (const [name, m] of [["a", a], ["b", b]] as const) {
    if (m.length !== rows.length) throw new Error(`${where}: "${name}" has ${m.length} rows, expected ${rows.length} (one per entry of "rows")`);
    m.forEach((row, i) => {
      if (!Array.isArray(row) || row.length !== cols.length) {
        throw new Error(`${where}: "${name}"[${i}] must have ${cols.length} entries (one per entry of "cols")`);
      }
      row.forEach((v, j) => {
        if (typeof v !== "number" || !Number.isFinite(v)) throw new Error(`${where}: ${name}[${i}][${j}]: expected a finite number, got ${typeof v === "number" ? String(v) : JSON.stringify(v)}`);
      });
    });
  }
  return {rows: rows.map(String), cols: cols.map(String), a, b};
}

/** min/2 and (max − min)/2 of a matrix: halves, so that the range of payoffs near ±1.8e308 cannot overflow. */
function halfBounds(m: number[][]): {lo: number; range: number} {
  let min = Infinity;
  let max = -Infinity;
  for (const row of m) for (const v of row) (min = Math.min(min, v)), (max = Math.max(max, v));
  return {lo: min / 2, range: max / 2 - min / 2};
}

/**
 * One player's payoffs mapped to [0, 1] by (v − min) / (max − min); all 0 when
 * they are constant. Order is kept (the map is monotone in floating
 * point), so no strict preference is reversed.
 */
export function normalizeMatrix(m: number[][]): number[][] {
  const {lo, range} = halfBounds(m);
  return m.map((row) => row.map((v) => (range > 0 ? Math.min(1, (v / 2 - lo) / range) : 0)));
}

/**
 * The game with each player's payoffs mapped to [0, 1] (normalizeMatrix).
 * Equilibria are invariant under positive affine maps of each player's
 * payoffs, so solvers run on this game with fixed tolerances whatever the
 * original units (1e-200 or 1e200).
 */
export function normalizeGame(game: Bimatrix): Bimatrix {
  return {rows: game.rows, cols: game.cols, a: normalizeMatrix(game.a), b: normalizeMatrix(game.b)};
}

/**
 * The row player's largest gain from a pure deviation at (x, y), as a share
 * of her payoff range: max_k Σ_i x_i Σ_j (a[k][j] − a[i][j]) y_j / (max a − min a).
 * Differences of the original payoffs are taken before weighting, so a large
 * common shift (+1e9) costs no precision; 0 for a constant matrix.
 */
function relativeRegret(a: number[][], x: number[], y: number[]): number {
  const {range} = halfBounds(a);
  if (!(range > 0)) return 0;
  let worst = -Infinity;
  for (let k = 0; k < a.length; k++) {
    let gain = 0;
    for (let i = 0; i < a.length; i++) {
      if (x[i] === 0) continue;
      let d = 0;
      for (let j = 0; j < y.length; j++) if (y[j] !== 0) d += ((a[k][j] / 2 - a[i][j] / 2) / range) * y[j];
      gain += x[i] * d;
    }
    worst = Math.max(worst, gain);
  }
  return worst;
}

const transpose = (m: number[][]) => m[0].map((_, j) => m.map((row) => row[j]));

/** Alice's expected payoff against column mix y, per row: (A y)_i. */
export function rowPayoffs(a: number[][], y: number[]): number[] {
  return a.map((row) => row.reduce((s, v, j) => s + v * y[j], 0));
}

/** Bob's expected payoff against row mix x, per column: (xᵀ B)_j. */
export function colPayoffs(b: number[][], x: number[]): number[] {
  return b[0].map((_, j) => b.reduce((s, row, i) => s + x[i] * row[j], 0));
}

/** Expected payoffs (Alice, Bob) of the mixed profile (x, y). */
export function expectedPayoffs(game: Bimatrix, x: number[], y: number[]): [number, number] {
  const ra = rowPayoffs(game.a, y);
  const cb = colPayoffs(game.b, x);
  return [ra.reduce((s, v, i) => s + v * x[i], 0), cb.reduce((s, v, j) => s + v * y[j], 0)];
}

/**
 * Whether (x, y) is a Nash equilibrium: both are probability vectors and no
 * pure strategy gains more than `tolerance` (default 1e-9) times that
 * player's payoff range (max − min of their matrix). Relative, so the verdict
 * is the same at any payoff scale; checked on the payoffs as given.
 */
export function isNash(game: Bimatrix, x: number[], y: number[], tolerance = 1e-9): boolean {
  const prob = (v: number[], n: number) =>
    v.length === n && v.every((p) => p >= -1e-12) && Math.abs(v.reduce((s, p) => s + p, 0) - 1) <= 1e-9;
  if (!prob(x, game.rows.length) || !prob(y, game.cols.length)) return false;
  return relativeRegret(game.a, x, y) <= tolerance && relativeRegret(transpose(game.b), y, x) <= tolerance;
}

/**
 * Pure best responses: for each column j, the rows maximizing a[·][j]
 * (Alice's replies to Bob playing j); for each row i, the columns maximizing
 * b[i][·]. Ties within `tolerance` (default 1e-12) times the player's payoff
 * range all count, so the answer does not depend on the payoffs' units.
 */
export function bestResponses(game: Bimatrix, tolerance = 1e-12): {rowReplies: number[][]; colReplies: number[][]} {
  const {a, b} = normalizeGame(game);
  const m = a.length;
  const n = a[0].length;
  const rowReplies: number[][] = [];
  for (let j = 0; j < n; j++) {
    const best = Math.max(...a.map((row) => row[j]));
    rowReplies.push(a.flatMap((row, i) => (row[j] >= best - tolerance ? [i] : [])));
  }
  const colReplies: number[][] = [];
  for (let i = 0; i < m; i++) {
    const best = Math.max(...b[i]);
    colReplies.push(b[i].flatMap((v, j) => (v >= best - tolerance ? [j] : [])));
  }
  return {rowReplies, colReplies};
}

/**
 * Iterated elimination of pure strategies strictly dominated by another pure
 * strategy. Returns the indices that survive; every Nash equilibrium of the
 * game is supported on them. "Strictly" means by more than `tolerance`
 * (default 1e-9, the share of the player's payoff range by which isNash lets
 * a deviation gain) in every column: a strategy within that of another may
 * be in an equilibrium isNash accepts, and payoffs that tie but for rounding
 * (the same means computed by another method or summed in another order)
 * leave both strategies in.
 */
export function eliminateDominated(input: Bimatrix, tolerance = 1e-9): {rows: number[]; cols: number[]} {
  const game = normalizeGame(input);
  let rows = game.rows.map((_, i) => i);
  let cols = game.cols.map((_, j) => j);
  for (let changed = true; changed; ) {
    changed = false;
    const keepRows = rows.filter((i) => !rows.some((k) => k !== i && cols.every((j) => game.a[k][j] > game.a[i][j] + tolerance)));
    if (keepRows.length < rows.length) (rows = keepRows), (changed = true);
    const keepCols = cols.filter((j) => !cols.some((k) => k !== j && rows.every((i) => game.b[i][k] > game.b[i][j] + tolerance)));
    if (keepCols.length < cols.length) (cols = keepCols), (changed = true);
  }
  return {rows, cols};
}

/** The sub-game on the given row and column indices. */
export function subgame(game: Bimatrix, rows: number[], cols: number[]): Bimatrix {
  return {
    rows: rows.map((i) => game.rows[i]),
    cols: cols.map((j) => game.cols[j]),
    a: rows.map((i) => cols.map((j) => game.a[i][j])),
    b: rows.map((i) => cols.map((j) => game.b[i][j])),
  };
}
