/**
 * Charts readers can use without seeing them. `plot(options)` is Plot.plot
 * with Parley's categorical palette (Okabe–Ito, src/lib/palette.ts) and
 * its options kept, so that `accessibleFigure` (called by Exportable, which
 * every chart of the site goes through) can say what the chart draws:
 *
 * - the chart's <svg> is one image (role="img") named by its title, described
 *   by a sentence generated from the values it draws (src/lib/chartSummary.ts:
 *   what is plotted and the extremes), its marks hidden from assistive
 *   technology (Plot's aria-label on <g> elements with no role is not allowed);
 * - under it, a "Data" toggle (<details>) holds the same values as a table
 *   (made when first opened).
 *
 * A chart drawn with Plot.plot directly still gets the role, its title and a
 * sentence from its scales (their labels and domains), but no table.
 */
import * as Plot from "@observablehq/plot";
import {describeChart, formatValue, type ChartColumn} from "../lib/chartSummary.js";
import {OKABE_ITO} from "../lib/palette.js";

type PlotOptions = Plot.PlotOptions;
type Chart = ReturnType<typeof Plot.plot>;

const optionsOf = new WeakMap<Element, PlotOptions>();

/** Plot.plot, with the Okabe–Ito palette for a categorical colour scale that names none, and its options kept for accessibleFigure. */
export function plot(options: PlotOptions): Chart {
  let chart = Plot.plot(options);
  const color = (options.color ?? {}) as Record<string, unknown>;
  const type = (scaleOf(chart, "color") as {type?: string} | undefined)?.type;
  if ((type === "ordinal" || type === "categorical") && color.scheme === undefined && color.range === undefined) {
    chart = Plot.plot({...options, color: {...color, range: [...OKABE_ITO]}});
  }
  optionsOf.set(chart, options);
  return chart;
}

/** The chart's scale `name` (Plot's descriptor), or undefined: Plot throws for a name that is not a scale (z, text). */
function scaleOf(chart: Element, name: string): unknown {
  try {
    return (chart as any).scale?.(name);
  } catch {
    return undefined;
  }
}

const CHANNELS = ["fx", "fy", "x", "x1", "x2", "y", "y1", "y2", "z", "stroke", "fill", "symbol", "r", "text"];
const SCALE_OF: Record<string, string> = {x1: "x", x2: "x", y1: "y", y2: "y", stroke: "color", fill: "color"};

/** The columns of the chart's main mark (the one drawing the most values), as computed by Plot (its transforms applied). */
export function chartColumns(chart: Element, options: PlotOptions): ChartColumn[] {
  const scale = (name: string) => scaleOf(chart, name) as {label?: string} | undefined;
  let best: ChartColumn[] = [];
  let bestRows = 0;
  let bestPoint = false;
  for (const mark of ([options.marks ?? []] as any[]).flat(Infinity) as any[]) {
    if (!mark || typeof mark.initialize !== "function" || mark.constructor?.name === "Tip") continue;
    let state: {data: ArrayLike<unknown> | null; channels: Record<string, {value: ArrayLike<unknown>; label?: string; scale?: string}>};
    try {
      state = mark.initialize();
    } catch {
      continue;
    }
    const rows = state.data?.length ?? 0;
    // The most values wins; among marks drawing as many, the first with a point (x and y) rather than an interval.
    const point = !!state.channels.x && !!state.channels.y;
    if (rows < bestRows || (rows === bestRows && (bestPoint || !point))) continue;
    const columns: ChartColumn[] = [];
    for (const channel of CHANNELS) {
      const c = state.channels[channel];
      if (!c || !c.value || c.value.length !== rows) continue;
      const label = scale(c.scale ?? SCALE_OF[channel] ?? channel)?.label ?? c.label ?? channel;
      const values = Array.from(c.value);
      // A fill or stroke given as colours (a function returning "steelblue") is how it looks, not a value drawn.
      if ((channel === "fill" || channel === "stroke") && values.every((v) => typeof v === "string" && CSS.supports("color", v))) continue;
      if (columns.some((other) => other.label === label && other.values.every((v, i) => v === values[i]))) continue;
      columns.push({channel, label: String(label), values});
    }
    for (const [channel, field] of [["fx", mark.fx], ["fy", mark.fy]] as const) {
      if (typeof field !== "string" || columns.some((c) => c.channel === channel) || !mark.data || mark.data.length !== rows) continue;
      columns.unshift({channel, label: scale(channel)?.label ?? field, values: Array.from(mark.data as ArrayLike<any>, (d) => d?.[field])});
    }
    if (columns.length) (best = columns), (bestRows = rows), (bestPoint = point);
  }
  return best;
}

/** A sentence from the chart's scales alone (for a chart drawn with Plot.plot directly). */
function describeScales(chart: Element, title: string): string {
  const parts: string[] = [];
  for (const name of ["y", "x", "color"]) {
    const s = scaleOf(chart, name) as {label?: string; domain?: unknown[]} | undefined;
    if (!s?.domain?.length) continue;
    const label = s.label ?? name;
    const domain = s.domain;
    parts.push(typeof domain[0] === "number" || domain[0] instanceof Date ? `${label} from ${formatValue(domain[0])} to ${formatValue(domain[domain.length - 1])}` : `${label} (${domain.slice(0, 8).map(formatValue).join(", ")}${domain.length > 8 ? ", …" : ""})`);
  }
  return `${title.replace(/[.:]$/, "")}: ${parts.length ? parts.join("; ") : "a chart"}.`;
}

const MAX_ROWS = 1000;
let ids = 0;

/** The data table of the toggle: one column per channel, at most MAX_ROWS rows. */
function dataTable(columns: ChartColumn[], caption: string): HTMLTableElement {
  const table = document.createElement("table");
  const cap = table.createCaption();
  cap.textContent = caption;
  const head = table.createTHead().insertRow();
  for (const c of columns) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = c.label;
    head.append(th);
  }
  const body = table.createTBody();
  const n = Math.min(MAX_ROWS, columns[0]?.values.length ?? 0);
  for (let i = 0; i < n; i++) {
    const row = body.insertRow();
    for (const c of columns) row.insertCell().textContent = formatValue(c.values[i]);
  }
  return table;
}

/** Whether `svg` is a chart Plot drew (not a colour legend's ramp). */
const isChart = (svg: SVGSVGElement) => /^plot-/.test(svg.getAttribute("class") ?? "") && !/-ramp\b/.test(svg.getAttribute("class") ?? "");

/** A name written as a file name ("self-gain-fair") as words ("Self gain fair"). */
export const nameAsTitle = (name: string) => {
  // A name with digits may hold a model's or a file's own name (gpt-3.5-turbo-0125): kept as it is.
  if (/\d/.test(name)) return name;
  const words = name.replace(/[-_]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/**
 * Every chart in `node` made an accessible figure (accessibleFigure), for
 * Exportable: with one chart, the parts to put under `node`; with several
 * (small multiples, as CoefPlot draws), each chart's parts are put under it,
 * named by the text just before it, and none are returned.
 */
export function accessibleCharts(node: Element, name: string): HTMLElement[] {
  const svgs = (node instanceof SVGSVGElement ? [node] : Array.from(node.querySelectorAll<SVGSVGElement>("svg"))).filter(isChart);
  const title = nameAsTitle(name);
  if (svgs.length <= 1) return svgs.length ? accessibleFigure(node, svgs[0], title) : [];
  svgs.forEach((svg, i) => {
    const chart = svg.closest("figure") ?? svg;
    const before = chart.previousElementSibling?.textContent?.trim();
    chart.after(...accessibleFigure(chart, svg, `${title}: ${before || `chart ${i + 1}`}`));
  });
  return [];
}

/**
 * Makes the chart in `node` an accessible figure (see above) and returns the
 * parts to put under it: the description and, when the chart's values are
 * known, the "Data" toggle. `title` names the chart when it has no title of its own.
 */
export function accessibleFigure(node: Element, svg: SVGSVGElement, title: string): HTMLElement[] {
  const chart = [node, svg, svg.closest("figure")].find((n): n is Element => !!n && optionsOf.has(n));
  const options = chart ? optionsOf.get(chart)! : undefined;
  const own = typeof options?.title === "string" ? options.title : svg.closest("figure")?.querySelector("h2")?.textContent;
  const name = (own || title).trim();
  const columns = chart && options ? chartColumns(chart, options) : [];
  const description = document.createElement("p");
  description.className = "parley-figure-description";
  description.id = `parley-figure-${++ids}`;
  // Plot's scale() is on what Plot.plot returned: the <svg>, or the <figure> around it when it has a legend or title.
  description.textContent = columns.length ? describeChart(name, columns) : describeScales(chart ?? svg.closest("figure") ?? svg, name);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", name);
  svg.setAttribute("aria-describedby", description.id);
  for (const g of svg.querySelectorAll("[aria-label]")) g.setAttribute("aria-hidden", "true");
  if (!columns.length) return [description];
  const details = document.createElement("details");
  details.className = "parley-figure-data";
  const summary = document.createElement("summary");
  const n = columns[0].values.length;
  summary.textContent = `Data (${n} ${n === 1 ? "row" : "rows"}${n > MAX_ROWS ? `, the first ${MAX_ROWS} shown` : ""})`;
  const scroller = document.createElement("div");
  scroller.tabIndex = 0;
  scroller.setAttribute("role", "region");
  scroller.setAttribute("aria-label", `${name}: data`);
  // The table is made when the toggle is first opened: a page of charts holds no hidden tables (nor their thousands of cells).
  details.addEventListener("toggle", () => {
    if (details.open && !scroller.firstChild) scroller.append(dataTable(columns, `${name}: the values drawn`));
  });
  details.append(summary, scroller);
  return [description, details];
}
