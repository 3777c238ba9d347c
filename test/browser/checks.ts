/** The site browser tests open, what they read off a page (a select's chosen option, errors shown, downloads, CSV, SVG, PNG), and a site with a file missing. */
import {cpSync, mkdtempSync, readFileSync, readdirSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {after, before} from "node:test";
import assert from "node:assert/strict";
import type {Browser, Locator, Page} from "playwright-core";
import {serveStatic, type StaticServer} from "../../loaders/site/serve.js";
import {openSite, settle, visit, type Site} from "./harness.js";
import type {FixtureSite} from "../support/fixtureSite.js";

/** The text of a select's chosen option (Inputs.select's option values are indices). */
export const chosen = (select: Locator): Promise<string> => select.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent ?? "");

/** The error states a page shows (Framework's cell errors and the Loading component's). */
export const errorsOf = (page: Page): Promise<string[]> => page.locator(".observablehq--error, .parley-error").allTextContents();

/** Clicks a download button and returns the file's name and bytes. */
export async function download(page: Page, button: Locator): Promise<{name: string; bytes: Buffer}> {
  const [file] = await Promise.all([page.waitForEvent("download"), button.click()]);
  return {name: file.suggestedFilename(), bytes: readFileSync((await file.path())!)};
}

/** Parses CSV (RFC 4180: quoted fields may hold commas, quotes and line breaks). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") row.push(field), (field = "");
    else if (c === "\n") row.push(field), rows.push(row), (row = []), (field = "");
    else if (c !== "\r") field += c;
  }
  if (field || row.length) row.push(field), rows.push(row);
  return rows;
}

/** The PNG signature, and the image's width and height from its IHDR chunk. */
export function pngSize(bytes: Buffer): {signature: boolean; width: number; height: number} {
  const signature = [...bytes.subarray(0, 8)].join() === [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].join();
  return {signature, width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20)};
}

/** Parses `text` as an SVG document in the page's XML parser: its root element, namespace and parse errors. */
export async function parseSvg(page: Page, text: string): Promise<{root: string; ns: string | null; errors: number}> {
  return (await page.evaluate(`(() => {
    const doc = new DOMParser().parseFromString(${JSON.stringify(text)}, "image/svg+xml");
    return {root: doc.documentElement.localName, ns: doc.documentElement.namespaceURI, errors: doc.getElementsByTagName("parsererror").length};
  })()`)) as {root: string; ns: string | null; errors: number};
}

/**
 * A copy of the built site `dist` without the file of `folder` (under _file/)
 * whose name starts with `prefix` (names carry a content hash), served on
 * loopback; the test reads it, then it is removed. Returns what `use` returns.
 */
export async function withoutFile<T>(dist: string, folder: string, prefix: string, use: (server: StaticServer, removed: string) => Promise<T>): Promise<T> {
  const copy = mkdtempSync(join(tmpdir(), "parley-dist-broken-"));
  try {
    cpSync(dist, copy, {recursive: true});
    const dir = join(copy, "_file", folder);
    const removed = readdirSync(dir).find((f) => f.startsWith(prefix))!;
    rmSync(join(dir, removed));
    const server = await serveStatic(copy);
    try {
      return await use(server, removed);
    } finally {
      await server.close();
    }
  } finally {
    rmSync(copy, {recursive: true, force: true});
  }
}

export interface TestSite {
  dist: string;
  server: StaticServer;
  browser: Browser;
  fixture: FixtureSite;
}

/** The fixture site a browser test file works on, served with Chromium: opened before the file's tests and closed after them. */
export function testSite(): TestSite {
  const site = {} as TestSite;
  let opened: Site | undefined;
  before(async () => {
    opened = await openSite();
    Object.assign(site, opened);
  });
  after(() => opened?.close());
  return site;
}

/** A page in a fresh browser context whose Parquet requests wait until `release()`: sections that need a table show their loading state meanwhile. */
export async function heldBackPage(browser: Browser): Promise<{page: Page; release: () => void; close: () => Promise<void>}> {
  const context = await browser.newContext();
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await context.route("**/*.parquet", async (route) => {
    await held;
    await route.continue();
  });
  return {page: await context.newPage(), release, close: () => context.close()};
}

/**
 * Sets inputs with `change`, checks the URL names them (`expect`), then opens
 * the URL in a fresh browser context and checks `read` gives the same there.
 */
export async function restoresView(site: {browser: Browser; server: StaticServer}, path: string, change: (page: Page) => Promise<unknown>, expect: RegExp[], read: (page: Page) => Promise<unknown>): Promise<void> {
  const first = await visit(site.browser, site.server, path);
  await change(first.page);
  await settle(first.page);
  const url = first.page.url();
  for (const pattern of expect) assert.match(decodeURIComponent(url), pattern);
  const shown = await read(first.page);
  assert.deepEqual(await errorsOf(first.page), []);
  await first.close();
  assert.deepEqual(first.problems, []);

  const again = await visit(site.browser, site.server, url.slice(site.server.url.length), {fresh: true});
  assert.deepEqual(await read(again.page), shown, `${path}: the copied link shows the same`);
  assert.deepEqual(await errorsOf(again.page), []);
  await again.close();
  assert.deepEqual(again.problems, []);
}
