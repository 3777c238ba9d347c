// The site with the keyboard alone (WCAG 2.1.1), and at 320 px wide (1.4.10): a game played on
// /play with Tab, Enter, Space, typing and the arrow keys only (no click, no fill, no
// selectOption), its moves announced in a live region; every input of an analysis page changed by
// keyboard; no page scrolls sideways at 320 px.
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import type {Browser, Page} from "playwright-core";
import type {StaticServer} from "../../loaders/site/serve.js";
import {closePage, openSite, settle, visit, type Site} from "./harness.js";

let site: Site;
let browser: Browser;
let server: StaticServer;

before(async () => {
  site = await openSite();
  ({browser, server} = site);
});

after(() => site?.close());

/** What has the focus, as a CSS-ish name (for messages). */
const focused = (page: Page) => page.evaluate(() => {
  const e = document.activeElement as HTMLElement | null;
  return e ? `${e.tagName.toLowerCase()}${(e as HTMLInputElement).name ? `[name=${(e as HTMLInputElement).name}]` : ""}${e.className ? `.${String(e.className).split(" ")[0]}` : ""}` : "none";
});

/** Presses Tab until the focused element matches `selector`; returns the presses it took. */
async function tabTo(page: Page, selector: string, max = 400): Promise<number> {
  for (let presses = 0; presses <= max; presses++) {
    if (await page.evaluate((s) => !!document.activeElement?.matches(s), selector)) return presses;
    await page.keyboard.press("Tab");
  }
  throw new Error(`${selector} was not reached by Tab in ${max} presses (focus on ${await focused(page)})`);
}

/** With a <select> focused, presses ArrowDown/ArrowUp until its value is `value`. */
async function arrowTo(page: Page, value: string): Promise<void> {
  const options = await page.evaluate(() => Array.from((document.activeElement as HTMLSelectElement).options, (o) => o.value));
  const target = options.indexOf(value);
  assert.ok(target >= 0, `option ${value} among ${options.join(", ")}`);
  for (let i = 0; i < options.length; i++) {
    const at = await page.evaluate(() => (document.activeElement as HTMLSelectElement).selectedIndex);
    if (at === target) return;
    await page.keyboard.press(at < target ? "ArrowDown" : "ArrowUp");
  }
  assert.fail(`could not reach ${value} with the arrow keys`);
}

test("a game on /play played with the keyboard alone, each new round announced and focused", async () => {
  const {page, problems, dialogs} = await visit(browser, server, "/play");
  await page.waitForSelector("select[name=game]");
  await tabTo(page, "select[name=game]");
  await arrowTo(page, "gtllm/stag_hunt");
  await settle(page, 200);
  await tabTo(page, "input[name=param-negotiation_rounds]");
  await page.keyboard.press("Control+A");
  await page.keyboard.type("1");
  await tabTo(page, "select[name=agent-1]");
  await arrowTo(page, "equilibrium");
  await tabTo(page, "button.play-start");
  await page.keyboard.press("Enter");
  await page.waitForSelector(".play-form");
  const announce = page.locator(".play-announce[aria-live=polite]");
  assert.match((await announce.textContent())!, /^Round 1 — you play/);

  let moves = 0;
  while (!(await page.locator(".play-outcome").count())) {
    assert.ok(moves++ < 6, "the game ends");
    const fields = await page.locator(".play-form [name^=field-]").evaluateAll((es) => es.map((e) => (e as HTMLInputElement).name));
    if (fields.includes("field-message")) {
      await tabTo(page, "[name=field-message]");
      await page.keyboard.type("Let us hunt the stag.");
    } else {
      await tabTo(page, "[name=field-choice]");
      await arrowTo(page, "choice_1");
    }
    await tabTo(page, "button.play-submit");
    await page.keyboard.press(moves % 2 ? "Enter" : "Space");
    await settle(page, 300);
    // (After the last move the form and its error line are gone: the outcome replaced them.)
    assert.equal((await page.locator(".play-game .play-error").allTextContents()).join(""), "", "the move was legal");
    // The focus moved on to what changed: the new round's status, or the outcome.
    assert.match(await focused(page), /^(p\.play-status|div\.play-outcome)$/);
  }
  assert.equal(moves, 2);
  assert.match((await announce.textContent())!, /^Game over\. Ended by /);
  // The record's link and the turns are reached by keyboard too.
  await tabTo(page, "a.play-download");
  await tabTo(page, ".play-game summary");
  await page.keyboard.press("Enter");
  assert.equal(await page.locator(".play-game details").getAttribute("open"), "");
  await closePage(page);
  assert.deepEqual(dialogs, []);
  assert.deepEqual(problems, []);
});

// The analysis page whose every input is changed: its form controls outside tables.
const ANALYSIS_PAGE = "/glee-bargaining";

test(`every input of ${ANALYSIS_PAGE} changes by keyboard, in the page's order`, async () => {
  const {page, problems} = await visit(browser, server, ANALYSIS_PAGE);
  const controls = "main input:not([type=hidden]):not(:disabled), main select:not(:disabled), main textarea:not(:disabled)";
  // Inputs inside a table (row selection) are tried once, on the first row.
  const list = () => page.locator(controls).evaluateAll((es) => es.filter((e) => !e.closest("tbody tr:not(:first-child)") && (e as HTMLElement).offsetParent !== null).map((e, i) => {
    e.setAttribute("data-kb", String(i));
    return {
      type: (e as HTMLInputElement).type, name: (e as HTMLInputElement).name || e.getAttribute("aria-label") || e.closest("label")?.textContent?.trim().slice(0, 40) || String(i),
      parameterFilter: e.closest(".parley-parameter-filters") !== null,
    };
  }));
  const inputs = await list();
  assert.ok(inputs.length >= 3, `the page has inputs (${inputs.length})`);
  const changed: string[] = [];
  // The games table has a filter per parameter that tells the shown pair's games apart: another dataset (the first input) may have fewer.
  const gone: string[] = [];
  for (let i = 0; i < inputs.length; i++) {
    const present = await list(); // the page may have redrawn: number its controls again
    const selector = `[data-kb="${i}"]`;
    if (!(await page.locator(selector).count())) {
      assert.ok(inputs[i].parameterFilter && i >= present.length, `${inputs[i].name} is gone, yet it is not a parameter's filter of the games table`);
      gone.push(inputs[i].name);
      continue;
    }
    const value = () => page.locator(selector).evaluate((e) => (e as HTMLInputElement).type === "checkbox" || (e as HTMLInputElement).type === "radio" ? String((e as HTMLInputElement).checked) : (e as HTMLInputElement).value);
    const before = await value();
    await tabTo(page, selector);
    const {type} = inputs[i];
    if (type === "checkbox") await page.keyboard.press("Space");
    else if (type === "radio") await page.keyboard.press("ArrowRight");
    else if (type === "range") await page.keyboard.press("ArrowRight");
    else if (type.startsWith("select")) await page.keyboard.press((await page.locator(selector).evaluate((s) => (s as HTMLSelectElement).selectedIndex < (s as HTMLSelectElement).options.length - 1)) ? "ArrowDown" : "ArrowUp");
    else {
      await page.keyboard.press("Control+A");
      await page.keyboard.type("1");
      await page.keyboard.press("Enter");
    }
    await settle(page, 300);
    const now = (await page.locator(selector).count()) ? await value() : "(redrawn)";
    if (now !== before) changed.push(inputs[i].name);
    else assert.fail(`${inputs[i].name} (${type}) did not change by keyboard (${before})`);
    // Filters (a search box, a tick) are put back by keyboard too, so that the inputs after them (a table's rows) are still there to change.
    if (now !== "(redrawn)" && (type === "checkbox" || type === "search" || type === "text")) {
      await tabTo(page, selector);
      if (type === "checkbox") await page.keyboard.press("Space");
      else {
        await page.keyboard.press("Control+A");
        await page.keyboard.press("Backspace");
        if (before) await page.keyboard.type(before);
        await page.keyboard.press("Enter");
      }
      await settle(page, 300);
      assert.equal(await value(), before, `${inputs[i].name} put back by keyboard`);
    }
  }
  assert.equal(changed.length + gone.length, inputs.length, changed.join(", "));
  assert.ok(changed.includes("δ_A"), `a parameter's filter changed by keyboard: ${changed.join(", ")}`);
  assert.deepEqual(await page.locator(".observablehq--error, .parley-error").allTextContents(), []);
  await closePage(page);
  assert.deepEqual(problems, []);
});

test("at 320 px wide, no page scrolls sideways (tables and charts scroll in their own box)", async () => {
  const context = await browser.newContext({viewport: {width: 320, height: 640}});
  try {
    const page = await context.newPage();
    const wide: string[] = [];
    for (const path of ["/", "/play", ANALYSIS_PAGE, "/glee-regression", "/econarena", "/negotiationarena-ultimatum", "/datasets", "/guide/tests"]) {
      await page.goto(server.url + path, {waitUntil: "load"});
      await settle(page, 300);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width > 320) wide.push(`${path}: ${width} px`);
    }
    assert.deepEqual(wide, []);
  } finally {
    await context.close();
  }
});
