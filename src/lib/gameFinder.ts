/**
 * Finding one game among many (the games table of the GLEE family pages):
 * which rows a search and the filters keep, and how a column of numbers is
 * written (the same number of decimals down a column, so the column reads
 * and sorts by eye). Pure: the table itself is src/components/gameFinder.ts.
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

export interface GameFilters {
  /** Words that must all appear (case-insensitive) in the row's text: its id, parameters, outcome and agents. */
  search?: string;
  /** Only games that ended without an agreement. */
  noAgreement?: boolean;
  /** Only games with at least one rule break. */
  ruleBreaks?: boolean;
}

/** The rows the search and filters keep, in their order. */
export function filterGames<R extends GameRow>(rows: readonly R[], {search = "", noAgreement = false, ruleBreaks = false}: GameFilters = {}): R[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  return rows.filter((r) => {
    if (noAgreement && r.agreement !== false) return false;
    if (ruleBreaks && !(Number(r.rule_breaks) > 0)) return false;
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
  return (value) => (typeof value === "number" && Number.isFinite(value) ? value.toLocaleString("en-US", {minimumFractionDigits: decimals, maximumFractionDigits: decimals}) : value === null || value === undefined ? "–" : String(value));
}

/**
 * One-line parameter lists ("a=1, b=2, c=3") with the parts every list
 * shares left out ("b=2" when all have it), so a table of games shows what
 * tells them apart; "" for a list with nothing of its own.
 */
export function varyingParameters(lists: readonly (string | null | undefined)[], separator = ", "): string[] {
  const split = lists.map((l) => (l ? l.split(separator) : []));
  const shared = split.length ? split[0].filter((part) => split.every((parts) => parts.includes(part))) : [];
  return split.map((parts) => parts.filter((part) => !shared.includes(part)).join(separator));
}
