// Finding one game (src/lib/gameFinder.ts): the search and filters of the games table (one per parameter),
// one count of decimals per column, the parameters that tell games apart; and the
// line-end labels of the GLEE parameter chart moved apart (src/components/gleeCharts.ts).
import {test} from "node:test";
import assert from "node:assert/strict";
import {columnDecimals, columnFormat, filterGames, MAX_CHOICES, parameterColumns, parameterText, parameterValue, parseParameters, passes, sharedParameters} from "../../src/lib/gameFinder.js";
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

test("parameter lists: values as numbers (100.0 is 100, ∞ unbounded) or text; the parameters that tell games apart, each with its values and filter; what all share", () => {
  assert.deepEqual([...parseParameters("delta_a=0.9, money=100.0, horizon=∞, complete_information=true, message_type=text")], [
    ["delta_a", 0.9], ["money", 100], ["horizon", Infinity], ["complete_information", "true"], ["message_type", "text"],
  ]);
  assert.deepEqual([...parseParameters(null)], []);
  assert.deepEqual(["1e3", "-2", ".5", "1.", "0x10", "", "12abc", "NaN"].map(parameterValue), [1000, -2, 0.5, 1, "0x10", "", "12abc", "NaN"]);
  const lists = ["delta_a=0.9, money=1000.0, horizon=∞, info=true", "delta_a=0.95, money=1000.0, horizon=12, info=false", "delta_a=0.9, money=1000.0, horizon=3, info=true"];
  assert.deepEqual(parameterColumns(lists), [
    {name: "delta_a", values: [0.9, 0.95], numeric: true, filter: "select"},
    {name: "horizon", values: [3, 12, Infinity], numeric: true, filter: "select"},
    {name: "info", values: ["false", "true"], numeric: false, filter: "select"},
  ]);
  assert.deepEqual(sharedParameters(lists), [["money", 1000]]);
  assert.deepEqual(sharedParameters(["a=1, b=2", "a=1, b=2"]), [["a", 1], ["b", 2]]);
  assert.deepEqual(parameterColumns(["a=1, b=2", "a=1, b=2"]), []);
  // A parameter some lists lack is not shared: it gets a column (the others' value, and none).
  assert.deepEqual(sharedParameters(["a=1, b=2", "a=1"]), [["a", 1]]);
  assert.deepEqual(parameterColumns(["a=1, b=2", "a=1"]).map((c) => [c.name, c.values]), [["b", [2]]]);
  // Many numbers: a range; as many texts: still a select; numbers before texts when mixed.
  const many = Array.from({length: MAX_CHOICES + 1}, (_, i) => `price=${i * 2.5}, who=p${i}`);
  assert.deepEqual(parameterColumns(many).map((c) => [c.name, c.filter, c.values.length]), [["price", "range", MAX_CHOICES + 1], ["who", "select", MAX_CHOICES + 1]]);
  assert.deepEqual(parameterColumns(Array.from({length: MAX_CHOICES}, (_, i) => `price=${i}`))[0].filter, "select");
  assert.deepEqual(parameterColumns(["x=b", "x=2", "x=a", "x=∞"])[0].values, [2, Infinity, "a", "b"]);
  assert.deepEqual([0.5, 1000000, Infinity, "text", null].map((v) => parameterText(v as never)), ["0.5", "1,000,000", "∞", "text", "–"]);
});

test("a filter per parameter: the value chosen (as a number, so 100 is 100.0), or a range with open ends, combined with the other filters", () => {
  assert.equal(passes(100, {equals: 100}), true);
  assert.equal(passes("100", {equals: 100}), false, "a number is not the text of one");
  assert.equal(passes(Infinity, {min: 10, max: null}), true);
  assert.equal(passes(Infinity, {min: null, max: 1e12}), false, "∞ is above any bound");
  assert.equal(passes(null, {min: null, max: null}), false, "a game without the parameter is not in a range");
  const rows = [
    {game_id: "a", agreement: true, "parameter:money": 100, "parameter:delta": 0.9},
    {game_id: "b", agreement: false, "parameter:money": 10000, "parameter:delta": 0.95},
    {game_id: "c", agreement: false, "parameter:money": 100, "parameter:delta": 0.95},
    {game_id: "d", agreement: true, "parameter:money": 1000000, "parameter:delta": 1},
  ];
  const ids = (filters: Parameters<typeof filterGames>[1]) => filterGames(rows, filters).map((r) => r.game_id);
  assert.deepEqual(ids({columns: {"parameter:money": {equals: 100}}}), ["a", "c"]);
  assert.deepEqual(ids({columns: {"parameter:money": {equals: 100}, "parameter:delta": {equals: 0.95}}}), ["c"]);
  assert.deepEqual(ids({columns: {"parameter:delta": {min: 0.95, max: null}}}), ["b", "c", "d"]);
  assert.deepEqual(ids({columns: {"parameter:delta": {min: 0.9, max: 0.95}}, noAgreement: true}), ["b", "c"]);
  assert.deepEqual(ids({columns: {"parameter:money": {min: 200, max: 20000}}}), ["b"]);
  assert.deepEqual(ids({columns: {"parameter:money": {equals: 5}}}), []);
  // ∞ and NaN in a column of numbers: ∞ written as such, NaN as none.
  assert.deepEqual([12, Infinity, NaN].map(columnFormat([12, Infinity])), ["12", "∞", "–"]);
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
