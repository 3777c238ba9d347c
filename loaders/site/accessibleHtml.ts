/**
 * What Observable Framework (1.13.4) emits that WCAG 2.1 AA does not allow,
 * and has no option for, put right: in the built pages' HTML after `parley
 * build` and `parley report` (accessibleHtml, makeSiteAccessible), and in the
 * browser for pages `parley dev` serves and for what pages draw
 * (ACCESSIBILITY_SCRIPT, in every page's head through observablehq.config.ts).
 *
 * - `<html>` has no `lang` (WCAG 3.1.1): English, the language of the site.
 * - The viewport tag says `maximum-scale=1`, which stops zooming on phones (1.4.4).
 * - The sidebar toggle, a checkbox, is named by a `title` only (4.1.2).
 * - The sidebar's close control, a `<label>`, sits directly in an `<ol>` (1.3.1).
 * - Plot puts `aria-label` on `<g>` elements that have no role (4.1.2): the
 *   chart's `<svg>` becomes one image (role="img", named by its title, or by
 *   its figure's caption), whose parts are hidden from assistive technology
 *   (the figure's text description and data table speak for them; src/components/figure.ts).
 * - Code blocks (`<pre>`) scroll sideways but cannot be focused (2.1.1): they take the focus.
 * - A wide table pushes the page sideways at 320 px (1.4.10): each table scrolls
 *   in a box of its own, which takes the focus.
 * - Inputs.table scrolls in a `<form>` that cannot be focused (2.1.1), and its
 *   selection checkboxes and radios have no label (1.3.1, 4.1.2); Inputs.range's
 *   slider has none either (its label names the number box beside it).
 */
import {readdirSync, readFileSync, statSync, writeFileSync} from "node:fs";
import {join} from "node:path";

/** The language of every page. */
export const SITE_LANG = "en";

/** `html` (one page Framework emitted) with the fixes above that can be made in the markup. */
export function accessibleHtml(html: string): string {
  return html
    .replace(/<html(?![^>]*\blang=)([^>]*)>/, `<html lang="${SITE_LANG}"$1>`)
    .replace(/(<meta name="viewport" content="[^"]*?),\s*maximum-scale=[0-9.]+/, "$1")
    .replace(/<input id="observablehq-sidebar-toggle"(?![^>]*aria-label)/, '<input id="observablehq-sidebar-toggle" aria-label="Show or hide the navigation"')
    .replace(/<ol>(\s*)(<label id="observablehq-sidebar-close"[^>]*><\/label>)/, "$2$1<ol>")
    .replace(/<pre(?![^>]*\btabindex=)(?=[\s>])/g, '<pre tabindex="0"');
}

/** Rewrites every .html file under `dir` (a built site) with accessibleHtml; returns how many changed. */
export function makeSiteAccessible(dir: string): number {
  let changed = 0;
  const walk = (path: string) => {
    for (const name of readdirSync(path)) {
      const file = join(path, name);
      if (statSync(file).isDirectory()) walk(file);
      else if (name.endsWith(".html")) {
        const before = readFileSync(file, "utf8");
        const after = accessibleHtml(before);
        if (after !== before) writeFileSync(file, after), changed++;
      }
    }
  };
  walk(dir);
  return changed;
}

/**
 * In every page's head: the same fixes for pages Framework's preview serves
 * (`parley dev`), and, as pages draw, Plot's charts made images with a name
 * and Inputs.table's scroll area and selection inputs labelled. Plain
 * JavaScript in a string (it is inlined into the HTML).
 */
export const ACCESSIBILITY_SCRIPT = `<script>(() => {
  const d = document, root = d.documentElement;
  if (!root.lang) root.lang = ${JSON.stringify(SITE_LANG)};
  const viewport = d.querySelector('meta[name="viewport"]');
  if (viewport) viewport.content = viewport.content.replace(/,\\s*maximum-scale=[0-9.]+/, "");
  const text = (el) => (el ? el.textContent.replace(/\\s+/g, " ").trim() : "");
  const axes = (svg) => {
    const labels = Array.from(svg.querySelectorAll('g[aria-label$="axis label"]'), text).filter(Boolean);
    return labels.length ? ": " + labels.join(" and ") : "";
  };
  const fix = () => {
    const toggle = d.getElementById("observablehq-sidebar-toggle");
    if (toggle && !toggle.hasAttribute("aria-label")) toggle.setAttribute("aria-label", "Show or hide the navigation");
    const close = d.getElementById("observablehq-sidebar-close");
    if (close && close.parentElement && close.parentElement.tagName === "OL") close.parentElement.before(close);
    for (const pre of d.querySelectorAll("pre:not([tabindex])")) pre.tabIndex = 0;
    for (const svg of d.querySelectorAll("svg[class^='plot']:not([role])")) {
      const figure = svg.closest("figure");
      const legend = /-ramp\b/.test(svg.getAttribute("class"));
      const name = svg.getAttribute("aria-label") || (legend ? "Colour legend: " + (text(svg.querySelector("text.label, text:last-of-type")) || "scale") : text(figure && figure.querySelector("h2, figcaption")) || "Chart" + axes(svg));
      svg.setAttribute("role", "img");
      svg.setAttribute("aria-label", name);
      for (const g of svg.querySelectorAll("[aria-label]")) g.setAttribute("aria-hidden", "true");
    }
    for (const form of d.querySelectorAll("form[class$='-table']:not([tabindex])")) {
      form.tabIndex = 0;
      form.setAttribute("role", "region");
      if (!form.hasAttribute("aria-label")) form.setAttribute("aria-label", "Table, scrollable");
    }
    // A table wider than the column scrolls in a box of its own (not the page: WCAG 1.4.10), which takes the focus (2.1.1).
    for (const table of d.querySelectorAll("#observablehq-main table")) {
      if (table.parentElement.closest(".parley-scroll, form[class$='-table'], .parley-figure-data")) continue;
      const box = d.createElement("div");
      box.className = "parley-scroll";
      box.tabIndex = 0;
      box.setAttribute("role", "region");
      const caption = text(table.caption) || Array.from(table.querySelectorAll("th")).slice(0, 3).map(text).filter(Boolean).join(", ");
      box.setAttribute("aria-label", "Table" + (caption ? ": " + caption : ""));
      table.before(box);
      box.append(table);
    }
    // An Inputs.range's slider: its <label> names the number box beside it only.
    for (const input of d.querySelectorAll("form input[type=range]:not([aria-label]):not([id])")) {
      const label = input.closest("form").querySelector("label");
      input.setAttribute("aria-label", (text(label) || "Value") + " (slider)");
    }
    for (const input of d.querySelectorAll("form[class$='-table'] input:not([aria-label])")) {
      const row = input.closest("tr"), head = row && row.parentElement && row.parentElement.tagName === "THEAD";
      const first = row && Array.from(row.cells).slice(1).map(text).find(Boolean);
      input.setAttribute("aria-label", head ? "Select all rows" : "Select row" + (first ? " " + first : ""));
    }
  };
  // Pages draw in many small steps (a table's rows, a chart's marks): the fixes run once after a burst of changes, not at each one.
  let queued = 0;
  const later = () => { if (!queued) queued = setTimeout(() => { queued = 0; fix(); }, 16); };
  d.addEventListener("DOMContentLoaded", () => { fix(); new MutationObserver(later).observe(d.body, {childList: true, subtree: true}); });
})();</script>`;
