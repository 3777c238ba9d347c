// The /play page in headless Chromium on the built static site: complete games
// of GLEE's three families and a gamma-Bench game played through the form
// against the bundled scripted agents; illegal entries refused with a message
// and nothing changed; a hostile message shown as text; the downloaded
// records read back by `parley ingest human` and `parley metrics`.
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {mkdtempSync, readFileSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import type {Browser, Page} from "playwright-core";
import type {StaticServer} from "../../loaders/site/serve.js";
import {closePage, openSite, screenshot, settle, visit, type Site} from "./harness.js";
import {parley} from "../support/cli.js";

const hostile = "<img src=x onerror=alert(1)>";
let site: Site;
let browser: Browser;
let server: StaticServer;
const downloads = mkdtempSync(join(tmpdir(), "parley-play-"));
const records: string[] = [];

before(async () => {
  site = await openSite();
  ({browser, server} = site);
});

after(async () => {
  await site?.close();
  rmSync(downloads, {recursive: true, force: true});
});

/** Sets up a game on the page: game, parameters, players, the person's seat, opponents, seed. */
async function setUp(page: Page, game: string, params: Record<string, string | boolean>, seat: string, agents: Record<string, string>, players?: string): Promise<void> {
  await page.selectOption("select[name=game]", game);
  for (const [name, value] of Object.entries(params)) {
    if (typeof value === "boolean") await page.setChecked(`input[name=param-${name}]`, value);
    else await page.fill(`input[name=param-${name}]`, value);
  }
  if (players) await page.selectOption("select[name=players]", players);
  await page.selectOption("select[name=seat]", seat);
  for (const [s, id] of Object.entries(agents)) await page.selectOption(`select[name=agent-${s}]`, id);
  await page.fill("input[name=seed]", "42");
  await page.click("button.play-start");
  await page.waitForSelector(".play-form, .play-outcome");
}

/** Fills the move form (text fields typed, choices selected) and plays it. */
async function move(page: Page, values: Record<string, string>): Promise<void> {
  for (const [name, value] of Object.entries(values)) {
    const field = page.locator(`[name=field-${name}]`);
    if ((await field.evaluate((e) => e.tagName)) === "SELECT") await field.selectOption(value);
    else await field.fill(value);
  }
  await page.click("button.play-submit");
  await settle(page, 300);
}

const fieldNames = (page: Page) => page.locator(".play-form [name^=field-]").evaluateAll((es) => es.map((e) => (e as HTMLInputElement).name.slice("field-".length)));

/** Plays until the game is over, answering with `answer(fields present)`; returns the moves made. */
async function playOut(page: Page, answer: (fields: string[]) => Record<string, string>): Promise<number> {
  let moves = 0;
  while (!(await page.locator(".play-outcome").count())) {
    assert.ok(moves < 60, "the game ends");
    await move(page, answer(await fieldNames(page)));
    moves++;
    if (await page.locator(".play-outcome").count()) break;
    assert.equal(await page.locator(".play-game .play-error").textContent(), "", "every move of the loop is legal");
  }
  return moves;
}

/** Downloads the record and checks it. */
async function download(page: Page, name: string): Promise<Record<string, any>> {
  const [file] = await Promise.all([page.waitForEvent("download"), page.click("a.play-download")]);
  const path = join(downloads, `${name}.json`);
  await file.saveAs(path);
  records.push(path);
  return JSON.parse(readFileSync(path, "utf8"));
}

test("GLEE bargaining: illegal entries are refused and change nothing, a hostile message stays text, the game plays to the end", async () => {
  const {page, problems, dialogs} = await visit(browser, server, "/play");
  await setUp(page, "glee/bargaining", {money: "100", messages: true, horizon: "6"}, "0", {1: "rubinstein"});
  const conversation = page.locator(".play-game .play-messages");
  const before = {messages: await conversation.innerHTML(), status: await page.locator(".play-status").textContent()};
  const error = page.locator(".play-game .play-error");
  const refused: [Record<string, string>, string][] = [
    [{alice_gain: "-5", bob_gain: "105"}, "Alice gain must be a number between 0 and 100; -5 is not"],
    [{alice_gain: "ten", bob_gain: "90"}, 'Alice gain must be a number between 0 and 100, not "ten" (text where a number is due)'],
    [{alice_gain: "150", bob_gain: "0"}, "Alice gain must be a number between 0 and 100; 150 is not"],
    [{alice_gain: "70", bob_gain: "20"}, "Alice gain + Bob gain must add up to 100; they add up to 90"],
  ];
  for (const [values, message] of refused) {
    await move(page, values);
    assert.equal(await error.textContent(), message);
    // Nothing changed: the conversation and the round are as before.
    assert.deepEqual({messages: await conversation.innerHTML(), status: await page.locator(".play-status").textContent()}, before);
  }
  assert.match(before.status!, /^Round 1 /);
  await move(page, {alice_gain: "60", bob_gain: "40", message: hostile});
  assert.equal(await error.textContent(), "");
  assert.equal(await page.locator(".play-messages img").count(), 0, "no element was made from the message");
  assert.ok((await page.locator(".play-messages").textContent())!.includes(hostile), "the message shows as text");
  await screenshot(page, "play-bargaining");
  const moves = await playOut(page, (fields): Record<string, string> => (fields.includes("decision") ? {decision: "accept"} : {alice_gain: "50", bob_gain: "50"}));
  assert.ok(moves >= 1);
  const outcome = (await page.locator(".play-outcome").textContent())!;
  assert.match(outcome, /Game over/);
  assert.match(outcome, /alice \(you\)human/);
  const record = await download(page, "bargaining");
  assert.equal(record.format, "parley-play/1");
  assert.equal(record.spec.game, "glee/bargaining");
  assert.deepEqual(record.spec.seats, ["human", "rubinstein"]);
  assert.equal(record.moves[0].message, hostile);
  assert.equal(record.rows.turns[0].message, hostile);
  assert.equal(record.rows.row.alice_agent, "human");
  assert.deepEqual(dialogs, []);
  assert.deepEqual(problems, []);
  await closePage(page);
});

test("GLEE negotiation as the buyer, GLEE persuasion as the seller, a gamma-Bench game with four agents and a matrix game with talk, each to the end", async () => {
  const {page, problems, dialogs} = await visit(browser, server, "/play");
  await setUp(page, "glee/negotiation", {money: "100", horizon: "4"}, "1", {0: "split-difference"});
  // The buyer offers 80 and rejects every price: the game runs to its horizon.
  await playOut(page, (fields): Record<string, string> => (fields.includes("decision") ? {decision: "reject"} : {price: "80"}));
  assert.match((await page.locator(".play-outcome").textContent())!, /Ended by horizon after 4 rounds/);
  const negotiation = await download(page, "negotiation");
  assert.deepEqual(negotiation.spec.seats, ["split-difference", "human"]);
  assert.equal(negotiation.rows.row.bob_agent, "human");

  await page.reload();
  await page.waitForSelector("select[name=game]");
  await setUp(page, "glee/persuasion", {horizon: "3"}, "0", {1: "bayesian"});
  const told = (await page.locator(".play-messages").textContent())!;
  // GLEE's persuasion rules in the authors' words (eilamshapira/GLEE persuasion.py).
  assert.match(told, /You are Alice, a seller trying to sell products to Bob/);
  const rounds = await playOut(page, () => ({claim: "high"}));
  assert.equal(rounds, 3);
  const persuasion = await download(page, "persuasion");
  assert.equal(persuasion.moves.length, 3);

  await page.reload();
  await page.waitForSelector("select[name=game]");
  await setUp(page, "gamabench/guessing", {rounds: "3"}, "2", {0: "level-1", 1: "level-2", 3: "random", 4: "equilibrium"}, "5");
  // A guess above MAX is refused; the form's messages say what is due.
  await move(page, {amount: "101"});
  assert.equal(await page.locator(".play-game .play-error").textContent(), "Amount must be a whole number between 0 and 100; 101 is not");
  assert.equal(await playOut(page, () => ({amount: "33"})), 3);
  const guessing = await download(page, "guessing");
  assert.deepEqual(guessing.spec.seats, ["level-1", "level-2", "human", "random", "equilibrium"]);
  assert.deepEqual(guessing.rows.players.map((p: {agent: string}) => p.agent), guessing.spec.seats);

  // A matrix game of data/games/ (bundled at build time), with a round of talk before the choice.
  await page.reload();
  await page.waitForSelector("select[name=game]");
  await setUp(page, "gtllm/stag_hunt", {negotiation_rounds: "1"}, "0", {1: "equilibrium"});
  assert.match((await page.locator(".play-messages").textContent())!, /You are playing as Alice/);
  assert.equal(await playOut(page, (fields): Record<string, string> => (fields.includes("message") ? {message: "Let us hunt the stag."} : {choice: "choice_1"})), 2);
  const stag = await download(page, "stag-hunt");
  assert.deepEqual(stag.moves, [{type: "message", message: "Let us hunt the stag."}, {type: "choose", choice: "choice_1"}]);
  assert.deepEqual(dialogs, []);
  assert.deepEqual(problems, []);
  await closePage(page);
});

test("the downloaded records go through parley ingest human into the tables, and parley metrics reads them", async () => {
  assert.equal(records.length, 5, "the games above were played and downloaded");
  const out = join(downloads, "out");
  const r = await parley(["ingest", "human", ...records, "--out", out]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /human: records read: 5, games written: 5, .*problems: 0;/);
  const m = await parley(["metrics", out]);
  assert.equal(m.code, 0, m.stderr);
  const rows = m.stdout.trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(rows.map((x) => x.family).sort(), ["bargaining", "negotiation", "persuasion"]);
  const negotiation = rows.find((x) => x.family === "negotiation");
  assert.equal(negotiation.bob_agent, "human");
  assert.equal(negotiation.bob_self_gain, 0, "no deal within the horizon: nothing gained");
});
