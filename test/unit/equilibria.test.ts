import {test} from "node:test";
import assert from "node:assert/strict";
import {findEquilibria, type Bimatrix} from "../../src/lib/equilibria.js";
import {isNash, eliminateDominated, bestResponses} from "../../src/lib/bimatrix.js";
import {lemkeHowson, lemkeHowsonAll, sameProfile} from "../../src/lib/lemkeHowson.js";
import {supportEnumeration, supportPairs} from "../../src/lib/supportEnumeration.js";
import {mulberry32} from "../../src/lib/olsOneHot.js";

const close = (a: number, b: number, what = "") => assert.ok(Math.abs(a - b) < 1e-9, `${what}: ${a} vs ${b}`);
const cells = (g: Bimatrix, r: ReturnType<typeof findEquilibria>) => r.pure.map((e) => `${e.row}/${e.col}`).sort();

const matchingPennies: Bimatrix = {rows: ["H", "T"], cols: ["H", "T"], a: [[1, -1], [-1, 1]], b: [[-1, 1], [1, -1]]};
const battleOfTheSexes: Bimatrix = {rows: ["opera", "football"], cols: ["opera", "football"], a: [[2, 0], [0, 1]], b: [[1, 0], [0, 2]]};
const prisonersDilemma: Bimatrix = {rows: ["C", "D"], cols: ["C", "D"], a: [[3, 0], [5, 1]], b: [[3, 5], [0, 1]]};

test("matching pennies: no pure equilibrium, one mixed at 1/2–1/2", () => {
  for (const maxSupportPairs of [200_000, 0]) {
    const r = findEquilibria(matchingPennies, {maxSupportPairs});
    assert.deepEqual(r.pure, []);
    assert.equal(r.mixed.length, 1, r.method);
    r.mixed[0].x.forEach((p) => close(p, 0.5, "x"));
    r.mixed[0].y.forEach((p) => close(p, 0.5, "y"));
    close(r.mixed[0].a, 0, "value");
  }
});

test("battle of the sexes: two pure equilibria and one mixed (2/3, 1/3) × (1/3, 2/3)", () => {
  for (const maxSupportPairs of [200_000, 0]) {
    const r = findEquilibria(battleOfTheSexes, {maxSupportPairs});
    assert.deepEqual(cells(battleOfTheSexes, r), ["football/football", "opera/opera"]);
    assert.equal(r.mixed.length, 1, r.method);
    const [e] = r.mixed;
    close(e.row.opera, 2 / 3, "Alice opera");
    close(e.col.opera, 1 / 3, "Bob opera");
    close(e.a, 2 / 3, "Alice payoff");
    close(e.b, 2 / 3, "Bob payoff");
  }
  assert.equal(findEquilibria(battleOfTheSexes).complete, true);
});

test("prisoner's dilemma: the unique equilibrium is pure (defect, defect)", () => {
  const r = findEquilibria(prisonersDilemma);
  assert.deepEqual(cells(prisonersDilemma, r), ["D/D"]);
  assert.deepEqual(r.mixed, []);
  assert.deepEqual(r.eliminated, {rows: ["C"], cols: ["C"]});
  assert.deepEqual(eliminateDominated(prisonersDilemma), {rows: [1], cols: [1]});
});

test("rock–paper–scissors: unique mixed equilibrium at 1/3 each", () => {
  const a = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]];
  const g: Bimatrix = {rows: ["R", "P", "S"], cols: ["R", "P", "S"], a, b: a.map((r) => r.map((v) => -v))};
  for (const maxSupportPairs of [200_000, 0]) {
    const r = findEquilibria(g, {maxSupportPairs});
    assert.equal(r.pure.length, 0);
    assert.equal(r.mixed.length, 1);
    [...r.mixed[0].x, ...r.mixed[0].y].forEach((p) => close(p, 1 / 3));
  }
});

// Seed 002 §5.6, Table 19: (u_Alice, u_Bob) for using the negotiation workflow or not.
// Rows: Alice uses / does not use; columns: Bob uses / does not use. The table's
// text layout is garbled in the seed, so cells are read from the worked
// explanations below it, which name every payoff.
const workflow = (a: number[][], b: number[][]): Bimatrix => ({rows: ["use", "not use"], cols: ["use", "not use"], a, b});
test("Game-theoretic LLM workflows (Hua et al. 2024) Table 19: Sonnet (not use, not use); GPT-4o and Opus (use, use)", () => {
  // Sonnet: (use,use) 5.82,6.16; (use,not) 4.88,6.57; (not,use) 6.39,5.07; (not,not) 5.55,5.57.
  const sonnet = workflow([[5.82, 4.88], [6.39, 5.55]], [[6.16, 6.57], [5.07, 5.57]]);
  // GPT-4o: (use,use) 5.93,6.25; (use,not) 3.66,6.18; (not,use) 5.75,4.14; (not,not) 2.80,4.38.
  const gpt4o = workflow([[5.93, 3.66], [5.75, 2.8]], [[6.25, 6.18], [4.14, 4.38]]);
  // Opus, as the text states it: Alice 5.82 vs 4.86 (Bob uses), 5.09 vs 2.68 (Bob does not);
  // Bob 6.50 vs 5.53 (Alice uses), 4.57 vs 3.02 (Alice does not).
  const opus = workflow([[5.82, 5.09], [4.86, 2.68]], [[6.5, 5.53], [4.57, 3.02]]);
  // Opus as the table prints its last cell (2.80, 4.38), which disagrees with the text: same equilibrium.
  const opusTable = workflow([[5.82, 5.09], [4.86, 2.8]], [[6.5, 5.53], [4.57, 4.38]]);
  const only = (g: Bimatrix) => {
    const r = findEquilibria(g);
    assert.equal(r.mixed.length, 0, "no mixed equilibrium");
    assert.equal(r.pure.length, 1, "unique");
    return `${r.pure[0].row}/${r.pure[0].col}`;
  };
  assert.equal(only(sonnet), "not use/not use");
  assert.equal(only(gpt4o), "use/use");
  assert.equal(only(opus), "use/use");
  assert.equal(only(opusTable), "use/use");
  const s = findEquilibria(sonnet).pure[0];
  assert.deepEqual([s.a, s.b], [5.55, 5.57]);
});

test("Lemke–Howson ends at a verified equilibrium from every label on random games, and finds only support-enumeration equilibria", () => {
  const random = mulberry32(42);
  for (let rep = 0; rep < 60; rep++) {
    const m = 2 + Math.floor(random() * 5);
    const n = 2 + Math.floor(random() * 5);
    const mat = () => Array.from({length: m}, () => Array.from({length: n}, () => random() * 20 - 10)); // continuous: generic (nondegenerate) games
    const g: Bimatrix = {rows: Array.from({length: m}, (_, i) => `r${i}`), cols: Array.from({length: n}, (_, j) => `c${j}`), a: mat(), b: mat()};
    const all = supportEnumeration(g).equilibria;
    for (const e of all) assert.ok(isNash(g, e.x, e.y));
    // Generic games have an odd number of equilibria.
    if (!supportEnumeration(g).singular) assert.equal(all.length % 2, 1, `game ${rep}: ${all.length} equilibria`);
    const known = (e: {x: number[]; y: number[]}) => all.some((f) => sameProfile(e, f, 1e-6));
    for (let label = 0; label < m + n; label++) {
      const e = lemkeHowson(g, label);
      assert.ok(isNash(g, e.x, e.y), `game ${rep} label ${label}`);
      assert.ok(known(e), `game ${rep} label ${label}: LH found an equilibrium support enumeration did not`);
    }
    for (const e of lemkeHowsonAll(g).equilibria) assert.ok(known(e));
  }
});

test("larger games switch to Lemke–Howson and still return verified equilibria", () => {
  const random = mulberry32(9);
  const m = 14;
  const mat = () => Array.from({length: m}, () => Array.from({length: m}, () => random()));
  const names = Array.from({length: m}, (_, i) => `agent-${i}`);
  const g: Bimatrix = {rows: names, cols: names, a: mat(), b: mat()};
  const r = findEquilibria(g, {maxSupportPairs: 1000});
  assert.ok(r.support_pairs > 1000 || r.eliminated.rows.length > 0);
  const total = r.pure.length + r.mixed.length;
  assert.ok(total >= 1, "at least one equilibrium");
  for (const e of r.mixed) assert.ok(isNash(g, e.x, e.y));
  assert.equal(supportPairs(2, 2), 5);
  assert.equal(supportPairs(10, 10), 184755);
});

test("best responses mark every maximizing reply, ties included", () => {
  const g: Bimatrix = {rows: ["a", "b"], cols: ["x", "y"], a: [[1, 2], [1, 0]], b: [[3, 3], [0, 1]]};
  assert.deepEqual(bestResponses(g), {rowReplies: [[0, 1], [0]], colReplies: [[0, 1], [1]]});
  assert.throws(() => findEquilibria({rows: ["a"], cols: ["x", "y"], a: [[1]], b: [[1, 2]]}), /"a"\[0\] must have 2 entries/);
});

test("degenerate games: every pure cell found, the result marked incomplete, no crash on either method", () => {
  const flat: Bimatrix = {rows: ["a", "b"], cols: ["x", "y"], a: [[1, 1], [1, 1]], b: [[2, 2], [2, 2]]};
  for (const maxSupportPairs of [200_000, 0]) {
    const r = findEquilibria(flat, {maxSupportPairs});
    assert.equal(r.pure.length, 4);
    assert.equal(r.complete, false);
    for (const e of r.mixed) assert.ok(isNash(flat, e.x, e.y));
  }
  // A tie in one column: (a, x) and (b, x) are both equilibria, joined by a continuum.
  const tie: Bimatrix = {rows: ["a", "b"], cols: ["x", "y"], a: [[1, 0], [1, 2]], b: [[1, 0], [1, 0]]};
  assert.deepEqual(findEquilibria(tie).pure.map((e) => `${e.row}/${e.col}`).sort(), ["a/x", "b/x"]);
});

test("strict domination means by more than rounding: two strategies whose payoffs tie but for the order a mean was summed in both stay", () => {
  // 0.1 + 0.2 + 0.3 and 0.3 + 0.2 + 0.1 differ in the last bit (0.6000000000000001 against 0.6).
  const a = 0.1 + 0.2 + 0.3;
  const b = 0.3 + 0.2 + 0.1;
  assert.ok(a > b, "the two sums differ by rounding");
  // Row x beats row y in both columns, by the last bit only: y would be "strictly dominated" if rounding counted.
  const tie: Bimatrix = {rows: ["x", "y"], cols: ["l", "r"], a: [[a, 1], [b, 1 - 2 ** -53]], b: [[0, 1], [0, 1]]};
  assert.deepEqual(eliminateDominated(tie).rows, [0, 1]);
  // So do two within 1e-9 of the payoffs' range (the regret isNash accepts); a gap past it is domination.
  assert.deepEqual(eliminateDominated({...tie, a: [[0.6 + 1e-10, 1], [0.6, 1 - 1e-10]]}).rows, [0, 1]);
  assert.deepEqual(eliminateDominated({...tie, a: [[0.6 + 1e-7, 1], [0.6, 1 - 1e-7]]}).rows, [0]);
  // Units do not matter: the same game in units of 1e-200.
  assert.deepEqual(eliminateDominated({...tie, a: [[(0.6 + 1e-7) * 1e-200, 1e-200], [0.6e-200, (1 - 1e-7) * 1e-200]], b: [[0, 1e-200], [0, 1e-200]]}).rows, [0]);
});
