// Nash averaging against closed forms and a second method: rock–paper–scissors,
// a dominated agent, a copy of an agent (the method's invariance), a case
// where an agent outside the support bounds the equilibria, the
// Bradley–Terry (transitive) case, and random games whose one equilibrium
// support enumeration also finds (src/lib/equilibria.ts).
import {test} from "node:test";
import assert from "node:assert/strict";
import {maxentNash, nashAverage} from "../../src/lib/nashAveraging.js";
import {maximise} from "../../src/lib/linearProgram.js";
import {findEquilibria} from "../../src/lib/equilibria.js";
import {createRng, type Rng} from "../../src/lib/rng.js";

const close = (actual: readonly number[], expected: readonly number[], tolerance = 1e-9, what = "") =>
  expected.forEach((e, i) => assert.ok(Math.abs(actual[i] - e) <= tolerance, `${what}[${i}]: ${actual[i]} vs ${e}`));

const RPS = [
  [0, -1, 1],
  [1, 0, -1],
  [-1, 1, 0],
];

/** A random antisymmetric k × k matrix with entries in (−2, 2). */
function randomGame(rng: Rng, k: number): number[][] {
  const a = Array.from({length: k}, () => new Array<number>(k).fill(0));
  for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) (a[i][j] = 4 * rng.next() - 2), (a[j][i] = -a[i][j]);
  return a;
}

/** `a` with a copy of agent `c` appended (it meets its original at even odds). */
const withClone = (a: number[][], c: number): number[][] => [...a.map((row) => [...row, row[c]]), [...a[c], 0]];

test("a small linear program by hand, and an unbounded one", () => {
  // max 3x + 2y s.t. x + y ≤ 4, x + 3y ≤ 6, x ≤ 3: the vertex (3, 1), value 11.
  const r = maximise([3, 2], [[1, 1], [1, 3], [1, 0]], [4, 6, 3]);
  assert.equal(r.status, "optimal");
  close(r.x, [3, 1], 1e-12);
  assert.ok(Math.abs(r.value - 11) < 1e-12);
  assert.equal(maximise([1, 1], [[1, -1]], [1]).status, "unbounded");
});

test("rock–paper–scissors: the uniform mixture, every skill 0", () => {
  const r = nashAverage(RPS);
  close(r.mass, [1 / 3, 1 / 3, 1 / 3]);
  close(r.skill, [0, 0, 0]);
});

test("a dominated agent gets no mass, and its skill is its expected log-odds against the equilibrium", () => {
  // A fourth agent losing to each of rock, paper, scissors by 2, 1 and 0.5: skill −(2 + 1 + 0.5) / 3.
  const a = [
    [0, -1, 1, 2],
    [1, 0, -1, 1],
    [-1, 1, 0, 0.5],
    [-2, -1, -0.5, 0],
  ];
  const r = nashAverage(a);
  close(r.mass, [1 / 3, 1 / 3, 1 / 3, 0]);
  close(r.skill, [0, 0, 0, -3.5 / 3]);
});

test("a copy of an agent splits its mass in two and moves no one's skill (invariance to redundant entrants)", () => {
  const rps = nashAverage(withClone(RPS, 0));
  close(rps.mass, [1 / 6, 1 / 3, 1 / 3, 1 / 6]);
  close(rps.skill, [0, 0, 0, 0]);
  const rng = createRng(37);
  for (let t = 0; t < 25; t++) {
    const a = randomGame(rng, 6);
    const c = rng.int(6);
    const before = nashAverage(a);
    const after = nashAverage(withClone(a, c));
    close(after.skill.slice(0, 6), before.skill, 1e-9, `game ${t} skills`);
    assert.ok(Math.abs(after.skill[6] - before.skill[c]) < 1e-9, `game ${t}: the copy's skill is its original's`);
    // The maximum-entropy split of a copied agent's mass is half each (the two are interchangeable).
    close([after.mass[c], after.mass[6]], [before.mass[c] / 2, before.mass[c] / 2], 1e-9, `game ${t} split`);
    close(after.mass.filter((_, i) => i !== c && i < 6), before.mass.filter((_, i) => i !== c), 1e-9, `game ${t} others`);
  }
});

test("an agent outside the support can bound the equilibria: the maximum-entropy one is then on that bound", () => {
  // Rock–paper–scissors with rock in two versions (r1, r2) and an agent D that
  // beats r1 by 3, ties r2 and loses to paper and scissors by 0.5. Equilibria:
  // P = S = 1/3, D = 0, r1 + r2 = 1/3 and (A p)_D = 3 r1 − 1/3 ≤ 0, so r1 ≤ 1/9.
  // The entropy of (r1, r2) alone would split them 1/6 each: the bound binds.
  const a = [
    [0, 0, -1, 1, -3],
    [0, 0, -1, 1, 0],
    [1, 1, 0, -1, 0.5],
    [-1, -1, 1, 0, 0.5],
    [3, 0, -0.5, -0.5, 0],
  ];
  close(maxentNash(a), [1 / 9, 2 / 9, 1 / 3, 1 / 3, 0]);
});

test("Bradley–Terry log-odds (a transitive game): all mass on the strongest, skill θ_i − θ_best; two equally strongest share it", () => {
  const theta = [0.3, 1.1, -0.4, 0.7];
  const r = nashAverage(theta.map((x) => theta.map((y) => x - y)));
  close(r.mass, [0, 1, 0, 0]);
  close(r.skill, theta.map((t) => t - 1.1));
  const tied = [1.1, 0.2, 1.1];
  close(nashAverage(tied.map((x) => tied.map((y) => x - y))).mass, [0.5, 0, 0.5]);
});

test("random games: the one equilibrium support enumeration finds (a second method)", () => {
  // A random antisymmetric game has one equilibrium, on an odd support (Kaplansky 1945); support
  // enumeration meets singular systems on the even supports, so it cannot say it is complete.
  const rng = createRng(5);
  let compared = 0;
  for (let t = 0; t < 20; t++) {
    const a = randomGame(rng, 5);
    const found = findEquilibria({rows: ["0", "1", "2", "3", "4"], cols: ["0", "1", "2", "3", "4"], a, b: a.map((row) => row.map((v) => -v))});
    const all = [...found.pure.map((p) => a.map((_, i) => (i === p.i ? 1 : 0))), ...found.mixed.map((m) => m.x)];
    if (all.length !== 1) continue;
    compared++;
    close(maxentNash(a), all[0], 1e-7, `game ${t}`);
  }
  assert.ok(compared >= 18, `${compared} games compared`);
});
