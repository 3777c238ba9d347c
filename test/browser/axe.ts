/**
 * axe-core (the accessibility engine, node_modules/axe-core) run inside a page
 * the browser tests already opened: the WCAG 2.1 A and AA rules, and what
 * they found, one line per node.
 */
import {readFileSync} from "node:fs";
import {createRequire} from "node:module";
import type {Page} from "playwright-core";

const require = createRequire(import.meta.url);
let source: string | undefined;
const axeSource = () => (source ??= readFileSync(require.resolve("axe-core/axe.min.js"), "utf8"));

/** The rules run: WCAG 2.0 and 2.1, levels A and AA. */
export const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

export interface AxeViolation {
  rule: string;
  impact: "critical" | "serious" | "moderate" | "minor" | null;
  help: string;
  /** Each node's CSS selector and the reason axe gives. */
  nodes: {target: string; summary: string}[];
}

/** The site's navigation, the same on every page: a walk checks it on its first page (a sixth of axe's time on the others). */
export const SIDEBAR = "#observablehq-sidebar";

/** axe's violations on the page as it is now, leaving out the elements `exclude` selects (axe is added to the page once). */
export async function axeViolations(page: Page, {exclude = []}: {exclude?: string[]} = {}): Promise<AxeViolation[]> {
  if (!(await page.evaluate("typeof globalThis.axe === 'object'"))) await page.addScriptTag({content: axeSource()});
  const context = exclude.length ? JSON.stringify({exclude: exclude.map((s) => [s])}) : "document";
  // A string, not a function: tsx's transform would add helpers that do not exist in the page.
  // First without the nodes' CSS selectors (a third of axe's time on a large page); only a page with violations is checked again to name them.
  const clean = await page.evaluate(`(async () => (await axe.run(${context}, {runOnly: {type: "tag", values: ${JSON.stringify(WCAG_TAGS)}}, resultTypes: ["violations"], selectors: false})).violations.length === 0)()`);
  if (clean) return [];
  const found = (await page.evaluate(`(async () => {
    const r = await axe.run(${context}, {runOnly: {type: "tag", values: ${JSON.stringify(WCAG_TAGS)}}, resultTypes: ["violations"]});
    return r.violations.map((v) => ({rule: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.map((n) => ({target: n.target.join(" "), summary: (n.failureSummary || "").replace(/\\s+/g, " ").slice(0, 300)}))}));
  })()`)) as AxeViolation[];
  return found;
}

/** The critical and serious violations as lines naming the page, the rule and each node. */
export function severe(path: string, violations: AxeViolation[]): string[] {
  return violations
    .filter((v) => v.impact === "critical" || v.impact === "serious")
    .flatMap((v) => v.nodes.map((n) => `${path}: ${v.rule} (${v.impact}) at ${n.target}: ${n.summary}`));
}
