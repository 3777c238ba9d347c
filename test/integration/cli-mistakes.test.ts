// Ordinary mistakes on the real command line (child processes): each is one line on stderr naming what was wrong, exit code 2, no stack trace.
import {test} from "node:test";
import assert from "node:assert/strict";
import {spawnSync} from "node:child_process";
import {chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync} from "node:fs";
import {createServer} from "node:net";
import {once} from "node:events";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {projectRoot} from "../../loaders/projectConfig.js";

function parley(...args: string[]) {
  const r = spawnSync(process.execPath, [join(projectRoot, "bin/parley.js"), ...args], {encoding: "utf8", timeout: 120_000});
  return {code: r.status, stdout: r.stdout, stderr: r.stderr};
}

/** Runs parley and checks the one-line usage error: exit 2, a single stderr line matching `pattern`, no stack frame. */
function mistake(args: string[], pattern: RegExp): void {
  const r = parley(...args);
  const shown = `parley ${args.join(" ")}\n${r.stderr}`;
  assert.equal(r.code, 2, shown);
  assert.doesNotMatch(r.stderr, /\n\s+at /, shown);
  assert.equal(r.stderr.trimEnd().split("\n").length, 1, shown);
  assert.match(r.stderr, pattern, shown);
}

const scratch = mkdtempSync(join(tmpdir(), "parley-mistakes-"));
const aFile = join(scratch, "a-file");
writeFileSync(aFile, "not a directory\n");
const aDir = join(scratch, "a-dir");
mkdirSync(aDir);
const missing = join(scratch, "missing");
const notParquet = join(scratch, "not-parquet");
mkdirSync(notParquet);
writeFileSync(join(notParquet, "games.parquet"), "garbage");
writeFileSync(join(notParquet, "players.parquet"), "garbage");
const dondFile = join(projectRoot, "test/fixtures/dond/hand.txt");
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

test("ingest: a missing path, a directory for a file and a file for a directory", () => {
  mistake(["ingest", "dond", missing, "--out", join(scratch, "o1")], new RegExp(`^parley ingest: ${esc(missing)} not found`));
  mistake(["ingest", "dond", aDir, "--out", join(scratch, "o2")], new RegExp(`${esc(aDir)} is a directory, expected a file`));
  mistake(["ingest", "glee", aFile, "--out", join(scratch, "o3")], new RegExp(`${esc(aFile)} is a file, expected a directory`));
  for (const adapter of ["gamabench", "negotiationarena", "glee"]) mistake(["ingest", adapter, missing, "--out", join(scratch, "o4")], /not found/);
  // Nothing was written for any of them.
  for (const out of ["o1", "o2", "o3", "o4"]) assert.equal(existsSync(join(scratch, out)), false, out);
});

test("ingest and run: --out naming a file or a directory that cannot be created or written", () => {
  const underFile = join(aFile, "sub");
  for (const [adapter, input] of [["dond", dondFile], ["gamabench", aDir], ["negotiationarena", aDir], ["glee", aDir]]) {
    mistake(["ingest", adapter, input, "--out", aFile], new RegExp(`--out ${esc(aFile)} is a file, expected a directory`));
    mistake(["ingest", adapter, input, "--out", underFile], new RegExp(`--out ${esc(underFile)}: cannot create the directory \\(ENOTDIR`));
  }
  const config = join(projectRoot, "data/runs/default.json");
  mistake(["run", config, "--out", aFile], new RegExp(`^parley run: --out ${esc(aFile)} is a file, expected a directory`));
  mistake(["run", config, "--out", underFile], /cannot create the directory \(ENOTDIR/);
  mistake(["run", config, "--out", join(scratch, "run-out"), "--cache", aFile], new RegExp(`--cache ${esc(aFile)} is a file`));
  if (existsSync("/proc/self")) mistake(["ingest", "dond", dondFile, "--out", "/proc/parley-cannot-exist/out"], /cannot create the directory \(ENOENT/);
  if (process.getuid?.() !== 0) {
    // Permissions do not stop root, so this case only runs for other users.
    const locked = join(scratch, "locked");
    mkdirSync(locked);
    chmodSync(locked, 0o555);
    mistake(["ingest", "dond", dondFile, "--out", locked], /is not writable/);
    mistake(["ingest", "dond", dondFile, "--out", join(locked, "sub")], /cannot create the directory \(EACCES/);
  }
  assert.deepEqual(readdirSync(aDir), []);
});

test("run: a missing config or a directory for it", () => {
  mistake(["run", missing, "--out", join(scratch, "r")], new RegExp(`^parley run: ${esc(missing)} not found`));
  mistake(["run", aDir, "--out", join(scratch, "r")], new RegExp(`^parley run: ${esc(aDir)} is a directory, expected a file`));
});

test("serve: a bad port, a port in use, a missing or wrong directory", async () => {
  mistake(["serve", aDir, "--port", "abc"], /^parley serve: --port: expected an integer from 0 to 65535, got abc$/m);
  mistake(["serve", aDir, "--port", "65536"], /--port: expected an integer from 0 to 65535, got 65536/);
  mistake(["serve", missing], new RegExp(`^parley serve: ${esc(missing)} not found`));
  mistake(["serve", aFile], /is a file, expected a directory/);
  const busy = createServer();
  busy.listen(0, "127.0.0.1");
  await once(busy, "listening");
  const port = (busy.address() as {port: number}).port;
  try {
    mistake(["serve", aDir, "--port", String(port)], new RegExp(`^parley serve: port ${port} on 127\\.0\\.0\\.1 is already in use`));
  } finally {
    busy.close();
  }
});

test("reading commands: a missing directory, a file for it, a file that is not Parquet", () => {
  for (const command of ["dond-stats", "metrics", "gamabench-scores", "negotiationarena-stats"]) {
    mistake([command, missing], /(missing|games\.parquet) not found; run "parley (ingest|run) /);
    mistake([command, aFile], new RegExp(`^parley ${command}: ${esc(aFile)} is a file, expected a directory`));
    // (gamma-Bench scores need turns too: the directory holding only a broken games.parquet lacks them.)
    mistake([command, notParquet], new RegExp(`^parley ${command}: (cannot read .*: Invalid Input Error.*games\\.parquet|.* holds no turns table)`));
  }
  mistake(["econarena-stats", missing], new RegExp(`^parley econarena-stats: ${esc(missing)} not found; run "parley run `));
  mistake(["econarena-stats", aFile], new RegExp(`^parley econarena-stats: ${esc(aFile)} is a file, expected a directory`));
  mistake(["econarena-stats", notParquet], /^parley econarena-stats: .* holds no turns table/);
  mistake(["regress", missing, "--family", "bargaining", "--metric", "efficiency"], /not found/);
  mistake(["regress", aFile, "--family", "bargaining", "--metric", "efficiency"], new RegExp(`^parley regress: cannot read ${esc(aFile)}: Invalid Input Error`));
  mistake(["equilibria", missing], new RegExp(`^parley equilibria: ${esc(missing)} not found`));
  mistake(["equilibria", aDir], /is a directory, expected a file/);
  // JSON.parse quotes the file's text, newline included; printed escaped, the error stays one line.
  mistake(["equilibria", aFile], new RegExp(`^parley equilibria: cannot read ${esc(aFile)}: .*"not a directory\\\\x0a`));
});

test("numeric flags are bounded, and the error gives the range", () => {
  const game = join(scratch, "pd.json");
  writeFileSync(game, JSON.stringify({rows: ["C", "D"], cols: ["C", "D"], a: [[3, 0], [5, 1]], b: [[3, 5], [0, 1]]}));
  mistake(["regress", notParquet, "--family", "bargaining", "--metric", "efficiency", "--splits", "1000000000"], /^parley regress: --splits: expected an integer from 0 to 1000, got 1000000000$/m);
  mistake(["regress", notParquet, "--family", "bargaining", "--metric", "efficiency", "--splits", "2.5"], /--splits: expected an integer from 0 to 1000, got 2\.5/);
  mistake(["equilibria", game, "--max-support-pairs", "1e12"], /^parley equilibria: --max-support-pairs: expected an integer from 0 to 1000000, got 1e12$/m);
  mistake(["run", join(projectRoot, "data/runs/default.json"), "--out", join(scratch, "c"), "--concurrency", "100000000"], /^parley run: --concurrency: expected an integer from 1 to 1000, got 100000000$/m);
  mistake(["run", join(projectRoot, "data/runs/default.json"), "--out", join(scratch, "c"), "--concurrency", "0"], /--concurrency: expected an integer from 1 to 1000, got 0/);
  // The maximum itself is accepted.
  const ok = parley("equilibria", game, "--max-support-pairs", "1000000");
  assert.equal(ok.code, 0, ok.stderr);
  assert.deepEqual(JSON.parse(ok.stdout).pure, [{row: "D", col: "D", a: 1, b: 1}]);
});
