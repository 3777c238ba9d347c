// Hostile and careless configs and ids, through the real command line: a
// partition folder whose name is not a valid %-escape, arrays nested 100,000
// deep, keys given twice, a grid value listed twice, a description of
// megabytes, and game ids of 20 MB or with control and bidirectional
// characters. Each is one line naming the file and the key or field, with
// exit code 2 and nothing written; never a stack trace.
import {test} from "node:test";
import assert from "node:assert/strict";
import {cpSync, existsSync, mkdirSync, readdirSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {parley, scratch, type Done} from "../support/cli.js";
import {writeSmallGleeConfig} from "../support/smallGleeRun.js";
import {nodeEngine} from "../../loaders/study/engine.js";
import {startSession} from "../../loaders/study/session.js";
import {datasetsConfig} from "../../loaders/projectConfig.js";
import {idProblem} from "../../loaders/io/ids.js";

const {dir: tempDir} = scratch("parley-hostile-configs-");

/** One line on stderr, no stack, exit code 2, matching `pattern`. */
function oneLine(r: Done, pattern: RegExp): void {
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stderr.split("\n").filter(Boolean).length, 1, `one line, got:\n${r.stderr.slice(0, 2000)}`);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
  assert.match(r.stderr, pattern);
}

const small = {delta_a: [0.9], delta_b: [0.8], money: [1000], horizon: [12], complete_information: [true], messages: [true]};

test("a run holding a game=%E0%A4%A folder: report, metrics and runs list name the folder in one line", async () => {
  const dir = tempDir();
  const run = join(dir, "run");
  assert.equal((await parley(["run", writeSmallGleeConfig(dir, 1), "--out", run, "--quiet"])).code, 0);
  mkdirSync(join(run, "game=%E0%A4%A"));
  const named = /run\/game=%E0%A4%A: not a partition folder name \(game=<id> with the id %-encoded\)/;
  oneLine(await parley(["report", run, "--out", join(dir, "site")]), named);
  assert.equal(existsSync(join(dir, "site")), false);
  oneLine(await parley(["metrics", run]), named);
  const config = join(dir, "parley.config.json");
  writeFileSync(config, JSON.stringify({runs: ["run"]}));
  const listed = await parley(["runs", "list", "--json"], {PARLEY_CONFIG: config});
  assert.equal(listed.code, 0, listed.stderr);
  assert.match(JSON.parse(listed.stdout).problems[0], named);
});

test("arrays nested 100,000 deep in a run config, an experiment or parley.config.json are one line naming the file", async () => {
  const dir = tempDir();
  const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
  const config = join(dir, "deep.json");
  writeFileSync(config, `{"family": "bargaining", "players": ["fair"],\n "grid": {"money": ${deep}}}`);
  oneLine(await parley(["run", config, "--out", join(dir, "out")]), /deep\.json: line 2, column \d+ \(grid\.money\[0\]\[0\]\[0\]\[0\].*\): nested deeper than 32 levels/);
  assert.equal(existsSync(join(dir, "out")), false);
  const experiment = join(dir, "experiment.json");
  writeFileSync(experiment, `{"id": "x", "conditions": ${deep}}`);
  oneLine(await parley(["play", "--config", experiment, "--out", join(dir, "play")]), /experiment\.json: line 1, column \d+ \(conditions\[0\].*\): nested deeper than 32 levels/);
  const project = join(dir, "parley.config.json");
  writeFileSync(project, `{"runs": ${deep}}`);
  oneLine(await parley(["runs", "list"], {PARLEY_CONFIG: project}), /parley\.config\.json: line 1, column \d+ \(runs\[0\].*\): nested deeper than 32 levels/);
  oneLine(await parley(["runs", "add", dir], {PARLEY_CONFIG: project}), /parley\.config\.json: line 1, column \d+ .*nested deeper than 32 levels/);
});

test("a key given twice in a run config, an experiment or parley.config.json is refused, naming it", async () => {
  const dir = tempDir();
  const config = join(dir, "twice.json");
  writeFileSync(config, `{"family": "bargaining", "players": ["fair", "greedy"],\n  "seed": 1,\n  "grid": {"money": [100], "money": [1000]}}`);
  oneLine(await parley(["run", config, "--out", join(dir, "out")]), /twice\.json: line 3, column \d+ \(grid\.money\): "money" is given twice in one object \(also at line 3\); give each key once/);
  assert.equal(existsSync(join(dir, "out")), false);
  const experiment = join(dir, "experiment.json");
  writeFileSync(experiment, `{"id": "x", "id": "y"}`);
  oneLine(await parley(["play", "--config", experiment, "--out", join(dir, "play")]), /experiment\.json: line 1, column \d+ \(id\): "id" is given twice/);
  const project = join(dir, "parley.config.json");
  writeFileSync(project, `{"runs": ["a"], "runs": ["b"]}`);
  oneLine(await parley(["runs", "list"], {PARLEY_CONFIG: project}), /parley\.config\.json: line 1, column \d+ \(runs\): "runs" is given twice/);
});

test("a grid value or GLEE family listed twice, a run_id that is not an id, and a description of a megabyte are refused, naming the key", async () => {
  const dir = tempDir();
  const cases: [Record<string, unknown>, RegExp][] = [
    [{family: "bargaining", players: ["fair"], grid: {...small, money: [100, 1000, 100]}}, /: grid\.money\[2\]: 100 is listed twice \(also grid\.money\[0\]\); a value listed twice would play its games twice\n$/],
    [{family: ["bargaining", "bargaining"], players: ["fair"], grid: {bargaining: small}}, /: family\[1\]: "bargaining" is listed twice \(also family\[0\]\)/],
    [{family: "bargaining", players: ["fair"], grid: small, run_id: "a\u001b[2Jb"}, /: run_id: expected an id of 1 to 256 characters without control, line-separator or bidirectional-format characters, got "a\\u001b\[2Jb"/],
    [{family: "bargaining", players: ["fair"], grid: small, description: "x".repeat(1 << 20)}, /: description: expected at most 10,000 characters, got 1,048,576\n$/],
  ];
  for (const [config, pattern] of cases) {
    const file = join(dir, "config.json");
    writeFileSync(file, JSON.stringify(config));
    oneLine(await parley(["run", file, "--out", join(dir, "out")]), pattern);
    assert.equal(existsSync(join(dir, "out")), false);
  }
});

test("the id rule: printable, no control, line-separator or bidirectional-format characters, at most 256 characters", () => {
  for (const good of ["glee-human/bargaining/0A1B", "gamabench/guessing/gpt-4/v1/1", "h.bargaining", "ü-日本-😀", "a".repeat(256)]) assert.equal(idProblem(good), null, good);
  for (const bad of ["", "a\u0000b", "a\u001bb", "a\u202eb", "a\u2066b", "a\u200fb", "a\u2028b", "a\u0085b", "a\ud800b", "a".repeat(257)]) assert.notEqual(idProblem(bad), null, JSON.stringify(bad));
});

test("ingest human: a 20 MB game_id or one with NUL, ESC or a right-to-left override is refused, naming the file and the field", async () => {
  const dir = tempDir();
  const files: string[] = [];
  for (const [name, id] of [["huge", "g".repeat(20 << 20)], ["nul", "a\u0000b"], ["esc", "a\u001b]0;pwned\u0007b"], ["rlo", "evil\u202egnp.exe"]] as const) {
    const s = await startSession({game: "glee/bargaining", params: {money: 100}, seats: ["rubinstein", "human"], seed: 1, game_id: "placeholder"}, nodeEngine);
    for (let p = s.pending(); p; p = s.pending()) await s.submit({type: "decision", decision: "accept"});
    const record = s.record() as {spec: {game_id: string}; rows?: unknown};
    record.spec.game_id = id;
    delete record.rows;
    const path = join(dir, `${name}.json`);
    writeFileSync(path, JSON.stringify(record));
    files.push(path);
  }
  const r = await parley(["ingest", "human", ...files, "--out", join(dir, "out")]);
  assert.equal(r.code, 2, r.stderr);
  const lines = r.stderr.trim().split("\n");
  assert.equal(lines.length, 5, r.stderr.slice(0, 3000));
  for (const [i, name] of ["huge", "nul", "esc", "rlo"].entries()) assert.match(lines[i], new RegExp(`${name}\\.json: spec\\.game_id: expected an id of 1 to 256 characters`));
  assert.ok(lines[0].length < 400, "the 20 MB id is not printed whole");
  assert.doesNotMatch(r.stderr, /[\u0000\u001b\u202e]/);
  assert.match(lines[4], /none of the 4 files is a playable record; nothing written/);
  assert.equal(existsSync(join(dir, "out", "game=glee%2Fbargaining")), false);
});

const datasets = datasetsConfig().dir;
const noGlee = !datasets || !existsSync(join(datasets, "glee-human")) ? "real datasets not found; set PARLEY_DATASETS" : false;

test("ingest glee: a game folder whose name carries an escape sequence is a problem naming it; the other games are kept", {skip: noGlee}, async () => {
  const dir = tempDir();
  const family = join(datasets!, "glee-human", "bargaining");
  const [first, second] = readdirSync(family).sort();
  cpSync(join(family, first), join(dir, "in", "bargaining", first), {recursive: true});
  cpSync(join(family, second), join(dir, "in", "bargaining", "x\u001b[31mred\u202e"), {recursive: true});
  const r = await parley(["ingest", "glee", join(dir, "in"), "--out", join(dir, "out")]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /bargaining\/x\\x1b\[31mred.*, field game_id: expected an id of 1 to 256 characters/);
  assert.doesNotMatch(r.stderr, /[\u001b\u202e]/);
  assert.match(r.stderr, /games written: 1|games: 1/);
});
