/**
 * Text from manifests, declarations and answers put into the site's
 * generated Markdown pages as text, never as markup: the paper overviews
 * (paperPage.ts) and the Reference (referenceDocs.ts).
 */

/** Text as HTML text (never markup). */
export const escapeHtml = (text: unknown): string =>
  String(text).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"})[c]!);

/**
 * Text as HTML text that Markdown and Framework also leave alone wherever it
 * lands: HTML's special characters, Markdown's punctuation (emphasis, links,
 * code, tables, headings, escapes) and Framework's `${` all become character
 * references, so a value such as "*x*", "[a](b)" or "${1}" shows as typed.
 * Line breaks are kept (for <pre>); `inline` turns them into spaces.
 */
export const escapeText = (text: unknown): string => String(text).replace(/[&<>"'`$*_[\]\\#|~{}]/g, (c) => `&#${c.codePointAt(0)};`);

/** escapeText on one line: line breaks become spaces (a blank line would end an HTML block in Markdown). */
export const inline = (text: unknown): string => escapeText(String(text).replace(/\s*\n\s*/g, " "));

/** Markup made here from escaped parts, passed through a table unescaped. */
export interface Html {
  html: string;
}

export const html = (markup: string): Html => ({html: markup});

const isHtml = (v: unknown): v is Html => typeof v === "object" && v !== null && "html" in v;

/** An HTML table of `rows` under `columns` (every cell escaped). */
export function htmlTable(columns: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const cell = (v: unknown) => (v === null || v === undefined ? "" : typeof v === "number" ? (Number.isInteger(v) ? String(v) : v.toPrecision(4)) : typeof v === "object" ? JSON.stringify(v) : String(v));
  const head = columns.map((c) => `<th>${escapeHtml(c)}</th>`).join("");
  const body = rows.map((r) => `<tr>${r.map((v) => `<td>${escapeHtml(cell(v))}</td>`).join("")}</tr>`).join("\n");
  return `<table>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

/**
 * An HTML table whose cells are text (escaped with `inline`) or markup made
 * with `html` from escaped parts; it has no blank line, so Markdown keeps it
 * one HTML block.
 */
export function textTable(columns: readonly string[], rows: readonly (readonly (string | number | Html | null)[])[]): string {
  const cell = (v: string | number | Html | null) => (v === null ? "" : isHtml(v) ? v.html : inline(v));
  const head = columns.map((c) => `<th>${inline(c)}</th>`).join("");
  const body = rows.map((r) => `<tr>${r.map((v) => `<td>${cell(v)}</td>`).join("")}</tr>`).join("\n");
  return `<table>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

/** `text` as inline code. */
export const code = (text: unknown): string => `<code>${inline(text)}</code>`;
