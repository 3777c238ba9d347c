// The pages of the ingested benchmarks in headless Chromium: the gamma-Bench
// leaderboard reproduces Table 5's first run, and NegotiationArena transcripts
// show a hostile message as literal text with the hidden reasoning folded apart.
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {existsSync} from "node:fs";
import {join} from "node:path";
import type {Browser} from "playwright-core";
import type {StaticServer} from "../../loaders/site/serve.js";
import {datasetsConfig} from "../../loaders/projectConfig.js";
import {HOSTILE_ARENA} from "../support/fixtureSite.js";
import {closePage, openSite, screenshot, visit, type Site} from "./harness.js";

const {message: hostile, secret} = HOSTILE_ARENA;
const source = datasetsConfig().dir;
const hasGamabench = !!source && existsSync(join(source, "gamabench"));
let site: Site;
let browser: Browser;
let server: StaticServer;

before(async () => {
  // The fixture site: NegotiationArena's real runs plus one buy/sell game with a hostile message and hidden reasoning.
  site = await openSite();
  ({browser, server} = site);
});

after(() => site?.close());

test("NegotiationArena: a hostile public message is literal text; the hidden reasoning sits in its own fold", async () => {
  const {page, problems, dialogs} = await visit(browser, server, "/negotiationarena-buy-sell");
  await screenshot(page, "negotiationarena-hostile");
  const transcript = page.locator(".parley-transcript");
  assert.equal(await transcript.locator("img, b").count(), 0, "no element was created from agent text");
  const publicText = (await transcript.locator(".parley-turn > .parley-text").allTextContents()).join("\n");
  assert.ok(publicText.includes(hostile), "the message shows as text");
  assert.ok(!publicText.includes("do not tell"), "the hidden reasoning is not in the public text");
  const folds = transcript.locator("details");
  assert.equal(await folds.count(), 2);
  assert.ok((await folds.nth(1).textContent())!.includes(secret), "the reasoning is in the fold, as text");
  await closePage(page);
  assert.deepEqual(dialogs, []);
  assert.deepEqual(problems, []);
});

test("gamma-Bench: the leaderboard lists the paper's twelve models beside Parley's strategies, and Table 5 shows GPT-3.5 (0125)'s first run", {skip: hasGamabench ? false : "gamma-Bench raw results not configured"}, async () => {
  const {page, problems} = await visit(browser, server, "/gamabench");
  await page.locator("table.parley-scores").nth(1).waitFor({timeout: 60_000});
  await screenshot(page, "gamabench-leaderboard");
  const leaderboard = page.locator("table.parley-scores").first();
  const header = await leaderboard.locator("thead th").allTextContents();
  const paper = ["GPT-3.5 (0613)", "GPT-3.5 (1106)", "GPT-3.5 (0125)", "GPT-4 (0125)", "Gemini-Pro 1.0", "Gemini-Pro 1.5", "LLaMA-3.1 8B", "LLaMA-3.1 70B", "LLaMA-3.1 405B", "Mixtral 8x7B", "Mixtral 8x22B", "Qwen-2 72B"];
  assert.deepEqual(header.slice(1, 13), paper, header.join(" | "));
  // Parley's run of data/runs/gamabench.json stands beside them: equilibrium play scores 100 in the guessing game.
  const eq = header.indexOf("equilibrium");
  assert.ok(eq > 12, header.join(" | "));
  const guess = (await leaderboard.locator("tbody tr").first().locator("th, td").allTextContents());
  assert.match(guess[0], /Guess 2\/3/);
  assert.match(guess[eq], /^100\.0/);
  const table5 = page.locator("table.parley-scores").nth(1);
  const rows = Object.fromEntries(
    await Promise.all(
      (await table5.locator("tbody tr").all()).map(async (r) => {
        const cells = await r.locator("th, td").allTextContents();
        return [cells[0], cells.slice(1)];
      }),
    ),
  );
  assert.equal(rows["Guess 2/3 of the Average"][0], "65.4");
  assert.equal(rows["El Farol Bar"][0], "73.3");
  assert.equal(rows["Overall"][0], "44.9");
  assert.equal(rows["Overall"][5], "43.5 ± 2.1", "the paper prints 2.2; the sample SD of the five overall scores is 2.149…");
  await closePage(page);
  assert.deepEqual(problems, []);
});
