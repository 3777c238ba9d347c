// The GLEE analysis pages in headless Chromium on the default dataset (the
// simulated tournament every build generates): regression tables, coefficient
// plots, pair heatmaps and the meta-game with its equilibria render, stay
// error-free when inputs change, and show an empty state without games.
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import type {Browser, Page} from "playwright-core";
import type {StaticServer} from "../../loaders/site/serve.js";
import {closePage, openSite, screenshot, settle, visit, type Site} from "./harness.js";
import type {SelfGainByDiscount} from "../../src/lib/selfGain.js";

let site: Site;
let browser: Browser;
let server: StaticServer;

before(async () => {
  site = await openSite();
  ({browser, server} = site);
});

after(() => site?.close());

async function errorsOf(page: Page): Promise<string[]> {
  return page.locator(".observablehq--error").allTextContents();
}

/** The lines of the transcript a page shows. */
const transcriptOf = (page: Page) => page.locator(".parley-transcript .parley-turn").evaluateAll((items) => items.map((i) => i.querySelector(".parley-action, .parley-text")!.textContent));

/** `read()` until it gives `want`, for up to 30 s (on a crowded machine a page can go quiet before it draws); the last reading. */
async function readUntil<T>(read: () => Promise<T>, want: T): Promise<T> {
  let got = await read();
  for (const until = Date.now() + 30_000; JSON.stringify(got) !== JSON.stringify(want) && Date.now() < until; got = await read()) await new Promise((r) => setTimeout(r, 250));
  return got;
}

/** The table following the heading with this text. */
const tableAfter = (page: Page, heading: string) => page.locator(`h2:has-text("${heading}") ~ div table`).first();

test("/glee-regression: Table 2, Table 3 and the coefficient plot from the data", async () => {
  const {page, problems} = await visit(browser, server, "/glee-regression");
  await screenshot(page, "glee-regression");
  assert.deepEqual(problems, []);
  assert.deepEqual(await errorsOf(page), []);
  assert.ok((await tableAfter(page, "Market effects").locator("tbody tr").count()) >= 2, "market rows");
  assert.ok((await tableAfter(page, "Agent effects").locator("tbody tr").count()) >= 2, "agent rows");
  assert.ok((await page.locator("svg [aria-label='dot'] circle").count()) >= 5, "coefficient dots");
  assert.match((await page.textContent("main"))!, /intervals use t\(0\.975, \d+\)/);
  // Change inputs: another family, the pair variant; then no agents at all (empty state).
  await page.getByLabel("persuasion").first().check();
  await page.getByLabel("Agent pair as one feature").check();
  await settle(page);
  assert.deepEqual(await errorsOf(page), []);
  // All boxes off in one input event: a click per box would start a refit per box (six regressions and twenty held-out
  // splits each), and a click waits for the page's thread, busy with the last refit, on a crowded machine.
  await page.locator("form:has(input[type=checkbox]):has-text('Agents')").evaluate((form) => {
    for (const box of form.querySelectorAll<HTMLInputElement>("input[type=checkbox]")) box.checked = false;
    form.dispatchEvent(new Event("input", {bubbles: true}));
  });
  await settle(page);
  assert.equal(await page.locator("form:has(input[type=checkbox]):has-text('Agents') input:checked").count(), 0, "every agent unchecked");
  assert.deepEqual(await errorsOf(page), []);
  assert.match((await page.textContent("main"))!, /No market levels to show/);
  await closePage(page);
});

test("the metric-formulas toggle rescores the shown numbers: /glee-bargaining and /glee-regression", async () => {
  // The default tournament has bargaining games without a deal, which GLEE's code scores differently (efficiency δ_B^(t−1), fairness 0).
  const codeFormulas = "as GLEE's code computes";
  const family = await visit(browser, server, "/glee-bargaining");
  assert.deepEqual(family.problems, []);
  const impact = tableAfter(family.page, "Parameter impact");
  const paperImpact = await impact.textContent();
  assert.match(paperImpact ?? "", /0\.\d{3}/, "means shown");
  await family.page.getByLabel(codeFormulas).check();
  await settle(family.page);
  assert.deepEqual(await errorsOf(family.page), []);
  assert.notEqual(await impact.textContent(), paperImpact, "GLEE's code changes the bargaining means");
  // The rescored questions read the bargaining games' row groups alone: the (much bigger) turns table is fetched by no question here.
  const tables = (await family.page.evaluate(() => performance.getEntriesByType("resource").map((e) => e.name))).filter((url) => url.endsWith(".parquet")).map((url) => url.split("/").at(-1)!.split(".")[0]);
  assert.deepEqual([...new Set(tables)], ["games"], "only the games table was fetched");
  await family.page.getByLabel("as the paper states").check();
  await settle(family.page);
  assert.equal(await impact.textContent(), paperImpact, "back to the paper's numbers");
  await closePage(family.page);

  const regression = await visit(browser, server, "/glee-regression");
  assert.deepEqual(regression.problems, []);
  const market = tableAfter(regression.page, "Market effects");
  const paperMarket = await market.textContent();
  await regression.page.getByLabel(codeFormulas).check();
  await settle(regression.page);
  assert.deepEqual(await errorsOf(regression.page), []);
  assert.notEqual(await market.textContent(), paperMarket, "Table 2 refit on GLEE's code's metrics");
  assert.ok((await market.locator("tbody tr").count()) >= 2, "market rows");
  await closePage(regression.page);
});

test("/glee-pairs: four pair heatmaps with tooltips and the meta-game section", async () => {
  const {page, problems} = await visit(browser, server, "/glee-pairs");
  await screenshot(page, "glee-pairs");
  assert.deepEqual(problems, []);
  assert.deepEqual(await errorsOf(page), []);
  const cells = await page.locator("svg [aria-label='cell'] rect").count();
  assert.ok(cells >= 4 * 2, `heatmap cells: ${cells}`);
  // The value label drawn over the cell takes the pointer; Plot's tip follows the pointer position anyway.
  await page.locator("svg [aria-label='cell'] rect").first().hover({force: true});
  await page.waitForTimeout(300);
  assert.match((await page.locator("svg [aria-label='tip']").first().textContent()) ?? "", /n = \d+ games/, "tooltip with n");
  assert.match((await page.textContent("main"))!, /Pure equilibria: \(/, "the default tournament has a complete table and pure equilibria");
  assert.ok((await page.locator("td[title*='pure Nash equilibrium']").count()) >= 1, "equilibrium cells marked");
  await page.getByLabel("negotiation").first().check();
  await settle(page);
  assert.deepEqual(await errorsOf(page), []);
  assert.match((await page.textContent("main"))!, /Pure equilibria:/);
  // The human-vs-LLM sample: pairs exist, but no complete meta-game table.
  await page.getByLabel("Dataset").selectOption({index: 1});
  await settle(page);
  assert.deepEqual(await errorsOf(page), []);
  assert.match((await page.textContent("main"))!, /Pure equilibria:|No complete payoff table/);
  await closePage(page);
});

test("/ratings: Bradley–Terry ratings with intervals and tiers pooled over GLEE and gamma-Bench, α-Rank per family", async () => {
  const {page, problems} = await visit(browser, server, "/ratings");
  await screenshot(page, "ratings");
  assert.deepEqual(problems, []);
  assert.deepEqual(await errorsOf(page), []);
  const rows = tableAfter(page, "Ratings").locator("tbody tr");
  assert.ok((await rows.count()) >= 10, "one row per rated agent");
  assert.ok((await page.locator("h2:has-text('Ratings') ~ div svg [aria-label='rule'] line").count()) >= 10, "an interval per agent");
  assert.match((await page.textContent("main"))!, /agents rated from [\d,]+ seats in \d+ game families \(1000 draws for the rank intervals/);
  const header = (await tableAfter(page, "Ratings").locator("thead th").allTextContents()).map((t) => t.trim());
  assert.ok(header.includes("settled"), `a settledness column: ${header.join(", ")}`);
  assert.ok((await tableAfter(page, "Ratings").locator("tbody td", {hasText: /^(preliminary|usable|established)$/}).count()) >= 10, "a label per agent");
  assert.ok((await page.locator("h2:has-text('α-Rank') ~ div svg [aria-label='bar'] rect").count()) >= 4, "α-Rank bars");
  // Only GLEE, every comparison once: still rated, still no error.
  await page.getByLabel("gamma-Bench (models and Parley's strategies)").uncheck();
  await page.getByLabel("Every comparison once").check();
  await settle(page);
  assert.deepEqual(await errorsOf(page), []);
  assert.match((await page.textContent("main"))!, /in 3 game families/);
  // Every family equal and clone-robust: the control is there, and one game per lineup and configuration finds no clones.
  await page.getByLabel("Every family equal").check();
  await page.getByLabel("Near-identical agents as one (clone-robust)").check();
  await settle(page);
  assert.deepEqual(await errorsOf(page), []);
  assert.match((await page.textContent("main"))!, /No near-identical agents: every agent counts as an entrant/);
  assert.match(page.url(), /weighting=equal/);
  assert.match(page.url(), /clones=robust/);
  await closePage(page);
});

test("/compare: paired differences of two agents with intervals and Holm-corrected p-values", async () => {
  const {page, problems} = await visit(browser, server, "/compare");
  await screenshot(page, "compare");
  assert.deepEqual(problems, []);
  assert.deepEqual(await errorsOf(page), []);
  assert.ok((await page.locator("main table tbody tr").count()) >= 2, "a row per family and seat");
  assert.ok((await page.locator("main svg [aria-label='dot'] circle").count()) >= 2, "a dot per row");
  assert.match((await page.textContent("main"))!, /Unmatched: \d+ games of fair and \d+ of greedy have no partner game/);
  await page.getByLabel("Agent B").selectOption("fair");
  await settle(page);
  assert.match((await page.textContent("main"))!, /Choose two different agents/);
  await closePage(page);
});

test("/study-discount (the Guide's worked example): its table, drawn from the build's first view with no table fetched, equals the shared SQL in native DuckDB on the same Parquet file, with t intervals; GLEE's code formulas are asked of DuckDB-WASM", async () => {
  const {readdirSync} = await import("node:fs");
  const {join} = await import("node:path");
  const {withParquetViews} = await import("../../loaders/io/parquet.js");
  const {selfGainByDiscountSQL, withIntervals} = await import("../../src/lib/selfGain.js");
  type Expected = SelfGainByDiscount & {lo: number | null; hi: number | null};
  // The games file the page reads, from the served build.
  const dir = join(site.dist, "_file/data/glee");
  const games = join(dir, readdirSync(dir).find((f) => /^games\.[0-9a-f]+\.parquet$/.test(f))!);
  const expect = async (conventions: "paper" | "glee-code"): Promise<Expected[]> => withIntervals(await withParquetViews({games}, (db) => db.query(selfGainByDiscountSQL("games", conventions))) as unknown as SelfGainByDiscount[]);
  const fetched = (page: Page) => page.evaluate(() => performance.getEntriesByType("resource").map((e) => e.name));
  /** The table's CSV (every row as shown, 3 decimals) against `expected`. */
  const checkTable = async (page: Page, expected: Expected[]) => {
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", {name: "CSV"}).first().click()]);
    const csv = (await (await download.createReadStream())!.toArray()).join("").trim().split("\n");
    assert.equal(csv.length, expected.length + 1, "a header and one line per agent and δ");
    csv.slice(1).forEach((line, i) => {
      const [agent, delta, n, mean, lo, hi] = line.split(",");
      const e = expected[i];
      assert.equal(agent, e.agent);
      assert.equal(Number(delta), e.delta);
      assert.equal(Number(n), e.n);
      assert.equal(mean, e.mean.toFixed(3));
      assert.equal(lo, e.lo === null ? "" : e.lo.toFixed(3));
      assert.equal(hi, e.hi === null ? "" : e.hi.toFixed(3));
    });
    return csv;
  };
  const {page, problems} = await visit(browser, server, "/study-discount");
  await screenshot(page, "study-discount");
  assert.deepEqual(problems, []);
  assert.deepEqual(await errorsOf(page), []);
  const paper = await expect("paper");
  assert.ok(paper.length >= 4, "agents × δ values");
  // The paper's formulas (the default): the build's answer, and no table fetched.
  const first = await fetched(page);
  assert.ok(first.some((url) => /\/_file\/data\/glee\/first-study-discount\.[0-9a-f]+\.json$/.test(url)), "the first view was read");
  assert.deepEqual(first.filter((url) => url.endsWith(".parquet")), [], "no table fetched for the first view");
  const paperCsv = await checkTable(page, paper);
  assert.ok((await page.locator("svg [aria-label='rule'] line").count()) >= 2, "interval rules drawn");
  // GLEE's code formulas are not in the first view: DuckDB-WASM reads the games table and answers as native DuckDB does.
  await page.getByLabel("as GLEE's code computes").check();
  await settle(page);
  assert.deepEqual(await errorsOf(page), []);
  assert.ok((await fetched(page)).some((url) => /\/_file\/data\/glee\/games\.[0-9a-f]+\.parquet$/.test(url)), "the games table was fetched for the other formulas");
  const codeCsv = await checkTable(page, await expect("glee-code"));
  assert.notDeepEqual(codeCsv, paperCsv, "the tournament's games without a deal score differently");
  assert.deepEqual(problems, []);
  // The inputs live in the URL: a copied link opens the same view.
  const url = new URL(page.url());
  assert.equal(url.searchParams.get("conventions"), "glee-code");
  await closePage(page);
  const copied = await visit(browser, server, `${url.pathname}${url.search}`, {fresh: true});
  assert.ok(await copied.page.getByLabel("as GLEE's code computes").isChecked(), "the formulas restored from the URL");
  assert.deepEqual(await checkTable(copied.page, await expect("glee-code")), codeCsv);
  assert.deepEqual(copied.problems, []);
  await closePage(copied.page);
});

test("/ratings: ratings from the build's first-ratings.json, and the agents without a cost listed, not drawn at zero", async () => {
  const {page, problems} = await visit(browser, server, "/ratings");
  assert.deepEqual(problems, []);
  assert.deepEqual(await errorsOf(page), []);
  const text = (await page.textContent("main"))!;
  assert.match(text, /agents rated from [\d,]+ seats/);
  // The default datasets are scripted strategies and logs without token counts: no agent has a cost.
  assert.match(text, /Without a cost \(no token counts recorded: a scripted agent, or logs without them\): [a-z]/);
  assert.match(text, /No rated agent has a cost/);
  await closePage(page);
});

test("the built-in dataset's card shows its manifest: /glee-regression's simulated tournament, produced by data/runs/default.json", async () => {
  const {createHash} = await import("node:crypto");
  const {readFileSync} = await import("node:fs");
  const {join} = await import("node:path");
  const {projectRoot} = await import("../../loaders/projectConfig.js");
  const config = readFileSync(join(projectRoot, "data/runs/default.json"), "utf8");
  const {page, problems} = await visit(browser, server, "/glee-regression");
  await settle(page);
  assert.deepEqual(problems, []);
  const manifest = page.locator("details.parley-manifest").first();
  await manifest.locator("summary").click();
  const text = (await manifest.textContent())!;
  assert.match(text, /written as: parley run/);
  assert.match(text, new RegExp(`config sha256: ${createHash("sha256").update(config).digest("hex")}`));
  assert.equal(JSON.parse((await manifest.locator("pre").textContent())!).seed, JSON.parse(config).seed);
  await closePage(page);
});

test("/glee-bargaining's One game: another pair and game are read by Range requests for their row groups alone, and the transcript is native DuckDB's", async () => {
  const {readdirSync, statSync} = await import("node:fs");
  const {join} = await import("node:path");
  const {withParquetViews} = await import("../../loaders/io/parquet.js");
  const {GLEE_TURNS_SQL} = await import("../../src/lib/pages/gleeFamily.js");
  const {transcriptLines} = await import("../../src/components/gleeFamilyPage.js");
  const dir = join(site.dist, "_file/data/glee");
  const fileOf = (table: string) => join(dir, readdirSync(dir).find((f) => new RegExp(`^${table}\\.[0-9a-f]+\\.parquet$`).test(f))!);
  // Every answer for the two tables: status, the range asked for and the bytes received.
  const answers: {table: string; status: number; range: string | null; bytes: number}[] = [];
  const {page, problems} = await visit(browser, server, "/glee-bargaining");
  page.on("response", async (r) => {
    const table = /\/_file\/data\/glee\/(games|turns)\.[0-9a-f]+\.parquet$/.exec(new URL(r.url()).pathname)?.[1];
    if (table) answers.push({table, status: r.status(), range: (await r.request().allHeaders()).range ?? null, bytes: (await r.body().catch(() => Buffer.alloc(0))).length});
  });
  assert.deepEqual(problems, []);
  const early = await page.evaluate(() => performance.getEntriesByType("resource").map((e) => e.name).filter((u) => u.endsWith(".parquet")));
  assert.deepEqual(early, [], "the first view comes from the snapshot");
  // Another pair (its games: a lookup on games), then its third game (a lookup on turns).
  const bob = page.getByLabel("Bob's agent");
  const bobAgents = await bob.locator("option").allTextContents();
  await bob.selectOption({index: bobAgents.length - 1});
  await settle(page);
  // The third game of the games table, by the link on its id (the table replaced a dropdown of parameter strings).
  await page.locator(".parley-game-finder a.parley-game-link").nth(2).click();
  await settle(page);
  assert.deepEqual(await errorsOf(page), []);
  const gameId = new URL(page.url()).searchParams.get("game");
  assert.ok(gameId, "the game is in the address");
  const expected = await withParquetViews({turns: fileOf("turns")}, (db) => db.query(GLEE_TURNS_SQL, [gameId]));
  assert.ok(expected.length >= 2, `${gameId} has turns`);
  // On a crowded machine the page can go quiet while DuckDB still compiles: the transcript shown
  // may still be the last game's, or none. Read it until it is the expected one, for up to 30 s.
  const want = transcriptLines(expected as never, "bargaining").map((l) => l.text);
  const shown = await readUntil(() => transcriptOf(page), want);
  assert.deepEqual(shown, want);
  for (const table of ["games", "turns"]) {
    const size = statSync(fileOf(table)).size;
    const mine = answers.filter((a) => a.table === table);
    assert.ok(mine.length >= 1, `${table} was read`);
    for (const a of mine) {
      assert.equal(a.status, 206, `${table}: a partial answer (${a.range})`);
      assert.match(a.range ?? "", /^bytes=\d*-\d*$/, `${table}: a Range request`);
    }
    const bytes = mine.reduce((s, a) => s + a.bytes, 0);
    assert.ok(bytes < size / 2, `${table}: ${bytes} bytes of ${size} fetched`);
  }
  await closePage(page);

  // A server that ignores Range (every request's Range header removed on the way): the whole files, once each, and the same transcript.
  const plain = await browser.newContext();
  const again = await plain.newPage();
  await again.route("**/*.parquet", async (route) => {
    const {range, ...headers} = route.request().headers();
    await route.continue({headers});
  });
  const statuses: number[] = [];
  again.on("response", (r) => r.url().endsWith(".parquet") && statuses.push(r.status()));
  await again.goto(page.url(), {waitUntil: "load"});
  await settle(again);
  assert.deepEqual(await errorsOf(again), []);
  assert.equal(new URL(again.url()).searchParams.get("game"), gameId);
  assert.deepEqual(await readUntil(() => transcriptOf(again), shown), shown);
  assert.deepEqual(statuses, [200, 200], "games and turns, each fetched whole once");
  await plain.close();
});
