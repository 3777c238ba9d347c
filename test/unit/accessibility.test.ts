/**
 * What makes pages accessible without a browser: the HTML Framework emits,
 * rewritten (loaders/site/accessibleHtml.ts), and the sentence that
 * describes a chart from its values (src/lib/chartSummary.ts).
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {accessibleHtml, ACCESSIBILITY_SCRIPT} from "../../loaders/site/accessibleHtml.js";
import {describeChart, formatValue, measureOf} from "../../src/lib/chartSummary.js";

// The parts of a page Framework 1.13.4 writes that the rewrite touches (from its render.js), and a code block.
const FRAMEWORK_PAGE = `<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, maximum-scale=1">
</head>
<body>
<input id="observablehq-sidebar-toggle" type="checkbox" title="Toggle sidebar">
<label id="observablehq-sidebar-backdrop" for="observablehq-sidebar-toggle"></label>
<nav id="observablehq-sidebar">
  <ol>
    <label id="observablehq-sidebar-close" for="observablehq-sidebar-toggle"></label>
    <li class="observablehq-link"><a href="./">Parley</a></li>
  </ol>
</nav>
<main><pre data-language="sh"><code>npx parley build</code></pre><p>a <preview> word</p></main>
</body>
</html>`;

test("the rewrite sets the language, lets phones zoom, names the sidebar toggle, takes the close label out of the list and lets code blocks take the focus", () => {
  const html = accessibleHtml(FRAMEWORK_PAGE);
  assert.match(html, /^<!DOCTYPE html>\n<html lang="en">\n/);
  assert.match(html, /<meta name="viewport" content="width=device-width, initial-scale=1">/);
  assert.match(html, /<input id="observablehq-sidebar-toggle" aria-label="Show or hide the navigation" type="checkbox" title="Toggle sidebar">/);
  assert.match(html, /<nav id="observablehq-sidebar">\n {2}<label id="observablehq-sidebar-close" for="observablehq-sidebar-toggle"><\/label>\n {4}<ol>\n {4}<li/);
  assert.match(html, /<pre tabindex="0" data-language="sh">/);
  assert.match(html, /<preview>/, "an element whose name begins with pre is left alone");
  // Once is enough: a page rewritten twice is the same.
  assert.equal(accessibleHtml(html), html);
  // A page that already says its language keeps it.
  assert.match(accessibleHtml('<html lang="fr">'), /^<html lang="fr">$/);
});

test("the head script is one inline script, and plain JavaScript that parses", () => {
  assert.match(ACCESSIBILITY_SCRIPT, /^<script>[\s\S]*<\/script>$/);
  assert.equal(ACCESSIBILITY_SCRIPT.match(/<\/script>/g)!.length, 1);
  assert.doesNotThrow(() => new Function(ACCESSIBILITY_SCRIPT.slice("<script>".length, -"</script>".length)));
});

test("a chart's sentence names what is measured, by what, and where its lowest and highest values are", () => {
  const columns = [
    {channel: "x", label: "Round", values: [1, 2, 3, 4]},
    {channel: "y", label: "Offer (share)", values: [0.5, 0.4123456, 0.9, 0.6]},
    {channel: "stroke", label: "Agent", values: ["fair", "greedy", "greedy", "fair"]},
  ];
  assert.equal(measureOf(columns)?.label, "Offer (share)");
  assert.equal(
    describeChart("Offers by round", columns),
    "Offers by round: Offer (share) by Round and Agent, 4 values, from 0.4123 (Round 2, Agent greedy) to 0.9 (Round 3, Agent greedy).",
  );
  // Horizontal bars: the numbers are on x.
  assert.equal(
    describeChart("Games per agent.", [{channel: "y", label: "agent", values: ["a", "b"]}, {channel: "x", label: "games", values: [3, 12]}]),
    "Games per agent: games by agent, 2 values, from 3 (agent a) to 12 (agent b).",
  );
  // A histogram's bars: the count is y2, their baseline y1 (labelled the same) is not where a value is.
  assert.equal(
    describeChart("Efficiency", [{channel: "x1", label: "efficiency", values: [0, 0.5]}, {channel: "y1", label: "games", values: [0, 0]}, {channel: "y2", label: "games", values: [7, 2]}]),
    "Efficiency: games by efficiency, 2 values, from 2 (efficiency 0.5) to 7 (efficiency 0).",
  );
  assert.equal(describeChart("One", [{channel: "y", label: "rate", values: [0.25]}]), "One: rate, 1 value: 0.25.");
  assert.equal(describeChart("Names", [{channel: "text", label: "name", values: ["a", "b"]}]), "Names: name, 2 values.");
  assert.equal(describeChart("Empty", []), "Empty: no values to show.");
  assert.equal(formatValue(new Date("2024-05-01T00:00:00Z")), "2024-05-01");
  assert.equal(formatValue(1234.5678), "1235");
  assert.equal(formatValue(null), "none");
});
