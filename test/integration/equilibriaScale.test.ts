// Nash equilibria do not change when a player's payoffs go through a positive
// affine map (x -> s·x + c, s > 0). The solver must give the same answer
// whatever the payoffs' magnitude: the same pure cells, the same mixed
// profiles, and payoffs that scale with the game.
import {test} from "node:test";
import assert from "node:assert/strict";
import {spawnSync} from "node:child_process";
import {mkdtempSync, writeFileSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {findEquilibria, type Bimatrix} from "../../src/lib/equilibria.js";
import {isNash} from "../../src/lib/bimatrix.js";
import {mulberry32} from "../../src/lib/olsOneHot.js";

const random = mulberry32(7);
const randomMatrix = () => Array.from({length: 4}, () => Array.from({length: 4}, () => Math.round((random() * 20 - 10) * 100) / 100));
const games: Record<string, Bimatrix> = {
  "matching pennies": {rows: ["H", "T"], cols: ["H", "T"], a: [[1, -1], [-1, 1]], b: [[-1, 1], [1, -1]]},
  "battle of the sexes": {rows: ["opera", "football"], cols: ["opera", "football"], a: [[2, 0], [0, 1]], b: [[1, 0], [0, 2]]},
  "prisoner's dilemma": {rows: ["C", "D"], cols: ["C", "D"], a: [[3, 0], [5, 1]], b: [[3, 5], [0, 1]]},
  "random 4×4": {rows: ["r0", "r1", "r2", "r3"], cols: ["c0", "c1", "c2", "c3"], a: randomMatrix(), b: randomMatrix()},
};

const transform = (g: Bimatrix, scale: number, shift = 0): Bimatrix => ({...g, a: g.a.map((r) => r.map((v) => v * scale + shift)), b: g.b.map((r) => r.map((v) => v * scale + shift))});

/** What must not depend on the scale: the pure cells and the mixed profiles (probabilities to 1e-6). */
function shape(r: ReturnType<typeof findEquilibria>) {
  return {
    pure: r.pure.map((e) => `${e.row}/${e.col}`).sort(),
    mixed: r.mixed.map((e) => [...e.x, ...e.y].map((p) => Math.round(p * 1e6) / 1e6).join(" ")).sort(),
    eliminated: r.eliminated,
    complete: r.complete,
  };
}

const relClose = (got: number, want: number, what: string) => assert.ok(Math.abs(got - want) <= 1e-12 * Math.abs(want), `${what}: ${got} vs ${want}`);

for (const [name, game] of Object.entries(games)) {
  test(`${name}: the same equilibria at every payoff scale and under a shift`, () => {
    for (const maxSupportPairs of [200_000, 0]) {
      const reference = findEquilibria(game, {maxSupportPairs});
      assert.ok(reference.pure.length + reference.mixed.length >= 1, "a finite game has an equilibrium");
      const variants: [string, number, number][] = [1e-200, 1e-12, 1e12, 1e200].map((s) => [`×${s}`, s, 0]);
      variants.push(["+1e9", 1, 1e9], ["×1e12 + 1e9", 1e12, 1e9]);
      for (const [label, scale, shift] of variants) {
        const g = transform(game, scale, shift);
        const r = findEquilibria(g, {maxSupportPairs});
        assert.deepEqual(shape(r), shape(reference), `${label} (${reference.method})`);
        // Payoffs are reported in the game's own units.
        r.pure.forEach((e, k) => relClose(e.a, g.a[e.i][e.j], `${label} pure ${k} a`));
        for (const e of r.mixed) {
          const f = reference.mixed.find((f) => f.x.every((p, i) => Math.abs(p - e.x[i]) < 1e-6))!;
          const [wantA, wantB] = [f.a * scale + shift, f.b * scale + shift];
          const tolerance = 1e-9 * (20 * scale + shift); // payoffs of these games lie within [-10, 10]
          assert.ok(Math.abs(e.a - wantA) <= tolerance && Math.abs(e.b - wantB) <= tolerance, `${label}: mixed payoffs ${e.a}, ${e.b} vs ${wantA}, ${wantB}`);
        }
        for (const e of r.mixed) assert.ok(isNash(g, e.x, e.y), `${label}: verified on the scaled game`);
      }
    }
  });
}

test("isNash judges regret relative to each player's payoff range, not in absolute units", () => {
  const pennies = games["matching pennies"];
  for (const scale of [1e-200, 1, 1e200]) {
    const g = transform(pennies, scale);
    assert.equal(isNash(g, [0.5, 0.5], [0.5, 0.5]), true, `×${scale} mixed`);
    assert.equal(isNash(g, [1, 0], [1, 0]), false, `×${scale} (H, H) is not an equilibrium`);
  }
});

test("a constant payoff matrix makes every strategy a best response", () => {
  const g: Bimatrix = {rows: ["a", "b"], cols: ["x", "y"], a: [[1e-300, 1e-300], [1e-300, 1e-300]], b: [[0, 1e200], [0, 1e200]]};
  const r = findEquilibria(g);
  assert.deepEqual(r.pure.map((e) => `${e.row}/${e.col}`).sort(), ["a/y", "b/y"]);
});

test("parley equilibria: the same answer at 1e-200 as at 1; a non-finite payoff is one line naming the cell", () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-eq-"));
  try {
    const run = (file: string) => spawnSync(process.execPath, ["bin/parley.js", "equilibria", file], {encoding: "utf8"});
    const pennies = games["matching pennies"];
    writeFileSync(join(dir, "tiny.json"), JSON.stringify(transform(pennies, 1e-200)));
    const tiny = run(join(dir, "tiny.json"));
    assert.equal(tiny.status, 0, tiny.stderr);
    const out = JSON.parse(tiny.stdout);
    assert.deepEqual(out.pure, []);
    assert.equal(out.mixed.length, 1);
    assert.deepEqual(out.mixed[0].row, {H: 0.5, T: 0.5});

    // Python's json.dump writes NaN and Infinity as bare words; 1e999 parses to Infinity.
    for (const [text, cell, value] of [
      ['{"rows": ["H", "T"], "cols": ["H", "T"], "a": [[1, -1], [NaN, 1]], "b": [[-1, 1], [1, -1]]}', "a[1][0]", "NaN"],
      ['{"rows": ["H", "T"], "cols": ["H", "T"], "a": [[1, -1], [-1, 1]], "b": [[-1, 1], [1, -Infinity]]}', "b[1][1]", "-Infinity"],
      ['{"rows": ["H", "T"], "cols": ["H", "T"], "a": [[1, 1e999], [-1, 1]], "b": [[-1, 1], [1, -1]]}', "a[0][1]", "Infinity"],
    ]) {
      const file = join(dir, "bad.json");
      writeFileSync(file, text);
      const r = run(file);
      assert.equal(r.status, 2, r.stderr);
      assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
      assert.ok(r.stderr.includes(`${cell}: expected a finite number, got ${value}`), r.stderr);
      assert.ok(r.stderr.includes(file), r.stderr);
    }
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
});
