/**
 * A participant of a `parley play` experiment in headless Chromium, against
 * an LLM on a loopback fake server: consent, the instructions' attention
 * check, a whole GLEE bargaining game through the play view's form (entries
 * the form refuses change nothing; the other player's `<img onerror>`
 * message is shown as text; a reload mid-game and a server killed and
 * restarted mid-game both come back to the same decision), the outcome,
 * the quiz and the completion code. The rows land in Parquet and `parley
 * metrics` reads them. Every response the page received is scanned for the
 * API key.
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {createServer} from "node:net";
import type {Page} from "playwright-core";
import {launch, screenshot} from "./harness.js";
import {parley, scratch} from "../support/cli.js";
import {experimentConfig, fakeModel, PLAY_KEY, startStudy, startStudyIn, XSS} from "../support/playStudy.js";
import {queryRun} from "../../loaders/io/parquet.js";

const {dir: tempDir, keep} = scratch("parley-play-browser-");

/** A port that was free a moment ago (the server restarts on the same one, so the page's address stays). */
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const {port} = s.address() as {port: number};
      s.close(() => resolve(port));
    });
  });

/** Fills the play form's fields by name (`field-<name>`) and plays the move. */
async function play(page: Page, fields: Record<string, string>, type?: string): Promise<void> {
  if (type && (await page.locator('select[name="action-type"]').count())) await page.selectOption('select[name="action-type"]', type);
  for (const [name, value] of Object.entries(fields)) {
    const field = page.locator(`[name="field-${name}"]`);
    if ((await field.evaluate((e) => e.tagName)) === "SELECT") await field.selectOption(value);
    else await field.fill(value);
  }
  await page.click("button.play-submit");
}

const messages = (page: Page) => page.locator(".play-message").allTextContents();

test("a participant plays GLEE bargaining against an LLM in the browser, through reload and server restart, to the completion code", async () => {
  const llm = await fakeModel();
  keep(llm);
  const port = String(await freePort());
  const study = await startStudyIn(tempDir(), experimentConfig(llm), ["--port", port]);
  const {file: config, out} = study;
  let server = study.server;

  const browser = await launch();
  const context = await browser.newContext({viewport: {width: 1100, height: 900}});
  const page = await context.newPage();
  const problems: string[] = [];
  const dialogs: string[] = [];
  const bodies: string[] = [];
  await context.route("**/*", (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === "127.0.0.1" || url.protocol === "blob:") return route.continue();
    problems.push(`request to a non-loopback host: ${url}`);
    return route.abort();
  });
  page.on("console", (m) => m.type() === "error" && problems.push(`console error: ${m.text()}`));
  page.on("pageerror", (e) => problems.push(`uncaught exception: ${e.message}`));
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on("response", (r) => {
    bodies.push(JSON.stringify(r.headers()));
    r.text().then((t) => bodies.push(t), () => {});
  });

  try {
    await page.goto(`${server.url}/p/new`);
    assert.match(new URL(page.url()).pathname, /^\/p\/[A-Za-z0-9_-]{22}$/);
    await page.click("text=I agree to take part");
    await page.waitForSelector("text=Type the word sdkot in the box below.");
    await page.fill('input[name="answer"]', "sdkot");
    await page.click("text=Start the game");

    // Round 1: Alice (the person) offers. Entries the form cannot take are refused with a message, nothing sent.
    await page.waitForSelector('[name="field-alice_gain"]');
    const shown = await messages(page);
    assert.ok(shown[0].startsWith("Rules"), shown[0]);
    for (const [alice, bob, why] of [["-100", "1100", /Alice gain must be/], ["ten", "990", /not "ten"/], ["1200", "-200", /must be/], ["600", "300", /add up to 1000/]] as const) {
      await play(page, {alice_gain: alice, bob_gain: bob});
      assert.match(await page.locator(".play-error").textContent() ?? "", why);
      assert.deepEqual(await messages(page), shown, "a refused entry changed the game");
    }
    await play(page, {alice_gain: "600", bob_gain: "400", message: "60/40?"});

    // Bob (the LLM) rejected and offers an even split, his message the XSS string: shown as text, never as HTML.
    await page.waitForSelector('[name="field-decision"]');
    const round2 = await messages(page);
    assert.ok(round2.some((m) => m.includes(XSS)), "the other player's message is shown literally");
    assert.equal(await page.locator(".play-messages img").count(), 0);
    await screenshot(page, "play-study-decision");

    // A reload mid-game comes back to the same decision.
    await page.reload();
    await page.waitForSelector('[name="field-decision"]');
    assert.deepEqual(await messages(page), round2);

    // The server is killed mid-game and started again (same --out, same port): the page carries on.
    server.child.kill("SIGKILL");
    await server.done;
    server = await startStudy(config, out, ["--port", port]);
    await page.reload();
    await page.waitForSelector('[name="field-decision"]');
    assert.deepEqual(await messages(page), round2);

    await play(page, {decision: "reject"});
    await page.waitForSelector('[name="field-alice_gain"]');
    await play(page, {alice_gain: "550", bob_gain: "450"});

    // The outcome (the play view's), then the quiz and the code.
    await page.waitForSelector(".play-outcome");
    assert.match(await page.locator(".play-outcome").textContent() ?? "", /Ended by agreement after 3 rounds/);
    await page.click("text=Continue to the last question");
    await page.check('input[name="q0"][value="1"]');
    await page.click("text=Submit");
    await page.waitForSelector(".parley-code");
    assert.equal(await page.locator(".parley-code").textContent(), "DONE-4821");
    await screenshot(page, "play-study-done");
  } finally {
    await browser.close();
  }
  assert.deepEqual(dialogs, []);
  assert.deepEqual(problems, []);
  for (const body of bodies) assert.ok(!body.includes(PLAY_KEY), "the API key reached the browser");

  const games = await queryRun(out, ["games"], "SELECT alice_agent, bob_agent, agreement, rounds, alice_gain FROM games");
  assert.deepEqual(games, [{alice_agent: "human", bob_agent: "fake", agreement: true, rounds: 3, alice_gain: 550}]);
  const metrics = await parley(["metrics", out]);
  assert.equal(metrics.code, 0, metrics.stderr);
  assert.equal(JSON.parse(metrics.stdout.trim()).alice_agent, "human");
  server.child.kill("SIGTERM");
  await server.done;
});

test("a participant who fails the attention check is told so; the admin page needs its token and shows the progress", async () => {
  const llm = await fakeModel();
  keep(llm);
  const {server} = await startStudyIn(tempDir(), experimentConfig(llm));
  const browser = await launch();
  try {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(e.message));
    await page.goto(`${server.url}/p/new`);
    await page.click("text=I agree to take part");
    await page.fill('input[name="answer"]', "I read everything");
    await page.click("text=Start the game");
    await page.waitForSelector(".parley-stopped");
    assert.match(await page.locator(".parley-stopped").textContent() ?? "", /did not pass the attention check/);
    assert.equal(await page.locator(".parley-code").count(), 0);
    // Coming back with the same link shows the same end.
    await page.reload();
    await page.waitForSelector(".parley-stopped");

    const denied = await page.goto(`${server.url}/admin`);
    assert.equal(denied?.status(), 401);
    await page.goto(server.admin);
    assert.equal(new URL(page.url()).search, "", "the token is dropped from the address bar once the cookie holds it");
    const row = await page.locator("tbody tr").first().locator("td").allTextContents();
    // condition, game, opponent, assigned, started, playing, finished, completed, excluded, declined
    assert.deepEqual(row.slice(0, 2).concat(row.slice(3)), ["alice", "glee/bargaining", "1", "1", "0", "0", "0", "1", "0"]);
    assert.equal(await page.locator('a[href="/admin/tables.tar"]').count(), 1);
    await screenshot(page, "play-study-admin");
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
  server.child.kill("SIGTERM");
  await server.done;
});
