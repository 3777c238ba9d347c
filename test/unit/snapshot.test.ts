// A page's first-view snapshot: what the build records is what the page reads
// back, and the page asks DuckDB only for what the snapshot lacks (once).
import {test} from "node:test";
import assert from "node:assert/strict";
import {recordSnapshot, snapshotAsker, snapshotKey, type Computation, type Query} from "../../src/lib/snapshot.js";

const table = [
  {game: "a", score: 1.5, tags: ["x", "y"], ok: true},
  {game: "b", score: null, tags: [], ok: false},
];

/** A fake engine over `table` that counts the questions it is asked. */
function engine() {
  const asked: string[] = [];
  const query: Query = async (sql, params = []) => {
    asked.push(snapshotKey("query", sql, params));
    if (sql === "all") return table.map((r) => ({...r}));
    if (sql === "one") return table.filter((r) => r.game === params[0]);
    throw new Error(`unknown question ${sql}`);
  };
  return {asked, query};
}

const count: Computation<{min: number}, number> = {
  name: "count",
  async compute(query, {min}) {
    return (await query("all")).filter((r) => (r.score ?? 0) >= min).length;
  },
};

test("answers recorded at build time are read back identically, without asking the engine", async () => {
  const build = engine();
  const snapshot = await recordSnapshot(build.query, async ({query, memo}) => {
    await query("all");
    await query("one", ["b"]);
    await memo(count, {min: 1});
  });
  // Through JSON, as the page receives it.
  const stored = JSON.parse(JSON.stringify(snapshot));
  assert.deepEqual(Object.keys(stored).length, 3, "two queries and one computation (its own query is not stored)");
  const page = engine();
  const asker = snapshotAsker(async () => stored, page.query);
  assert.deepEqual(await asker.query("all"), table);
  assert.deepEqual(await asker.query("one", ["b"]), [table[1]]);
  assert.equal(await asker.memo(count, {min: 1}), 1);
  assert.deepEqual(page.asked, [], "nothing was asked of the engine");
});

test("questions the snapshot lacks go to the engine, each once", async () => {
  const page = engine();
  const asker = snapshotAsker(async () => ({}), page.query);
  assert.deepEqual(await asker.query("one", ["a"]), [table[0]]);
  assert.equal(await asker.memo(count, {min: 0}), 2);
  assert.equal(await asker.memo(count, {min: 2}), 0);
  assert.deepEqual(await asker.query("one", ["a"]), [table[0]]);
  assert.deepEqual(page.asked, [snapshotKey("query", "one", ["a"]), snapshotKey("query", "all", [])], "a repeated question is answered from memory");
  // Other parameters or inputs are other questions.
  assert.notEqual(snapshotKey("query", "one", ["a"]), snapshotKey("query", "one", ["b"]));
  assert.notEqual(snapshotKey("memo", "count", {min: 0}), snapshotKey("memo", "count", {min: 2}));
});

test("a failed question is asked again next time", async () => {
  let calls = 0;
  const asker = snapshotAsker(async () => ({}), async () => {
    if (calls++ === 0) throw new Error("HTTP 404");
    return [{n: 1}];
  });
  await assert.rejects(asker.query("x"), /HTTP 404/);
  assert.deepEqual(await asker.query("x"), [{n: 1}]);
});
