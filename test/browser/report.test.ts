/**
 * `parley report`, end to end: a small GLEE study with an LLM player against
 * a fake OpenAI endpoint on 127.0.0.1 (`parley run`), then `parley report`
 * on it; the built site is served on loopback and opened in headless
 * Chromium: no console error, no 4xx, no request beyond the host, and the
 * front page shows the study's game count, rule breaks and agents (with the
 * model) as computed here from the run's own tables; /ratings shows the
 * run's ratings with their settledness, the controlled ranking, Nash
 * averaging, a margin outcome and the generalisation report, each as
 * `parley ratings` gives it on the run; axe-core finds no critical or serious
 * WCAG 2.1 AA violation on any page. Bad inputs are one line and exit code 2.
 */
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {existsSync, readdirSync, readFileSync, statSync, writeFileSync, mkdirSync} from "node:fs";
import {join} from "node:path";
import type {Browser, Page} from "playwright-core";
import {spawn, spawnSync} from "node:child_process";
import {parley, root, scratch, type Done} from "../support/cli.js";
import {startFakeLlm, type FakeRequest, type Reply} from "../support/fakeLlm.js";
import {gleeBot} from "../support/gleeBot.js";
import {withSiteTree} from "../support/fixtureSite.js";
import {queryRun} from "../../loaders/io/parquet.js";
import {runSlug} from "../../loaders/ownRuns/configuredRuns.js";
import {withDuckDB, sqlString} from "../../loaders/io/duckdb.js";
import {serveStatic, type StaticServer} from "../../loaders/site/serve.js";
import {closePage, launch, screenshot, settle, visit} from "./harness.js";
import {axeViolations, severe, SIDEBAR} from "./axe.js";

const KEY = "sk-parley-report-" + "5eed".repeat(8);
const {dir: tempDir, keep} = scratch("parley-report-");
let work: string;
let runDir: string;
let siteDir: string;
let server: StaticServer;
let browser: Browser;
let built: Done;
let srcBefore: string[];
let srcAfter: string[];
/** The game of the participant the study's participants table excludes (a bargaining game of fair against mini). */
let excludedGame: string;

// The report builds offline: in a network namespace with no network when this runs as root (as CI does), else as is.
const offline = spawnSync("unshare", ["-n", "true"]).status === 0;

/** `parley report <args>`, through `unshare -n` when possible. */
function report(args: string[]): Promise<Done> {
  const command = [process.execPath, join(root, "bin/parley.js"), "report", ...args];
  const child = offline ? spawn("unshare", ["-n", ...command], {cwd: root}) : spawn(command[0], command.slice(1), {cwd: root});
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c) => (stdout += c));
  child.stderr.on("data", (c) => (stderr += c));
  return new Promise((resolve) => child.on("close", (code, signal) => resolve({code, signal, stdout, stderr})));
}

/** Every file under src/ with its size and modification time: the report must change none. */
const listing = (dir: string): string[] => walk(dir).map((f) => `${f} ${statSync(f).size} ${statSync(f).mtimeMs}`).sort();

// Alice's first offer (bargaining and negotiation) is malformed JSON once per game: one recorded rule break each, then she answers.
const misbehave = (r: FakeRequest): Reply | null =>
  /You are playing as Alice\.|^You are Alice\./.test(r.system) && r.lastUser.startsWith("Round 1\nSend your offer") && !r.lastUser.includes("malformed") ? {text: '{"alice_gain": 600, "bob_gain": '} : null;

before(async () => {
  const llm = await startFakeLlm("openai", gleeBot({misbehave}));
  keep(llm);
  work = tempDir();
  runDir = join(work, "my-study");
  siteDir = join(work, "site");
  const config = join(work, "study.json");
  writeFileSync(config, JSON.stringify({
    family: ["bargaining", "negotiation"],
    grid: {
      bargaining: {delta_a: [0.9, 0.95], delta_b: [0.8], money: [1000], horizon: [12], complete_information: [true], messages: [true]},
      negotiation: {factor_a: [0.8], factor_b: [1.2], money: [100], horizon: [12], complete_information: [true], messages: [true]},
    },
    players: [{id: "mini", provider: "openai", model: "fake-openai", base_url: llm.baseURL, api_key_env: "PARLEY_FAKE_KEY", timeout_ms: 5000, max_retries: 2}, "fair", "greedy"],
    pairs: [["mini", "fair"], ["fair", "mini"], ["mini", "greedy"], ["greedy", "mini"]],
    games_per_pair: 2, seed: 11, concurrency: 4, description: "A small GLEE study: one LLM against two built-in agents",
    // /ratings reports it (its self-play vs cross-play section); it changes no game.
    generalisation: {focal: ["mini"], seen: ["fair"], unseen: ["greedy"], held_out: {bargaining: {delta_a: [0.95]}}},
  }));
  const played = await parley(["run", config, "--out", runDir, "--quiet"], {PARLEY_FAKE_KEY: KEY});
  assert.equal(played.code, 0, played.stderr);
  // A participants table beside the games, as `parley play` writes one (loaders/study/studyTables.ts): three people
  // played three of the games, one failed the quiz and is excluded, and one more declined. The report counts them
  // and leaves the excluded one's game out of its headline results.
  const picked = await queryRun<{game_id: string; alice_agent: string; bob_agent: string}>(runDir, ["games"], "SELECT game_id, alice_agent, bob_agent FROM games WHERE family = 'bargaining' ORDER BY alice_agent, bob_agent, game_id");
  excludedGame = picked.find((g) => g.alice_agent === "fair" && g.bob_agent === "mini")!.game_id;
  const others = picked.filter((g) => g.game_id !== excludedGame).slice(0, 2).map((g) => g.game_id);
  const person = (id: string, game: string | null, step: string, excluded: boolean, reason: string | null, minutes: number | null) =>
    `SELECT ${sqlString(id)} AS participant_id, 'report-test' AS experiment, 'alice' AS condition, 'glee/bargaining' AS game, ${game === null ? "NULL" : sqlString(game)} AS game_id, ${sqlString(step)} AS step,
            ${game !== null} AS game_finished, ${excluded} AS excluded, ${reason === null ? "NULL" : sqlString(reason)} AS exclusion_reason,
            '2026-11-01T10:00:00.000Z' AS assigned_at, ${step === "declined" ? "NULL" : "'2026-11-01T10:00:00.000Z'"} AS consented_at,
            ${minutes === null ? "NULL" : sqlString(new Date(Date.parse("2026-11-01T10:00:00.000Z") + minutes * 60_000).toISOString())} AS completed_at`;
  await withDuckDB((db) => db.run(`COPY (${[
    person("p1", others[0], "done", false, null, 4), person("p2", others[1], "done", false, null, 8), person("p3", excludedGame, "failed_quiz", true, "quiz", null), person("p4", null, "declined", false, null, null),
  ].join(" UNION ALL ")}) TO ${sqlString(join(runDir, "participants.parquet"))} (FORMAT parquet)`));
  // With no other test process building or previewing the project's site meanwhile.
  await withSiteTree(async () => {
    srcBefore = listing(join(root, "src"));
    built = await report([runDir, "--out", siteDir, "--title", "A small GLEE study"]);
    srcAfter = listing(join(root, "src"));
  });
  assert.equal(built.code, 0, built.stderr);
  server = await serveStatic(siteDir);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

test("the report holds the study's pages only, and no key; the repository's src/ is untouched", () => {
  assert.deepEqual(srcAfter, srcBefore);
  const summary = JSON.parse(built.stdout);
  // The project's own analysis page on GLEE games (src/study-discount.md) comes with them.
  assert.deepEqual(summary.pages, ["/", "/glee-bargaining", "/glee-negotiation", "/glee-regression", "/glee-pairs", "/ratings", "/study-discount", "/references"]);
  assert.deepEqual(summary.datasets, ["glee"]);
  for (const page of ["index.html", "glee-bargaining.html", "glee-negotiation.html", "glee-regression.html", "glee-pairs.html", "ratings.html", "study-discount.html", "references.html"]) assert.ok(existsSync(join(siteDir, page)), page);
  for (const absent of ["glee-persuasion.html", "gamabench.html", "glee-human.html", "datasets.html"]) assert.ok(!existsSync(join(siteDir, absent)), `${absent} is not part of a GLEE study`);
  // No built-in demo data: the only tables are the study's, as the GLEE pages read them and as /ratings reads a run's seats.
  const parquet = walk(siteDir).filter((f) => f.endsWith(".parquet")).map((f) => f.slice(siteDir.length + 1).replace(/\.[0-9a-f]{8}\.parquet$/, ""));
  const seats = `_file/data/runs/${runSlug("my-study")}/seats`;
  assert.deepEqual(parquet.sort(), ["_file/data/glee/games", "_file/data/glee/turns", `${seats}/games`, `${seats}/players`, `${seats}/turns`]);
  for (const file of walk(siteDir)) assert.ok(!readFileSync(file).includes(KEY), `${file} holds the API key`);
});

test("the front page shows the study's game count, rule breaks and agents, as the run's tables give them", async () => {
  const [facts] = await queryRun<{games: number; rule_breaks: number}>(runDir, ["games", "turns"], "SELECT (SELECT count(*) FROM games)::INTEGER AS games, (SELECT count(*) FILTER (WHERE rule_break) FROM turns)::INTEGER AS rule_breaks");
  const agents = (await queryRun<{agent: string}>(runDir, ["players"], "SELECT DISTINCT agent FROM players ORDER BY agent")).map((r) => r.agent);
  assert.equal(facts.games, 24);
  assert.equal(facts.rule_breaks, 12, "one malformed first offer per game the LLM opens as Alice: 8 bargaining, 4 negotiation");
  assert.deepEqual(agents, ["fair", "greedy", "mini"]);

  const {page, problems} = await visit(browser, server, "/");
  await screenshot(page, "report-front");
  assert.deepEqual(problems, []);
  assert.equal(await page.locator("h1").first().textContent(), "A small GLEE study");
  const fact = async (key: string) => (await page.locator(`[data-fact="${key}"] strong`).textContent())!.replace(/,/g, "");
  assert.equal(await fact("games"), String(facts.games));
  assert.equal(await fact("rule-breaks"), String(facts.rule_breaks));
  assert.equal(await fact("agents"), String(agents.length));
  const shown = await page.locator("tr[data-agent]").evaluateAll((rows) => rows.map((r) => [(r as HTMLElement).dataset.agent, r.children[1].textContent, r.children[2].textContent]));
  assert.deepEqual(shown, [["fair", "built-in strategy", "–"], ["greedy", "built-in strategy", "–"], ["mini", "LLM (openai)", "fake-openai"]]);
  // The headline results equal `parley metrics` on the run, averaged here per family and ordered pair.
  const metrics = await parley(["metrics", runDir]);
  assert.equal(metrics.code, 0, metrics.stderr);
  const groups = new Map<string, number[][]>();
  const allGroups = new Map<string, number[][]>();
  for (const line of metrics.stdout.trim().split("\n")) {
    const m = JSON.parse(line);
    const all = [m.family, m.alice_agent, m.bob_agent].join("|");
    allGroups.set(all, [...(allGroups.get(all) ?? []), [m.efficiency, m.fairness, m.alice_self_gain, m.bob_self_gain]]);
    // The excluded participant's game is left out of the headline results by default.
    if (m.game_id === excludedGame) continue;
    const key = [m.family, m.alice_agent, m.bob_agent].join("|");
    groups.set(key, [...(groups.get(key) ?? []), [m.efficiency, m.fairness, m.alice_self_gain, m.bob_self_gain]]);
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const table = (groups: Map<string, number[][]>) => [...groups].map(([key, rows]) => [...key.split("|"), String(rows.length), ...[0, 1, 2, 3].map((i) => mean(rows.map((r) => r[i])).toFixed(3))].join(" ")).sort();
  const expected = table(groups);
  const headline = () => page.locator("h3").evaluateAll((hs) => hs.flatMap((h) => {
    const family = h.textContent!.toLowerCase();
    const next = h.nextElementSibling;
    const table = next?.tagName === "TABLE" ? next : next?.querySelector("table");
    return table ? [...table.querySelectorAll("tbody tr")].map((tr) => [family, ...[...tr.children].map((td) => td.textContent)].join(" ")) : [];
  }));
  assert.deepEqual((await headline()).sort(), expected);
  assert.equal(await page.locator("[data-headline]").getAttribute("data-headline"), "without-excluded");
  // On request, with the excluded participant's game: every game, as `parley metrics` gives them.
  await page.getByLabel("Include the 1 excluded participant's game").check();
  await page.locator('[data-headline="with-excluded"]').waitFor();
  assert.deepEqual((await headline()).sort(), table(allGroups));
  assert.notDeepEqual(table(allGroups), expected);
  // The participants: recruited, completed, excluded and why, time to complete (4 and 8 minutes: median 6).
  const people = async (key: string) => (await page.locator(`[data-participants="${key}"]`).textContent())!;
  assert.match(await people("recruited"), /^4 recruited/);
  assert.match(await people("declined"), /^1 declined/);
  assert.match(await people("completed"), /^2 completed/);
  assert.match(await people("excluded"), /^1 excluded from the analysis: 1 failed the comprehension quiz$/);
  assert.match(await people("time"), /^6\.0 min median time to complete .*fastest 4\.0 min, slowest 8\.0 min/);
  // Links into the analyses.
  const links = await page.locator("main a[href]").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  for (const p of ["./glee-bargaining", "./glee-regression", "./glee-pairs", "./ratings"]) assert.ok(links.includes(p), `a link to ${p}`);
});

/** Each row of the table that the CSV button named `name` exports, as the cells show it. */
const tableRows = async (page: Page, name: string) => {
  const table = page.locator(".parley-exportable", {has: page.locator(`button[title="${name} as CSV"]`)}).locator("table");
  return Promise.all((await table.locator("tbody tr").all()).map(async (tr) => (await tr.locator("td").allTextContents()).map((t) => t.trim())));
};

test("/ratings pools the study's run, built offline: ratings with settledness, the controlled ranking, Nash averaging, a margin outcome and self-play vs cross-play, as parley ratings <run> gives them", async () => {
  const ok = (r: Done) => {
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout);
  };
  const cli = ok(await parley(["ratings", runDir, "--resamples", "0"]));
  const margin = ok(await parley(["ratings", runDir, "--resamples", "0", "--outcome", "surplus-share", "--controls", "none"]));
  const generalisation = ok(await parley(["ratings", runDir, "--generalisation"]));
  const {page, problems} = await visit(browser, server, "/ratings?draws=0");
  await screenshot(page, "report-ratings");
  assert.deepEqual(problems, []);
  assert.deepEqual(await page.locator(".observablehq--error, .parley-error").allTextContents(), []);
  // The pool is the study's run, chosen by default (a report has no built-in source).
  assert.deepEqual(await page.locator("input[type=checkbox]:checked").evaluateAll((boxes) => boxes.map((b) => b.parentElement!.textContent)), ["my-study"]);
  const elo = (v: number) => (1500 + (400 / Math.LN10) * v).toFixed(0);
  // The ratings, their tiers and settledness.
  assert.deepEqual(cli.agents.map((a: {agent: string}) => a.agent).sort(), ["fair", "greedy", "mini"]);
  const ratings = await tableRows(page, "ratings");
  assert.equal(ratings.length, cli.agents.length);
  for (const a of cli.agents) {
    const expected = [a.agent, String(a.tier), a.settled, a.elo.toFixed(0), ...(a.rating_lo === null ? [] : [elo(a.rating_lo), elo(a.rating_hi)])];
    assert.ok(ratings.some((r) => expected.every((x) => r.includes(x))), `${expected.join(", ")}: ${JSON.stringify(ratings)}`);
  }
  // The controlled ranking beside its raw ranking, and the covariates' effects (the LLM player's tokens and rule breaks differ from the strategies').
  assert.ok(cli.controlled.entrants.length > 0 && cli.controlled.coefficients.length > 0, `the run has something to control for (${JSON.stringify(cli.controlled.left_out)})`);
  const controlled = await tableRows(page, "controlled-ranking");
  assert.equal(controlled.length, cli.controlled.entrants.length);
  for (const e of cli.controlled.entrants) assert.ok(controlled.some((r) => r.includes(e.entrant) && r.includes(elo(e.rating)) && r.includes(elo(e.raw_rating)) && r.includes(e.settled)), `${e.entrant}: ${JSON.stringify(controlled)}`);
  const effects = cli.controlled.coefficients.length ? await tableRows(page, "covariate-effects") : [];
  for (const c of cli.controlled.coefficients) assert.ok(effects.some((r) => r.includes(c.name) && r.includes(c.coefficient.toFixed(3))), `${c.name}: ${JSON.stringify(effects)}`);
  // Nash averaging.
  const nash = await tableRows(page, "nash-averaging");
  for (const a of cli.nash_averaging.agents) assert.ok(nash.some((r) => r.includes(a.agent) && r.includes(a.mass.toFixed(3)) && r.includes(a.skill.toFixed(3))), `${a.agent}: ${JSON.stringify(nash)}`);
  // Self-play vs cross-play, seen vs held-out: the protocol in words and the command's rows (three significant digits).
  const section = page.locator("h2:has-text('Self-play vs cross-play, seen vs held-out') ~ div").last();
  assert.match((await section.textContent())!, /Focal: mini\. Seen co-players: fair\. Unseen co-players: greedy\. Held-out configurations: glee\/bargaining with delta_a 0\.95 \(1 configuration\)\./);
  const digits = (x: number | null) => (x === null ? "" : Number(x.toPrecision(3)).toString());
  const expectedGaps = (generalisation.rows as {focal: string; game: string; measure: string; mean_a: number; mean_b: number; gap: number; gap_lo: number | null; gap_hi: number | null}[])
    .map((r) => [r.focal, r.game, r.measure, digits(r.mean_a), digits(r.mean_b), digits(r.gap), digits(r.gap_lo), digits(r.gap_hi)].join(" ")).sort();
  assert.ok(expectedGaps.length >= 6, "co-players in both families, configurations in bargaining");
  const table = section.locator(".parley-exportable").filter({has: page.locator("table")}).first();
  const header = (await table.locator("table thead th").allTextContents()).map((t) => t.trim());
  const cells = await table.locator("table tbody tr").evaluateAll((rows) => rows.map((r) => [...r.children].map((td) => td.textContent!.trim())));
  const col = (name: string) => header.indexOf(name);
  assert.deepEqual(cells.map((c) => [c[col("focal")], c[col("game")], c[col("measure")], c[col("mean A")], c[col("mean B")], c[col("A − B")], c[col("gap low")], c[col("gap high")]].join(" ")).sort(), expectedGaps);
  // A margin outcome: the run's games again, by DuckDB-WASM, counted by their share of the surplus.
  await page.getByLabel("Share of the surplus (x / (x + y))").check();
  await settle(page);
  assert.deepEqual(await page.locator(".observablehq--error, .parley-error").allTextContents(), []);
  const shares = await tableRows(page, "ratings");
  for (const a of margin.agents) assert.ok(shares.some((r) => r.includes(a.agent) && r.includes(a.elo.toFixed(0))), `${a.agent} ${a.elo}: ${JSON.stringify(shares)}`);
  assert.notDeepEqual(margin.agents.map((a: {elo: number}) => a.elo.toFixed(0)), cli.agents.map((a: {elo: number}) => a.elo.toFixed(0)), "the margin outcome rates differently");
  await closePage(page);
});

test("every page of the report opens with no console error, no 4xx, no request beyond its host and no serious accessibility violation", async () => {
  const violations: string[] = [];
  for (const path of ["/", "/glee-bargaining", "/glee-negotiation", "/glee-regression", "/glee-pairs", "/ratings", "/study-discount", "/references"]) {
    const {page, problems} = await visit(browser, server, path);
    await screenshot(page, `report${path}`);
    assert.deepEqual(problems, [], path);
    assert.deepEqual(await page.locator(".observablehq--error").allTextContents(), [], path);
    // axe-core's WCAG 2.1 A and AA rules (test/browser/axe.ts): the report's pages are as accessible as the site's.
    violations.push(...severe(path, await axeViolations(page, {exclude: path === "/" ? [] : [SIDEBAR]})));
    if (path === "/study-discount") assert.match((await page.textContent("main"))!, /Source: A small GLEE study\./);
    // Text written for the site alone is not in a report, nor a dataset menu of one dataset (the card names the study).
    const text = (await page.textContent("main"))!;
    assert.doesNotMatch(text, /parley runs add|simulated tournament|test\/unit/, path);
    assert.equal(await page.getByLabel("Dataset", {exact: true}).count(), 0, `${path}: no one-option dataset menu`);
    if (path === "/glee-regression") assert.match(text, /A small GLEE study/);
    if (path === "/glee-bargaining") {
      // The excluded participant's game is marked in the games table and above its transcript.
      await page.goto(`${server.url}/glee-bargaining?alice=fair&bob=mini&game=${encodeURIComponent(excludedGame)}`);
      const note = page.locator(".parley-excluded-note");
      await note.waitFor();
      assert.match((await note.textContent())!, /Excluded participant\. This game's participant failed the comprehension quiz/);
      const headers = (await page.locator(".parley-game-finder thead th").allTextContents()).map((h) => h.trim());
      const at = headers.indexOf("participant");
      assert.ok(at > 0, headers.join(","));
      const marked = await page.locator(".parley-game-finder tbody tr").evaluateAll((rows, i) => rows.map((r) => [r.querySelector("a.parley-game-link")?.getAttribute("data-game"), r.children[i].textContent]), at);
      assert.deepEqual(marked.filter(([, mark]) => mark === "excluded").map(([id]) => id), [excludedGame]);
    }
    await closePage(page);
  }
  assert.deepEqual(violations, [], `axe: ${violations.length} critical or serious violations`);
});

test("bad input: one line naming the directory, exit code 2, nothing written", async () => {
  const out = join(work, "never");
  const missing = await parley(["report", join(work, "no-such-run"), "--out", out]);
  assert.equal(missing.code, 2);
  assert.equal(missing.stderr.trim().split("\n").length, 1);
  assert.match(missing.stderr, /no-such-run not found/);
  const empty = join(work, "empty-run");
  mkdirSync(empty);
  const noTables = await parley(["report", empty, "--out", out]);
  assert.equal(noTables.code, 2);
  assert.match(noTables.stderr, /^parley report: .*empty-run holds no tables/);
  assert.equal(noTables.stderr.trim().split("\n").length, 1);
  assert.ok(!existsSync(out));
});
