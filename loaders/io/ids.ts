/**
 * What an id from input may be: game ids, run ids and the like name files
 * (game=<id>/ folders, checkpoint names), key every table and reach
 * terminals, pages and logs. So an id is short and plain text: 1 to
 * MAX_ID_LENGTH characters, none of them a control character (C0, DEL,
 * C1: NUL, ESC, …), a line or paragraph separator, or a bidirectional
 * formatting character (U+202E RIGHT-TO-LEFT OVERRIDE and its kin, which
 * make text display in another order than it reads), and no lone surrogate.
 * Letters of any script, emoji, "/", "%" and spaces are fine.
 */

export const MAX_ID_LENGTH = 256;

/** The rule, as error messages state it. */
export const ID_RULE = `an id of 1 to ${MAX_ID_LENGTH} characters without control, line-separator or bidirectional-format characters`;

// C0 and C1 controls and DEL; U+2028/2029; ALM, LRM, RLM, LRE…RLO, LRI…PDI.
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// Characters quoted as \u escapes in messages: the forbidden ones and the surrogates JSON.stringify leaves raw.
const QUOTED = /[\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A value from input quoted for a message: JSON, every character that could
 * move a cursor or reorder text written as a \u escape, and no more than
 * `max` characters of it (then its length), so a 20 MB value is one short line.
 */
export function quoteValue(value: string, max = 40): string {
  const shown = value.length > max ? [...value.slice(0, max + 1)].slice(0, max).join("") : value;
  const quoted = JSON.stringify(shown).replace(QUOTED, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return value.length > max ? `${quoted.slice(0, -1)}…" (${value.length.toLocaleString("en-US")} characters)` : quoted;
}

/**
 * Ids Parley makes from given ones (a run's game ids join the run id, the
 * parameters and the lineup's player ids) may be longer than one given id:
 * they are held to the same characters and to this length.
 */
export const MAX_MADE_ID_LENGTH = 65_536;

/**
 * Why `id` is not a usable id (a phrase starting "expected …"), or null when
 * it is one; `max` is MAX_ID_LENGTH for ids given as input.
 */
export function idProblem(id: unknown, max = MAX_ID_LENGTH): string | null {
  const rule = max === MAX_ID_LENGTH ? ID_RULE : `an id of 1 to ${max.toLocaleString("en-US")} characters without control, line-separator or bidirectional-format characters`;
  if (typeof id !== "string") return `expected ${rule}, got ${id === undefined ? "nothing" : JSON.stringify(id)?.slice(0, 60)}`;
  const tooLong = id.length > 2 * max || [...id].length > max;
  if (!id || tooLong || FORBIDDEN.test(id) || LONE_SURROGATE.test(id)) return `expected ${rule}, got ${quoteValue(id)}`;
  return null;
}
