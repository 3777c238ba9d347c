// Finding one game (src/lib/gameFinder.ts): the search and filters of the games table,
// one count of decimals per column, the parameters that tell games apart; and the
// line-end labels of the GLEE parameter chart moved apart (src/components/gleeCharts.ts).
import {test} from "node:test";
import assert from "node:assert/strict";
import {columnDecimals, columnFormat, filterGames, varyingParameters} from "../../src/lib/gameFinder.js";
import {spreadLabels} from "../../src/components/gleeCharts.js";

const games = [
  {game_id: "g1", parameters: "delta_a=0.9, money=1000", agreement: true, rule_breaks: 0, ended_by: "agreement"},
  {game_id: "g2", parameters: "delta_a=0.95, money=1000", agreement: false, rule_breaks: 2, ended_by: "horizon"},
  {game_id: "g3", parameters: "delta_a=0.9, money=1000", agreement: false, rule_breaks: 0, ended_by: "horizon"},
  {game_id: "g4", parameters: "delta_a=0.95, money=1000", agreement: true, rule_breaks: 1, ended_by: "agreement"},
];

test("the games table's filters: no agreement, rule breaks, and search words that must all appear", () => {
  assert.deepEqual(filterGames(games).map((g) => g.game_id), ["g1", "g2", "g3", "g4"]);
  assert.deepEqual(filterGames(games, {noAgreement: true}).map((g) => g.game_id), ["g2", "g3"]);
  assert.deepEqual(filterGames(games, {ruleBreaks: true}).map((g) => g.game_id), ["g2", "g4"]);
  assert.deepEqual(filterGames(games, {noAgreement: true, ruleBreaks: true}).map((g) => g.game_id), ["g2"]);
  assert.deepEqual(filterGames(games, {search: "0.95"}).map((g) => g.game_id), ["g2", "g4"]);
  assert.deepEqual(filterGames(games, {search: "  HORIZON   delta_a=0.9 "}).map((g) => g.game_id), ["g2", "g3"], "case and spaces do not matter; 0.9 is in 0.95");
  assert.deepEqual(filterGames(games, {search: "horizon delta_a=0.9,"}).map((g) => g.game_id), ["g3"], "a word is matched as written, its comma too");
  assert.deepEqual(filterGames(games, {search: "g3"}).map((g) => g.game_id), ["g3"]);
  // Uncounted rule breaks (null) never pass the filter; an unknown agreement (persuasion) is not "no agreement".
  assert.deepEqual(filterGames([{game_id: "x", rule_breaks: null, agreement: null}], {ruleBreaks: true}), []);
  assert.deepEqual(filterGames([{game_id: "x", agreement: null}], {noAgreement: true}), []);
});

test("a column of numbers is written with one count of decimals: the most any value needs, up to the cap", () => {
  assert.equal(columnDecimals([1, 2, 30]), 0);
  assert.equal(columnDecimals([0.5, 1, 0.25]), 2);
  assert.equal(columnDecimals([1 / 3, 1]), 3);
  assert.equal(columnDecimals([1 / 3, 1], 5), 5);
  assert.equal(columnDecimals([null, "x", NaN, 2.5]), 1);
  const format = columnFormat([0.5, 1, 0.25, null, 1234.5]);
  assert.deepEqual([0.5, 1, 0.25, null, 1234.5].map(format), ["0.50", "1.00", "0.25", "–", "1,234.50"]);
  assert.deepEqual([550, 450].map(columnFormat([550, 450])), ["550", "450"]);
});

test("parameter lists keep what tells the games apart; what all share is left out", () => {
  assert.deepEqual(varyingParameters(games.map((g) => g.parameters)), ["delta_a=0.9", "delta_a=0.95", "delta_a=0.9", "delta_a=0.95"]);
  assert.deepEqual(varyingParameters(["a=1, b=2", "a=1, b=2"]), ["", ""]);
  assert.deepEqual(varyingParameters(["a=1, b=2", null]), ["a=1, b=2", ""]);
  assert.deepEqual(varyingParameters([]), []);
});

test("line-end labels are moved apart by at least the gap, as little as possible, in their order", () => {
  // Far apart: unchanged.
  assert.deepEqual(spreadLabels([0, 10, 20], 1), [0, 10, 20]);
  // Two at the same place: centred on it, one gap apart.
  assert.deepEqual(spreadLabels([5, 5], 2), [4, 6]);
  // Three close ones, given out of order: by hand, the block [0.1, 0.2, 0.3] centred on 0.2 with gap 1 → -0.8, 0.2, 1.2; 5 stays.
  const out = spreadLabels([0.3, 5, 0.1, 0.2], 1);
  assert.deepEqual(out.map((y) => Number(y.toFixed(9))), [1.2, 5, -0.8, 0.2]);
  // A block that grows into the next one merges with it: [0, 0, 1.5] with gap 1 → mean 0.5, at -0.5, 0.5, 1.5.
  assert.deepEqual(spreadLabels([0, 0, 1.5], 1), [-0.5, 0.5, 1.5]);
  // Any input: neighbours at least the gap apart, order kept.
  const ys = [3, 3.1, 2.9, 7, 7, 7.2, 0];
  const spread = spreadLabels(ys, 0.5);
  const sorted = ys.map((y, i) => [y, i]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(([, i]) => spread[i]);
  for (let i = 1; i < sorted.length; i++) assert.ok(sorted[i] - sorted[i - 1] >= 0.5 - 1e-12, `${sorted}`);
});
