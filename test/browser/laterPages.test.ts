// Shareable views, downloads, loading and error states on the pages added
// after the first ones (NegotiationArena, Economics Arena, the
// complete-information games and their meta-game, Deal or No Deal played and
// its valuation estimates), in headless Chromium on a real build.
import {test} from "node:test";
import assert from "node:assert/strict";
import {closePage, settle, visit} from "./harness.js";
import {chosen, download, errorsOf, parseCsv, parseSvg, pngSize, heldBackPage, restoresView, testSite, withoutFile} from "./checks.js";

const site = testSite();

test("a copied URL restores the Economics Arena game and its three charts", async () => {
  await restoresView(site,
    "/econarena",
    (page) => page.getByLabel("Game").selectOption({label: "second-price auction"}),
    [/game=econarena\/auction:second/],
    async (page) => ({
      game: await chosen(page.getByLabel("Game")),
      charts: await page.locator("h2:has-text('Deviation') ~ div .parley-exportable svg").evaluateAll((svgs) => svgs.map((s) => s.textContent)),
    }),
  );
});

test("a copied URL restores the gtllm table, toggle, pair game and transcript", async () => {
  await restoresView(site,
    "/gtllm",
    async (page) => {
      await page.getByLabel("Table 7", {exact: false}).first().check();
      await page.getByLabel("Pareto-optimal equilibria only").check();
      await page.locator("h2:has-text('Every pairing') ~ div select").first().selectOption({label: "Duopolistic competition"});
      await page.getByLabel("Game played").selectOption({index: 5});
    },
    [/table=7/, /po=true/, /pairs=gtllm\/duopoly/, /talk=/],
    async (page) => ({
      po: await page.getByLabel("Pareto-optimal equilibria only").isChecked(),
      tables: await page.locator("main table tbody").allTextContents(),
      talk: await chosen(page.getByLabel("Game played")),
      transcript: await page.locator(".parley-transcript").textContent(),
    }),
  );
});

test("a copied URL restores the buy/sell transcript and the valuation metric", async () => {
  await restoresView(site,
    "/negotiationarena-buy-sell",
    (page) => page.getByLabel("Game").selectOption({index: 4}),
    [/game=/],
    async (page) => ({game: await chosen(page.getByLabel("Game")), transcript: await page.locator(".parley-transcript").textContent()}),
  );
  await restoresView(site,
    "/dond-beliefs",
    (page) => page.getByLabel("Metric").selectOption({label: "reduction"}),
    [/metric=reduction/],
    async (page) => ({metric: await chosen(page.getByLabel("Metric")), chart: await page.locator("h2:has-text('By round') ~ div .parley-exportable svg").evaluateAll((s) => s.map((x) => x.textContent))}),
  );
});

test("charts download as valid SVG and PNG and tables as CSV on the new pages", async () => {
  const {page, problems} = await visit(site.browser, site.server, "/negotiationarena-ultimatum");
  const chart = page.locator(".parley-exportable").filter({has: page.locator("svg [aria-label=line]")}).first();
  const svg = await download(page, chart.getByRole("button", {name: "SVG"}));
  assert.equal(svg.name, "negotiationarena-ultimatum-acceptance.svg");
  assert.deepEqual(await parseSvg(page, svg.bytes.toString("utf8")), {root: "svg", ns: "http://www.w3.org/2000/svg", errors: 0});
  const png = await download(page, chart.getByRole("button", {name: "PNG"}));
  const size = pngSize(png.bytes);
  const box = (await chart.locator("svg").evaluateAll((all) => all.map((s) => [Number(s.getAttribute("width")), Number(s.getAttribute("height"))]))).sort((a, b) => b[0] * b[1] - a[0] * a[1])[0];
  assert.deepEqual(size, {signature: true, width: box[0] * 2, height: box[1] * 2});

  // An Inputs.table: one CSV row per row, the header as shown.
  const table = page.locator("h2:has-text('share by stake') ~ div .parley-exportable").first();
  const csv = parseCsv((await download(page, table.getByRole("button", {name: "CSV"}))).bytes.toString("utf8"));
  assert.deepEqual(csv[0], (await table.locator("thead th").allTextContents()).map((s) => s.trim()).filter(Boolean));
  assert.equal(csv.length - 1, await table.locator("tbody tr").count());
  await closePage(page);
  assert.deepEqual(problems, []);

  // An HTML table (the meta-game's 2×2): cell for cell.
  const meta = await visit(site.browser, site.server, "/gtllm-metagame");
  const block = meta.page.locator(".parley-exportable").first();
  const cells = parseCsv((await download(meta.page, block.getByRole("button", {name: "CSV"}))).bytes.toString("utf8"));
  assert.deepEqual(cells, await block.locator("table tr").evaluateAll((rows) => rows.map((r) => Array.from(r.querySelectorAll("th, td")).map((c) => c.textContent!.trim()))));
  assert.equal(cells.length, 3, "a header and two rows");
  await closePage(meta.page);
  assert.deepEqual(meta.problems, []);
});

test("a section waiting for data says so, then draws (Economics Arena, a game not in the first view)", async () => {
  const {page, release, close} = await heldBackPage(site.browser);
  await page.goto(`${site.server.url}/econarena?game=${encodeURIComponent("econarena/auction:first")}`);
  await page.locator("h2:has-text('Deviation') ~ div .parley-loading").first().waitFor({state: "visible", timeout: 30_000});
  assert.match((await page.locator("h2:has-text('Deviation') ~ div .parley-loading").first().textContent())!, /Loading the deviations/);
  // The first view's tables do not wait.
  assert.ok((await page.locator("h2:has-text('The measures') ~ div table tbody tr").count()) > 0);
  release();
  await settle(page);
  assert.equal(await page.locator(".parley-loading").count(), 0, "no loading state left");
  assert.ok((await page.locator("h2:has-text('Deviation') ~ div .parley-exportable svg").count()) > 0, "the chart is drawn");
  assert.deepEqual(await errorsOf(page), []);
  await close();
});

test("a missing file gives an error state that names it (NegotiationArena turns)", async () => {
  await withoutFile(site.dist, "data/negotiationarena", "turns.", async (broken, removed) => {
    // Game index 0 is in the first view; another one needs the turns table.
    const {page, problems} = await visit(site.browser, broken, "/negotiationarena-resource-exchange");
    await page.getByLabel("Game").selectOption({index: 2});
    await settle(page);
    const error = (await page.locator(".parley-error").first().textContent())!;
    assert.match(error, new RegExp(`Could not load the game's messages: .*${removed.replace(/\./g, "\\.")}.*HTTP 404`));
    // The sections answered by the build still draw.
    assert.ok((await page.locator("main svg").count()) > 0, "the pair grid still shows");
    await closePage(page);
    assert.ok(problems.every((p) => /HTTP 404: .*turns\.[0-9a-f]+\.parquet|console error: Failed to load resource: .* 404/.test(p)), problems.join("\n"));
  });
});
