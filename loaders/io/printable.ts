/**
 * Text from data files (dialogue lines, JSON fields, file names, model
 * replies) reaches the terminal in problem lines, error messages and
 * summaries. Control characters in it could move the cursor, retitle the
 * window or hide output, and bidirectional formatting characters (U+202E
 * RIGHT-TO-LEFT OVERRIDE and its kin) make a line display in another order
 * than it reads, so everything printed from data goes through `printable`
 * (or `printableJson` for JSON), which renders them as escapes.
 */

// C0 controls (tab and newline included: a problem is one line), DEL, the C1 controls,
// the line and paragraph separators, and the bidirectional formatting characters.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const RAW_IN_JSON = /[\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `s` with every C0, DEL and C1 control character (and separator or bidirectional format) written as `\x1b` (below 0x80) or `\u009b` style escapes. */
export function printable(s: string): string {
  return s.replace(CONTROL, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x80 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}

/**
 * JSON text with DEL, C1 controls, separators and bidirectional formats
 * written as \u escapes. JSON.stringify already escapes C0 inside strings
 * but leaves those raw; the escaped form parses to the same value.
 */
export function printableJson(json: string): string {
  return json.replace(RAW_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Query parameters whose values are secrets (signed and token-bearing URLs). */
const SECRET_PARAM = /^(token|access_token|auth|key|api_key|apikey|password|passwd|secret|sig|signature|x-amz-signature|x-amz-credential|x-amz-security-token|x-goog-signature|x-goog-credential)$/i;

/**
 * `text` with the credentials of an http(s) URL left out, for printing: the
 * user name and password (`http://***@host/`) and the values of query
 * parameters that carry secrets (`?token=***`). Anything that is not such a
 * URL is returned as it is.
 */
export function redactUrl(text: string): string {
  if (!/^https?:\/\//i.test(text)) return text;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // Not parseable: at least no user:password@ part.
    return text.replace(/^(https?:\/\/)[^/?#]*@/i, "$1***@");
  }
  const hadCredentials = url.username !== "" || url.password !== "";
  url.username = "";
  url.password = "";
  for (const name of [...url.searchParams.keys()]) if (SECRET_PARAM.test(name)) url.searchParams.set(name, "***");
  const shown = url.href;
  return hadCredentials ? shown.replace(/^(https?:\/\/)/i, "$1***@") : shown;
}

/** `value` (parsed JSON) with every string that is an http(s) URL passed through `redactUrl`. */
export function redactUrls<T>(value: T): T {
  if (typeof value === "string") return redactUrl(value) as T;
  if (Array.isArray(value)) return value.map(redactUrls) as T;
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactUrls(v)])) as T;
  return value;
}
