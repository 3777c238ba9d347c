/**
 * Timing a page in headless Chromium, as bench/pages.bench.ts describes:
 * `measure` opens a page cold (a fresh browser context) and again (a
 * revisit), and returns for each the time to the first view (the first
 * visible Plot <svg> or table row) and to fully drawn (the last DOM change
 * before a quiet second with no data pending and no loading state), in
 * milliseconds since navigation start. `extra`, if given, is evaluated in the
 * page once it is quiet (e.g. to read a time the page measured itself).
 */
import type {Browser} from "playwright-core";
import type {StaticServer} from "../loaders/site/serve.js";

export interface Timing {
  first: number | null;
  full: number;
  problems: string[];
  /** What `extra` returned, cold or revisit. */
  extra?: unknown;
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

export async function measure(browser: Browser, server: StaticServer, path: string, extra?: string): Promise<{cold: Timing; warm: Timing}> {
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
    return {...t, problems: [...problems, ...(errors ? [`${errors} error(s) shown`] : [])], ...(extra && {extra: await page.evaluate(extra)})};
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

