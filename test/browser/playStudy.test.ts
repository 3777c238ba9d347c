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
import {readFileSync} from "node:fs";
import {createRequire} from "node:module";
import type {Page} from "playwright-core";
import {launch, screenshot} from "./harness.js";
import {parley, scratch} from "../support/cli.js";
import {ADMIN_TOKEN, call, experimentConfig, fakeModel, PLAY_KEY, startStudy, startStudyIn, threeGamesConfig, XSS} from "../support/playStudy.js";
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

/** Fills the play form's fields by name (`field-<name>`; a choice is a group of radio buttons) and plays the move. */
async function play(page: Page, fields: Record<string, string>, type?: string): Promise<void> {
  if (type && (await page.locator('input[name="action-type"]').count())) await page.check(`input[name="action-type"][value="${type}"]`);
  for (const [name, value] of Object.entries(fields)) {
    const field = page.locator(`[name="field-${name}"]`);
    if ((await field.first().getAttribute("type")) === "radio") await page.check(`[name="field-${name}"][value="${value}"]`);
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
  // Watched, not intercepted (interception turns the HTTP cache off); launch() blocks other hosts.
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.hostname !== "127.0.0.1" && url.protocol !== "blob:" && url.protocol !== "data:") problems.push(`request to a non-loopback host: ${url}`);
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
    for (const [alice, bob, why] of [["-100", "1100", /You get \(\$\) must be/], ["ten", "990", /not "ten"/], ["1200", "-200", /must be/], ["600", "300", /add up to 1000/]] as const) {
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
    assert.match(await page.locator(".play-outcome").textContent() ?? "", /You and Bob agreed in round 3: you get \$550 of \$1,000\./);
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
    // condition, game, opponent, assigned, started, playing, finished, completed, excluded, declined, the link to play it
    assert.deepEqual(row.slice(0, 2).concat(row.slice(3)), ["alice", "glee/bargaining", "1", "1", "0", "0", "0", "1", "0", "play it"]);
    assert.equal(await page.locator('a[href="/admin/tables.tar"]').count(), 1);
    await screenshot(page, "play-study-admin");
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
  server.child.kill("SIGTERM");
  await server.done;
});

/** Plays a move and waits for the game's answer: the next decision's form (a new one) or the outcome. */
async function playMove(page: Page, fields: Record<string, string>): Promise<void> {
  await page.locator(".play-form").evaluate((f) => f.setAttribute("data-answered", ""));
  await page.locator(".play-error").evaluate((e) => (e.textContent = ""));
  await play(page, fields);
  await page.waitForSelector(".play-form:not([data-answered]), .play-outcome, .play-error:not(:empty)");
  // The outcome view has no error line; a decision's view has an empty one.
  const error = page.locator(".play-error");
  if (await error.count()) assert.equal(await error.textContent(), "", `refused: ${JSON.stringify(fields)}`);
}

/** An entry refused (by the form or by the server): its message, and nothing changed on the page. */
async function refused(page: Page, fields: Record<string, string>): Promise<string> {
  const before = await messages(page);
  await page.locator(".play-error").evaluate((e) => (e.textContent = ""));
  await play(page, fields);
  await page.waitForSelector(".play-error:not(:empty)");
  assert.deepEqual(await messages(page), before, "a refused entry changed the game");
  return (await page.locator(".play-error").textContent())!;
}

/** The fields the current decision asks for. */
const asked = (page: Page) => page.locator(".play-form [name^=field-]").evaluateAll((es) => [...new Set(es.map((e) => (e as HTMLInputElement).name.slice("field-".length)))]);

test("one server, three conditions placed by the admin's links: negotiation, persuasion and gamma-Bench's guessing game played in the browser against the LLM, into metrics and gamma-Bench scores", async () => {
  const llm = await fakeModel();
  keep(llm);
  const {out, server} = await startStudyIn(tempDir(), threeGamesConfig(llm));
  const browser = await launch();
  const context = await browser.newContext({viewport: {width: 1100, height: 900}});
  const page = await context.newPage();
  const problems: string[] = [];
  const bodies: string[] = [];
  // Refusals are answers here (422 for the forged move, 401 for the admin link without the token): the statuses are checked where they happen.
  page.on("console", (m) => m.type() === "error" && !/status of (401|422)/.test(m.text()) && problems.push(`console error: ${m.text()}`));
  page.on("pageerror", (e) => problems.push(`uncaught exception: ${e.message}`));
  page.on("requestfinished", async (r) => {
    const status = (await r.response())?.status() ?? 0;
    if (status >= 400 && status !== 401 && status !== 422) problems.push(`${status} ${r.url()}`);
  });
  page.on("dialog", (d) => {
    problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  page.on("response", (r) => {
    bodies.push(JSON.stringify(r.headers()));
    r.text().then((t) => bodies.push(t), () => {});
  });
  /** A participant of `condition` (the admin's "play it" link), through consent and the attention check. */
  const join_ = async (condition: string) => {
    await page.goto(`${server.url}/admin/new?condition=${condition}`);
    assert.match(new URL(page.url()).pathname, /^\/p\/[A-Za-z0-9_-]{22}$/);
    await page.click("text=I agree to take part");
    await page.fill('input[name="answer"]', "sdkot");
    await page.click("text=Start the game");
    await page.waitForSelector(".play-form");
    return new URL(page.url()).pathname.slice("/p/".length);
  };
  const persuasionQualities: string[] = [];
  try {
    assert.equal((await page.goto(`${server.url}/admin/new?condition=negotiation`))?.status(), 401, "placing a participant needs the admin token");
    await page.goto(server.admin);
    await page.waitForSelector("a.parley-try");
    assert.deepEqual(await page.locator("a.parley-try").evaluateAll((as) => as.map((a) => a.getAttribute("href"))), ["/admin/new?condition=negotiation", "/admin/new?condition=persuasion", "/admin/new?condition=guessing"]);

    // Negotiation, the person as Bob (the buyer). Alice (the LLM) names a price first.
    await join_("negotiation");
    assert.match(await page.locator(".play-status").textContent() ?? "", /you are Bob/);
    assert.deepEqual(await asked(page), ["decision"]);
    await playMove(page, {decision: "reject"});
    // Round 2: Bob names a price; a negative one, and text, are refused and change nothing.
    assert.deepEqual((await asked(page)).filter((f) => f !== "message"), ["price"]);
    assert.match(await refused(page, {price: "-5"}), /Price \(\$\) must be/);
    assert.match(await refused(page, {price: "ninety"}), /not "ninety"/);
    await playMove(page, {price: "90", message: XSS});
    await page.waitForSelector(".play-outcome");
    assert.match(await page.locator(".play-outcome").textContent() ?? "", /You and Alice agreed on a price of \$90 in round 2\./);
    assert.equal(await page.locator("img").count(), 0);

    // Persuasion, the person as Alice (the seller): three rounds of "high", reloaded after the first.
    const persuader = await join_("persuasion");
    // An entry the form cannot offer, sent by hand: the server refuses it and nothing changes.
    const forged = await page.evaluate(async (id) => {
      const r = await fetch(`/api/p/${id}/move`, {method: "POST", headers: {"content-type": "application/json"}, body: JSON.stringify({action: {type: "claim", claim: "medium"}})});
      return {status: r.status, body: await r.json()};
    }, persuader);
    assert.equal(forged.status, 422);
    assert.match(forged.body.error, /claim/);
    for (let round = 1; round <= 3; round++) {
      const told = (await messages(page)).join("\n");
      const quality = [...told.matchAll(/\b(high|low)[- ]quality\b/gi)].pop()?.[1]?.toLowerCase();
      assert.ok(quality, `round ${round}: the seller is told the quality`);
      persuasionQualities.push(quality);
      await playMove(page, {claim: "high"});
      if (round === 1) {
        await page.reload();
        await page.waitForSelector(".play-form");
        assert.match(await page.locator(".play-situation").first().textContent() ?? "", /^Round 2 of 3\./);
      }
    }
    await page.waitForSelector(".play-outcome");

    // gamma-Bench's Guess 2/3 of the Average, the person in seat 0 of 4: illegal guesses refused, then 30 and 20.
    await join_("guessing");
    assert.match((await messages(page))[0], /Each player selects an integer number between 0 and 100/);
    assert.match(await refused(page, {amount: "-5"}), /Amount must be a whole number between 0 and 100; -5 is not/);
    assert.match(await refused(page, {amount: "abc"}), /not "abc"/);
    assert.match(await refused(page, {amount: "101"}), /101 is not/);
    assert.match(await refused(page, {amount: "33.5"}), /whole number/);
    await playMove(page, {amount: "30"});
    const round2 = (await messages(page)).join("\n");
    assert.match(round2, /Average Number Chosen: 27\.5/, "(30 + 40 + 40 + 0) / 4");
    await playMove(page, {amount: "20"});
    await page.waitForSelector(".play-outcome");
    assert.match(await page.locator(".play-outcome").textContent() ?? "", /The game is over after 2 rounds\./);
    await screenshot(page, "play-study-guessing");
  } finally {
    await browser.close();
  }
  assert.deepEqual(problems, []);
  for (const body of bodies) assert.ok(!body.includes(PLAY_KEY), "the API key reached the browser");

  // GLEE: `parley metrics` over the tables, against the paper's formulas (GLEE (Shapira et al. 2024) §2.2, §2.3) by hand.
  const metrics = await parley(["metrics", out]);
  assert.equal(metrics.code, 0, metrics.stderr);
  const rows = metrics.stdout.trim().split("\n").map((l) => JSON.parse(l));
  const negotiation = rows.find((r) => r.family === "negotiation");
  // V_A = 0.8 · 100 = 80, V_B = 1.2 · 100 = 120, a deal at p = 90: efficient (80 ≤ 90 ≤ 120); fairness 1 − 4((90 − 100)/100)²;
  // Alice gains (90 − 80)/100, Bob (120 − 90)/100.
  assert.deepEqual([negotiation.alice_agent, negotiation.bob_agent, negotiation.efficiency], ["fake", "human", 1]);
  for (const [got, want] of [[negotiation.fairness, 0.96], [negotiation.alice_self_gain, 0.1], [negotiation.bob_self_gain, 0.3]]) assert.ok(Math.abs(got - want) < 1e-9, `${got} vs ${want}`);
  const persuasion = rows.find((r) => r.family === "persuasion");
  assert.deepEqual([persuasion.alice_agent, persuasion.bob_agent], ["human", "fake"]);
  // The buyer (the fake model) declines in round 1 and buys in rounds 2 and 3: s = 2 sales of T = 3; k = the high-quality ones among them.
  const k = persuasionQualities.slice(1).filter((q) => q === "high").length;
  const n = persuasionQualities.filter((q) => q === "high").length;
  assert.ok(Math.abs(persuasion.alice_self_gain - 2 / 3) < 1e-9, String(persuasion.alice_self_gain));
  assert.ok(Math.abs(persuasion.bob_self_gain - (k * (1.25 - 1) - (2 - k)) / 3) < 1e-9, `${persuasion.bob_self_gain} with k = ${k}`);
  if (n > 0) assert.ok(Math.abs(persuasion.efficiency - k / n) < 1e-9, String(persuasion.efficiency));
  // What the seller was shown each round agrees with the qualities the game drew.
  const [drawn] = await queryRun(out, ["games"], "SELECT n_high, k_high_bought, sales FROM games WHERE game = 'glee/persuasion'");
  assert.deepEqual(drawn, {n_high: n, k_high_bought: k, sales: 2}, persuasionQualities.join(","));

  // gamma-Bench S1 (Huang et al. 2024 §3.1): the mean guess over players and rounds, (30 + 40 + 40 + 0 + 20 + 40 + 40 + 0) / 8 = 26.25, scored (100 − 26.25) / 100 · 100.
  const scores = await parley(["gamabench-scores", out, "--runs"]);
  assert.equal(scores.code, 0, scores.stderr);
  const [guessing] = JSON.parse(scores.stdout);
  assert.equal(guessing.model, "human+fake+fake+equilibrium");
  assert.equal(guessing.raw, 26.25);
  assert.equal(guessing.score, 73.75);
  const players = await queryRun(out, ["players"], "SELECT seat, agent FROM players WHERE game_id LIKE 'gamabench%' ORDER BY seat");
  assert.deepEqual(players.map((p) => p.agent), ["human", "fake", "fake", "equilibrium"]);
  server.child.kill("SIGTERM");
  await server.done;
});

/** axe-core's WCAG 2.1 AA violations on the page (injected through the debugger protocol, which the page's content security policy does not govern). */
async function accessibilityProblems(page: Page): Promise<string[]> {
  const source = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  await page.evaluate(source);
  return page.evaluate(async () => {
    const result = await (window as any).axe.run(document, {runOnly: ["wcag2a", "wcag2aa", "wcag21aa"]});
    return result.violations.map((v: any) => `${v.id}: ${v.nodes.map((n: any) => n.target).join(" ")}`);
  });
}

test("a participant at 1280 and at 390 px wide: waiting state with the controls disabled while a slow model answers, nothing preselected, a double click one move, the question in view, the same participant on a reopened link, the panel id kept, the code surviving a reload", async () => {
  const llm = await fakeModel({delayMs: 700});
  keep(llm);
  const {server} = await startStudyIn(tempDir(), {...experimentConfig(llm), panel: "prolific", quiz_failure: "paid"});
  const browser = await launch();
  const problems: string[] = [];
  try {
    for (const width of [1280, 390]) {
      const height = width > 500 ? 900 : 844;
      const context = await browser.newContext({viewport: {width, height}});
      const page = await context.newPage();
      page.on("pageerror", (e) => problems.push(`${width}: uncaught exception: ${e.message}`));
      page.on("console", (m) => m.type() === "error" && !/status of 400/.test(m.text()) && problems.push(`${width}: console error: ${m.text()}`));
      const moves: string[] = [];
      page.on("request", (r) => r.method() === "POST" && r.url().endsWith("/move") && moves.push(r.postData() ?? ""));
      /** The current question's box lies within the window, and every control in it is at least 44 px tall. */
      const inView = async (what: string) => {
        const box = (await page.locator(".play-current").boundingBox())!;
        assert.ok(box.y >= -1 && box.y < height - 100, `${width}: ${what}: the current question starts at ${box.y}, outside the ${height} px window`);
        const heights = await page.locator(".play-current button, .play-current input:not([type=radio]), .play-current textarea, .play-current label.play-option").evaluateAll((es) => es.map((e) => e.getBoundingClientRect().height));
        assert.ok(heights.length && heights.every((h) => h >= 44), `${width}: ${what}: controls ${heights.join(", ")} px tall`);
        assert.equal(await page.locator("input:checked, option:checked:not([value=''])").count(), 0, `${width}: ${what}: nothing is chosen in advance`);
      };

      await page.goto(`${server.url}/p/new?PROLIFIC_PID=pid-${width}&STUDY_ID=study-1&SESSION_ID=session-${width}`);
      const mine = new URL(page.url()).pathname;
      await page.waitForSelector("text=I agree to take part");
      assert.match(await page.locator(".parley-consent-note").textContent() ?? "", /If your answer is wrong you still receive your completion code/);
      if (width === 390) assert.deepEqual(await accessibilityProblems(page), [], "consent");
      // Declining is asked once more; going back keeps the study open.
      await page.click("text=I do not agree");
      await page.waitForSelector("text=Are you sure you do not want to take part?");
      await page.click("text=Go back");
      await page.click("text=I agree to take part");
      // An empty code word is asked again, not failed.
      await page.click("text=Start the game");
      await page.waitForSelector("text=Please type the code word the instructions ask for.");
      await page.fill('input[name="answer"]', "sdkot");
      await page.click("text=Start the game");

      // Round 1: the person (Alice) offers; a double click sends one move, and the slow model's answer is waited for visibly.
      await page.waitForSelector('[name="field-alice_gain"]');
      await inView("round 1");
      await page.fill('[name="field-alice_gain"]', "600");
      await page.fill('[name="field-bob_gain"]', "400");
      await page.dblclick("button.play-submit");
      await page.waitForSelector(".play-waiting:not(:empty)");
      assert.match(await page.locator(".play-waiting").textContent() ?? "", /Waiting for Bob/);
      assert.equal(await page.locator("fieldset.play-controls:disabled").count(), 1, "the controls are disabled while the other player answers");
      await page.waitForSelector('[name="field-decision"]', {timeout: 20_000});
      assert.equal(moves.length, 1, `${width}: a double click sent ${moves.length} moves`);
      await inView("round 2");
      if (width === 390) assert.deepEqual(await accessibilityProblems(page), [], "a decision");
      assert.match((await page.locator(".play-situation").allTextContents()).join(" "), /Bob offers: you get \$500, Bob gets \$500/);

      // A reopened link (no id, or the same panel id) comes back to the same participant, at the same question.
      await page.goto(`${server.url}/p/new`);
      assert.equal(new URL(page.url()).pathname, mine);
      await page.goto(`${server.url}/p/new?PROLIFIC_PID=pid-${width}`);
      assert.equal(new URL(page.url()).pathname, mine);
      await page.waitForSelector('[name="field-decision"]');
      assert.equal(await page.locator("input:checked").count(), 0, "accept is not preselected");

      if (width === 1280) {
        // The same move sent twice at once with one token (a resent request): both answered, played once.
        const id = mine.slice("/p/".length);
        const statuses = await page.evaluate(async (id) => {
          const body = JSON.stringify({action: {type: "decision", decision: "reject"}, after: 1, token: "same-token-1234"});
          const answers = await Promise.all([0, 1].map(() => fetch(`/api/p/${id}/move`, {method: "POST", headers: {"content-type": "application/json"}, body})));
          return answers.map((r) => r.status);
        }, id);
        assert.deepEqual(statuses, [200, 200]);
        const state = await page.evaluate(async (id) => (await fetch(`/api/p/${id}`)).json(), id);
        assert.equal(state.game.moves, 2, "the move sent twice was played once");
        await page.reload();
        await page.waitForSelector('[name="field-alice_gain"]');
        await play(page, {alice_gain: "550", bob_gain: "450"});
      } else {
        await play(page, {decision: "accept"});
      }
      await page.waitForSelector(".play-outcome", {timeout: 20_000});
      await page.click("text=Continue to the last question");
      assert.equal(await page.locator("input:checked").count(), 0, "no quiz answer is preselected");
      // At 390 px the quiz is answered wrongly: with quiz_failure "paid" the code comes all the same (the game marked excluded).
      await page.check(`input[name="q0"][value="${width === 1280 ? 1 : 0}"]`);
      await page.click("text=Submit");
      await page.waitForSelector(".parley-code");
      if (width === 390) assert.match(await page.locator(".parley-note").textContent() ?? "", /not correct; you receive your completion code all the same/);
      const end = async () => {
        assert.equal(await page.locator(".parley-code").textContent(), "DONE-4821");
        assert.equal(await page.locator("button.parley-copy").count(), 1);
        assert.equal(await page.locator("a.parley-return").getAttribute("href"), "https://app.prolific.com/submissions/complete?cc=DONE-4821");
        assert.match(await page.locator(".play-outcome").textContent() ?? "", /You and Bob agreed in round (2|3): you get \$(500|550) of \$1,000/);
      };
      await end();
      if (width === 390) assert.deepEqual(await accessibilityProblems(page), [], "the end");
      await page.reload();
      await page.waitForSelector(".parley-code");
      await end();
      await context.close();
    }
    // The admin page lists the participants and refreshes itself: a newcomer appears at the next refresh (the clock run forward).
    const admin = await browser.newPage();
    await admin.clock.install();
    await admin.goto(server.admin);
    const rows = admin.locator(".parley-participants tbody tr");
    assert.equal(await rows.count(), 2);
    assert.match((await rows.allTextContents()).join("\n"), /pid-390/);
    assert.equal((await call(`${server.url}/p/new`)).status, 303);
    await admin.clock.runFor(5000);
    await admin.waitForFunction(() => document.querySelectorAll(".parley-participants tbody tr").length === 3);
  } finally {
    await browser.close();
  }
  assert.deepEqual(problems, []);
  // The panel's ids are kept with the participants (payments are matched on them).
  const csv = await call(`${server.url}/admin/csv/participants.csv`, {headers: {authorization: `Bearer ${ADMIN_TOKEN}`}});
  assert.equal(csv.status, 200);
  const [head, ...lines] = csv.body.trim().split("\r\n").map((l) => l.split(","));
  const col = (name: string) => head.indexOf(name);
  assert.deepEqual(lines.map((l) => [l[col("panel_id")], l[col("step")], l[col("completion_code")], l[col("excluded")], l[col("exclusion_reason")]]).sort(), [
    ["", "consent", "", "false", ""], ["pid-1280", "done", "DONE-4821", "false", ""], ["pid-390", "done", "DONE-4821", "true", "quiz"],
  ]);
  // The admin page lists them; one participant's page shows their game's turns in words.
  const auth = {authorization: `Bearer ${ADMIN_TOKEN}`};
  const live = await call(`${server.url}/admin/live`, {headers: auth});
  assert.match(live.body, /<td>pid-1280<\/td>/);
  const first = lines.find((l) => l[col("panel_id")] === "pid-1280")!;
  const game = await call(`${server.url}/admin/p/${first[col("participant_id")]}`, {headers: auth});
  assert.match(game.body, /offer, alice_gain: 550, bob_gain: 450/);
  assert.equal((await call(`${server.url}/admin/p/${first[col("participant_id")]}`)).status, 401);
  server.child.kill("SIGTERM");
  await server.done;
});
