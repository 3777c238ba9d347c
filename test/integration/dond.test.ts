// Deal-or-No-Deal parsing, merging and metrics on dialogues worked by hand.
import {test} from "node:test";
import assert from "node:assert/strict";
import {mkdtempSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {fileURLToPath} from "node:url";
import {ingestDond, parseDondLine} from "../../loaders/papers/gtllm/dond/ingest.js";
import {writeIngest} from "../../loaders/ingest/write.js";
import {queryParquet} from "../../loaders/io/parquet.js";
import {dondGameMetricsSQL, dondStatsSQL} from "../../src/lib/dond.js";

const fixture = fileURLToPath(new URL("../fixtures/dond/hand.txt", import.meta.url));

test("a line parses into counts, both value vectors, utterances and allocations", () => {
  const d = parseDondLine(
    "<input> 1 4 2 1 2 2 </input> <dialogue> YOU: hi <eos> THEM: <selection> </dialogue> <output> item0=1 item1=0 item2=1 item0=0 item1=2 item2=1 </output> <partner_input> 1 2 2 2 2 2 </partner_input>",
    7,
  );
  assert.deepEqual(d.counts, [1, 2, 2]);
  assert.deepEqual(d.values, [4, 1, 2]);
  assert.deepEqual(d.partnerValues, [2, 2, 2]);
  assert.deepEqual(d.mine, [1, 0, 1]);
  assert.deepEqual(d.theirs, [0, 2, 1]);
  assert.deepEqual(d.utterances, [
    {side: "YOU", text: "hi"},
    {side: "THEM", text: "<selection>"},
  ]);
});

test("bad lines say what was expected", () => {
  assert.throws(() => parseDondLine("<input> 1 4 2 1 </input> <dialogue> YOU: hi </dialogue> <output> <disagree> </output> <partner_input> 1 2 2 2 2 2 </partner_input>", 1), /<input>: expected 6 non-negative integers/);
  assert.throws(() => parseDondLine("hello", 1), /expected <input>/);
  assert.throws(
    () => parseDondLine("<input> 1 4 2 1 2 2 </input> <dialogue> YOU: hi </dialogue> <output> item0=1 item1=1 item2=1 item0=1 item1=1 item2=1 </output> <partner_input> 1 2 2 2 2 2 </partner_input>", 1),
    /item0 shares 1 \+ 1 do not add up to the count 1/,
  );
});

test("both perspectives merge into one game; the malformed line is reported and skipped", () => {
  const result = ingestDond(fixture);
  const [games, turns] = result.tables;
  assert.equal(games.rows.length, 3);
  assert.deepEqual(result.summary, {lines_read: 7, dialogues_written: 3, lines_skipped: 1});
  assert.equal(result.problems.length, 1);
  assert.equal(result.problems[0].line, 7);
  assert.match(result.problems[0].message, /<input>: expected 6/);
  const first = games.rows[0];
  assert.equal(first.line_a, 1);
  assert.equal(first.line_b, 2);
  assert.deepEqual(first.values_a, [4, 1, 2]);
  assert.deepEqual(first.values_b, [2, 2, 2]);
  assert.deepEqual(first.alloc_a, [1, 0, 1]);
  assert.deepEqual(first.alloc_b, [0, 2, 1]);
  // Game 3: Bob's line (THEM spoke first) comes from line 6's perspective as well.
  assert.equal(games.rows[2].outcome, "no_agreement");
  assert.equal(games.rows[2].agreement, false);
  assert.deepEqual(turns.rows.filter((t) => t.game_id === "dond-1").map((t) => [t.player, t.action]), [
    ["alice", "message"],
    ["bob", "message"],
    ["alice", "selection"],
  ]);
});

test("metrics match the hand-worked values", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-dond-"));
  await writeIngest(ingestDond(fixture), dir);
  const rows = await queryParquet({games: join(dir, "games.parquet")}, dondGameMetricsSQL("games"));
  const byId = Object.fromEntries(rows.map((r) => [r.game_id, r]));
  // Game 1: c = (1,2,2), v_A = (4,1,2), v_B = (2,2,2), Alice gets (1,0,1).
  // score_A = 4+0+2 = 6, score_B = 0+4+2 = 6; Alice values Bob's bundle at 0+2+2 = 4 ≤ 6, Bob values Alice's at 2+0+2 = 4 ≤ 6: envy free.
  // Any split with both ≥ 6 needs A+B = 10 + 2·x_book − x_hats ≥ 12, so x_book = 1, x_hats = 0 and then only x_balls = 1: Pareto optimal.
  // difficulty = −(|4−2| + |1−2| + |2−2|) = −3.
  assert.deepEqual(
    {...byId["dond-1"]},
    {game_id: "dond-1", difficulty: -3, agreement: true, score_a: 6, score_b: 6, total: 12, envy_free: true, pareto_optimal: true},
  );
  // Game 3 (line 3): Alice takes the two hats only: score_A = 2, Bob gets book + 2 balls = 2+4 = 6.
  // Alice values Bob's bundle at 4+4 = 8 > 2: envy. (6,6) dominates (2,6): not Pareto optimal.
  assert.deepEqual(
    {...byId["dond-3"]},
    {game_id: "dond-3", difficulty: -3, agreement: true, score_a: 2, score_b: 6, total: 8, envy_free: false, pareto_optimal: false},
  );
  // Game 5: no agreement: zero scores, neither envy free nor Pareto optimal; v_A = (3,2,1), v_B = (1,4,2): difficulty −(2+2+1) = −5.
  assert.deepEqual(
    {...byId["dond-5"]},
    {game_id: "dond-5", difficulty: -5, agreement: false, score_a: 0, score_b: 0, total: 0, envy_free: false, pareto_optimal: false},
  );
  const stats = await queryParquet({games: join(dir, "games.parquet")}, dondStatsSQL("games"));
  assert.deepEqual(stats, [
    {difficulty: -3, n: 2, agreement: 1, envy_free: 0.5, pareto_optimal: 0.5, both: 0.5},
    {difficulty: -5, n: 1, agreement: 0, envy_free: 0, pareto_optimal: 0, both: 0},
  ]);
  const cumulative = await queryParquet({games: join(dir, "games.parquet")}, dondStatsSQL("games", {cumulative: true}));
  assert.deepEqual(cumulative.map((r) => [r.difficulty, r.n, r.agreement]), [
    [-3, 2, 1],
    [-5, 3, 2 / 3],
  ]);
});
