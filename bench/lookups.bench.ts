/**
 * One game on a GLEE family page (/glee-bargaining, "One game"): in headless
 * Chromium, the time from picking another game (then another pair, then a
 * game of it) to its transcript shown, and the Parquet bytes fetched for it.
 * The pages read one pair's games and one game's turns by row group
 * (src/lib/lookups.ts, HTTP Range requests), not the whole tables.
 *
 *   npm run bench -- lookups            the site built on the configured datasets
 *   PARLEY_BENCH_DIST=<dist> [PARLEY_BENCH_DATASET=<label>] npm run bench -- lookups
 */
import type {Browser, Page} from "playwright-core";
import {serveStatic} from "../loaders/site/serve.js";
import {datasetsConfig} from "../loaders/projectConfig.js";
import {buildInto, launch, settle} from "../test/browser/harness.js";

interface Pick {
  what: string;
  ms: number;
  bytes: number;
  requests: number;
  whole: number;
}

/** Picks `choose` and waits for the transcript to be drawn again with nothing pending; returns the time and the Parquet bytes fetched meanwhile. */
async function pick(page: Page, what: string, fetched: {bytes: number; requests: number; whole: number}, choose: () => Promise<unknown>): Promise<Pick> {
  // The shown transcript is marked: the cell draws a new one for the picked game (whose text may equal the last one's).
  await page.locator(".parley-transcript").first().evaluate((e) => e.setAttribute("data-old", ""));
  Object.assign(fetched, {bytes: 0, requests: 0, whole: 0});
  const t0 = performance.now();
  await choose();
  // A string, not a function: tsx's transform would add helpers that do not exist in the page.
  await page.waitForFunction(`document.querySelector(".parley-transcript:not([data-old])") && (globalThis.__parleyPending ?? 0) === 0 && !document.querySelector(".parley-loading")`, undefined, {timeout: 120_000, polling: 20});
  const ms = performance.now() - t0;
  await settle(page);
  return {what, ms, ...fetched};
}

export async function measurePicks(browser: Browser, url: string): Promise<Pick[]> {
  const context = await browser.newContext({viewport: {width: 1280, height: 900}});
  const page = await context.newPage();
  const fetched = {bytes: 0, requests: 0, whole: 0};
  page.on("response", async (r) => {
    if (!new URL(r.url()).pathname.endsWith(".parquet")) return;
    const body = await r.body().catch(() => Buffer.alloc(0));
    fetched.bytes += body.length;
    fetched.requests++;
    if (r.status() === 200) fetched.whole++;
  });
  try {
    await page.goto(url, {waitUntil: "load"});
    await settle(page);
    const picks = [await pick(page, "another game of the pair", fetched, () => page.getByLabel("Game").selectOption({index: 2}))];
    const bob = page.getByLabel("Bob's agent");
    const last = (await bob.locator("option").count()) - 1;
    picks.push(await pick(page, "another pair (its first game)", fetched, () => bob.selectOption({index: last})));
    picks.push(await pick(page, "a game of that pair", fetched, () => page.getByLabel("Game").selectOption({index: 3})));
    return picks;
  } finally {
    await context.close();
  }
}

export default async function (): Promise<void> {
  const dist = process.env.PARLEY_BENCH_DIST ?? (await buildInto(datasetsConfig().dir ?? "/nonexistent"));
  const server = await serveStatic(dist);
  const browser = await launch();
  try {
    const dataset = process.env.PARLEY_BENCH_DATASET;
    const url = `${server.url}/glee-bargaining${dataset ? `?${new URLSearchParams({dataset})}` : ""}`;
    for (const p of await measurePicks(browser, url)) {
      console.log(`${p.what}: transcript in ${(p.ms / 1000).toFixed(2)} s, ${(p.bytes / 1024).toFixed(0)} KiB of Parquet in ${p.requests} request(s)${p.whole ? `, ${p.whole} whole file(s)` : ""}`);
    }
  } finally {
    await browser.close();
    await server.close();
  }
}
