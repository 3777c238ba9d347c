// /compare and /ratings as a researcher shares them, in headless Chromium on
// the fixture site (test/support/fixtureSite.ts), whose configuration holds two small GLEE runs that differ
// in one player (fair → rubinstein) and in the seed: a copied URL restores
// each page's view; charts download as SVG and PNG and tables as CSV; a
// section waiting for data says so and a missing file gives an error that
// names it; /compare's two-run mode shows the numbers, the warning line
// and the design (chance not shared) `parley compare A B` gives; and
// /ratings' controlled ranking, ties parameter, Nash averaging and margin
// outcome are `parley ratings`' on a configured run.
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import type {Browser, Page} from "playwright-core";
import {parley} from "../support/cli.js";
import {FIXTURE_RUNS} from "../support/fixtureSite.js";
import type {StaticServer} from "../../loaders/site/serve.js";
import {closePage, openSite, settle, visit, screenshot, type Site} from "./harness.js";
import {chosen, download, errorsOf, heldBackPage, parseCsv, parseSvg, pngSize, restoresView, withoutFile} from "./checks.js";

const RUN_A = FIXTURE_RUNS.a.name;
const ARENA = `${FIXTURE_RUNS.negotiationarena.name} — ${FIXTURE_RUNS.negotiationarena.description}`;
const RUN_B = FIXTURE_RUNS.b.name;
let dirA: string;
let dirB: string;
let dist: string;
let site: Site;
let browser: Browser;
let server: StaticServer;

const ok = (r: {code: number | null; stdout: string; stderr: string}) => {
  assert.equal(r.code, 0, r.stderr);
  return r;
};

before(async () => {
  // The fixture site's runs A (fair and greedy, seed 3) and B (rubinstein for fair, seed 4), 8 games each.
  site = await openSite();
  ({browser, server, dist} = site);
  dirA = site.fixture.runs.a;
  dirB = site.fixture.runs.b;
});

after(() => site?.close());

const rowsOf = async (page: Page) => Promise.all((await page.locator("main table tbody tr").all()).map(async (tr) => (await tr.locator("td").allTextContents()).map((t) => t.trim()).filter(Boolean)));

test("/compare's first view needs no DuckDB, and a copied URL restores another pair", async () => {
  const {page, problems} = await visit(browser, server, "/compare");
  assert.deepEqual(problems, []);
  assert.ok((await rowsOf(page)).length > 0, "the default pair's table");
  assert.equal(await page.evaluate("performance.getEntriesByType('resource').filter((r) => r.name.includes('.parquet')).length"), 0, "no table fetched for the first view");
  await closePage(page);
  await restoresView({browser, server},
    "/compare",
    async (page) => {
      await page.getByLabel("Agent A").selectOption({label: "greedy"});
      await settle(page);
      await page.getByLabel("Agent B").selectOption({label: "rubinstein"});
    },
    [/a=greedy/, /b=rubinstein/],
    async (page) => ({a: await chosen(page.getByLabel("Agent A")), b: await chosen(page.getByLabel("Agent B")), rows: await rowsOf(page)}),
  );
});

test("a copied URL restores /ratings' pool, weighting, draws, ties and controlled ranking", async () => {
  await restoresView({browser, server},
    "/ratings",
    async (page) => {
      await page.getByRole("checkbox", {name: /^gamma-Bench \(models and/}).uncheck();
      await page.getByLabel(RUN_B).check();
      await page.getByLabel("Every comparison once").check();
      await page.getByLabel("Davidson's ties parameter").check();
      await page.getByLabel("Models (an LLM player's provider/model)").check();
    },
    [/pool=GLEE[+ ]simulated[+ ]tournament,Small[+ ]B/, /weighting=games/, /ties=davidson/, /control_by=model/],
    async (page) => ({
      pool: await page.locator("input[type=checkbox]:checked").evaluateAll((boxes) => boxes.map((b) => b.parentElement!.textContent)),
      cards: await page.locator(".parley-run-headline").allTextContents(),
      table: await page.locator("h2:has-text('Ratings') ~ div table thead").first().textContent(),
      agents: (await rowsOf(page)).map((r) => r[0]).sort(),
    }),
  );
});

test("/ratings beside the ratings: the controlled ranking, Davidson's ν and Nash averaging are parley ratings' on a configured run; so is a margin outcome", async () => {
  const study = site.fixture.runs.study;
  const cli = JSON.parse(ok(await parley(["ratings", study, "--resamples", "0", "--ties", "davidson"])).stdout);
  const margin = JSON.parse(ok(await parley(["ratings", study, "--resamples", "0", "--outcome", "surplus-share", "--controls", "none"])).stdout);
  const {page, problems} = await visit(browser, server, `/ratings?${new URLSearchParams({pool: `${FIXTURE_RUNS.study.name} — ${FIXTURE_RUNS.study.description}`, draws: "0", ties: "davidson"})}`);
  await settle(page);
  await screenshot(page, "ratings-v2");
  assert.deepEqual(problems, []);
  assert.deepEqual(await errorsOf(page), []);
  const tableRows = async (name: string) => {
    const table = page.locator(".parley-exportable", {has: page.locator(`button[title="${name} as CSV"]`)}).locator("table");
    return Promise.all((await table.locator("tbody tr").all()).map(async (tr) => (await tr.locator("td").allTextContents()).map((t) => t.trim())));
  };
  const elo = (v: number) => (1500 + (400 / Math.LN10) * v).toFixed(0);
  const text = (await page.locator("main").textContent())!;
  // The LLM player's tokens vary game by game: a controlled ranking, its raw ranking beside it, the same as the command's.
  assert.ok(cli.controlled.coefficients.length > 0, `the run has something to control for (${JSON.stringify(cli.controlled.left_out)})`);
  const controlled = await tableRows("controlled-ranking");
  // Cluster-robust intervals need no draws: the page's with none are the command's.
  for (const e of cli.controlled.entrants) assert.ok(controlled.some((r) => r.includes(e.entrant) && r.includes(elo(e.rating)) && r.includes(elo(e.raw_rating)) && (e.rating_lo === null || (r.includes(elo(e.rating_lo)) && r.includes(elo(e.rating_hi)))) && r.includes(e.settled)), `${e.entrant}: ${JSON.stringify(controlled)}`);
  const effects = await tableRows("covariate-effects");
  for (const c of cli.controlled.coefficients) assert.ok(effects.some((r) => r.includes(c.name) && r.includes(c.coefficient.toFixed(3))), `${c.name}: ${JSON.stringify(effects)}`);
  const t = cli.ties;
  const between = (lo: number, hi: number) => `\\(95% interval ${lo.toFixed(3)} to ${hi.toFixed(3)}\\)`;
  assert.match(text, new RegExp(`ν = ${t.nu.toFixed(3)} ${between(t.nu_lo, t.nu_hi)}: two equally strong agents tie with probability ${t.tie_probability.toFixed(3)} ${between(t.tie_probability_lo, t.tie_probability_hi)}`));
  const nash = await tableRows("nash-averaging");
  for (const a of cli.nash_averaging.agents) assert.ok(nash.some((r) => r.includes(a.agent) && r.includes(a.mass.toFixed(3)) && r.includes(a.skill.toFixed(3))), `${a.agent}: ${JSON.stringify(nash)}`);
  // A margin outcome: the run's games again, by DuckDB-WASM, compacted to their shares.
  await page.getByLabel("Share of the surplus (x / (x + y))").check();
  await settle(page);
  assert.match(decodeURIComponent(page.url()), /outcome=surplus-share/);
  assert.deepEqual(await errorsOf(page), []);
  const ratings = await tableRows("ratings");
  for (const a of margin.agents) assert.ok(ratings.some((r) => r.includes(a.agent) && r.includes(a.elo.toFixed(0))), `${a.agent} ${a.elo}: ${JSON.stringify(ratings)}`);
  assert.match((await page.locator("main").textContent())!, /Davidson's model is for wins, ties and losses/);
  await closePage(page);
});

test("charts download as valid SVG and PNG and tables as CSV on /compare and /ratings", async () => {
  for (const path of ["/compare", "/ratings"]) {
    const {page, problems} = await visit(browser, server, path);
    const chart = page.locator(".parley-exportable").filter({has: page.locator("svg")}).first();
    const svg = await download(page, chart.getByRole("button", {name: "SVG"}));
    assert.match(svg.name, new RegExp(`^${path.slice(1)}-.*\\.svg$`));
    assert.deepEqual(await parseSvg(page, svg.bytes.toString("utf8")), {root: "svg", ns: "http://www.w3.org/2000/svg", errors: 0});
    const png = pngSize((await download(page, chart.getByRole("button", {name: "PNG"}))).bytes);
    assert.ok(png.signature && png.width > 0 && png.height > 0, `${path}: a PNG`);
    const table = page.locator(".parley-exportable").filter({has: page.locator("table")}).first();
    const csv = parseCsv((await download(page, table.getByRole("button", {name: "CSV"}))).bytes.toString("utf8"));
    assert.deepEqual(csv[0], (await table.locator("thead th").allTextContents()).map((s) => s.trim()).filter(Boolean), `${path}: the header as shown`);
    assert.ok(csv.length - 1 >= (await table.locator("tbody tr").count()), `${path}: every row`);
    await closePage(page);
    assert.deepEqual(problems, []);
  }
});

test("sections waiting for data say so; a missing file gives an error naming it", async () => {
  // Another pair than the first view's needs the games table: held back, the section says it is loading.
  const held = await heldBackPage(browser);
  await held.page.goto(`${server.url}/compare?a=greedy&b=rubinstein`);
  await held.page.locator(".parley-loading").first().waitFor({state: "visible", timeout: 30_000});
  held.release();
  await settle(held.page);
  assert.equal(await held.page.locator(".parley-loading").count(), 0);
  assert.ok((await rowsOf(held.page)).length > 0);
  await held.close();
  const ratings = await heldBackPage(browser);
  await ratings.page.goto(`${server.url}/ratings?pool=${encodeURIComponent(RUN_A)}`);
  await ratings.page.locator("h2:has-text('Ratings') ~ div .parley-loading").first().waitFor({state: "visible", timeout: 30_000});
  assert.match((await ratings.page.locator("h2:has-text('Ratings') ~ div .parley-loading").first().textContent())!, /Loading the ratings/);
  ratings.release();
  await settle(ratings.page);
  assert.equal(await ratings.page.locator(".parley-loading").count(), 0);
  await ratings.close();

  await withoutFile(dist, "data/glee", "games.", async (broken, removed) => {
    const {page} = await visit(browser, broken, "/compare?a=greedy&b=rubinstein");
    assert.match((await page.locator(".parley-error, .observablehq--error").first().textContent())!, new RegExp(removed.replace(/\./g, "\\.")));
    await closePage(page);
  });
  await withoutFile(dist, "data/runs/small-a/seats", "players.", async (broken, removed) => {
    const {page} = await visit(browser, broken, `/ratings?pool=${encodeURIComponent(RUN_A)}`);
    const error = (await page.locator(".parley-error").first().textContent())!;
    assert.match(error, new RegExp(`Could not load the ratings: .*${removed.replace(/\./g, "\\.")}.*HTTP 404`));
    await closePage(page);
  });
});

test("/compare two runs: n, mean differences, p-values and the seed warning are parley compare A B's", async () => {
  const cli = ok(await parley(["compare", dirA, dirB]));
  const json = JSON.parse(cli.stdout) as {chance: {shared: boolean; why: string}; design: string; rows: {family: string; metric: string; n: number; mean_diff: number; p_t: number | null; p_perm: number}[]};
  // Different seeds: the games did not share chance, so both pair configurations.
  assert.deepEqual([json.chance.shared, json.design], [false, "configurations"]);
  const warnings = cli.stderr.trim().split("\n");
  assert.deepEqual(warnings, ["warning: the runs differ in seed (A 3, B 4), not only in the compared players (fair → rubinstein)"]);
  const {page, problems} = await visit(browser, server, `/compare?${new URLSearchParams({mode: "runs", run_a: RUN_A, run_b: RUN_B})}`);
  await screenshot(page, "compare-two-runs");
  assert.deepEqual(problems, []);
  assert.deepEqual(await errorsOf(page), []);
  assert.deepEqual(await page.locator(".parley-warnings p").allTextContents(), warnings, "the same lines as stderr");
  const design = await page.locator(".parley-design").textContent();
  assert.ok(design!.includes(`did not share their chance (${json.chance.why})`), `the page says what parley compare says: ${design}`);
  // Each run's manifest, one click away.
  const cards = page.locator(".parley-run");
  assert.equal(await cards.count(), 2);
  await cards.nth(1).locator("summary").click();
  assert.match((await cards.nth(1).textContent())!, /"seed": 4/);
  const rows = await rowsOf(page);
  assert.equal(rows.length, json.rows.length);
  const fmt = (v: number | null, d: number) => (v === null ? "" : v.toFixed(d));
  for (const row of json.rows) {
    const expected = [row.family, row.metric, String(row.n), fmt(row.mean_diff, 3), fmt(row.p_t, 4), fmt(row.p_perm, 4)].filter(Boolean);
    assert.ok(rows.some((r) => expected.every((x) => r.includes(x))), `${expected.join(", ")}; the page shows ${JSON.stringify(rows)}`);
  }
  await closePage(page);
});

test("/ratings' generalisation section: a pooled run's protocol, the focal agent's gaps as parley ratings --generalisation gives them, and a sentence when no pooled run declares one", async () => {
  const section = (page: Page) => page.locator("h2:has-text('Self-play vs cross-play, seen vs held-out') ~ div").last();
  const plain = await visit(browser, server, `/ratings?pool=${encodeURIComponent(RUN_A)}`);
  assert.match((await section(plain.page).textContent())!, /None of the pooled runs declares a generalisation protocol/);
  await closePage(plain.page);

  const cli = JSON.parse(ok(await parley(["ratings", site.fixture.runs.negotiationarena, "--generalisation"])).stdout) as {rows: Record<string, string | number | null>[]};
  const {page, problems} = await visit(browser, server, `/ratings?pool=${encodeURIComponent(ARENA)}`);
  await screenshot(page, "ratings-generalisation");
  assert.deepEqual(problems, []);
  assert.deepEqual(await errorsOf(page), []);
  const shown = section(page);
  assert.equal(await shown.locator("h3").textContent(), ARENA, "the run's name, as text");
  assert.match((await shown.textContent())!, /Focal: rational\. Seen co-players: split-difference\. Unseen co-players: random\. Held-out configurations: none\./);
  assert.match((await shown.textContent())!, /Seen vs held-out configurations: no focal seat was in a held-out configuration\./);
  // The chart is an image with a title and a description; the table holds the command line's rows (three significant digits).
  assert.ok(await shown.locator("svg[role=img]").count() > 0, "an accessible chart");
  const digits = (x: string | number | null) => (x === null ? "" : Number(Number(x).toPrecision(3)).toString());
  const expected = cli.rows.map((r) => [r.focal, r.game, r.measure, r.a, digits(r.mean_a), r.b, digits(r.mean_b), digits(r.gap), digits(r.gap_lo), digits(r.gap_hi)].join("|")).sort();
  const table = shown.locator(".parley-exportable").filter({has: page.locator("table")}).first();
  const csv = parseCsv((await download(page, table.getByRole("button", {name: "CSV"}))).bytes.toString("utf8"));
  const at = (name: string) => csv[0].indexOf(name);
  const rows = csv.slice(1).map((r) => [r[at("focal")], r[at("game")], r[at("measure")], r[at("group A")], r[at("mean A")], r[at("group B")], r[at("mean B")], r[at("A − B")], r[at("gap low")], r[at("gap high")]].join("|")).sort();
  assert.ok(expected.length >= 6, "self-play vs cross-play and seen vs unseen, per game and over all games");
  assert.deepEqual(rows, expected);
  await closePage(page);
});
