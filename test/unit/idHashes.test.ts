// RunTables' record of game ids (run/idHashes.ts): exact about repeats, and
// bounded at a few dozen bytes per id, where a Set of a million id strings
// held some 250 MiB (issue 18: `parley run`'s memory grew with its games).
import {test} from "node:test";
import assert from "node:assert/strict";
import {hash64, IdHashes} from "../../loaders/runner/idHashes.js";

test("IdHashes: add is true for a new id and false for one seen before", () => {
  const ids = new IdHashes();
  assert.equal(ids.add("bargaining-0-a-vs-b-0"), true);
  assert.equal(ids.add("bargaining-0-a-vs-b-1"), true);
  assert.equal(ids.add(""), true);
  assert.equal(ids.add("bargaining-0-a-vs-b-0"), false);
  assert.equal(ids.add(""), false);
  assert.equal(ids.size, 3);
  assert.equal(ids.has("bargaining-0-a-vs-b-1"), true);
  assert.equal(ids.has("bargaining-0-a-vs-b-2"), false);
});

test("IdHashes: ids with one hash are all reported as seen, which is why callers confirm a repeat", () => {
  const ids = new IdHashes(() => [7, 9]);
  assert.equal(ids.add("a"), true);
  assert.equal(ids.has("b"), true);
  assert.equal(ids.add("b"), false);
  assert.equal(ids.size, 1);
});

test("IdHashes: a million distinct run-style ids, none reported twice, in at most 32 bytes each", () => {
  const ids = new IdHashes();
  const labels = ["rubinstein-vs-rubinstein", "fair-vs-greedy", "boulware-vs-conceder", "llm-gpt-vs-tit-for-tat"];
  let n = 0;
  for (const stem of ["bargaining", "negotiation", "persuasion"])
    for (let c = 0; c < 576; c++)
      for (const label of labels)
        for (let r = 0; r < 145; r++) {
          assert.equal(ids.add(`${stem}-${c}-${label}-${r}`), true);
          n++;
        }
  assert.equal(n, 1_002_240);
  assert.equal(ids.size, n);
  assert.ok(ids.bytes <= 32 * n, `${ids.bytes} bytes for ${n} ids`);
  assert.equal(ids.bytes, 16 * 2 ** 20, "2^21 slots of 8 bytes once a million ids are in");
  // Every id is still found after the table has doubled many times, and an unseen one is not.
  assert.equal(ids.has("persuasion-575-llm-gpt-vs-tit-for-tat-144"), true);
  assert.equal(ids.has("persuasion-576-llm-gpt-vs-tit-for-tat-0"), false);
  assert.equal(ids.add("persuasion-575-llm-gpt-vs-tit-for-tat-144"), false);
  assert.equal(ids.add("bargaining-0-rubinstein-vs-rubinstein-0"), false);
});

test("hash64: every character counts, ids differing in one place or by length hash apart", () => {
  const base = hash64("negotiation-12-a-vs-b-3");
  for (const other of ["negotiation-12-a-vs-b-4", "negotiation-12-b-vs-a-3", "negotiation-12-a-vs-b-3 ", "Negotiation-12-a-vs-b-3", "négotiation-12-a-vs-b-3"]) {
    assert.notDeepEqual(hash64(other), base, other);
  }
  assert.deepEqual(hash64("negotiation-12-a-vs-b-3"), base, "deterministic");
  assert.notDeepEqual(hash64(""), [0, 0], "0, 0 marks an empty slot");
});
