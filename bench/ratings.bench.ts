/**
 * Ratings speed (issues 16 and 37): Bradley–Terry with its cluster-robust
 * intervals and 1,000 draws for the rank intervals (before issue 37, 1,000
 * bootstrap refits) over the default GLEE tournament (data/runs/default.json,
 * about 50,000 games) plus the gamma-Bench raw results when the datasets
 * directory has them; and the clone-robust fit. Target: under 2 s, in Node
 * and in the browser. Prints the time to read the seats (native DuckDB), to
 * group them, and to fit with 0 and 1,000 draws; then builds the site (or
 * takes PARLEY_BENCH_DIST) and opens /ratings cold in headless Chromium
 * (bench/pageTiming.ts), median of PARLEY_BENCH_RUNS visits (default 3), with
 * the page's own User Timing measures (`ratings: ...`: loading its data, the
 * fit with 1,000 draws).
 * PARLEY_BENCH_BEFORE=<a dist built from an earlier commit> times that
 * build's page too, in turn with this one; PARLEY_BENCH_BROWSER_ONLY=1 skips
 * the Node part.
 */
import {spawnSync} from "node:child_process";
import {existsSync, mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {performance} from "node:perf_hooks";
import {projectRoot} from "../loaders/projectConfig.js";
import {locateDataset} from "../loaders/datasets/catalog.js";
import {seatRows} from "../loaders/cli/commands/seats.js";
import {rateAgents} from "../src/lib/ratings.js";
import {ratedGames} from "../src/lib/ratingsData.js";
import {datasetsConfig} from "../loaders/projectConfig.js";
import {serveStatic} from "../loaders/site/serve.js";
import {buildInto, launch} from "../test/browser/harness.js";
import {measure} from "./pageTiming.js";

const TARGET_MS = 2000;

function parley(...args: string[]): void {
  const r = spawnSync(process.execPath, [join(projectRoot, "bin/parley.js"), ...args], {encoding: "utf8"});
  if (r.status !== 0) throw new Error(`parley ${args.join(" ")} failed: ${r.stderr}`);
}

export default async function (): Promise<void> {
  if (!process.env.PARLEY_BENCH_BROWSER_ONLY) await nodeBench();
  await browserBench();
}

async function nodeBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "parley-bench-ratings-"));
  try {
    parley("run", join(projectRoot, "data/runs/default.json"), "--out", join(dir, "glee"));
    const dirs = [join(dir, "glee")];
    const gamabench = locateDataset("gamabench");
    if (gamabench.available) {
      parley("ingest", "gamabench", gamabench.path!, "--out", join(dir, "gamabench"));
      dirs.push(join(dir, "gamabench"));
    } else console.log("gamma-Bench raw results: not in the datasets directory, GLEE only");
    let t0 = performance.now();
    const rows = (await Promise.all(dirs.map((d, i) => seatRows("ratings", d, `run${i}`)))).flat();
    const readMs = performance.now() - t0;
    t0 = performance.now();
    const groupCpu = process.cpuUsage();
    const games = ratedGames(rows);
    const groupMs = performance.now() - t0;
    const groupUsed = process.cpuUsage(groupCpu);
    const groupCpuMs = (groupUsed.user + groupUsed.system) / 1000;
    rateAgents(games, {resamples: 10}); // warm-up (JIT), not timed
    t0 = performance.now();
    rateAgents(games, {resamples: 0});
    const pointMs = performance.now() - t0;
    t0 = performance.now();
    const cpu = process.cpuUsage();
    const result = rateAgents(games, {resamples: 1000});
    const bootMs = performance.now() - t0;
    const used = process.cpuUsage(cpu);
    const bootCpuMs = (used.user + used.system) / 1000;
    const robustCpu = process.cpuUsage();
    rateAgents(games, {resamples: 1000, clones: "robust"});
    const robustUsed = process.cpuUsage(robustCpu);
    console.log(`seats: ${rows.length.toLocaleString("en-US")} in ${games.length.toLocaleString("en-US")} comparison games, ${result.agents.length} agents, ${result.families.length} families`);
    console.log(`read seats (native DuckDB): ${readMs.toFixed(0)} ms; group: ${groupMs.toFixed(0)} ms`);
    console.log(`fit, no draws: ${pointMs.toFixed(0)} ms; with 1,000 draws: ${bootMs.toFixed(0)} ms wall, ${bootCpuMs.toFixed(0)} ms CPU (wall above CPU means a busy machine); clone-robust with 1,000 draws: ${((robustUsed.user + robustUsed.system) / 1000).toFixed(0)} ms CPU`);
    const total = groupMs + bootMs;
    console.log(`group + fit with 1,000 draws: ${total.toFixed(0)} ms wall (target ${TARGET_MS} ms: ${(total / TARGET_MS).toFixed(2)}× the target), ${(groupCpuMs + bootCpuMs).toFixed(0)} ms CPU (${((groupCpuMs + bootCpuMs) / TARGET_MS).toFixed(2)}×); machine load average ${(await import("node:os")).loadavg()[0].toFixed(1)}`);
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
}

// The page's User Timing measures and the fit time it prints (older builds print only that).
const pageMeasures = `({
  measures: Object.fromEntries(performance.getEntriesByType("measure").filter((m) => m.name.startsWith("ratings:")).map((m) => [m.name, m.duration])),
  printed: Number((/([0-9.]+) s in your browser/.exec(document.body.innerText) ?? [])[1] ?? NaN) * 1000
})`;

async function browserBench(): Promise<void> {
  const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!existsSync(chromium)) return console.log(`browser: skipped (${chromium} not found)`);
  const runs = Math.max(1, Number(process.env.PARLEY_BENCH_RUNS ?? 3));
  const started = performance.now();
  const dist = process.env.PARLEY_BENCH_DIST ?? (await buildInto(datasetsConfig().dir ?? "/nonexistent"));
  if (!process.env.PARLEY_BENCH_DIST) console.log(`site build: ${((performance.now() - started) / 1000).toFixed(1)} s (set PARLEY_BENCH_DIST to reuse a build)`);
  const sites = [{name: "after", server: await serveStatic(dist)}];
  if (process.env.PARLEY_BENCH_BEFORE) sites.unshift({name: "before", server: await serveStatic(process.env.PARLEY_BENCH_BEFORE)});
  const browser = await launch();
  try {
    const visits = new Map(sites.map((s) => [s.name, [] as Awaited<ReturnType<typeof measure>>[]]));
    for (let r = 0; r < runs; r++) for (const {name, server} of sites) visits.get(name)!.push(await measure(browser, server, "/ratings", pageMeasures));
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    for (const [name, all] of visits) {
      const label = sites.length > 1 ? `/ratings (${name})` : "/ratings";
      const full = median(all.map((v) => v.cold.full));
      const extras = all.map((v) => v.cold.extra as {measures: Record<string, number>; printed: number});
      const names = [...new Set(extras.flatMap((e) => Object.keys(e.measures)))];
      const phases = names.map((n) => `${n.replace("ratings: ", "")} ${s(median(extras.map((e) => e.measures[n] ?? NaN)))}`);
      const problems = [...new Set(all.flatMap((v) => v.cold.problems))];
      console.log(`${label} in Chromium, cold, median of ${runs}: first view ${all.some((v) => v.cold.first === null) ? "–" : s(median(all.map((v) => v.cold.first!)))}, fully drawn ${s(full)} (target ${TARGET_MS / 1000} s: ${(full / TARGET_MS).toFixed(2)}×); fit with 1,000 draws as the page printed it ${s(median(extras.map((e) => e.printed)))}${phases.length ? `; ${phases.join(", ")}` : ""}${problems.length ? ` | ${problems.join("; ")}` : ""}`);
    }
  } finally {
    await browser.close();
    for (const {server} of sites) await server.close();
  }
  console.log(`machine load average ${(await import("node:os")).loadavg().map((x) => x.toFixed(1)).join(" ")}`);
}
