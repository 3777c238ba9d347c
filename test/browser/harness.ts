/**
 * Browser-test harness: serve the fixture site on 127.0.0.1, and open pages in Debian's headless Chromium (playwright-core),
 * recording every console error, uncaught exception, failed request, request
 * to a host other than loopback (which is also blocked), and JavaScript dialog.
 */
import {mkdirSync, mkdtempSync, existsSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {chromium, type Browser, type BrowserContext, type Page, type Request} from "playwright-core";
import {serveStatic, type StaticServer} from "../../loaders/site/serve.js";
import {buildSite} from "../../loaders/site/build.js";
import {projectRoot} from "../../loaders/projectConfig.js";
import {fixtureSite, type FixtureSite} from "../support/fixtureSite.js";
import config from "../../observablehq.config.js";

export const artifacts = join(projectRoot, "test-artifacts");

/** Every page path the site lists, plus the home page. */
export function sitePages(): string[] {
  type Entry = {path?: string; pages?: Entry[]};
  const walk = (entries: Entry[]): string[] => entries.flatMap((e) => (e.pages ? walk(e.pages) : e.path ? [e.path] : []));
  return ["/", ...walk(config.pages as Entry[])];
}

/** The site built with `datasets` as the datasets folder, into a scratch directory (for the benchmarks; tests open the fixture site). */
export async function buildInto(datasets: string): Promise<string> {
  const dist = mkdtempSync(join(tmpdir(), "parley-dist-"));
  const code = await buildSite({...process.env, PARLEY_DATASETS: datasets, PARLEY_DIST: dist});
  if (code !== 0) throw new Error(`site build failed with exit code ${code}`);
  return dist;
}

export interface Site {
  /** The built site's directory. */
  dist: string;
  server: StaticServer;
  browser: Browser;
  fixture: FixtureSite;
  close(): Promise<void>;
}

/**
 * The shared fixture site (test/support/fixtureSite.ts, built once for every
 * browser test and kept until a source changes), served on loopback, with Chromium.
 */
export async function openSite(): Promise<Site> {
  const fixture = await fixtureSite();
  const dist = fixture.dist;
  const server = await serveStatic(dist);
  const browser = await launch();
  return {dist, server, browser, fixture, close: async () => {
    await browser.close();
    await server.close();
  }};
}

export interface Visit {
  page: Page;
  problems: string[];
  dialogs: string[];
  /** Every URL the visit requested (from the network or the cache). */
  requests: string[];
  /** Closes the page (and its context, when the visit had one of its own). */
  close(): Promise<void>;
}

const chromiumFlags = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  // Every request to a host other than loopback goes to a proxy that is not there, and fails
  // (Chromium never proxies loopback); visit() records it. Blocking by interception would turn
  // the HTTP cache off.
  "--proxy-server=http://127.0.0.1:9",
  // DuckDB's 34 MB of wasm compiled function by function as queries first call them, not whole
  // on each page that starts it: most visits call a fraction, and compiling it all cost seconds of CPU a visit.
  "--js-flags=--wasm-lazy-compilation",
];

export async function launch(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!existsSync(executablePath)) throw new Error(`Chromium not found at ${executablePath}: apt-get install chromium, or set CHROMIUM_PATH`);
  return chromium.launch({executablePath, args: chromiumFlags});
}

const loopback = (url: string) => {
  const {protocol, hostname} = new URL(url);
  if (protocol === "data:" || protocol === "blob:") return true;
  return hostname === "127.0.0.1" || hostname === "localhost" || hostname === "[::1]";
};

const VIEWPORT = {viewport: {width: 1280, height: 900}};

/**
 * Each browser's one context for visits. Pages opened in it share
 * Chromium's caches (the HTTP cache, and with it scripts and DuckDB's wasm
 * compiled once): 29 pages of the site cost 35 CPU-seconds so, against 74
 * with a context of their own each and every request intercepted. None of
 * the site's pages keeps state in storage or cookies; a visit that must show
 * what a stranger's browser shows asks for a context of its own (`fresh`).
 */
const sharedContexts = new WeakMap<Browser, Promise<BrowserContext>>();

function sharedContext(browser: Browser): Promise<BrowserContext> {
  let context = sharedContexts.get(browser);
  if (!context) sharedContexts.set(browser, (context = browser.newContext(VIEWPORT)));
  return context;
}

/**
 * Opens `path` in a new page, waits until the network and the DOM have been
 * quiet, and returns what went wrong. The page shares the browser's visiting
 * context, unless `fresh` asks for a context of its own; `close()` closes
 * what the visit opened.
 */
export async function visit(browser: Browser, server: StaticServer, path: string, {fresh = false}: {fresh?: boolean} = {}): Promise<Visit> {
  const context = fresh ? await browser.newContext(VIEWPORT) : await sharedContext(browser);
  const page = await context.newPage();
  const found: Found = {problems: [], dialogs: [], requests: []};
  watch(page, () => found);
  await page.goto(server.url + path, {waitUntil: "load"});
  await settle(page);
  return {page, problems: found.problems, dialogs: found.dialogs, requests: found.requests, close: () => (fresh ? context.close() : page.close())};
}

/**
 * Records what goes wrong on `page` into the lists `into()` gives (none: not
 * recorded). Requests are watched, not intercepted: routing a page turns
 * Chromium's HTTP cache off, and with it the compiled-code cache that lets a
 * visit reuse what earlier visits compiled; the browser itself blocks other
 * hosts (launch's dead proxy).
 */
/** What went wrong in one visit; `over` once it is closed (later events are not its own). */
interface Found {
  problems: string[];
  dialogs: string[];
  requests: string[];
  over?: boolean;
}

function watch(page: Page, into: () => Found | null): void {
  // What happens in a document belongs to the visit that opened it. In a reused page the last
  // document goes on (loading, erring) until the next one commits, and leaving it aborts what it
  // still had under way: that is the last visit's, which is over, so it is not recorded.
  let shown: Found | null = null;
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) shown = into();
  });
  const record = (visit: Found | null | undefined, text: string) => {
    if (visit && !visit.over) visit.problems.push(text);
  };
  const madeIn = new WeakMap<Request, Found | null>();
  page.on("request", (r) => {
    // The navigation's own request is the next document's; any other, the shown one's.
    const visit = r.isNavigationRequest() && r.frame() === page.mainFrame() ? into() : shown;
    madeIn.set(r, visit);
    if (visit && !visit.over) visit.requests.push(r.url());
    if (!loopback(r.url())) record(visit, `request to a non-loopback host: ${r.url()}`);
  });
  page.on("console", (m) => m.type() === "error" && record(shown, `console error: ${m.text()}`));
  page.on("pageerror", (e) => record(shown, `uncaught exception: ${e.message}`));
  page.on("requestfailed", (r) => record(madeIn.get(r), `failed request: ${r.url()} (${r.failure()?.errorText})`));
  page.on("response", (r) => r.status() >= 400 && record(madeIn.get(r.request()), `HTTP ${r.status()}: ${r.url()}`));
  page.on("dialog", (d) => {
    into()?.dialogs.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  trackRequests(page);
}

/**
 * Pages that go from one path to the next, for tests that only look at what
 * a page shows: a visit navigates a free page of the browser's visiting
 * context (a new one when none is free), and its `close()` frees the page
 * again. Going on in the same page keeps its renderer and what it compiled:
 * the 29 pages of the site with no datasets cost 20 CPU-seconds so, against
 * 35 in a new page each. What goes wrong is recorded per visit.
 */
export function tabs(browser: Browser, server: StaticServer): {visit(path: string): Promise<Visit>; close(): Promise<void>} {
  type Tab = {page: Page; current: Found | null};
  const free: Tab[] = [];
  const all: Tab[] = [];
  return {
    async visit(path) {
      let tab = free.pop();
      if (!tab) {
        const page = await (await sharedContext(browser)).newPage();
        const made: Tab = {page, current: null};
        watch(page, () => made.current);
        all.push((tab = made));
      }
      const found: Found = {problems: [], dialogs: [], requests: []};
      tab.current = found;
      await tab.page.goto(server.url + path, {waitUntil: "load"});
      await settle(tab.page);
      const done = tab;
      return {page: tab.page, problems: found.problems, dialogs: found.dialogs, requests: found.requests, close: async () => {
        found.over = true;
        done.current = null;
        free.push(done);
      }};
    },
    close: async () => void (await Promise.all(all.map((t) => t.page.close()))),
  };
}

/** Closes a page of a visit or of a test's own context: the page alone in the shared visiting context, else its context with it. */
export async function closePage(page: Page): Promise<void> {
  const browser = page.context().browser();
  const shared = browser ? await sharedContexts.get(browser) : undefined;
  if (page.context() === shared) await page.close();
  else await page.context().close();
}

/** Requests under way, per page (counted from the first visit or settle on it). */
const inFlight = new WeakMap<Page, Set<unknown>>();

function trackRequests(page: Page): Set<unknown> {
  const known = inFlight.get(page);
  if (known) return known;
  const requests = new Set<unknown>();
  inFlight.set(page, requests);
  page.on("request", (r) => requests.add(r));
  page.on("requestfinished", (r) => requests.delete(r));
  page.on("requestfailed", (r) => requests.delete(r));
  return requests;
}

// In the page: how long it has been quiet, from a mutation observer installed on first use
// (a string, not a function: tsx's transform would add helpers that do not exist in the page).
const QUIET_FOR = `(() => {
  const w = globalThis;
  if (!w.__parleyLastMutation) {
    w.__parleyLastMutation = performance.now();
    new MutationObserver(() => { w.__parleyLastMutation = performance.now(); })
      .observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
  }
  const busy = (w.__parleyPending ?? 0) > 0 || !!document.querySelector(".parley-loading");
  return busy ? 0 : performance.now() - w.__parleyLastMutation;
})()`;

/**
 * Waits until the page has settled: no request under way, no DuckDB work
 * (the counter that src/components/duckdb.ts keeps), no section showing a
 * loading state (.parley-loading, src/components/loading.ts) and no DOM
 * mutation, all for `quietMs`. Requests alone are not enough: compiling
 * DuckDB's wasm and running queries make neither requests nor mutations.
 */
export async function settle(page: Page, quietMs = 400, timeoutMs = 60_000): Promise<void> {
  // A page opened without visit(): requests begun before this call are not counted, so wait longer for quiet, as before.
  if (!inFlight.has(page)) quietMs = Math.max(quietMs, 1000);
  const requests = trackRequests(page);
  const start = performance.now();
  let networkQuietSince = start;
  while (performance.now() - start < timeoutMs) {
    if (requests.size) networkQuietSince = performance.now();
    const quietFor = (await page.evaluate(QUIET_FOR)) as number;
    if (!requests.size && quietFor >= quietMs && performance.now() - networkQuietSince >= quietMs) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A full-page screenshot in test-artifacts/screenshots/, for a person to look
 * at (no test reads it), taken when PARLEY_SCREENSHOTS=1: painting and
 * encoding every page whole cost Chromium a quarter of /pages' CPU (235
 * against 183 core-seconds on two cores).
 */
export async function screenshot(page: Page, name: string): Promise<string | null> {
  if (process.env.PARLEY_SCREENSHOTS !== "1") return null;
  const dir = join(artifacts, "screenshots");
  mkdirSync(dir, {recursive: true});
  const path = join(dir, `${name.replace(/[^a-z0-9-]+/gi, "_") || "index"}.png`);
  await page.screenshot({path, fullPage: true});
  return path;
}
