/**
 * Rows as CSV text (RFC 4180) for the terminal: one column per key any row
 * has, in first-seen order; null is an empty field, lists and objects are
 * their JSON, and control characters other than tab and line breaks are
 * written as escapes (io/printable.ts) so that data cannot drive the terminal.
 */
const UNSAFE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

function field(value: unknown): string {
  const text = value === null || value === undefined ? "" : typeof value === "object" ? JSON.stringify(value) : String(value);
  const safe = text.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvRows(rows: readonly Record<string, unknown>[]): string {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return [columns, ...rows.map((r) => columns.map((c) => r[c]))].map((line) => line.map(field).join(",")).join("\r\n") + "\r\n";
}
