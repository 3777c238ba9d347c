/**
 * JSON of any shape without recursion (src/lib/untrustedJson.ts): the depth
 * check, the text JSON.stringify would write, and the short preview quoted
 * in rule-break reasons, each checked against JSON.stringify where it can
 * answer and by hand where it overflows.
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {deeperThan, jsonPreview, jsonText} from "../../src/lib/untrustedJson.js";

const DEPTH = 200_000;
const deepText = `${'{"a":'.repeat(DEPTH)}[1,"x"]${"}".repeat(DEPTH)}`;

test("jsonText writes what JSON.stringify writes, key order, escapes and left-out members included", () => {
  const values: unknown[] = [
    null, true, 0, -1.5e-7, "", 'quote " back \\ slash \n line \u2028 and \u{1F600}', [], {}, [[[]]], {a: {b: {c: [1, {d: null}]}}},
    {z: 1, a: 2, 10: 3, 2: 4}, [undefined, () => 1, Symbol("s"), Number.NaN, Infinity], {u: undefined, f: () => 1, s: Symbol("s"), kept: 1}, {d: new Date(0)},
  ];
  for (const v of values) assert.equal(jsonText(v), JSON.stringify(v), String(JSON.stringify(v)));
  assert.equal(jsonText(undefined), undefined);
});

test("JSON nested 200,000 deep: JSON.parse reads it, JSON.stringify overflows, jsonText writes it back and deeperThan answers", () => {
  const value = JSON.parse(deepText);
  assert.throws(() => JSON.stringify(value), RangeError);
  assert.equal(jsonText(value), deepText);
  assert.equal(deeperThan(value, 64), true);
  assert.equal(deeperThan(value, DEPTH + 1), false);
  assert.equal(deeperThan(value, DEPTH), true, "the innermost array is one level below the last object");
  // By hand: a scalar is 0 levels, [] one, {"a": [[]]} three.
  assert.deepEqual([deeperThan(5, 0), deeperThan([], 0), deeperThan([], 1), deeperThan({a: [[]]}, 2), deeperThan({a: [[]]}, 3)], [false, true, false, true, false]);
  // Wide rather than deep: 100,000 siblings are one level.
  assert.equal(deeperThan(Array.from({length: 100_000}, () => ({})), 2), false);
});

test("jsonPreview quotes a value as JSON, cut to 200 characters, whatever its size or depth", () => {
  assert.equal(jsonPreview({alice_gain: "lots"}), '{"alice_gain":"lots"}');
  assert.equal(jsonPreview(undefined), "undefined");
  assert.equal(jsonPreview(null), "null");
  const long = "x".repeat(2_000_000);
  assert.equal(jsonPreview(long), `"${"x".repeat(199)}…`);
  const deep = jsonPreview(JSON.parse(deepText));
  assert.equal(deep, `${'{"a":'.repeat(40)}…`);
  assert.equal(jsonPreview([1, 2, 3], 5), "[1,2,…");
});
