/**
 * How fast every page draws (issue 11): builds the site once (or takes
 * PARLEY_BENCH_DIST), serves it on loopback, and opens each page in headless
 * Chromium, cold (a fresh browser context: empty HTTP cache, no compiled
 * wasm) and then again in the same context (a revisit, warm cache).
 *
 * Times are milliseconds since navigation start (performance.now() in the page):
 * - first view: the first moment (a DOM change or an animation frame) at
 *   which the page's main area holds a visible chart
 *   (an <svg> drawn by Plot, with a non-empty box) or a visible table with at
 *   least one body row. Pages with neither print "–".
 * - fully drawn: the time of the last DOM change before the page stays
 *   unchanged for 1 s after its load event, while no data is pending
 *   (globalThis.__parleyPending, counted by src/components/duckdb.ts and
 *   pageData.ts) and no section shows a loading state (.parley-loading); the
 *   quiet second itself is not counted.
 * Targets: first view ≤ 1.5 s, fully drawn ≤ 3 s, cold; each page is the
 * best of PARLEY_BENCH_RUNS cold visits (default 3; the best, because the
 * machine is shared and a slow visit says more about the other jobs than
 * about the page). PARLEY_BENCH_PAGES=/dond,/gamabench
 * measures only those pages; PARLEY_BENCH_BEFORE=<a dist built from an
 * earlier commit> measures each page there too, alternating, for a fair
 * before/after under the same machine load.
 */
import {existsSync} from "node:fs";
import {performance} from "node:perf_hooks";
import {serveStatic, type StaticServer} from "../loaders/site/serve.js";
import {measure, type Timing} from "./pageTiming.js";
import {datasetsConfig} from "../loaders/projectConfig.js";
import {buildInto, launch, sitePages} from "../test/browser/harness.js";

const FIRST_TARGET = 1500;
const FULL_TARGET = 3000;

const best = (xs: number[]) => Math.min(...xs);
const seconds = (ms: number | null) => (ms === null ? "    –" : (ms / 1000).toFixed(2).padStart(5));
const ratio = (ms: number | null, target: number) => (ms === null ? "    " : `${(ms / target).toFixed(2)}×`);

export default async function (): Promise<void> {
  const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!existsSync(chromium)) {
    console.log(`pages: skipped (${chromium} not found)`);
    return;
  }
  const runs = Math.max(1, Number(process.env.PARLEY_BENCH_RUNS ?? 3));
  console.log(`machine load average at the start ${(await import("node:os")).loadavg().map((x) => x.toFixed(1)).join(" ")}`);
  const started = performance.now();
  const dist = process.env.PARLEY_BENCH_DIST ?? (await buildInto(datasetsConfig().dir ?? "/nonexistent"));
  if (!process.env.PARLEY_BENCH_DIST) console.log(`site build: ${((performance.now() - started) / 1000).toFixed(1)} s (set PARLEY_BENCH_DIST to reuse a build)`);
  // PARLEY_BENCH_BEFORE=<another built dist>: each page is measured on it too, in turn with this one, so both see the same machine load.
  const sites: [string, StaticServer][] = [["", await serveStatic(dist)]];
  if (process.env.PARLEY_BENCH_BEFORE) sites.unshift(["before", await serveStatic(process.env.PARLEY_BENCH_BEFORE)]);
  if (sites.length > 1) sites[1][0] = "after";
  const browser = await launch();
  console.log(`cold = fresh browser context, best of ${runs}; revisit = same context again. Targets: first view ≤ ${FIRST_TARGET / 1000} s, fully drawn ≤ ${FULL_TARGET / 1000} s (cold).`);
  console.log(`${"page".padEnd(27)} first view    ratio  fully drawn  ratio  | revisit: first  full  | problems`);
  let misses = 0;
  try {
    const only = process.env.PARLEY_BENCH_PAGES?.split(",");
    for (const path of sitePages().filter((p) => !only || only.includes(p))) {
      const visits = new Map<string, {cold: Timing; warm: Timing}[]>(sites.map(([name]) => [name, []]));
      for (let r = 0; r < runs; r++) for (const [name, server] of sites) visits.get(name)!.push(await measure(browser, server, path));
      for (const [name, all] of visits) {
        // A visit that drew nothing when others did was cut short (counted in problems), not fast.
        const drew = (ts: Timing[]) => (ts.some((t) => t.first !== null) ? ts.filter((t) => t.first !== null) : ts);
        const cold = drew(all.map((v) => v.cold));
        const warm = drew(all.map((v) => v.warm));
        const first = cold[0].first === null ? null : best(cold.map((t) => t.first!));
        const full = best(cold.map((t) => t.full));
        const warmFirst = warm[0].first === null ? null : best(warm.map((t) => t.first!));
        const warmFull = best(warm.map((t) => t.full));
        const cut = all.filter((v) => v.cold.first === null).length;
        const problems = [...new Set(all.flatMap((v) => [...v.cold.problems, ...v.warm.problems]))];
        if (cut && cold[0].first !== null) problems.push(`${cut} cold visit(s) drew nothing`);
        const miss = (first !== null && first > FIRST_TARGET) || full > FULL_TARGET;
        if (miss && name !== "before") misses++;
        const label = name ? `${path} (${name})` : path;
        console.log(
          `${label.padEnd(27)} ${seconds(first)} s  ${ratio(first, FIRST_TARGET).padStart(6)}  ${seconds(full)} s    ${ratio(full, FULL_TARGET).padStart(6)}  |        ${seconds(warmFirst)} ${seconds(warmFull)}  | ${miss ? "OVER TARGET " : ""}${problems.join("; ")}`,
        );
      }
    }
  } finally {
    await browser.close();
    for (const [, server] of sites) await server.close();
  }
  console.log(`${misses ? `${misses} page(s) over target` : "every page within target"}; machine load average ${(await import("node:os")).loadavg().map((x) => x.toFixed(1)).join(" ")}`);
}
