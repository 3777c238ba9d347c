// Opens every page of the fixture site (test/support/fixtureSite.ts), and of the site built with no datasets, in headless Chromium,
// and runs axe-core's WCAG 2.1 A and AA rules (test/browser/axe.ts) on each page of the first and on the no-data pages of the
// second: no critical or serious violation.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import type {Browser} from "playwright-core";
import {serveStatic, type StaticServer} from "../../loaders/site/serve.js";
import {HOSTILE_DOND} from "../support/fixtureSite.js";
import {closePage, openSite, screenshot, sitePages, tabs, visit, type Site} from "./harness.js";
import {siteSections} from "../../loaders/site/navigation.js";
import {papers} from "../../loaders/papers/index.js";
import {REFERENCE_INDEX, REFERENCE_PAGES} from "../../loaders/site/referencePages.js";
import {axeViolations, severe, SIDEBAR} from "./axe.js";

let site: Site;
let browser: Browser;
let server: StaticServer;
let hostileGame = "";

before(async () => {
  // The fixture site: the real validation split (when configured) plus one dialogue whose text is HTML.
  site = await openSite();
  ({browser, server} = site);
  hostileGame = site.fixture.hostileDondGame;
});

after(() => site?.close());

// Pages at a time: a visit mostly waits (for requests, DuckDB, a quiet DOM).
const AT_ONCE = 4;

describe("every page", {concurrency: AT_ONCE}, () => {
  // One page after another in AT_ONCE pages: these tests only look.
  let pages: ReturnType<typeof tabs>;
  before(() => void (pages = tabs(browser, server)));
  after(() => pages?.close());
  for (const path of sitePages()) {
    test(`page ${path} renders with no error, no request beyond loopback and no serious accessibility violation`, async () => {
      const {page, problems, close} = await pages.visit(path);
      await screenshot(page, path.slice(1) || "index");
      const errors = await page.locator(".observablehq--error").allTextContents();
      // The site icon is inline, so no visitor's browser asks for /favicon.ico (a 404 logged as a console error).
      const icon = await page.locator('link[rel="icon"]').getAttribute("href");
      const violations = severe(path, await axeViolations(page, {exclude: path === "/" ? [] : [SIDEBAR]}));
      await close();
      assert.deepEqual(problems, []);
      assert.deepEqual(errors, []);
      assert.match(icon ?? "", /^data:image\/svg\+xml,/);
      assert.deepEqual(violations, [], `axe: ${violations.length} critical or serious violations on ${path}`);
    });
  }
});

test("the Deal-or-No-Deal page shows rates and a dialogue's HTML as literal text", async () => {
  const {page, problems, dialogs} = await visit(browser, server, `/dond?game=${hostileGame}`);
  await screenshot(page, "dond-hostile-transcript");
  const transcript = page.locator(".parley-transcript");
  assert.equal(await transcript.locator("img").count(), 0, "no element was created from the utterance");
  assert.ok((await transcript.textContent())!.includes(HOSTILE_DOND), "the utterance shows as text");
  const lines = await page.locator("svg [aria-label=line] path").count();
  assert.equal(lines, 4, "the chart draws one line per rate");
  const cells = await page.locator("table").first().locator("tbody tr").count();
  assert.ok(cells > 0, "the rate table has rows");
  await closePage(page);
  assert.deepEqual(dialogs, []);
  assert.deepEqual(problems, []);
});

/** Pages of the site with no datasets that axe checks: each kind of notice and card it shows instead of data. */
const NO_DATA_AXE = new Set(["/", "/glee-bargaining", "/gamabench", "/dond", "/econarena", "/negotiationarena", "/ratings", "/datasets"]);

describe("with no datasets", {concurrency: AT_ONCE}, () => {
  let bare: StaticServer;
  let pages: ReturnType<typeof tabs>;
  before(async () => {
    bare = await serveStatic(site.fixture.emptyDist);
    pages = tabs(browser, bare);
  });
  after(async () => {
    await pages?.close();
    await bare?.close();
  });
  // The Guide and the Reference read no dataset: the same in both builds, visited once above.
  for (const path of sitePages().filter((p) => !/^\/(guide|reference)\//.test(p))) {
    test(`page ${path} still renders${path === "/dond" ? ", and says how to add Deal or No Deal's data" : ""}${NO_DATA_AXE.has(path) ? ", with no serious accessibility violation" : ""}`, async () => {
      const {page, problems, close} = await pages.visit(path);
      if (path === "/dond") {
        await screenshot(page, "dond-no-dataset");
        const notice = await page.locator(".warning").first().textContent();
        assert.match(notice ?? "", /dealornodeal\/val\.txt was not found in the datasets directory/);
        assert.match(notice ?? "", /PARLEY_DATASETS/);
      }
      const errors = await page.locator(".observablehq--error").allTextContents();
      // axe on the pages that show the no-data notices and cards (the others draw what the full site draws, checked above).
      const violations = NO_DATA_AXE.has(path) ? severe(path, await axeViolations(page, {exclude: [SIDEBAR]})) : [];
      await close();
      assert.deepEqual(problems, [], `page ${path}`);
      assert.deepEqual(errors, [], `page ${path}`);
      assert.deepEqual(violations, [], `axe: ${violations.length} critical or serious violations on ${path} (no datasets)`);
    });
  }
});

test("Deal or No Deal played: the Best row, the human row from the 50 points, Parley's pairings, and the paper's contradictions listed", async () => {
  const {page, problems} = await visit(browser, server, "/dond-played");
  const rows = await page.locator("table").first().locator("tbody tr").allTextContents();
  assert.match(rows[0], /^Best.*44.*1\.0000.*5\.82.*6\.66.*1\.0000.*1\.0000.*12\.48/);
  // 25 of the 44 points agreed in the recorded human outcomes, 3.41 / 3.48, which Table 10's human row does not reproduce.
  assert.match(rows[1], /^Human.*44.*0\.5682.*3\.41.*3\.48.*0\.4545.*0\.4318.*6\.89/);
  assert.equal(rows.filter((r) => / vs /.test(r)).length, 9, "every ordered pair of the three negotiators");
  const contradictions = await page.locator("main ul li").allTextContents();
  assert.ok(contradictions.some((c) => c.startsWith("Table 19, Claude-3.5 Sonnet, (N, U): printed 5.07 as Bob") || /Table 19, Claude-3\.5 Sonnet, \(N, U\): printed 6\.39, 5\.07; Table 18: 6\.39, 5\.70/.test(c)), contradictions.join("\n"));
  assert.ok(contradictions.some((c) => /Table 13, .*pareto optimal 0\.8695.*not a whole number of games/.test(c)));
  const beliefs = await visit(browser, server, "/dond-beliefs");
  const lines = await beliefs.page.locator("svg [aria-label=line] path").count();
  assert.ok(lines >= 4, `the by-round chart draws one line per workflow seat and pairing (${lines})`);
  await closePage(page);
  await closePage(beliefs.page);
  assert.deepEqual([...problems, ...beliefs.problems], []);
});

test("the complete-information games page draws Tables 5–8 with the paper's rows and the build-time run's; the meta-game page shows Table 19 both ways", async () => {
  const {page, problems} = await visit(browser, server, "/gtllm");
  const text = (await page.locator("main").textContent()) ?? "";
  assert.match(text, /Claude-3\.5 Sonnet/);
  assert.match(text, /scripted game theory/);
  assert.match(text, /is not the mean of its rows for Claude-3\.5 Sonnet \(printed 0\.45, mean 0\.48\)/);
  assert.ok((await page.locator(".parley-transcript .parley-turn").count()) > 0, "a talk transcript is shown");
  await closePage(page);
  assert.deepEqual(problems, []);
  const meta = await visit(browser, server, "/gtllm-metagame");
  const metaText = (await meta.page.locator("main").textContent()) ?? "";
  await closePage(meta.page);
  assert.match(metaText, /Pure equilibria: \(not use, not use\)/);
  assert.match(metaText, /Pure equilibria: \(not use, use\)/);
  assert.match(metaText, /Table 18 gives 5\.70/);
  assert.deepEqual(meta.problems, []);
});

test("finding one's way: the sidebar groups pages by paper and by task, search finds a page with no request beyond loopback, and the home page maps every page", async () => {
  const {page, problems} = await visit(browser, server, "/");
  const groups = await page.locator("#observablehq-sidebar summary").allTextContents();
  assert.deepEqual(groups.map((g) => g.trim()), siteSections(papers, [REFERENCE_INDEX, ...REFERENCE_PAGES]).map((s) => s.name));
  const mapped = await page.locator(".parley-site-map a").evaluateAll((as) => as.map((a) => a.getAttribute("href")!.replace(/^\./, "")));
  assert.deepEqual(mapped.sort(), sitePages().filter((p) => p !== "/").sort(), "the map links every page of the sidebar");
  for (const path of ["/ratings", "/compare", "/play", "/guide/human-study"]) assert.ok(mapped.includes(path), path);
  // Framework's search: its index (built with the site) and MiniSearch come from the site itself.
  await page.locator("#observablehq-search input").fill("Bradley Terry");
  const found = page.locator("#observablehq-search-results a");
  await found.first().waitFor({timeout: 15_000});
  const hits = await found.evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  assert.ok(hits.some((h) => /\/ratings$/.test(h ?? "")), hits.join(" "));
  await closePage(page);
  assert.deepEqual(problems, []);
});

test("finding one game: /glee-bargaining's games table has a column and a filter per parameter, names the chosen game above its transcript and clears it when a filter hides it; no agreement, a row's link, a range filter", async () => {
  const {readdirSync} = await import("node:fs");
  const {join} = await import("node:path");
  const {queryParquet} = await import("../../loaders/io/parquet.js");
  const dir = join(site.dist, "_file/data/glee");
  const games = join(dir, readdirSync(dir).find((f) => /^games\.[0-9a-f]+\.parquet$/.test(f))!);
  // A pair that agrees in some games and not in others, counted here from the site's own table.
  const [pair] = await queryParquet<{alice: string; bob: string; n: number; no_deal: number}>({games}, `SELECT alice_agent AS alice, bob_agent AS bob, count(*)::INTEGER AS n, (count(*) FILTER (WHERE NOT agreement))::INTEGER AS no_deal
    FROM games WHERE family = 'bargaining' GROUP BY ALL HAVING no_deal > 0 AND no_deal < n ORDER BY alice, bob LIMIT 1`);
  assert.ok(pair, "the fixture has a pair that sometimes agrees");
  const {page, problems} = await visit(browser, server, `/glee-bargaining?alice=${pair.alice}&bob=${pair.bob}`);
  const finder = page.locator(".parley-game-finder");
  const count = async () => (await finder.locator(".parley-game-count").textContent())!;
  await page.waitForFunction((n) => document.querySelector(".parley-game-count")?.textContent === `${n.toLocaleString("en-US")} of ${n.toLocaleString("en-US")} games`, pair.n, {timeout: 60_000});
  const all = pair.n.toLocaleString("en-US");
  const headers = async () => (await finder.locator("thead th").allTextContents()).map((h) => h.trim());
  const column = async (name: string) => {
    const i = (await headers()).indexOf(name);
    assert.ok(i >= 0, `${name} in ${await headers()}`);
    return finder.locator(`tbody tr td:nth-child(${i + 1})`).allTextContents();
  };
  const heading = page.locator(".parley-chosen-game h3");
  const transcriptTurns = page.locator(".parley-transcript .parley-turn");

  // The first game is chosen and named above its transcript: its id in the heading, its parameters beside it, as text.
  await heading.waitFor();
  const first = (await heading.textContent())!.replace(/^Game /, "");
  const quoted = (text: string) => `'${text.replaceAll("'", "''")}'`;
  const [firstGame] = await queryParquet<{delta_a: number}>({games}, `SELECT delta_a FROM games WHERE game_id = ${quoted(first)}`);
  assert.ok(firstGame, `the heading names a game of the table: ${first}`);
  assert.match((await page.locator(".parley-chosen-parameters").textContent())!, new RegExp(`^δ_A = ${firstGame.delta_a}, δ_B = `));
  await transcriptTurns.first().waitFor();

  // One column per parameter that tells the pair's games apart (no parameter string to read), none cut off.
  const heads = await headers();
  assert.ok(!heads.includes("parameters"), heads.join(","));
  assert.ok(heads.includes("δ_A"), heads.join(","));
  const cut = await finder.locator("tbody td").evaluateAll((tds) => tds.filter((td) => td.scrollWidth > td.clientWidth + 1).map((td) => td.textContent));
  assert.deepEqual(cut, [], "no cell is cut off");

  // A filter per parameter: δ_A's select, set to a value the chosen game does not have, keeps the games with it (counted here)
  // and clears the choice: the transcript area says no game is chosen, and the address names none.
  const [other] = await queryParquet<{delta_a: number; n: number}>({games}, `SELECT delta_a, count(*)::INTEGER AS n FROM games
    WHERE family = 'bargaining' AND alice_agent = ${quoted(pair.alice)} AND bob_agent = ${quoted(pair.bob)} AND delta_a <> ${firstGame.delta_a} GROUP BY ALL ORDER BY delta_a LIMIT 1`);
  assert.ok(other, "the pair's games differ in δ_A");
  const select = finder.getByLabel("δ_A", {exact: true});
  const option = (await select.locator("option").allTextContents()).find((o) => Number(o) === other.delta_a);
  assert.ok(option, `δ_A's select offers ${other.delta_a}`);
  await select.selectOption({label: option});
  await page.waitForFunction(() => document.querySelector(".parley-no-game") !== null, null, {timeout: 30_000});
  assert.equal(await count(), `${other.n.toLocaleString("en-US")} of ${all} games; no game chosen`);
  assert.deepEqual([...new Set((await column("δ_A")).map(Number))], [other.delta_a]);
  assert.equal(await heading.count(), 0, "no game is named");
  assert.match((await page.locator(".parley-no-game").textContent())!, /^No game is chosen: pick one in the table above/);
  assert.equal(await transcriptTurns.count(), 0, "no transcript of a game the table hides");
  assert.equal(new URL(page.url()).searchParams.get("game"), null);
  await screenshot(page, "glee-bargaining-no-game-chosen");
  await select.selectOption({label: "any"});
  await page.waitForFunction((n) => document.querySelector(".parley-game-count")?.textContent?.startsWith(`${n} of ${n} games`), all);

  // No agreement, then a row's link: the game is named, its outcome and transcript shown.
  assert.ok((await column("agreement")).includes("yes"));
  await finder.getByLabel("no agreement").check();
  assert.match(await count(), new RegExp(`^${pair.no_deal.toLocaleString("en-US")} of ${all} games`));
  const agreements = await column("agreement");
  assert.ok(agreements.length > 0 && agreements.every((a) => a === "no"), agreements.join(","));
  // Whole numbers as written by the column's format: the same decimals all the way down.
  const efficiencies = await column("efficiency");
  assert.equal(new Set(efficiencies.map((e) => e.split(".")[1]?.length ?? 0)).size, 1, efficiencies.join(","));
  const link = finder.locator("a.parley-game-link").first();
  const id = await link.getAttribute("data-game");
  const endedBy = (await column("ended by"))[0];
  await link.click();
  await page.waitForFunction((want) => new URL(location.href).searchParams.get("game") === want, id);
  await page.waitForFunction((want) => document.querySelector(".parley-chosen-game h3")?.textContent === `Game ${want}`, id, {timeout: 30_000});
  assert.doesNotMatch(await count(), /no game chosen/);
  const outcome = page.locator(".parley-game-outcome");
  await outcome.waitFor();
  const outcomeHeads = await outcome.locator("th").allTextContents();
  const cells = await outcome.locator("td").allTextContents();
  assert.equal(cells[outcomeHeads.indexOf("ended by")], endedBy);
  for (const h of ["Alice's payoff", "Bob's payoff", "efficiency", "fairness"]) assert.ok(outcomeHeads.includes(h), h);
  await transcriptTurns.first().waitFor();
  await screenshot(page, "glee-bargaining-game-chosen");

  // A parameter of many numbers gets a from–to range: the site's own GameFinder module, given 30 games priced 0, 10, …, 290.
  await page.evaluate(async () => {
    const src = [...document.querySelectorAll<HTMLLinkElement>("link[rel=modulepreload]")].map((l) => l.href).find((h) => /\/components\/gameFinder\.[^/]*js$/.test(h));
    if (!src) throw new Error("the page does not load src/components/gameFinder.ts");
    const {GameFinder} = await import(src);
    const rows = Array.from({length: 30}, (_, i) => ({game_id: `g${i}`, parameters: `price=${i * 10}.0, kind=k${i % 2}`}));
    const box = Object.assign(document.createElement("div"), {id: "range-check"});
    const made = GameFinder(rows, {columns: ["parameters"], parameterLabels: {price: "price"}});
    made.addEventListener("input", () => box.setAttribute("data-value", String(made.value)));
    box.append(made);
    document.querySelector("main")!.append(box);
  });
  const ranged = page.locator("#range-check");
  assert.equal(await ranged.getByRole("group", {name: "price range"}).count(), 1);
  await ranged.getByLabel("price from").fill("50");
  await ranged.getByLabel("price to").fill("120");
  assert.equal(await ranged.locator(".parley-game-count").textContent(), "8 of 30 games; no game chosen");
  assert.equal(await ranged.getAttribute("data-value"), "null", "the chosen game g0 (price 0) is hidden: none is chosen");
  const priceAt = (await ranged.locator("thead th").allTextContents()).map((h) => h.trim()).indexOf("price");
  assert.deepEqual(await ranged.locator(`tbody tr td:nth-child(${priceAt + 1})`).allTextContents(), ["50", "60", "70", "80", "90", "100", "110", "120"]);
  await ranged.getByLabel("kind").selectOption({label: "k1"});
  assert.equal(await ranged.locator(".parley-game-count").textContent(), "4 of 30 games; no game chosen");
  await closePage(page);
  assert.deepEqual(problems, []);
});
