// Shareable views, downloads, loading and error states, in headless Chromium
// on a real build: a copied URL restores the inputs and what they show; SVG,
// PNG and CSV downloads are valid and match the page; a section waiting for
// data says so, and one whose file is missing says what went wrong.
import {test} from "node:test";
import assert from "node:assert/strict";
import type {Page} from "playwright-core";
import {closePage, settle, tabs, visit} from "./harness.js";
import {FIRST_VIEWS} from "../../loaders/registry/firstViews.js";
import {chosen, download, errorsOf, parseCsv, heldBackPage, testSite, withoutFile} from "./checks.js";

const site = testSite();

test("a copied URL opens the same view (GLEE regression: family, metric, pair feature, agents)", async () => {
  const first = await visit(site.browser, site.server, "/glee-regression");
  const {page} = first;
  const fitFamily = (p: Page) => p.locator("select:has(option:text-is('persuasion'))");
  await fitFamily(page).selectOption({label: "persuasion"});
  await page.getByLabel("Metric").selectOption({label: "Fairness"});
  await page.getByLabel("Agent pair as one feature").check();
  await page.locator("form:has-text('Agents') input[type=checkbox]").first().uncheck();
  await settle(page);
  const url = page.url();
  assert.match(url, /family=persuasion/);
  assert.match(url, /metric=fairness/);
  assert.match(url, /pairs=true/);
  assert.match(url, /agents=/);
  const summary = (await page.locator("p:has-text('estimated columns')").textContent())!;
  const selected = (await page.locator("p:has-text('games in the selection')").textContent())!;
  await closePage(page);
  assert.deepEqual(first.problems, []);

  // The copied link, in a fresh browser context (nothing shared but the URL).
  const again = await visit(site.browser, site.server, url.slice(site.server.url.length), {fresh: true});
  const p2 = again.page;
  assert.equal(await chosen(fitFamily(p2)), "persuasion");
  assert.equal(await chosen(p2.getByLabel("Metric")), "Fairness");
  assert.equal(await p2.getByLabel("Agent pair as one feature").isChecked(), true);
  assert.equal(await p2.locator("form:has-text('Agents') input[type=checkbox]").first().isChecked(), false);
  assert.equal(await p2.locator("p:has-text('estimated columns')").textContent(), summary);
  assert.equal(await p2.locator("p:has-text('games in the selection')").textContent(), selected);
  assert.deepEqual(await errorsOf(p2), []);
  await closePage(p2);
  assert.deepEqual(again.problems, []);
});

test("a copied URL opens the same dialogue and table on /dond", async () => {
  const {page, problems} = await visit(site.browser, site.server, "/dond");
  await page.getByLabel("Cumulative (as Table 9)").check();
  await page.getByLabel("Dialogue", {exact: true}).selectOption({index: 3});
  await settle(page);
  const dialogue = (await chosen(page.getByLabel("Dialogue", {exact: true}))).split(" · ")[0];
  const rates = await page.locator("table").first().locator("tbody").textContent();
  const transcript = await page.locator(".parley-transcript").textContent();
  const url = page.url();
  await closePage(page);
  assert.deepEqual(problems, []);
  assert.match(url, /cumulative=true/);
  assert.match(url, new RegExp(`game=${dialogue}`));
  const again = await visit(site.browser, site.server, url.slice(site.server.url.length), {fresh: true});
  assert.equal((await chosen(again.page.getByLabel("Dialogue", {exact: true}))).split(" · ")[0], dialogue);
  assert.equal(await again.page.getByLabel("Cumulative (as Table 9)").isChecked(), true);
  assert.equal(await again.page.locator("table").first().locator("tbody").textContent(), rates);
  assert.equal(await again.page.locator(".parley-transcript").textContent(), transcript);
  await closePage(again.page);
  assert.deepEqual(again.problems, []);
});

test("charts download as valid SVG and PNG, tables as CSV matching what is shown", async () => {
  const {page, problems} = await visit(site.browser, site.server, "/dond");
  const chart = page.locator(".parley-exportable").filter({has: page.locator("svg")}).first();
  const svg = await download(page, chart.getByRole("button", {name: "SVG"}));
  assert.equal(svg.name, "dond-rates-by-difficulty.svg");
  const text = svg.bytes.toString("utf8");
  assert.match(text, /^<svg[\s>]/);
  // Parsed as a standalone SVG document by the browser's XML parser.
  const parsed = (await page.evaluate(`(() => {
    const doc = new DOMParser().parseFromString(${JSON.stringify(text)}, "image/svg+xml");
    return {root: doc.documentElement.localName, ns: doc.documentElement.namespaceURI, errors: doc.getElementsByTagName("parsererror").length, lines: doc.querySelectorAll("[aria-label=line] path").length};
  })()`)) as {root: string; ns: string; errors: number; lines: number};
  assert.deepEqual(parsed, {root: "svg", ns: "http://www.w3.org/2000/svg", errors: 0, lines: 4});

  const png = await download(page, chart.getByRole("button", {name: "PNG"}));
  assert.equal(png.name, "dond-rates-by-difficulty.png");
  assert.deepEqual([...png.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "PNG signature");
  const width = png.bytes.readUInt32BE(16);
  const height = png.bytes.readUInt32BE(20);
  // The chart's own <svg> is the largest in the block (the legend's swatches are small ones).
  const sizes = await chart.locator("svg").evaluateAll((all) => all.map((s) => [Number(s.getAttribute("width")), Number(s.getAttribute("height"))]));
  const box = sizes.sort((a, b) => b[0] * b[1] - a[0] * a[1])[0];
  assert.deepEqual([width, height], [box[0] * 2, box[1] * 2], "drawn at twice the chart's size");
  assert.ok(png.bytes.length > 1000, `a PNG with content (${png.bytes.length} bytes)`);

  // Inputs.table: every row, with the table's header labels and formats.
  const table = page.locator(".parley-exportable").filter({has: page.locator("table")}).first();
  const csv = parseCsv((await download(page, table.getByRole("button", {name: "CSV"}))).bytes.toString("utf8"));
  const header = (await table.locator("thead th").allTextContents()).map((s) => s.trim()).filter(Boolean);
  assert.deepEqual(csv[0], header);
  const shown = await table.locator("tbody tr").evaluateAll((rows) => rows.map((r) => Array.from(r.querySelectorAll("td")).map((td) => td.textContent!.trim())));
  assert.equal(csv.length - 1, shown.length, "one CSV row per table row");
  // Columns with an explicit format (the percentages) read exactly as shown.
  for (const [i, row] of shown.entries()) assert.deepEqual(csv[i + 1].slice(2), row.slice(-4));
  await closePage(page);
  assert.deepEqual(problems, []);
});

test("an HTML table (GLEE market effects) downloads as CSV cell for cell", async () => {
  const {page, problems} = await visit(site.browser, site.server, "/glee-regression");
  const block = page.locator("h2:has-text('Market effects') ~ div .parley-exportable").first();
  const csv = parseCsv((await download(page, block.getByRole("button", {name: "CSV"}))).bytes.toString("utf8"));
  const shown = await block.locator("table tr").evaluateAll((rows) => rows.map((r) => Array.from(r.querySelectorAll("th, td")).map((c) => c.textContent!.trim())));
  assert.ok(shown.length > 2);
  assert.deepEqual(csv, shown);
  await closePage(page);
  assert.deepEqual(problems, []);
});

test("every page with a build-time first view draws it without fetching a table", async () => {
  // One page going from path to path: a table asked for shows as a request, from the network or the cache.
  const pages = tabs(site.browser, site.server);
  try {
    for (const path of FIRST_VIEWS.map((v) => `/${v.page}`)) {
      const {page, requests, close} = await pages.visit(path);
      // On a busy machine a page can be quiet for a while before it draws: wait for the drawing itself.
      await page.locator("main svg, main table").first().waitFor({state: "attached", timeout: 30_000}).catch(() => {});
      await settle(page);
      assert.deepEqual(requests.filter((url) => /\.parquet(\?|$)/.test(url)), [], `${path} fetched tables for its first view`);
      assert.ok((await page.locator("main svg, main table").count()) > 0, `${path} drew something`);
      assert.deepEqual(await errorsOf(page), [], path);
      await close();
    }
  } finally {
    await pages.close();
  }
});

test("a section waiting for data says so, then draws", async () => {
  // Hold the Parquet files back: the rates of a cumulative view are not in the first view and need DuckDB.
  const {page, release, close} = await heldBackPage(site.browser);
  await page.goto(`${site.server.url}/dond?cumulative=true`);
  const waiting = page.locator(".parley-loading").first();
  await waiting.waitFor({state: "visible", timeout: 30_000});
  assert.match((await page.locator("h2:has-text('Rates by difficulty') ~ div .parley-loading").first().textContent())!, /Loading the rates/);
  release();
  await settle(page);
  assert.equal(await page.locator(".parley-loading").count(), 0, "no loading state left");
  assert.equal(await page.locator("svg [aria-label=line] path").count(), 4, "the chart is drawn");
  assert.deepEqual(await errorsOf(page), []);
  await close();
});

test("a missing file gives an error state that names it", async () => {
  await withoutFile(site.dist, "data/dond", "games.", async (broken) => {
    const {page, problems} = await visit(site.browser, broken, "/dond?cumulative=true");
    const error = (await page.locator(".parley-error").first().textContent())!;
    assert.match(error, /Could not load the rates: .*games\.[0-9a-f]+\.parquet.*HTTP 404/);
    // The first view's other sections still draw from the build's answers.
    assert.ok((await page.locator(".parley-transcript").count()) === 1, "the transcript still shows");
    await closePage(page);
    // The one failure is that file (the browser also logs the 404 itself).
    assert.ok(problems.some((p) => /HTTP 404: .*games\.[0-9a-f]+\.parquet/.test(p)), problems.join("\n"));
    assert.ok(problems.every((p) => /HTTP 404: .*games\.[0-9a-f]+\.parquet|console error: Failed to load resource: .* 404/.test(p)), problems.join("\n"));
  });
});
