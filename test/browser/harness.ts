/**
 * Browser-test harness: build the site into a scratch directory, serve it on
 * 127.0.0.1, and open pages in Debian's headless Chromium (playwright-core),
 * recording every console error, uncaught exception, failed request, request
 * to a host other than loopback (which is also blocked), and JavaScript dialog.
 */
import {createHash} from "node:crypto";
import {mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, existsSync} from "node:fs";
import {tmpdir} from "node:os";
import {join, relative} from "node:path";
import {chromium, type Browser, type Page} from "playwright-core";
import {serveStatic, type StaticServer} from "../../loaders/site/serve.js";
import {buildSite} from "../../loaders/site/build.js";
import {datasetsConfig, projectRoot} from "../../loaders/projectConfig.js";
import config from "../../observablehq.config.js";

export const artifacts = join(projectRoot, "test-artifacts");

/** Every page path the site lists, plus the home page. */
export function sitePages(): string[] {
  type Entry = {path?: string; pages?: Entry[]};
  const walk = (entries: Entry[]): string[] => entries.flatMap((e) => (e.pages ? walk(e.pages) : e.path ? [e.path] : []));
  return ["/", ...walk(config.pages as Entry[])];
}

/**
 * A datasets directory for a test build: links to every dataset of the
 * configured directory, with some files replaced (e.g. a dialogue file with
 * hostile text appended). The originals are never modified.
 */
export function scratchDatasets(replace: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "parley-datasets-"));
  const source = datasetsConfig().dir;
  const top = new Set(Object.keys(replace).map((p) => p.split("/")[0]));
  if (source && existsSync(source)) {
    for (const name of readdirSync(source)) if (!top.has(name)) symlinkSync(join(source, name), join(dir, name));
  }
  return dir;
}

export async function buildInto(datasets: string): Promise<string> {
  const dist = mkdtempSync(join(tmpdir(), "parley-dist-"));
  const code = await buildSite({...process.env, PARLEY_DATASETS: datasets, PARLEY_DIST: dist});
  if (code !== 0) throw new Error(`site build failed with exit code ${code}`);
  return dist;
}

// What a default build is made of: the site's sources and the configured datasets (names, sizes, times).
const BUILD_INPUTS = ["src", "loaders", "data", "observablehq.config.ts", "parley.config.json", "package-lock.json"];
const NOT_INPUTS = new Set(["generated", ".observablehq"]);

function buildKey(): string {
  const hash = createHash("sha256");
  const walk = (path: string, hashContent: boolean) => {
    const stat = statSync(path, {throwIfNoEntry: false});
    if (!stat) return;
    if (stat.isDirectory()) {
      for (const name of readdirSync(path).sort()) if (!NOT_INPUTS.has(name)) walk(join(path, name), hashContent);
      return;
    }
    hash.update(`${relative(projectRoot, path)}\0`);
    hash.update(hashContent ? readFileSync(path) : `${stat.size} ${stat.mtimeMs}`);
  };
  for (const input of BUILD_INPUTS) walk(join(projectRoot, input), true);
  const datasets = datasetsConfig().dir;
  hash.update(`datasets ${datasets}\0`);
  if (datasets) walk(datasets, false);
  for (const name of ["PARLEY_CONFIG", "PARLEY_DATASETS", "PARLEY_GAMES_DIR"]) hash.update(`${name}=${process.env[name] ?? ""}\0`);
  return hash.digest("hex").slice(0, 16);
}

/**
 * The site built with every configured dataset as it is, shared by the browser
 * test files that need nothing else: each test file runs in its own process, and
 * building the same site in each cost minutes apiece. The build is kept in the
 * temporary directory under a hash of its inputs (sources and the datasets'
 * listing), so a changed source builds afresh; tests that change a file copy
 * the site first (checks.ts withoutFile). PARLEY_TEST_DIST overrides it.
 */
export async function defaultBuild(): Promise<string> {
  if (process.env.PARLEY_TEST_DIST) return process.env.PARLEY_TEST_DIST;
  const shared = join(tmpdir(), "parley-test-builds");
  const dist = join(shared, buildKey());
  if (existsSync(join(dist, "index.html"))) return dist;
  mkdirSync(shared, {recursive: true});
  const built = await buildInto(scratchDatasets());
  rmSync(dist, {recursive: true, force: true});
  renameSync(built, dist);
  return dist;
}

export interface Site {
  /** The built site's directory. */
  dist: string;
  server: StaticServer;
  browser: Browser;
  close(): Promise<void>;
}

/**
 * Builds the site with `datasets` as the datasets directory (by default the
 * shared build of the configured datasets), serves it on loopback and launches Chromium.
 */
export async function openSite(datasets?: string): Promise<Site> {
  // PARLEY_TEST_DIST=<a built site> reuses a build (to rerun one browser test quickly; the datasets are then that build's).
  const dist = process.env.PARLEY_TEST_DIST ?? (datasets === undefined ? await defaultBuild() : await buildInto(datasets));
  const server = await serveStatic(dist);
  const browser = await launch();
  return {dist, server, browser, close: async () => {
    await browser.close();
    await server.close();
  }};
}

export interface Visit {
  page: Page;
  problems: string[];
  dialogs: string[];
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

/** Opens `path`, waits until the network and the DOM have been quiet, and returns what went wrong. */
export async function visit(browser: Browser, server: StaticServer, path: string): Promise<Visit> {
  const context = await browser.newContext({viewport: {width: 1280, height: 900}});
  const page = await context.newPage();
  const problems: string[] = [];
  const dialogs: string[] = [];
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (loopback(url)) return route.continue();
    problems.push(`request to a non-loopback host: ${url}`);
    return route.abort();
  });
  page.on("console", (m) => m.type() === "error" && problems.push(`console error: ${m.text()}`));
  page.on("pageerror", (e) => problems.push(`uncaught exception: ${e.message}`));
  page.on("requestfailed", (r) => problems.push(`failed request: ${r.url()} (${r.failure()?.errorText})`));
  page.on("response", (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.url()}`));
  page.on("dialog", (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  await page.goto(server.url + path, {waitUntil: "load"});
  await page.waitForLoadState("networkidle");
  await settle(page);
  return {page, problems, dialogs};
}

/**
 * Waits until the page has settled: no DuckDB work under way (the counter that
 * src/components/duckdb.ts keeps), no section showing a loading state
 * (.parley-loading, src/components/loading.ts) and no DOM mutation, all for `quietMs`.
 * Network idleness alone is not enough: compiling DuckDB's wasm and running
 * queries make neither requests nor mutations.
 */
export async function settle(page: Page, quietMs = 1000, timeoutMs = 60_000): Promise<void> {
  // A string, not a function: tsx's transform would add helpers that do not exist in the page.
  await page.evaluate(`new Promise((resolve) => {
    let last = performance.now();
    const observer = new MutationObserver(() => { last = performance.now(); });
    observer.observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
    const start = performance.now();
    const poll = setInterval(() => {
      const now = performance.now();
      if ((globalThis.__parleyPending ?? 0) > 0 || document.querySelector(".parley-loading")) last = now;
      if (now - last >= ${quietMs} || now - start >= ${timeoutMs}) {
        clearInterval(poll);
        observer.disconnect();
        resolve();
      }
    }, 50);
  })`);
}

export async function screenshot(page: Page, name: string): Promise<string> {
  const dir = join(artifacts, "screenshots");
  mkdirSync(dir, {recursive: true});
  const path = join(dir, `${name.replace(/[^a-z0-9-]+/gi, "_") || "index"}.png`);
  await page.screenshot({path, fullPage: true});
  return path;
}
