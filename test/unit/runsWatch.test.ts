// `parley dev` watching configured runs (loaders/ownRuns/watch.ts): a finished
// game (a new checkpoint), the run finishing (its lock gone, its manifest
// written) and a new entry in "runs" each touch the run loader once; no
// change, no touch. Checks are called directly (no timers).
import {test} from "node:test";
import assert from "node:assert/strict";
import {mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync} from "node:fs";
import {hostname, tmpdir} from "node:os";
import {join} from "node:path";
import {runsFingerprint, watchRuns} from "../../loaders/ownRuns/watch.js";

test("a run's new checkpoint, its end, and a new configured run each touch the loader", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-runs-watch-"));
  const run = join(dir, "runs", "going");
  mkdirSync(join(run, ".parley", "checkpoints"), {recursive: true});
  writeFileSync(join(run, ".parley", "lock"), JSON.stringify({pid: process.pid, host: hostname(), started: new Date().toISOString(), command: "run"}));
  const config = join(dir, "parley.config.json");
  writeFileSync(config, JSON.stringify({runs: ["runs/going"]}));
  const loader = join(dir, "loader.ts");
  writeFileSync(loader, "");
  const past = new Date(Date.now() - 60_000);
  const env = {PARLEY_CONFIG: config};
  let prepared = 0;
  let changes = 0;
  const watcher = watchRuns(env, {interval: 0, loader, prepare: async () => prepared++, onChange: () => changes++});
  const touched = async () => {
    utimesSync(loader, past, past);
    const changed = await watcher.check();
    return changed && statSync(loader).mtimeMs > past.getTime() + 1000;
  };

  assert.equal(await touched(), false, "nothing changed");
  writeFileSync(join(run, ".parley", "checkpoints", "a.json"), "{}");
  assert.equal(await touched(), true, "a finished game");
  assert.equal(await touched(), false, "looked again: no change");
  rmSync(join(run, ".parley", "lock"));
  writeFileSync(join(run, "manifest.json"), "{}");
  assert.equal(await touched(), true, "the run finished");
  mkdirSync(join(dir, "runs", "next"));
  writeFileSync(join(dir, "runs", "next", "manifest.json"), "{}");
  writeFileSync(config, JSON.stringify({runs: ["runs/going", "runs/next"]}));
  assert.equal(await touched(), true, "a run added to the config");
  assert.deepEqual([prepared, changes], [3, 3]);
  watcher.stop();
});

test("a config that cannot be read is a fingerprint too (the watcher never throws for it)", () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-runs-watch-"));
  const config = join(dir, "parley.config.json");
  writeFileSync(config, "{broken");
  assert.match(runsFingerprint({PARLEY_CONFIG: config}), /^config: .*not valid JSON/);
});
