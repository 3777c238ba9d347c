// Watching a study as it runs: `parley dev` (Framework's preview) with a
// configured run that `parley run` is still writing (a live lock, finished
// games as checkpoints, no tables yet). The run's run.json, as the preview
// serves it to pages, counts the games in; more finished games, then the
// run's end, show without restarting the preview.
import {test} from "node:test";
import assert from "node:assert/strict";
import {mkdirSync, readdirSync, renameSync, rmSync, writeFileSync} from "node:fs";
import {hostname} from "node:os";
import {join} from "node:path";
import {writeSmallGleeConfig} from "../support/smallGleeRun.js";
import {freePort, parley, scratch, startParley} from "../support/cli.js";
import {withSiteTree} from "../support/fixtureSite.js";

const {dir: tempDir} = scratch("parley-dev-watch-");

/** Asks for `url` until `ok` accepts its JSON (or gives up after `tries` half-seconds); returns the last JSON. */
async function until<T>(url: string, ok: (value: T) => boolean, tries = 240): Promise<T | null> {
  let last: T | null = null;
  for (let i = 0; i < tries; i++) {
    try {
      const response = await fetch(url);
      if (response.ok) {
        last = (await response.json()) as T;
        if (ok(last)) return last;
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return last;
}

interface Info {total: number; running: boolean; games: {game: string; games: number}[]}

test("parley dev shows a configured run's finished games while it runs, then its end", async () => {
  const dir = tempDir();
  const config = writeSmallGleeConfig(dir, 4);
  const name = `going-${process.pid}`; // a name no earlier preview cached
  const run = join(dir, name);
  const played = await parley(["run", config, "--out", run, "--resume"]);
  assert.equal(played.code, 0, played.stderr);
  // Back to the middle of the run: 5 of its 8 games finished, its lock held by a live process (this one), no tables, no manifest.
  const checkpoints = join(run, ".parley", "checkpoints");
  const later = join(dir, "later");
  mkdirSync(later);
  for (const file of readdirSync(checkpoints).sort().slice(5)) renameSync(join(checkpoints, file), join(later, file));
  rmSync(join(run, "game=glee%2Fbargaining"), {recursive: true});
  rmSync(join(run, "manifest.json"));
  writeFileSync(join(run, ".parley", "lock"), JSON.stringify({pid: process.pid, host: hostname(), started: new Date().toISOString(), command: "run"}));
  const configFile = join(dir, "parley.config.json");
  writeFileSync(configFile, JSON.stringify({runs: [name]}));

  // The preview rewrites the site tree's generated files: not while a test process builds the site.
  await withSiteTree(async () => {
    const port = await freePort();
    const {child, done} = startParley(["dev", "--port", String(port)], {PARLEY_CONFIG: configFile}, 600_000);
    try {
      const url = `http://127.0.0.1:${port}/_file/data/runs/${name}/run.json`;
      const first = await until<Info>(url, (i) => i.total === 5);
      assert.deepEqual([first?.total, first?.running, first?.games], [5, true, [{game: "glee/bargaining", games: 5}]]);
      // Three more games finish.
      for (const file of readdirSync(later)) renameSync(join(later, file), join(checkpoints, file));
      const more = await until<Info>(url, (i) => i.total === 8);
      assert.deepEqual([more?.total, more?.running], [8, true]);
      // The run ends: the lock is released and the tables and manifest written (as the finished run left them).
      rmSync(join(run, ".parley", "lock"));
      assert.equal((await parley(["run", config, "--out", run, "--resume"])).code, 0);
      const ended = await until<Info>(url, (i) => !i.running);
      assert.deepEqual([ended?.total, ended?.running], [8, false]);
    } finally {
      child.kill("SIGINT");
      await done;
    }
  });
});
