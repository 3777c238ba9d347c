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
import type {Browser} from "playwright-core";
import {serveStatic, type StaticServer} from "../loaders/serve.js";
import {datasetsConfig} from "../loaders/config.js";
import {buildInto, launch, sitePages} from "../test/browser/harness.js";

const FIRST_TARGET = 1500;
const FULL_TARGET = 3000;

interface Timing {
  first: number | null;
  full: number;
  problems: string[];
}

// Installed before any page script (a string: tsx would add helpers the page lacks).
const probe = `(() => {
  const timing = {first: null, last: 0};
  globalThis.__parleyTiming = timing;
  const visible = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const drawn = () => {
    const main = document.querySelector("main") ?? document.body;
    if (!main) return false;
    for (const svg of main.querySelectorAll("svg[class^='plot'], figure svg")) if (visible(svg)) return true;
    for (const row of main.querySelectorAll("table tbody tr")) if (visible(row)) return true;
    return false;
  };
  new MutationObserver(() => {
    timing.last = performance.now();
    if (timing.first === null && drawn()) timing.first = timing.last;
  }).observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
  // Also once per frame: a chart can become visible without a mutation of its own (layout).
  const frame = () => {
    if (timing.first === null && drawn()) timing.first = performance.now();
    if (timing.first === null) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})()`;

// Resolves once the page is quiet (see the header); returns the two times.
const quiet = `new Promise((resolve) => {
  const timing = globalThis.__parleyTiming;
  let lastSeen = timing.last, since = performance.now(), tick = since;
  const poll = setInterval(() => {
    const now = performance.now();
    // A late tick means the main thread was busy (drawing): that is not quiet.
    const late = now - tick > 200;
    tick = now;
    const busy = late || document.readyState !== "complete" || (globalThis.__parleyPending ?? 0) > 0 || document.querySelector(".parley-loading") !== null;
    if (busy || timing.last !== lastSeen) { lastSeen = timing.last; since = now; }
    if (now - since >= 1000 || now > 60000) { clearInterval(poll); resolve({first: timing.first, full: timing.last}); }
  }, 25);
})`;

async function measure(browser: Browser, server: StaticServer, path: string): Promise<{cold: Timing; warm: Timing}> {
  const context = await browser.newContext({viewport: {width: 1280, height: 900}});
  const problems: string[] = [];
  await context.addInitScript(probe);
  const page = await context.newPage();
  page.on("pageerror", (e) => problems.push(e.message));
  page.on("response", (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()} ${r.url()}`));
  const once = async (): Promise<Timing> => {
    problems.length = 0;
    await page.goto(server.url + path, {waitUntil: "commit"});
    // Quiet means nothing left to fetch too: on a busy machine a page can sit a second between its load event and its data.
    await page.waitForLoadState("networkidle").catch(() => {});
    const t = (await page.evaluate(quiet)) as {first: number | null; full: number};
    const errors = await page.locator(".observablehq--error, .parley-error").count();
    return {...t, problems: [...problems, ...(errors ? [`${errors} error(s) shown`] : [])]};
  };
  try {
    const cold = await once();
    await page.goto("about:blank");
    const warm = await once();
    return {cold, warm};
  } finally {
    await context.close();
  }
}

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
