/**
 * Text from data files (dialogue lines, JSON fields, file names, model
 * replies) reaches the terminal in problem lines, error messages and
 * summaries. Control characters in it could move the cursor, retitle the
 * window or hide output, so everything printed from data goes through
 * `printable` (or `printableJson` for JSON), which renders them as escapes.
 */

// C0 controls (tab and newline included: a problem is one line), DEL, and the C1 controls.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** `s` with every C0, DEL and C1 control character written as `\x1b` (below 0x80) or `\u009b` (C1) style escapes. */
export function printable(s: string): string {
  return s.replace(CONTROL, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x80 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}

/**
 * JSON text with DEL and C1 controls written as \u escapes. JSON.stringify
 * already escapes C0 inside strings but leaves U+007F..U+009F raw; the
 * escaped form parses to the same value.
 */
export function printableJson(json: string): string {
  return json.replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
