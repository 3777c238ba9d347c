#!/usr/bin/env node
/**
 * What `npm test` and the tier scripts start: test/runner.ts and every test
 * file compiled by esbuild in one build (bin/compiled.js, as for the command
 * line: a cache rebuilt whenever a source changes), then the runner, which
 * gives Node's test runner the compiled files. Through tsx each of the
 * hundred-odd test processes would start tsx's loader and transform every
 * module it imports anew.
 *
 * Plain JavaScript: it runs before anything can compile TypeScript.
 */
import {createHash} from "node:crypto";
import {readdirSync} from "node:fs";
import {join} from "node:path";
import {fileURLToPath} from "node:url";
import {compiledEntries, exitOnCompileError} from "../bin/compiled.js";

const root = join(import.meta.dirname, "..");
const tests = ["unit", "integration", "browser"].flatMap((tier) =>
  readdirSync(join(root, "test", tier))
    .filter((f) => f.endsWith(".test.ts"))
    .map((f) => `test/${tier}/${f}`),
);
const cacheDir = join(root, "node_modules/.cache/parley/tests", createHash("sha1").update(root).digest("hex").slice(0, 12));
let urls;
try {
  urls = await compiledEntries({root, entries: ["test/runner.ts", ...tests], cacheDir});
} catch (error) {
  if (!error.errors) throw error;
  await exitOnCompileError(error);
}
// The runner reads which compiled file is which test (and keeps it from the test processes).
process.env.PARLEY_COMPILED_TESTS = JSON.stringify(Object.fromEntries(tests.map((t) => [t, fileURLToPath(urls[t])])));
await import(urls["test/runner.ts"]);
