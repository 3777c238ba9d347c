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

/**
 * Random evaluation matrices shaped like a tournament's: independent log-odds, or Bradley–Terry log-odds with noise,
 * pairs that never met (0), and copies of agents.
 */
function tournamentGame(rng: Rng, kind: number): number[][] {
  const k = 6 + rng.int(10);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
  const theta = Array.from({length: k}, gauss);
  const a = Array.from({length: k}, () => new Array<number>(k).fill(0));
  for (let i = 0; i < k; i++) {
    for (let j = i + 1; j < k; j++) {
      const v = rng.next() < 0.3 ? 0 : kind === 0 ? gauss() : theta[i] - theta[j] + 0.3 * gauss();
      (a[i][j] = v), (a[j][i] = -v);
    }
  }
  if (kind === 2) return withClone(withClone(a, rng.int(k)), rng.int(k));
  return a;
}

test("tournament-shaped games: always an equilibrium, on the largest support (Goldman–Tucker certificates)", () => {
  // p is an equilibrium when (A p)_j ≤ 0 for all j. An agent is in no equilibrium exactly when some equilibrium q has
  // (A q)_j < 0 (strict complementarity; Goldman and Tucker 1956): for every agent without mass the test takes the
  // equilibrium that makes it do worst (a linear program), checks by multiplying that it is one, and asks the agent
  // to do strictly worse than even against it. Before the support program was bounded (Σ q ≤ 1) and its ties broken
  // by the largest pivot, about 3 % of such games had a smaller support or no answer ("unbounded"), and the entropy
  // step could stop at a point that was no equilibrium.
  const rng = createRng(2026);
  for (let t = 0; t < 600; t++) {
    const a = tournamentGame(rng, t % 3);
    const k = a.length;
    const p = maxentNash(a);
    const scale = Math.max(1, ...a.flat().map(Math.abs));
    const payoff = (q: readonly number[]) => a.map((row) => row.reduce((s, v, j) => s + v * q[j], 0));
    const isEquilibrium = (q: readonly number[], what: string) => {
      assert.ok(Math.abs(q.reduce((s, v) => s + v, 0) - 1) < 1e-9 && q.every((v) => v >= 0), `game ${t}: ${what} is not a distribution`);
      payoff(q).forEach((v, j) => assert.ok(v <= 1e-9 * scale, `game ${t}: agent ${j} earns ${v} against ${what}, no equilibrium`));
    };
    isEquilibrium(p, "p");
    p.forEach((mass, j) => {
      if (mass > 0) return;
      // The program in two orders of the agents (floating-point pivots can stop one short); a certificate counts once it is checked.
      const certificates = [a.map((_, i) => i), a.map((_, i) => k - 1 - i)].map((order) => {
        const x = maximise(order.map((i) => -a[j][i]), [...order.map((r) => order.map((c) => a[r][c])), new Array<number>(k).fill(1)], [...new Array<number>(k).fill(0), 1]).x;
        const q = new Array<number>(k).fill(0);
        order.forEach((i, n) => (q[i] = x[n] / x.reduce((s, y) => s + y, 0)));
        return q;
      });
      const q = certificates.find((c) => payoff(c)[j] < -1e-9 * scale);
      assert.ok(q, `game ${t}: agent ${j} has no mass, yet no equilibrium found makes it lose: the support is not the largest`);
      isEquilibrium(q, `the certificate for agent ${j}`);
    });
  }
});

test("an equilibrium with little mass on one agent, bounded by two others: the bound by hand", () => {
  // Agents 2 and 4 draw (0); every equilibrium is p_2 + p_4 = 1 with, for each other agent j, a_j2 p_2 + a_j4 p_4 ≤ 0.
  // Only agents 5 (a_52 < 0 < a_54) and 7 bound p_4 / p_2, by −a_52 / a_54 and −a_72 / a_74; the entropy of (p_2, p_4)
  // wants them equal, so p_4 / p_2 is the smaller bound. Before, the entropy step stopped at (½, ½), which agent 5 beats.
  const a = [
    [0, -0.3584362556142999, -3.5262466624333846, 0, -1.6901864394549706, -2.1082684462070693, -0.06534167729008666, 0, -1.160033922825329, -1.9997392661212419, -1.1107418544679861],
    [0.3584362556142999, 0, 0, -0.4497311728804815, -0.4189933935089998, -2.4957808895826235, 0, -3.121892959712999, -0.25996307429624677, -1.7407343341942723, -0.21866626762935018],
    [3.5262466624333846, 0, 0, 2.164160560852464, 0, 0.020586361100916134, 3.271646595499318, 0.39271344450150897, 2.9937090662987855, 0.7676557715556782, 0],
    [0, 0.4497311728804815, -2.164160560852464, 0, -0.1443470158218108, 0, 1.3623767776332787, -1.8052739757033516, 0.5953287672192181, 0, 0],
    [1.6901864394549706, 0.4189933935089998, 0, 0.1443470158218108, 0, -2.2784544133601834, 1.423637653165978, -2.2087361220749733, 0, 0, 0.17287714354470646],
    [2.1082684462070693, 2.4957808895826235, -0.020586361100916134, 0, 2.2784544133601834, 0, 3.639264362889356, 0.42823820982136696, 0, 0.5209175223141493, 0],
    [0.06534167729008666, 0, -3.271646595499318, -1.3623767776332787, -1.423637653165978, -3.639264362889356, 0, 0, -0.9527530004529441, 0, -0.6274210797218117],
    [0, 3.121892959712999, -0.39271344450150897, 1.8052739757033516, 2.2087361220749733, -0.42823820982136696, 0, 0, 2.116523438562301, 0, 0],
    [1.160033922825329, 0.25996307429624677, -2.9937090662987855, -0.5953287672192181, 0, 0, 0.9527530004529441, -2.116523438562301, 0, -1.0339561612622037, 0],
    [1.9997392661212419, 1.7407343341942723, -0.7676557715556782, 0, 0, -0.5209175223141493, 0, 0, 1.0339561612622037, 0, 1.507167153972465],
    [1.1107418544679861, 0.21866626762935018, 0, 0, -0.17287714354470646, 0, 0.6274210797218117, 0, 0, -1.507167153972465, 0]
  ];
  const r = Math.min(-a[5][2] / a[5][4], -a[7][2] / a[7][4]);
  const expected = a.map((_, i) => (i === 2 ? 1 / (1 + r) : i === 4 ? r / (1 + r) : 0));
  close(maxentNash(a), expected, 1e-9);
});
