/**
 * Keeps test/unit pure: loaded into every test process by test/runner.ts,
 * it acts in a unit test file's process only, where starting a process or
 * opening a native DuckDB database throws, naming what to do instead. Plain JavaScript:
 * it loads before any TypeScript.
 */
import {createRequire, syncBuiltinESMExports} from "node:module";
import {appendFileSync, readFileSync} from "node:fs";

// CPU per test file, for the runner's list of the costliest files: a test file's process, at its
// exit, appends the CPU it and the processes it waited for used (/proc/self/stat: utime, stime,
// cutime, cstime: command lines and builds it waited for included, Chromium's processes not, as
// they are not reaped by the test's process). Linux only; elsewhere, nothing.
const testFile = process.argv.find((arg) => /\.test\.[jt]s$/.test(arg));
if (testFile && process.env.PARLEY_TEST_CPU_LOG) {
  process.on("exit", () => {
    try {
      const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
      const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
      appendFileSync(process.env.PARLEY_TEST_CPU_LOG, JSON.stringify({file: testFile, seconds: ticks / 100}) + "\n");
    } catch {
      // No /proc: no figure.
    }
  });
}

// A unit file: test/unit/<name>.test.ts, or the same compiled by test/start.js (<cache>/unit/<name>.test.js).
const file = process.argv.find((arg) => /[\\/]unit[\\/][^\\/]+\.test\.[jt]s$/.test(arg));
if (file) {
  const advice = "unit tests are pure (no process, no DuckDB): move this test to test/integration";
  const require = createRequire(import.meta.url);
  const childProcess = require("node:child_process");
  for (const name of ["spawn", "spawnSync", "exec", "execSync", "execFile", "execFileSync", "fork"]) {
    childProcess[name] = () => {
      throw new Error(`${file}: child_process.${name}: ${advice}`);
    };
  }
  syncBuiltinESMExports();
  // Loading DuckDB's module is allowed (some modules a unit test imports load it); opening a database is not.
  const Module = require("node:module");
  const load = Module._load;
  Module._load = function (request, ...rest) {
    const loaded = load.call(this, request, ...rest);
    if (request === "@duckdb/node-api" && loaded?.DuckDBInstance && !loaded.DuckDBInstance.guarded) {
      for (const name of ["create", "fromCache"]) {
        loaded.DuckDBInstance[name] = () => {
          throw new Error(`${file}: DuckDBInstance.${name}: ${advice}`);
        };
      }
      loaded.DuckDBInstance.guarded = true;
    }
    return loaded;
  };
}
