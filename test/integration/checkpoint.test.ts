// Checkpoint files (loaders/runner/checkpoint.ts) on a real directory: any game id round-trips, distinct ids never share a file,
// directories written by the earlier naming scheme still resume, and temp files of dead writers are removed.
import {test} from "node:test";
import assert from "node:assert/strict";
import {spawnSync} from "node:child_process";
import {existsSync, mkdtempSync, readdirSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {Checkpoints, checkpointFileName, CheckpointConflict} from "../../loaders/runner/checkpoint.js";
import type {GameRecord} from "../../loaders/runner/tournament.js";

const IDS = [
  "bargaining-0-rubinstein-vs-fair-0",
  "a~b",
  "a/b",
  "a%2Fb",
  "a~2Fb",
  "a%7Eb",
  "a~7Eb",
  "%",
  "~~",
  "~",
  "%%7E",
  ".",
  "..",
  ".hidden",
  "A",
  "a",
  "",
  "bargaining-0-" + "x".repeat(300) + "-vs-y-0",
  "bargaining-0-" + "é".repeat(200) + "-0",
  "joueur-ü/😀-vs-玩家-0",
  "con",
  "a b\nc\u0000d",
];

const game = (game_id: string) => ({game_id, source: "simulated", family: "bargaining"});
/** A checkpoint record: one game's rows in the three tables. */
const record = (game_id: string, turns: Record<string, unknown>[] = []): GameRecord => ({game: "glee/bargaining", row: game(game_id), players: [], turns: turns as never});

test("every id gets its own short file name, and a fresh Checkpoints reads every game back under its id", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-ckpt-"));
  const names = IDS.map(checkpointFileName);
  assert.equal(new Set(names).size, IDS.length, "two ids share a file name");
  assert.equal(new Set(names.map((n) => n.toLowerCase())).size, IDS.length, "two names differ only in case");
  for (const n of names) assert.ok(Buffer.byteLength(n) <= 120 && !n.startsWith(".") && !n.includes("/"), n);

  const first = new Checkpoints(dir);
  for (const [i, id] of IDS.entries()) await first.save(record(id, [{game_id: id, turn: i}]));
  assert.equal(readdirSync(dir).length, IDS.length);

  const again = new Checkpoints(dir);
  assert.equal(again.size, IDS.length);
  for (const [i, id] of IDS.entries()) {
    assert.ok(again.has(id), id);
    assert.deepEqual(again.read(id), record(id, [{game_id: id, turn: i}]));
  }
  assert.equal(again.has("a~c"), false);
  assert.equal(again.read("a~c"), null);
});

/** The naming of the version before this one: not injective ("a/b" and "a~2Fb" share a name) and not always decodable ("a~b"). */
const legacyName = (id: string) => encodeURIComponent(id).replace(/%/g, "~") + ".json";

test("a directory written by the earlier naming scheme resumes: ids come from the files, none is lost or played twice", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-ckpt-legacy-"));
  // "a/b" and "a~2Fb" collided there: the file holds whichever finished last, and the other must be played again.
  for (const id of ["a~b", "%", "~~", "a/b", "joueur-ü"]) writeFileSync(join(dir, legacyName(id)), JSON.stringify({game: game(id), turns: []}) + "\n");
  const checkpoints = new Checkpoints(dir);
  // Files of that version hold a GLEE games row and its turns; they are read back as records.
  for (const id of ["a~b", "%", "~~", "a/b", "joueur-ü"]) {
    const r = checkpoints.read(id)!;
    assert.deepEqual([r.game, r.row.game_id, r.players.length, r.turns], ["glee/bargaining", id, 2, []]);
  }
  assert.equal(checkpoints.has("a~2Fb"), false, "the colliding id is not taken as done");
  await checkpoints.save(record("a~2Fb"));
  const resumed = new Checkpoints(dir);
  assert.equal(resumed.size, 6);
  assert.equal(resumed.read("a/b")!.row.game_id, "a/b");
  assert.equal(resumed.read("a~2Fb")!.row.game_id, "a~2Fb");
});

test("an unreadable checkpoint is refused with one line naming the file; a dead writer's temp file is removed", () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-ckpt-bad-"));
  const dead = spawnSync(process.execPath, ["-e", ""]).pid!;
  const stale = `.x.json.tmp-${dead}-0badc0de`;
  const live = `.y.json.tmp-${process.pid}-0badc0de`;
  writeFileSync(join(dir, stale), "{");
  writeFileSync(join(dir, live), "{");
  new Checkpoints(dir);
  assert.equal(existsSync(join(dir, stale)), false);
  assert.equal(existsSync(join(dir, live)), true, "a live writer's file is kept");
  writeFileSync(join(dir, "old~2Fname.json"), "{\"game\": ");
  assert.throws(() => new Checkpoints(dir), (e: Error) => e instanceof CheckpointConflict && /old~2Fname\.json: unreadable checkpoint .*; delete it to replay that game$/.test(e.message));
});
