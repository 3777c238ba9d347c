// "runs" in parley.config.json (loaders/ownRuns/configuredRuns.ts): entries resolved
// relative to the config file, globs expanded to directories, every bad
// entry one line naming the file and the entry (the others still used), and
// `addRun` editing the file atomically with its other keys kept.
import {test} from "node:test";
import assert from "node:assert/strict";
import {chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {addRun, expandRunGlob, formatRunProblem, readRuns, runSlug, RunConfigError} from "../../loaders/ownRuns/configuredRuns.js";

/** A scratch project: a config file and run directories (each with a manifest, as `parley run` writes). */
function project(runs: string[], config: Record<string, unknown>): {dir: string; env: NodeJS.ProcessEnv; file: string} {
  const dir = mkdtempSync(join(tmpdir(), "parley-runs-config-"));
  for (const run of runs) {
    mkdirSync(join(dir, run), {recursive: true});
    writeFileSync(join(dir, run, "manifest.json"), "{}");
  }
  const file = join(dir, "parley.config.json");
  writeFileSync(file, JSON.stringify(config));
  return {dir, env: {PARLEY_CONFIG: file}, file};
}

const lines = (env: NodeJS.ProcessEnv) => readRuns(env).problems.map((p) => formatRunProblem(p, "parley.config.json"));

test("entries: strings and objects, relative to the config file, named by directory unless named", () => {
  const {dir, env} = project(["runs/a", "runs/b"], {datasets: "x", runs: ["runs/a", {path: "runs/b", name: "Study B", description: "the second"}]});
  const {runs, problems} = readRuns(env);
  assert.deepEqual(problems, []);
  assert.deepEqual(runs.map((r) => [r.name, r.slug, r.description, r.dir, r.path, r.index]), [
    ["a", "a", null, join(dir, "runs/a"), "runs/a", 0],
    ["Study B", "study-b", "the second", join(dir, "runs/b"), "runs/b", 1],
  ]);
});

test("globs match directories only, sorted, hidden ones left out; each match named by its directory", () => {
  const {dir, env} = project(["runs/sweep-1", "runs/sweep-2", "runs/.sweep-3", "runs/other"], {runs: ["runs/sweep-*", {path: "runs/oth?r", name: "Other"}]});
  writeFileSync(join(dir, "runs/sweep-file"), "");
  assert.deepEqual(expandRunGlob(dir, "runs/sweep-*"), [join(dir, "runs/sweep-1"), join(dir, "runs/sweep-2")]);
  assert.deepEqual(expandRunGlob(dir, "runs/sweep-[2-9]"), [join(dir, "runs/sweep-2")]);
  assert.deepEqual(expandRunGlob(dir, "*/sweep-?"), [join(dir, "runs/sweep-1"), join(dir, "runs/sweep-2")]);
  assert.deepEqual(expandRunGlob(dir, "nowhere/*"), []);
  const {runs} = readRuns(env);
  // A glob matching one directory takes the entry's name.
  assert.deepEqual(runs.map((r) => [r.name, r.path]), [["sweep-1", "runs/sweep-1"], ["sweep-2", "runs/sweep-2"], ["Other", "runs/other"]]);
});

test("bad entries: one line each naming the config file and the entry; the good ones are kept", () => {
  const {dir, env} = project(["runs/ok", "runs/dup"], {
    runs: ["runs/ok", 42, {name: "no path"}, {path: "runs/ok2", colour: "red"}, "runs/missing", "runs/none-*", "runs/empty", "runs/file", {path: "runs/dup", name: "ok"}, {path: "runs/ok", description: 3}],
  });
  mkdirSync(join(dir, "runs/empty"));
  writeFileSync(join(dir, "runs/file"), "");
  assert.deepEqual(readRuns(env).runs.map((r) => r.name), ["ok"]);
  assert.deepEqual(lines(env), [
    'parley.config.json: runs[1]: expected a directory path string or {"path": "...", "name": "...", "description": "..."}; got 42',
    'parley.config.json: runs[2]: "path" must be a non-empty directory path string; got null',
    'parley.config.json: runs[3] "runs/ok2": unknown key "colour" (an entry has "path", "name" and "description")',
    'parley.config.json: runs[4] "runs/missing": directory not found',
    'parley.config.json: runs[5] "runs/none-*": no directory matches',
    'parley.config.json: runs[6] "runs/empty": not a run directory (no game=<id>/ tables, games.parquet or manifest.json; write one with parley run or parley ingest)',
    'parley.config.json: runs[7] "runs/file": is a file, expected a directory written by parley run or parley ingest',
    'parley.config.json: runs[8] "runs/dup": a run named "ok" is listed already; give this one another "name"',
    'parley.config.json: runs[9] "runs/ok": "description" must be a string; got 3',
  ]);
});

test('"runs" that is not a list, an unreadable directory, and no "runs" at all', () => {
  assert.deepEqual(lines(project([], {runs: "runs/a"}).env), ['parley.config.json: "runs": expected a list of run entries (each a directory path string or {"path": "...", "name": "...", "description": "..."})']);
  const none = project([], {datasets: "x"});
  assert.deepEqual(readRuns(none.env), {configPath: none.file, runs: [], problems: []});
  assert.deepEqual(readRuns({PARLEY_CONFIG: join(tmpdir(), "parley-no-such-config.json")}).runs, []);
  if (process.getuid?.() !== 0) {
    const {dir, env} = project(["runs/locked"], {runs: ["runs/locked"]});
    chmodSync(join(dir, "runs/locked"), 0o000);
    try {
      assert.deepEqual(lines(env), ['parley.config.json: runs[0] "runs/locked": cannot be read (EACCES)']);
    } finally {
      chmodSync(join(dir, "runs/locked"), 0o755);
    }
  }
});

test("slugs: lower-case letters, digits and dashes, distinct", () => {
  assert.equal(runSlug("GPT-4o vs Claude (May)"), "gpt-4o-vs-claude-may");
  assert.equal(runSlug("***"), "run");
  const {env} = project(["a/x", "b/x"], {runs: [{path: "a/x", name: "X!"}, {path: "b/x", name: "x?"}]});
  assert.deepEqual(readRuns(env).runs.map((r) => r.slug), ["x", "x-2"]);
});

test("addRun: appends relative to the config file, keeps the other keys, updates an entry naming the same directory", async () => {
  const {dir, env, file} = project(["runs/a", "runs/b"], {datasets: "../shared/datasets", prices: {m: 1}, runs: ["runs/a"]});
  const first = await addRun(join(dir, "runs/b"), {name: "B"}, env);
  assert.deepEqual(first, {configPath: file, entry: {path: "runs/b", name: "B"}, added: true});
  assert.deepEqual(JSON.parse(readFileSync(file, "utf8")), {datasets: "../shared/datasets", prices: {m: 1}, runs: ["runs/a", {path: "runs/b", name: "B"}]});
  // Again, with a description: the same entry, name kept.
  const again = await addRun(join(dir, "runs/b/"), {description: "second"}, env);
  assert.equal(again.added, false);
  assert.deepEqual(JSON.parse(readFileSync(file, "utf8")).runs, ["runs/a", {path: "runs/b", name: "B", description: "second"}]);
  // No temp file is left beside the config.
  assert.deepEqual(readdirSync(dir).sort(), ["parley.config.json", "runs"]);
  assert.deepEqual(readRuns(env).runs.map((r) => r.name), ["a", "B"]);
});

test("addRun refuses, in one line, a missing directory, a taken name, a broken config; and creates a missing config", async () => {
  const {dir, env, file} = project(["runs/a", "runs/b"], {runs: [{path: "runs/a", name: "A"}]});
  const before = readFileSync(file, "utf8");
  await assert.rejects(addRun(join(dir, "runs/nope"), {}, env), (e) => e instanceof RunConfigError && e.message === `${join(dir, "runs/nope")}: directory not found`);
  await assert.rejects(addRun(join(dir, "runs/b"), {name: "A"}, env), (e) => e instanceof RunConfigError && e.message === `${file}: runs[0] "runs/a": already has the name "A"; choose another --name`);
  assert.equal(readFileSync(file, "utf8"), before, "the config is untouched");
  writeFileSync(file, "{not json");
  await assert.rejects(addRun(join(dir, "runs/b"), {}, env), (e) => e instanceof RunConfigError && e.message.startsWith(`${file}: not valid JSON`));
  writeFileSync(file, JSON.stringify({runs: {}}));
  await assert.rejects(addRun(join(dir, "runs/b"), {}, env), (e) => e instanceof RunConfigError && e.message.startsWith(`${file}: "runs": expected a list`));
  const fresh = join(dir, "new.config.json");
  await addRun(join(dir, "runs/b"), {}, {PARLEY_CONFIG: fresh});
  assert.deepEqual(JSON.parse(readFileSync(fresh, "utf8")), {runs: ["runs/b"]});
});
