/**
 * Downloads for what a page draws: every chart as SVG and PNG, every table as CSV.
 *
 * `Exportable(node, {name})` returns `node` with a small row of download
 * buttons beneath it: SVG and PNG when it holds a Plot chart (its main
 * <svg>; a figure's legend swatches are HTML and stay out), CSV when it holds
 * a <table> (the cells' text as shown). `Table(rows, options)` is
 * Inputs.table with a CSV of every row (Inputs.table draws rows lazily, so
 * its DOM may hold only the first few), using the same columns, headers and
 * formats as the table shows. Files are named `<page>-<name>.<ext>`.
 * A chart also gets its text alternatives (src/components/figure.ts): a
 * role, a title, a generated description and a "Data" toggle.
 */
import * as Inputs from "@observablehq/inputs";
import {accessibleCharts} from "./figure.js";

type Row = Record<string, any>;

export interface TableOptions {
  columns?: string[];
  header?: Record<string, string>;
  format?: Record<string, (value: any, i: number, rows: Row[]) => any>;
  [option: string]: unknown;
}

/** Quotes a CSV field when it holds a comma, quote or line break (RFC 4180). */
function csvField(value: unknown): string {
  const s = value === null || value === undefined ? "" : value instanceof Node ? (value.textContent ?? "") : String(value);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

export function csv(lines: unknown[][]): string {
  return lines.map((line) => line.map(csvField).join(",")).join("\r\n") + "\r\n";
}

/** CSV of rows as Inputs.table shows them (same columns, header labels and formatted values). */
export function rowsCsv(rows: Row[], {columns, header = {}, format = {}}: TableOptions = {}): string {
  const names = columns ?? [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return csv([names.map((c) => header[c] ?? c), ...rows.map((r, i) => names.map((c) => (format[c] ? format[c](r[c], i, rows) : r[c])))]);
}

/** CSV of an HTML table's cells as shown (header rows first). */
export function tableCsv(table: HTMLTableElement): string {
  return csv(Array.from(table.rows, (row) => Array.from(row.cells, (cell) => cell.textContent?.trim() ?? "")));
}

/** The chart's own <svg> inside `node` (Plot's, not a legend ramp): the largest one. */
function chartSvg(node: Element): SVGSVGElement | null {
  const svgs = node instanceof SVGSVGElement ? [node] : Array.from(node.querySelectorAll<SVGSVGElement>("svg"));
  let best: SVGSVGElement | null = null;
  for (const svg of svgs) if (!best || area(svg) > area(best)) best = svg;
  return best;
}
const area = (svg: SVGSVGElement) => (Number(svg.getAttribute("width")) || 0) * (Number(svg.getAttribute("height")) || 0);

/** A standalone SVG document of `svg` (namespaces declared, the text colour made explicit). */
export function svgText(svg: SVGSVGElement): string {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  copy.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  copy.setAttribute("xmlns:xlink", "http://www.w3.org/1999/xlink");
  // Plot draws with currentColor; outside the page that would be whatever the viewer's default is.
  copy.style.color = getComputedStyle(svg).color;
  copy.style.background = "white";
  return new XMLSerializer().serializeToString(copy);
}

/** PNG of `svg` at twice its size, drawn through an <img> onto a canvas. */
export async function pngBlob(svg: SVGSVGElement): Promise<Blob> {
  const width = Number(svg.getAttribute("width")) || svg.getBoundingClientRect().width;
  const height = Number(svg.getAttribute("height")) || svg.getBoundingClientRect().height;
  const url = URL.createObjectURL(new Blob([svgText(svg)], {type: "image/svg+xml"}));
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    const canvas = document.createElement("canvas");
    canvas.width = Math.ceil(width * 2);
    canvas.height = Math.ceil(height * 2);
    const context = canvas.getContext("2d")!;
    context.fillStyle = "white";
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.drawImage(image, 0, 0, canvas.width, canvas.height);
    return await new Promise<Blob>((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error("the canvas gave no PNG"))), "image/png"));
  } finally {
    URL.revokeObjectURL(url);
  }
}

function download(blob: Blob, filename: string): void {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

const pageName = () => location.pathname.split("/").filter(Boolean).pop()?.replace(/\.html$/, "") || "index";
const safe = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "export";

function button(label: string, title: string, action: () => Promise<void> | void): HTMLButtonElement {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  b.title = title;
  b.addEventListener("click", () => void Promise.resolve(action()).catch((error) => {
    b.title = `${title} (failed: ${error instanceof Error ? error.message : error})`;
  }));
  return b;
}

/** `node` with download buttons for the chart and/or table it holds (none if it holds neither). */
export function Exportable<T extends Element>(node: T, {name, csvText}: {name: string; csvText?: () => string}): HTMLElement | T {
  const svg = chartSvg(node);
  const table = node instanceof HTMLTableElement ? node : node.querySelector("table");
  if (!svg && !table && !csvText) return node;
  const file = `${pageName()}-${safe(name)}`;
  const bar = document.createElement("div");
  bar.className = "parley-export";
  bar.append("Download ");
  if (svg) {
    bar.append(
      button("SVG", `${name} as SVG`, () => download(new Blob([svgText(svg)], {type: "image/svg+xml"}), `${file}.svg`)),
      button("PNG", `${name} as PNG`, async () => download(await pngBlob(svg), `${file}.png`)),
    );
  }
  if (table || csvText) {
    bar.append(button("CSV", `${name} as CSV`, () => download(new Blob([csvText ? csvText() : tableCsv(table!)], {type: "text/csv"}), `${file}.csv`)));
  }
  const wrapper = document.createElement("div");
  wrapper.className = "parley-exportable";
  wrapper.append(node, ...(svg ? accessibleCharts(node, name) : []), bar);
  return wrapper;
}

/** Inputs.table with a CSV download of all its rows, as shown. */
export function Table(rows: Row[], options: TableOptions & {name: string}): HTMLElement {
  const {name, ...rest} = options;
  // Columns as wide as their content (names are never cut short); a table wider than the page scrolls.
  return Exportable(Inputs.table(rows, {layout: "auto", ...rest} as any) as HTMLElement, {name, csvText: () => rowsCsv(rows, rest)});
}
