/**
 * Runs the test files of one tier, or of all three, on every core:
 *
 *   npm run test:unit          test/unit: pure functions, no process, no DuckDB
 *   npm run test:integration   test/integration: the command line, native DuckDB, servers on loopback
 *   npm run test:browser       test/browser: the fixture site in headless Chromium
 *   npm test                   all three, and the type check and the layer check beside them (--checks)
 *
 * test/start.js compiles the test files first (esbuild, one build, cached)
 * and starts this runner; `tsx test/runner.ts` runs them as TypeScript.
 * Each file runs in a process of its own (Node's test runner), one more
 * at once than there are cores. With the browser tier, the fixture site
 * (test/support/fixtureSite.ts) starts building at once, beside the other
 * tiers' files; the browser files wait for it. Files start longest first, so
 * the cores finish together.
 */
import {spawn} from "node:child_process";
import {randomUUID} from "node:crypto";
import {availableParallelism, tmpdir} from "node:os";
import {existsSync, readdirSync, readFileSync, rmSync} from "node:fs";
import {join, relative} from "node:path";
import {pathToFileURL} from "node:url";
import {run} from "node:test";
import {spec} from "node:test/reporters";
import {fixtureSite} from "./support/fixtureSite.js";

const TIERS = ["unit", "integration", "browser"] as const;
type Tier = (typeof TIERS)[number];

/**
 * Files that take minutes, longest first, as measured on two cores: the
 * runner starts them before the rest. A file not listed starts after them.
 */
const LONG_FIRST = [
  "integration/firstViews.test.ts",
  "integration/gleeAnalysisCells.test.ts",
  "integration/analyses-parity.test.ts",
  "integration/guideExamples.test.ts",
  "browser/pages.test.ts",
  "browser/ownRuns.test.ts",
  "browser/glee-analysis.test.ts",
  "browser/laterPages.test.ts",
  "browser/compareRatings.test.ts",
  "browser/playStudy.test.ts",
  "browser/report.test.ts",
  "browser/newPaper.test.ts",
  "browser/shareAndExport.test.ts",
  "browser/play.test.ts",
  "browser/ingestPages.test.ts",
];

/** Each test file's compiled file, when test/start.js compiled them (npm test does); else the files run as TypeScript through tsx. */
const compiledTests: Record<string, string> = JSON.parse(process.env.PARLEY_COMPILED_TESTS ?? "{}");
delete process.env.PARLEY_COMPILED_TESTS;
/** Which test a compiled file is, for the list of slowest files. */
const sourceOf = new Map(Object.entries(compiledTests).map(([source, built]) => [built, join(import.meta.dirname, "..", source)]));

function files(tiers: readonly Tier[]): string[] {
  const all = tiers.flatMap((tier) => readdirSync(join(import.meta.dirname, tier)).filter((f) => f.endsWith(".test.ts")).sort().map((f) => `${tier}/${f}`));
  const rank = (f: string) => (LONG_FIRST.includes(f) ? LONG_FIRST.indexOf(f) : LONG_FIRST.length);
  return all.sort((a, b) => rank(a) - rank(b)).map((f) => compiledTests[`test/${f}`] ?? join(import.meta.dirname, f));
}

const args = process.argv.slice(2);
// --checks: the type check and the layer check too, beside the tests (npm test).
const checks = args.includes("--checks");
const asked = args.filter((a) => a !== "--checks");
const unknown = asked.filter((t) => !TIERS.includes(t as Tier));
if (unknown.length) {
  process.stderr.write(`test/runner.ts: unknown tier ${unknown.join(", ")} (expected ${TIERS.join(", ")})\n`);
  process.exit(2);
}
const tiers = asked.length ? (asked as Tier[]) : TIERS;

// One DuckDB thread per database: the runner keeps every core busy with files of its own, and a
// second thread per database cost a sixth more CPU for the same answers (test processes and the
// command lines and builds they start all read it).
process.env.PARLEY_DUCKDB_THREADS ??= "1";
// A name for this run: a fixture build that fails is not tried again by each browser file.
process.env.PARLEY_TEST_RUN ??= randomUUID();
// Every test process loads the guard that keeps test/unit pure (it acts in unit files only).
process.env.NODE_OPTIONS = [process.env.NODE_OPTIONS, `--import=${pathToFileURL(join(import.meta.dirname, "support/unitGuard.mjs")).href}`].filter(Boolean).join(" ");
// Each test file's process writes the CPU it used here at its exit (unitGuard.mjs), for the list of costliest files.
const cpuLog = join(tmpdir(), `parley-test-cpu-${process.env.PARLEY_TEST_RUN}.jsonl`);
process.env.PARLEY_TEST_CPU_LOG = cpuLog;
const fixture = tiers.includes("browser") ? fixtureSite() : null;
// Its failure is the browser files' to report; this only keeps it from going unhandled.
fixture?.catch(() => {});

// One more file than cores: a browser test mostly waits (for pages to settle); more than that only crowds the cores.
const stream = run({files: files(tiers), concurrency: Number(process.env.PARLEY_TEST_CONCURRENCY) || availableParallelism() + 1});
stream.on("test:fail", () => (process.exitCode = 1));
const output = stream.compose(new spec());
output.pipe(process.stdout);
const checked = checks ? Promise.all([check("type check", "tsc", ["--noEmit"]), check("layer check", "depcruise", ["loaders", "src", "bin", "--config", ".dependency-cruiser.cjs", "--output-type", "err"])]) : Promise.resolve([]);
output.on("end", async () => {
  printSlowest(7);
  printCostliest(7);
  for (const line of await checked) process.stdout.write(line);
});

/** Runs a project tool (node_modules/.bin) beside the tests; resolves to its verdict, with its output when it fails. */
function check(what: string, tool: string, toolArgs: string[]): Promise<string> {
  const root = join(import.meta.dirname, "..");
  return new Promise((resolve) => {
    const child = spawn(join(root, "node_modules/.bin", tool), toolArgs, {cwd: root, stdio: ["ignore", "pipe", "pipe"]});
    let text = "";
    child.stdout.on("data", (c) => (text += c));
    child.stderr.on("data", (c) => (text += c));
    child.on("close", (code) => {
      if (code !== 0) process.exitCode = 1;
      resolve(code === 0 ? `✔ ${what} (${tool})\n` : `✖ ${what} (${tool} exited ${code}):\n${text}\n`);
    });
  });
}

// When each file's first and last test event came: the slowest files, printed after the summary.
const seen = new Map<string, {first: number; last: number}>();
for (const event of ["test:dequeue", "test:pass", "test:fail"] as const) {
  stream.on(event, (data: {file?: string}) => {
    if (!data.file) return;
    const now = performance.now();
    const times = seen.get(data.file) ?? {first: now, last: now};
    times.last = now;
    seen.set(data.file, times);
  });
}

function printSlowest(count: number): void {
  const slowest = [...seen].map(([file, t]) => ({file: relative(import.meta.dirname, sourceOf.get(file) ?? file), seconds: (t.last - t.first) / 1000})).sort((a, b) => b.seconds - a.seconds).slice(0, count);
  process.stdout.write(`\nslowest files (first to last test event, seconds):\n${slowest.map((f) => `  ${f.seconds.toFixed(1).padStart(6)}  ${f.file}`).join("\n")}\n`);
}

/** The files that used the most CPU (their processes and the processes they waited for; Chromium's are not among them, Playwright does not reap them), from the log unitGuard.mjs writes; nothing where /proc is missing. */
function printCostliest(count: number): void {
  if (!existsSync(cpuLog)) return;
  const used = readFileSync(cpuLog, "utf8").trim().split("\n").map((line) => JSON.parse(line) as {file: string; seconds: number});
  rmSync(cpuLog, {force: true});
  const total = used.reduce((sum, f) => sum + f.seconds, 0);
  const costliest = used.sort((a, b) => b.seconds - a.seconds).slice(0, count);
  process.stdout.write(`\ncostliest files (CPU-seconds of the file's process and the command lines it waited for, Chromium not counted; all files: ${total.toFixed(0)}):\n${costliest.map((f) => `  ${f.seconds.toFixed(1).padStart(6)}  ${relative(import.meta.dirname, sourceOf.get(f.file) ?? f.file)}`).join("\n")}\n`);
}
