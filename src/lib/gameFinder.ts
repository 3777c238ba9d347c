/**
 * Finding one game among many (the games table of the GLEE family pages):
 * which rows a search and the filters keep, the parameters that tell games
 * apart (one column and one filter each: a select of its values, or a range
 * for a parameter of many numbers), and how a column of numbers is written
 * (the same number of decimals down a column, so the column reads and sorts
 * by eye). Pure: the table itself is src/components/gameFinder.ts.
 */

/** A game as the finder lists it: its id, a one-line description of its parameters, and any outcome columns. */
export interface GameRow {
  game_id: string;
  parameters?: string | null;
  agreement?: boolean | null;
  /** Attempts that broke the rules (null: not counted). */
  rule_breaks?: number | null;
  /** The participant who played it was excluded from the study's analysis. */
  excluded?: boolean | null;
  [column: string]: unknown;
}

/** A parameter's value as a filter compares it: a number ("100.0" → 100, "∞" → Infinity) or text. */
export type ParameterValue = number | string;

/** What one column must hold: exactly a value (a select), or a number between bounds (a range; null: open). */
export type ColumnFilter = {equals: ParameterValue} | {min: number | null; max: number | null};

export interface GameFilters {
  /** Words that must all appear (case-insensitive) in the row's text: its id, parameters, outcome and agents. */
  search?: string;
  /** Only games that ended without an agreement. */
  noAgreement?: boolean;
  /** Only games with at least one rule break. */
  ruleBreaks?: boolean;
  /** Per column (a parameter's, parameterColumns), the value or the range it must hold. */
  columns?: Record<string, ColumnFilter>;
}

/** Whether `value` passes `filter`: the same value, or a number within the bounds. */
export function passes(value: unknown, filter: ColumnFilter): boolean {
  if ("equals" in filter) return value === filter.equals;
  if (typeof value !== "number" || Number.isNaN(value)) return false;
  return (filter.min === null || value >= filter.min) && (filter.max === null || value <= filter.max);
}

/** The rows the search and filters keep, in their order. */
export function filterGames<R extends GameRow>(rows: readonly R[], {search = "", noAgreement = false, ruleBreaks = false, columns = {}}: GameFilters = {}): R[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  const checks = Object.entries(columns);
  return rows.filter((r) => {
    if (noAgreement && r.agreement !== false) return false;
    if (ruleBreaks && !(Number(r.rule_breaks) > 0)) return false;
    if (!checks.every(([column, filter]) => passes(r[column], filter))) return false;
    if (!words.length) return true;
    const text = Object.values(r).map((v) => (v === null || v === undefined ? "" : String(v))).join(" ").toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

/**
 * The number of decimals that writes every finite number of a column
 * faithfully up to `max` decimals: the most any of them needs (0 for whole
 * numbers), so a column is written with one count of decimals throughout.
 */
export function columnDecimals(values: readonly unknown[], max = 3): number {
  let most = 0;
  for (const v of values) {
    if (typeof v !== "number" || !Number.isFinite(v)) continue;
    for (let d = most; d <= max; d++) {
      if (Math.abs(Number(v.toFixed(d)) - v) < 1e-9 * Math.max(1, Math.abs(v))) break;
      most = d + 1;
    }
  }
  return Math.min(most, max);
}

/** A formatter for one numeric column: every value with the column's decimals (columnDecimals), "–" for none. */
export function columnFormat(values: readonly unknown[], max = 3): (value: unknown) => string {
  const decimals = columnDecimals(values, max);
  return (value) => (typeof value === "number" ? numberText(value, decimals) : value === null || value === undefined ? "–" : String(value));
}

/** A number with `decimals` decimals (1,234.50), ∞ for an infinite one (an unbounded horizon), "–" for NaN. */
function numberText(value: number, decimals: number): string {
  if (Number.isNaN(value)) return "–";
  if (!Number.isFinite(value)) return value > 0 ? "∞" : "−∞";
  return value.toLocaleString("en-US", {minimumFractionDigits: decimals, maximumFractionDigits: decimals});
}

/** A value of a one-line parameter list as a filter compares it: numbers as numbers ("100.0" is 100, "∞" unbounded), the rest as written. */
export function parameterValue(text: string): ParameterValue {
  if (text === "∞") return Infinity;
  return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : text;
}

/** A one-line parameter list ("delta_a=0.9, money=100.0, horizon=∞") as name → value, in its order. */
export function parseParameters(list: string | null | undefined, separator = ", "): Map<string, ParameterValue> {
  const out = new Map<string, ParameterValue>();
  for (const part of list ? list.split(separator) : []) {
    const eq = part.indexOf("=");
    if (eq > 0) out.set(part.slice(0, eq), parameterValue(part.slice(eq + 1)));
  }
  return out;
}

/** A parameter that tells games apart: its name, its values (distinct, ascending, ∞ last), and the filter that suits it. */
export interface ParameterColumn {
  name: string;
  values: ParameterValue[];
  /** Every value is a number. */
  numeric: boolean;
  /** A select of its values (few of them, or not numbers), or a range (many numbers). */
  filter: "select" | "range";
}

/** Numbers first, ascending (∞ last of them), then texts in alphabetical order. */
function byValue(a: ParameterValue, b: ParameterValue): number {
  if (typeof a === "number" && typeof b === "number") return a === b ? 0 : a < b ? -1 : 1;
  if (typeof a === "number") return -1;
  if (typeof b === "number") return 1;
  return a.localeCompare(b);
}

/** How many values a parameter's select offers at most; a numeric parameter with more gets a range. */
export const MAX_CHOICES = 12;

/**
 * The parameters of one-line parameter lists that take more than one value
 * among them (those every list shares tell no game apart), in the order
 * they first appear, each with its distinct values and its filter.
 */
export function parameterColumns(lists: readonly (string | null | undefined)[], maxChoices = MAX_CHOICES): ParameterColumn[] {
  const seen = new Map<string, Map<string, ParameterValue>>();
  const parsed = lists.map((l) => parseParameters(l));
  for (const values of parsed) for (const [name, value] of values) {
    if (!seen.has(name)) seen.set(name, new Map());
    seen.get(name)!.set(`${typeof value}:${value}`, value);
  }
  const columns: ParameterColumn[] = [];
  for (const [name, distinct] of seen) {
    const values = [...distinct.values()];
    const missing = parsed.some((p) => !p.has(name));
    if (values.length < 2 && !missing) continue;
    const numeric = values.every((v) => typeof v === "number");
    values.sort(byValue);
    columns.push({name, values, numeric, filter: numeric && values.length > maxChoices ? "range" : "select"});
  }
  return columns;
}

/** The parameters every list has, with the same value in all (what every game listed shares), in the first list's order. */
export function sharedParameters(lists: readonly (string | null | undefined)[]): [string, ParameterValue][] {
  const parsed = lists.map((l) => parseParameters(l));
  if (!parsed.length) return [];
  return [...parsed[0]].filter(([name, value]) => parsed.every((p) => p.has(name) && p.get(name) === value));
}

/** A parameter's value as text: numbers in full (up to 6 decimals, with thousands separators), ∞, or the text. */
export function parameterText(value: ParameterValue | null | undefined): string {
  if (value === null || value === undefined) return "–";
  if (typeof value === "string") return value;
  if (!Number.isFinite(value)) return Number.isNaN(value) ? "–" : value > 0 ? "∞" : "−∞";
  return value.toLocaleString("en-US", {maximumFractionDigits: 6});
}
