import {test} from "node:test";
import assert from "node:assert/strict";
import {fitGlee, gleeFeatures, marketLevel, marketParts, metaGame, pairEffects, formatNumberLevel, type GleeRow} from "../../src/lib/gleeDesign.js";
import {findEquilibria} from "../../src/lib/equilibria.js";
import {mulberry32} from "../../src/lib/olsOneHot.js";

const agents = ["alpha", "beta", "gemini-1.5-flash", "human"];

/** A balanced bargaining tournament: every ordered pair × every configuration of a small grid, outcome = known effects + noise. */
function tournament(noise = 0.01, seed = 1): GleeRow[] {
  const random = mulberry32(seed);
  const rows: GleeRow[] = [];
  const alice: Record<string, number> = {alpha: 0.1, beta: -0.05, "gemini-1.5-flash": 0, human: 0.2};
  const bob: Record<string, number> = {alpha: 0, beta: 0.1, "gemini-1.5-flash": 0, human: -0.1};
  for (const delta_a of [0.8, 0.9])
    for (const money of [100, 10000])
      for (const horizon of [12, null])
        for (const complete_information of [true, false])
          for (const messages of [true, false])
            for (const a of agents)
              for (const b of agents) {
                const market = (complete_information ? 0 : 0.05) + (messages ? 0.1 : 0) + (horizon === null ? 0 : -0.03);
                const base = 0.4 + (delta_a === 0.8 ? -0.02 : 0) + (money === 100 ? 0.01 : 0) + market;
                rows.push({
                  family: "bargaining", alice_agent: a, bob_agent: b, delta_a, delta_b: 0.9, money, horizon, complete_information, messages,
                  efficiency: base + 0.02 * (random() - 0.5) * noise * 100,
                  fairness: 0.5,
                  alice_self_gain: base + alice[a] - bob[b] / 2 + noise * (random() - 0.5),
                  bob_self_gain: 0.6 - base + bob[b] - alice[a] / 2 + noise * (random() - 0.5),
                });
              }
  return rows;
}

test("levels: Table 8 formatting of numbers and markets", () => {
  assert.equal(formatNumberLevel(10000), "1e4");
  assert.equal(formatNumberLevel(1e6), "1e6");
  assert.equal(formatNumberLevel(1 / 3), "0.333");
  assert.equal(formatNumberLevel(1.25), "1.25");
  assert.equal(marketLevel("bargaining", {family: "bargaining", alice_agent: "x", bob_agent: "y", complete_information: true, messages: false, horizon: null}), "CI=yes, MA=no, T=∞");
  assert.equal(marketLevel("persuasion", {family: "persuasion", alice_agent: "x", bob_agent: "y", complete_information: false, message_type: "text", buyer_type: "myopic"}), "CI=no, msg=text, buyer=myopic");
  assert.deepEqual(marketParts("CI=yes, MA=no, T=12"), [["CI", "yes"], ["MA", "no"], ["T", "12"]]);
  assert.deepEqual(gleeFeatures("negotiation").map((f) => [f.name, f.baseline]), [
    ["factor_a", "1"], ["factor_b", "1"], ["money", "1e4"], ["market", "CI=yes, MA=no, T=1"], ["alice_agent", null], ["bob_agent", null],
  ]);
  assert.deepEqual(gleeFeatures("persuasion", {pairs: true, baselineAgent: "g"}).map((f) => [f.name, f.baseline]), [
    ["prior", "0.5"], ["value_high", "1.25"], ["money", "1e4"], ["market", "CI=yes, msg=binary, buyer=long_living"], ["pair", "g | g"],
  ]);
});

test("GLEE fit recovers market and agent effects, reports grid levels the data lacks", () => {
  const rows = tournament(0.001);
  const fit = fitGlee(rows, {family: "bargaining", metric: "alice_self_gain", holdout: false});
  const get = (feature: string, level: string) => fit.rows.find((r) => r.feature === feature && r.level === level)!;
  assert.equal(fit.baselines.alice_agent, "gemini-1.5-flash");
  assert.equal(fit.baselines.market, "CI=yes, MA=no, T=∞");
  assert.ok(Math.abs(get("alice_agent", "human").coef - 0.2) < 1e-3);
  assert.ok(Math.abs(get("bob_agent", "beta").coef + 0.05) < 1e-3);
  assert.ok(Math.abs(get("market", "CI=no, MA=yes, T=12").coef - (0.05 + 0.1 - 0.03)) < 1e-3);
  assert.ok(Math.abs(get("delta_a", "0.8").coef + 0.02) < 1e-3);
  const absent = fit.dropped.filter((d) => d.reason === "absent").map((d) => `${d.feature}=${d.level}`).sort();
  assert.deepEqual(absent, ["delta_a=0.95", "delta_a=1", "delta_b=0.8", "delta_b=0.95", "delta_b=1", "money=1e6"]);
  assert.match(fit.notes.join("\n"), /delta_b: only one level/);
  const chosen = fitGlee(rows, {family: "bargaining", metric: "alice_self_gain", baselineAgent: "alpha", holdout: false});
  assert.ok(Math.abs(chosen.rows.find((r) => r.feature === "alice_agent" && r.level === "human")!.coef - 0.1) < 1e-3);
  assert.throws(() => fitGlee(rows, {family: "bargaining", metric: "nope" as never}), /unknown metric "nope"/);
});

test("pair effects are relative to the mean outcome: their game-weighted mean is 0", () => {
  const rows = tournament(0.05, 3);
  const fit = fitGlee(rows, {family: "bargaining", metric: "alice_self_gain", pairs: true, holdout: false});
  const effects = pairEffects(fit);
  assert.equal(effects.length, 16);
  const total = effects.reduce((s, e) => s + e.n, 0);
  assert.ok(Math.abs(effects.reduce((s, e) => s + e.effect * e.n, 0) / total) < 1e-12);
  // Balanced design: the effect equals the pair's raw mean minus the overall mean.
  const mean = rows.reduce((s, r) => s + r.alice_self_gain!, 0) / rows.length;
  const e = effects.find((x) => x.alice === "human" && x.bob === "beta")!;
  const own = rows.filter((r) => r.alice_agent === "human" && r.bob_agent === "beta");
  assert.ok(Math.abs(e.effect - (own.reduce((s, r) => s + r.alice_self_gain!, 0) / own.length - mean)) < 1e-10);
  assert.ok(e.ci_low < e.effect && e.effect < e.ci_high && e.se > 0);
});

test("meta-game: adjusted and raw payoffs agree on a balanced tournament; equilibria follow", () => {
  const rows = tournament(0.001, 5);
  const adjusted = metaGame(rows, "bargaining");
  const raw = metaGame(rows, "bargaining", {method: "raw"});
  assert.deepEqual(adjusted.rows, [...agents].sort());
  for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) {
    assert.ok(Math.abs(adjusted.a[i][j] - raw.a[i][j]) < 1e-10);
    assert.ok(Math.abs(adjusted.b[i][j] - raw.b[i][j]) < 1e-10);
  }
  // Alice's payoff rises with her agent's effect (human best) and falls with Bob's; Bob's best is beta: one pure equilibrium.
  const r = findEquilibria(adjusted);
  assert.deepEqual(r.pure.map((e) => `${e.row}/${e.col}`), ["human/beta"]);
  // Unbalanced data: a missing pair removes an agent and is reported.
  const holes = rows.filter((x) => !(x.alice_agent === "alpha" && x.bob_agent === "human"));
  const m = metaGame(holes, "bargaining", {method: "raw"});
  assert.deepEqual(m.missing, ["alpha | human"]);
  assert.equal(m.rows.length + m.cols.length, 7);
});

test("Table 2 and Table 3 views: pp, best/worst marks, baseline rows", async () => {
  const {marketTable, agentTable, formatEffect, markExtremes} = await import("../../src/lib/gleeTables.js");
  const rows = tournament(0.001, 7);
  const eff = fitGlee(rows, {family: "bargaining", metric: "efficiency", holdout: false});
  const fair = fitGlee(rows, {family: "bargaining", metric: "fairness", holdout: false});
  const t2 = marketTable(eff, fair);
  assert.equal(t2.length, 8);
  // Highest efficiency: CI=no (+5), MA=yes (+10), T=∞ (0) → 15 pp, and it is marked best.
  assert.equal(t2[0].market, "CI=no, MA=yes, T=∞");
  assert.ok(Math.abs(t2[0].efficiency!.pp - 15) < 0.5 && t2[0].efficiency!.best);
  assert.deepEqual(t2[0].parts, {CI: "no", MA: "yes", T: "∞"});
  const base = t2.find((r) => r.market === "CI=yes, MA=no, T=12")!;
  assert.ok(base.efficiency!.worst);
  assert.equal(t2.find((r) => r.market === "CI=yes, MA=no, T=∞")!.efficiency!.baseline, true);
  const t3 = agentTable({
    "bargaining/alice": fitGlee(rows, {family: "bargaining", metric: "alice_self_gain", holdout: false}),
    "bargaining/bob": fitGlee(rows, {family: "bargaining", metric: "bob_self_gain", holdout: false}),
  });
  assert.equal(t3[0].agent, "human");
  assert.equal(formatEffect(t3.find((r) => r.agent === "gemini-1.5-flash")!.cells["bargaining/alice"]), "0.0 ± 0.0");
  const marks = [{pp: 3, ci_low: 2, ci_high: 4}, {pp: 2.5, ci_low: 1.5, ci_high: 3.5}, {pp: 0, ci_low: -1, ci_high: 1}].map((e) => ({...e, half: 1, best: false, worst: false, n: 1, baseline: false}));
  markExtremes(marks);
  assert.deepEqual(marks.map((e) => [e.best, e.worst]), [[true, false], [true, false], [false, true]]);
});
