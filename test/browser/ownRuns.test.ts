// A researcher's own study, start to finish: a small GLEE study with an LLM
// player (a fake OpenAI server on loopback) and two built-in agents,
// `parley runs add` into the fixture site's config (test/support/fixtureSite.ts:
// the repository's parley.config.json is never touched), the site built with
// that config, and in headless Chromium the run is selectable on /glee-bargaining,
// /glee-regression, /glee-pairs and /compare, where the numbers shown equal
// `parley metrics`, `parley regress` and `parley compare` on the run directory.
// Beside it, in the same build, runs of other games played by built-in agents:
// a gamma-Bench run on /gamabench (scores as `parley gamabench-scores`), a
// NegotiationArena run on /negotiationarena and its scenario pages (as
// `parley negotiationarena-stats`), and a Deal-or-No-Deal run on /dond-played
// and /dond-beliefs.
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {readFileSync} from "node:fs";
import type {Page} from "playwright-core";
import {parley} from "../support/cli.js";
import {FIXTURE_PRICE, FIXTURE_RUNS} from "../support/fixtureSite.js";
import type {StaticServer} from "../../loaders/site/serve.js";
import {closePage, openSite, settle, visit, screenshot, type Site} from "./harness.js";
import {gameLabel} from "../../src/lib/gamabench.js";
import type {Browser} from "playwright-core";

const {study: STUDY, gamabench, negotiationarena, dond} = FIXTURE_RUNS;
const LABEL = `${STUDY.name} — ${STUDY.description}`;
let site: Site;
let study: string;
/** The other games' runs, by what they hold: directory and dataset label. */
const others = {
  gamabench: {label: `${gamabench.name} — ${gamabench.description}`, dir: ""},
  negotiationarena: {label: `${negotiationarena.name} — ${negotiationarena.description}`, dir: ""},
  dond: {label: `${dond.name} — ${dond.description}`, dir: ""},
};
let browser: Browser;
let server: StaticServer;
const PRICE = FIXTURE_PRICE;

const json = (r: {code: number | null; stdout: string; stderr: string}) => {
  assert.equal(r.code, 0, r.stderr);
  return r.stdout;
};

before(async () => {
  site = await openSite();
  ({browser, server} = site);
  study = site.fixture.runs.study;
  for (const id of ["gamabench", "negotiationarena", "dond"] as const) others[id].dir = site.fixture.runs[id];
});

after(() => site?.close());

test("the study was played (36 games) and parley runs add wrote it to the config, keeping its other keys", async () => {
  const metrics = json(await parley(["metrics", study])).trim().split("\n");
  assert.equal(metrics.length, 36);
  const written = JSON.parse(readFileSync(site.fixture.config, "utf8"));
  assert.equal(written.runs[0], "runs/missing");
  assert.deepEqual(written.runs[1], {path: "runs/study", name: STUDY.name, description: STUDY.description});
  assert.deepEqual(written.prices, {"openai/fake-mini": PRICE}, "runs add keeps the other keys");
});

const open = async (path: string, query: Record<string, string>) => {
  const visited = await visit(browser, server, `${path}?${new URLSearchParams({dataset: LABEL, ...query})}`);
  await settle(visited.page);
  return visited;
};

const errorsOf = (page: Page) => page.locator(".observablehq--error, .parley-error").allTextContents();
const tableAfter = (page: Page, heading: string) => page.locator(`h2:has-text("${heading}") ~ div table`).first();
const rowsOf = async (page: Page, heading: string) => (await tableAfter(page, heading).locator("tbody tr").all()).length
  ? Promise.all((await tableAfter(page, heading).locator("tbody tr").all()).map(async (tr) => (await tr.locator("td").allTextContents()).map((t) => t.trim()).filter(Boolean)))
  : [];

interface MetricsRow {alice_agent: string; bob_agent: string; efficiency: number}

test("the run is in the dataset menu of /glee-bargaining, with its manifest, and its numbers are parley metrics'", async () => {
  const metrics = json(await parley(["metrics", study])).trim().split("\n").map((l) => JSON.parse(l) as MetricsRow);
  assert.equal(metrics.length, 36);
  const {page, problems} = await open("/glee-bargaining", {parameter: "money", impact_metric: "efficiency", impact_seat: "alice"});
  await screenshot(page, "own-run-glee-bargaining");
  assert.deepEqual(problems, []);
  assert.deepEqual(await errorsOf(page), []);
  assert.equal(await page.getByLabel("Dataset").locator("option:checked").textContent(), LABEL);
  const card = page.locator(".parley-run");
  assert.match((await card.locator(".parley-run-headline").textContent())!, /Your run “My study” \(runs\/study\): 36 games, finished/);
  await card.locator("summary").click();
  const manifest = (await card.textContent())!;
  assert.match(manifest, /glee\/bargaining \(36\)/);
  assert.match(manifest, /agents: fair, fake-mini, greedy/);
  assert.match(manifest, /LLM models: fake-mini/);
  assert.doesNotMatch(manifest, /sk-test/);
  // What was played: 36 games.
  const played = await rowsOf(page, "What was played");
  assert.equal(played[0][0], "36");
  // Parameter impact on a one-level parameter (money): efficiency by Alice's agent, over all games.
  const expected = new Map<string, number[]>();
  for (const m of metrics) expected.set(m.alice_agent, [...(expected.get(m.alice_agent) ?? []), m.efficiency]);
  const shown = await rowsOf(page, "Parameter impact");
  assert.equal(shown.length, expected.size);
  for (const [, agent, mean, n] of shown) {
    const values = expected.get(agent)!;
    assert.equal(Number(n), values.length, agent);
    assert.equal(mean, (values.reduce((s, v) => s + v, 0) / values.length).toFixed(3), agent);
  }
  await closePage(page);
});

test("/glee-regression on the run: the fit's n, columns, R² and held-out RMSE are parley regress'", async () => {
  // Both fit from the same cells, with splits drawn by hashing game ids.
  const fit = JSON.parse(json(await parley(["regress", study, "--family", "bargaining", "--metric", "efficiency"]))).summary;
  const {page, problems} = await open("/glee-regression", {family: "bargaining", metric: "efficiency"});
  await screenshot(page, "own-run-glee-regression");
  assert.deepEqual(problems, []);
  assert.deepEqual(await errorsOf(page), []);
  const text = (await page.textContent("main"))!;
  assert.match(text, /36 of 36 games in the selection/);
  const fmt = (x: number) => x.toFixed(3);
  const rmse = `${fmt(fit.rmse.mean)} ± ${fmt(fit.rmse.sd)}`;
  assert.ok(text.includes(`n = ${fit.n} games, ${fit.p} estimated columns, R² = ${fmt(fit.r2)}, held-out RMSE = ${rmse};`), `fit note (expected n = ${fit.n}, p = ${fit.p}, R² = ${fmt(fit.r2)}, RMSE = ${rmse})`);
  await closePage(page);
});

test("/glee-pairs on the run: each pair's efficiency relative to the mean is from parley regress --pairs", async () => {
  const fit = JSON.parse(json(await parley(["regress", study, "--family", "bargaining", "--metric", "efficiency", "--pairs", "--splits", "0"])));
  const pairs = (fit.rows as {feature: string; level: string; coef: number; n: number}[]).filter((r) => r.feature === "pair");
  const total = pairs.reduce((s, r) => s + r.n, 0);
  const mean = pairs.reduce((s, r) => s + (r.n / total) * r.coef, 0);
  const {page, problems} = await open("/glee-pairs", {family: "bargaining"});
  await screenshot(page, "own-run-glee-pairs");
  assert.deepEqual(problems, []);
  assert.deepEqual(await errorsOf(page), []);
  // The heatmap prints each cell's effect to 2 decimals (its 95% interval is in the hover tip).
  const shown = await page.locator("h3:text-is('Efficiency') + div g[aria-label='text'] text").allTextContents();
  const expected = pairs.map((pair) => pair.coef - mean).sort((p, q) => p - q);
  const values = shown.map(Number).sort((p, q) => p - q);
  assert.equal(values.length, expected.length, "one cell per pair");
  // Rounded to 2 decimals on the page: within half a unit of the last digit.
  values.forEach((v, i) => assert.ok(Math.abs(v - expected[i]) <= 0.005 + 1e-9, `cell ${v} vs β_pair − Σ w β = ${expected[i]}`));
  await closePage(page);
});

test("/compare on the run: fake-mini against fair, game by game, as parley compare says", async () => {
  const cli = JSON.parse(json(await parley(["compare", study, "--agents", "fair", "--agents", "fake-mini"]))).rows as {metric: string; n: number; p_t: number; p_perm: number; p_t_holm: number}[];
  assert.ok(cli.length >= 2);
  const {page, problems} = await visit(browser, server, "/compare");
  await page.getByLabel("Dataset").selectOption({label: LABEL});
  await settle(page);
  await page.getByLabel("Agent A").selectOption({label: "fair"});
  await settle(page);
  await page.getByLabel("Agent B").selectOption({label: "fake-mini"});
  await settle(page);
  await screenshot(page, "own-run-compare");
  assert.deepEqual(problems, []);
  assert.deepEqual(await errorsOf(page), []);
  assert.match((await page.locator(".parley-run-headline").textContent())!, /My study/);
  const rows = await Promise.all((await page.locator("table tbody tr").all()).map(async (tr) => (await tr.locator("td").allTextContents()).map((t) => t.trim()).filter(Boolean)));
  assert.equal(rows.length, cli.length);
  // The p-values are printed to 4 decimals (the differences themselves in Inputs.table's short default).
  for (const row of cli) {
    const expected = [row.metric, String(row.n), row.p_t.toFixed(4), row.p_t_holm.toFixed(4), row.p_perm.toFixed(4)];
    assert.ok(rows.some((r) => expected.every((x) => r.includes(x))), `${expected.join(", ")}; the page shows ${JSON.stringify(rows)}`);
  }
  await closePage(page);
});

test("with the run selected and no input touched, the GLEE pages draw from the run's build-time first views: none of its rows are fetched", async () => {
  for (const path of ["/glee-bargaining", "/glee-regression", "/glee-pairs"]) {
    const {page, problems} = await open(path, {});
    assert.deepEqual(problems, [], path);
    assert.deepEqual(await errorsOf(page), [], path);
    const fetched = (await page.evaluate(() => performance.getEntriesByType("resource").map((e) => e.name))).filter((url) => url.includes("/_file/data/runs/"));
    assert.ok(fetched.some((url) => url.includes(`/glee/first-${path.slice(1)}.`)), `${path}: its first view was read (${fetched.join(", ")})`);
    assert.deepEqual(fetched.filter((url) => url.endsWith(".parquet")), [], `${path}: no table of the run fetched`);
    await closePage(page);
  }
});

test("/study-discount with the run selected: drawn from the run's first view with none of its rows fetched, each agent's self-gain as parley metrics gives", async () => {
  const metrics = json(await parley(["metrics", study])).trim().split("\n").map((l) => JSON.parse(l) as MetricsRow & {alice_self_gain: number; bob_self_gain: number});
  // Each agent's self-gains over its seats (both seats pooled, every δ), from the command's per-game rows.
  const gains = new Map<string, number[]>();
  for (const m of metrics) for (const [agent, gain] of [[m.alice_agent, m.alice_self_gain], [m.bob_agent, m.bob_self_gain]] as const) gains.set(agent, [...(gains.get(agent) ?? []), gain]);
  const {page, problems} = await visit(browser, server, "/study-discount");
  await page.getByLabel("Dataset").selectOption(LABEL);
  await settle(page);
  await screenshot(page, "own-run-study-discount");
  assert.deepEqual(problems, []);
  assert.deepEqual(await errorsOf(page), []);
  const fetched = (await page.evaluate(() => performance.getEntriesByType("resource").map((e) => e.name))).filter((url) => url.includes("/_file/data/runs/"));
  assert.ok(fetched.some((url) => url.includes("/glee/first-study-discount.")), `its first view was read (${fetched.join(", ")})`);
  assert.deepEqual(fetched.filter((url) => url.endsWith(".parquet")), [], "no table of the run fetched");
  // The table (agent, own δ, games, mean, ...): per agent, the games-weighted mean over its δ values is its mean self-gain over all seats.
  const rows = await page.locator("main table").first().locator("tbody tr").evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll("td")).map((td) => td.textContent!.trim())));
  const shown = new Map<string, {n: number; sum: number}>();
  for (const [, agent, , n, mean] of rows) {
    const s = shown.get(agent) ?? {n: 0, sum: 0};
    shown.set(agent, {n: s.n + Number(n), sum: s.sum + Number(n) * Number(mean)});
  }
  assert.deepEqual([...shown.keys()].sort(), [...gains.keys()].sort());
  for (const [agent, values] of gains) {
    const {n, sum} = shown.get(agent)!;
    assert.equal(n, values.length, agent);
    // Each mean is shown to 3 decimals: the weighted mean is within 0.0005 of the exact one.
    assert.ok(Math.abs(sum / n - values.reduce((a, b) => a + b, 0) / values.length) <= 0.0005 + 1e-9, `${agent}: ${sum / n}`);
  }
  await closePage(page);
});

test("/glee-bargaining's One game on the run: another game's turns come by Range requests from the run's row groups, as the run directory holds them", async () => {
  const {queryRun} = await import("../../loaders/io/parquet.js");
  const {GLEE_TURNS_SQL} = await import("../../src/lib/pages/gleeFamily.js");
  const {transcriptLines} = await import("../../src/components/gleeFamilyPage.js");
  const {page, problems} = await open("/glee-bargaining", {});
  const statuses: number[] = [];
  page.on("response", (r) => /\/_file\/data\/runs\/.*\.parquet$/.test(new URL(r.url()).pathname) && statuses.push(r.status()));
  await page.locator(".parley-game-finder a.parley-game-link").nth(1).click();
  await settle(page);
  assert.deepEqual(problems, []);
  assert.deepEqual(await errorsOf(page), []);
  const gameId = new URL(page.url()).searchParams.get("game")!;
  const expected = await queryRun(study, ["turns"], GLEE_TURNS_SQL.replace("?", `'${gameId.replaceAll("'", "''")}'`));
  assert.ok(expected.length >= 1, gameId);
  const shown = await page.locator(".parley-transcript .parley-turn").evaluateAll((items) => items.map((i) => i.querySelector(".parley-action, .parley-text")!.textContent));
  assert.deepEqual(shown, transcriptLines(expected as never, "bargaining").map((l) => l.text));
  assert.ok(statuses.length >= 1 && statuses.every((s) => s === 206), `partial answers only: ${statuses.join(", ")}`);
  await closePage(page);
});

test("the Datasets page lists the run and the configured directory that is missing", async () => {
  const {page, problems} = await visit(browser, server, "/datasets");
  assert.deepEqual(problems, []);
  const text = (await page.textContent("main"))!;
  assert.match(text, /Your run “My study” \(runs\/study\): 36 games/);
  assert.match(text, /parley\.config\.json: runs\[0\] "runs\/missing": directory not found/);
  await closePage(page);
});

/** The rows of the first table below heading `heading` (an h2 or h3). */
const cellsAfter = async (page: Page, heading: string) => Promise.all((await page.locator(`:is(h2, h3):has-text("${heading}") ~ div table`).first().locator("tbody tr").all()).map(async (tr) => (await tr.locator("td").allTextContents()).map((t) => t.trim()).filter(Boolean)));

const openRun = async (path: string, label: string, query: Record<string, string> = {}) => {
  const visited = await visit(browser, server, `${path}?${new URLSearchParams({dataset: label, ...query})}`);
  await settle(visited.page);
  assert.deepEqual(visited.problems, [], path);
  assert.deepEqual(await errorsOf(visited.page), [], path);
  assert.equal(await visited.page.getByLabel("Dataset").locator("option:checked").textContent(), label, path);
  return visited.page;
};

test("/gamabench on a gamma-Bench run: the leaderboard's scores are parley gamabench-scores'", async () => {
  const run = others.gamabench;
  const cli = JSON.parse(json(await parley(["gamabench-scores", run.dir]))) as Record<string, Record<string, {mean: number; sd: number; runs: number}>>;
  const page = await openRun("/gamabench", run.label);
  await screenshot(page, "own-run-gamabench");
  assert.match((await page.locator(".parley-run-headline").textContent())!, /Your run “Strategies mini” \(runs\/gamabench\): 8 games, finished/);
  const table = page.locator("h2:has-text('Leaderboard') ~ div table, h2:has-text('Leaderboard') ~ table").first();
  const head = (await table.locator("thead th").allTextContents()).map((t) => t.trim());
  assert.deepEqual(head.slice(1), Object.keys(cli).sort());
  const rows = await Promise.all((await table.locator("tbody tr").all()).map(async (tr) => (await tr.locator("th, td").allTextContents()).map((t) => t.trim())));
  let checked = 0;
  for (const [model, games] of Object.entries(cli)) {
    for (const [game, score] of Object.entries(games)) {
      if (game === "overall") continue;
      const row = rows.find((r) => r[0] === gameLabel(game));
      assert.ok(row, `a row for ${game}`);
      assert.equal(row[1 + head.slice(1).indexOf(model)], `${score.mean.toFixed(1)} ± ${score.sd.toFixed(1)}`, `${model} ${game}`);
      checked++;
    }
  }
  assert.equal(checked, 4);
  await closePage(page);
});

interface ArenaRow {scenario: string; p1_agent: string; p2_agent: string; n: number; decisive: number; p1_win_rate: number | null; p2_win_rate: number | null; p1_mean_payoff: number; p2_mean_payoff: number}
const arenaCells = (r: ArenaRow, withScenario: boolean) => [...(withScenario ? [r.scenario] : []), r.p1_agent, r.p2_agent, String(r.n), String(r.decisive), ...[r.p1_win_rate, r.p2_win_rate].map((x) => (x === null ? "–" : x.toFixed(3))), r.p1_mean_payoff.toFixed(2), r.p2_mean_payoff.toFixed(2)];

test("/negotiationarena and its scenario pages on a NegotiationArena run: every pair's row is parley negotiationarena-stats'", async () => {
  const run = others.negotiationarena;
  const cli = json(await parley(["negotiationarena-stats", run.dir])).trim().split("\n").map((l) => JSON.parse(l) as ArenaRow);
  assert.equal(cli.length, 18);
  const page = await openRun("/negotiationarena", run.label);
  await screenshot(page, "own-run-negotiationarena");
  const shown = await cellsAfter(page, "Every scenario and ordered pair");
  assert.deepEqual(shown.map((r) => r.join("|")).sort(), cli.map((r) => arenaCells(r, true).join("|")).sort());
  await closePage(page);
  const ultimatum = await openRun("/negotiationarena-ultimatum", run.label);
  const pairs = await cellsAfter(ultimatum, "Who wins, pair by pair");
  assert.deepEqual(pairs.map((r) => r.join("|")).sort(), cli.filter((r) => r.scenario === "ultimatum").map((r) => arenaCells(r, false).join("|")).sort());
  await closePage(ultimatum);
  // A scenario the run did not play does not offer it.
  const {page: other} = await visit(browser, server, "/negotiationarena-resource-exchange");
  await settle(other);
  assert.ok(!(await other.getByLabel("Dataset").locator("option").allTextContents()).includes(run.label));
  await closePage(other);
});

test("/dond-played and /dond-beliefs on a Deal-or-No-Deal run: its pairings, as parley dond-stats counts them", async () => {
  const run = others.dond;
  const stats = JSON.parse(json(await parley(["dond-stats", run.dir]))) as {n: number}[];
  const games = stats.reduce((s, r) => s + r.n, 0);
  const page = await openRun("/dond-played", run.label);
  await screenshot(page, "own-run-dond-played");
  assert.match((await page.locator(".parley-run-headline").textContent())!, new RegExp(`\\): ${games} games, finished`));
  // The pairings of the run (as many games as dond-stats counts), and the Best row from the points it played (Table 10: 12.48 over 44 points).
  const pairings = await cellsAfter(page, "Pairings");
  assert.equal(pairings.length, 5);
  assert.deepEqual(pairings[0].slice(0, 2), ["Best (EF ∧ PO, largest total)", "44"]);
  assert.equal(pairings[0].at(-1), "12.48");
  assert.deepEqual(pairings.slice(1).map((r) => r[0]).sort(), ["fair (Alice) vs fair (Bob)", "fair (Alice) vs greedy (Bob)", "greedy (Alice) vs fair (Bob)", "greedy (Alice) vs greedy (Bob)"]);
  await closePage(page);
  const beliefs = await openRun("/dond-beliefs", run.label);
  await screenshot(beliefs, "own-run-dond-beliefs");
  await closePage(beliefs);
});

test("/ratings with the run pooled: the LLM player's rating is drawn against its cost per game, the scripted agents listed without a cost", async () => {
  // The cost per game, computed here from the run's turns with native DuckDB: tokens at the configured price, over the games it played.
  const {queryRun} = await import("../../loaders/io/parquet.js");
  const [tokens] = await queryRun(study, ["players", "turns"], `SELECT sum(t.input_tokens)::DOUBLE AS input, sum(t.output_tokens)::DOUBLE AS output,
    (SELECT count(*) FROM players WHERE agent = 'fake-mini')::INTEGER AS games
    FROM turns t JOIN players p USING (game_id, seat) WHERE p.agent = 'fake-mini'`);
  const input = Number(tokens.input), output = Number(tokens.output), games = Number(tokens.games);
  assert.ok(input > 0 && output > 0 && games === 24, `fake-mini recorded tokens in its 24 seats (20 games, self-play counted per seat as the page counts them) (${JSON.stringify(tokens)})`);
  const perGame = (input * PRICE.input_per_million + output * PRICE.output_per_million) / 1e6 / games;
  const visited = await visit(browser, server, `/ratings?${new URLSearchParams({pool: LABEL, draws: "100"})}`);
  const {page, problems} = visited;
  await settle(page);
  await screenshot(page, "own-run-ratings-cost");
  assert.deepEqual(problems, []);
  assert.deepEqual(await errorsOf(page), []);
  const section = page.locator('h2:has-text("Rating against cost per game") ~ div').first();
  await section.locator("svg").first().waitFor();
  const labels = await section.locator("svg text").allTextContents();
  assert.ok(labels.includes("fake-mini"), `the chart names the LLM player (${labels.join(", ")})`);
  const text = (await page.locator("main").textContent())!;
  assert.match(text, /Without a cost \(no token counts recorded[^)]*\): [^.]*\bfair\b/);
  assert.match(text, /Without a cost \(no token counts recorded[^)]*\): [^.]*\bgreedy\b/);
  // The table under the chart: the page's cost per game and token counts, equal to the ones computed here.
  const table = section.locator("table").first();
  const header = (await table.locator("thead th").allTextContents()).map((h) => h.trim());
  const row = (await table.locator("tbody tr").first().locator("td").allTextContents()).map((c) => c.trim());
  const cell = (name: string) => row[header.indexOf(name)];
  assert.equal(cell("agent"), "fake-mini");
  assert.equal(cell("price (provider/model)"), "openai/fake-mini");
  assert.equal(Number(cell("games")), games);
  assert.equal(Number(cell("input tokens").replace(/,/g, "")), input);
  assert.equal(Number(cell("output tokens").replace(/,/g, "")), output);
  // Shown to the column's decimals (one count of decimals per column): equal to the cost computed here, rounded to them.
  const shown = cell("cost per game (US $)");
  const decimals = shown.split(".")[1]?.length ?? 0;
  assert.ok(decimals >= 4 && Math.abs(Number(shown) - perGame) <= 0.5 * 10 ** -decimals + 1e-12, `cost per game ${shown} against ${perGame}`);
});
