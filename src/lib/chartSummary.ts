/**
 * A chart said in words: one sentence naming what is plotted and its
 * extremes, from the table of values the chart draws (one column per
 * channel: x, y, the series, ...). src/components/figure.ts writes it under
 * every chart, for readers who cannot see the chart.
 */

export interface ChartColumn {
  /** The channel: x, y, fill, stroke, z, fx, fy, r, text, ... */
  channel: string;
  /** What the column holds, as the chart's axis or legend names it. */
  label: string;
  values: unknown[];
}

const MEASURE_ORDER = ["y", "x", "y2", "x2", "r", "fill", "stroke", "text"];
const WHERE_ORDER = ["x", "x1", "y", "y1", "fx", "fy", "z", "stroke", "fill", "symbol", "text"];

/** A value as the description shows it: numbers to four significant digits, dates as days. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return "none";
  if (value instanceof Date) return isNaN(+value) ? "none" : value.toISOString().slice(0, 10);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return String(value);
    if (Number.isInteger(value)) return String(value);
    return String(Number(value.toPrecision(4)));
  }
  return String(value);
}

const isNumeric = (values: unknown[]) => values.some((v) => typeof v === "number" && Number.isFinite(v)) && values.every((v) => v === null || v === undefined || typeof v === "number");

/** The column the chart measures: the numeric y, else the numeric x, else another numeric channel. */
export function measureOf(columns: ChartColumn[]): ChartColumn | undefined {
  for (const channel of MEASURE_ORDER) {
    const column = columns.find((c) => c.channel === channel && isNumeric(c.values));
    if (column) return column;
  }
  return columns.find((c) => isNumeric(c.values));
}

/**
 * One sentence: `<title>: <measure> by <the other columns>, <n> values,
 * from <min> (<where>) to <max> (<where>).` The extremes name the row's
 * other values (its x, its series, ...); a chart with no numbers is said by
 * its columns and count.
 */
export function describeChart(title: string, columns: ChartColumn[]): string {
  const n = Math.max(0, ...columns.map((c) => c.values.length));
  const lead = title.trim() ? `${title.trim().replace(/[.:]$/, "")}: ` : "";
  if (!n) return `${lead}no values to show.`;
  const measure = measureOf(columns);
  // Where a value is: the other columns, but not the measure's own baseline (a bar's y1 is labelled as its y2).
  const others = WHERE_ORDER.map((ch) => columns.find((c) => c.channel === ch && c !== measure && c.label !== measure?.label)).filter((c): c is ChartColumn => !!c);
  const by = [...new Set(others.map((c) => c.label))];
  const plotted = measure ? `${measure.label}${by.length ? ` by ${joinAnd(by)}` : ""}` : joinAnd([...new Set(columns.map((c) => c.label))]);
  const count = `${n} ${n === 1 ? "value" : "values"}`;
  if (!measure) return `${lead}${plotted}, ${count}.`;
  let lo = -1;
  let hi = -1;
  measure.values.forEach((v, i) => {
    if (typeof v !== "number" || !Number.isFinite(v)) return;
    if (lo < 0 || v < (measure.values[lo] as number)) lo = i;
    if (hi < 0 || v > (measure.values[hi] as number)) hi = i;
  });
  const where = (i: number) => {
    const parts = others.filter((c) => c.values[i] !== undefined && c.values[i] !== null).map((c) => `${c.label} ${formatValue(c.values[i])}`);
    return parts.length ? ` (${[...new Set(parts)].join(", ")})` : "";
  };
  if (lo === hi) return `${lead}${plotted}, ${count}: ${formatValue(measure.values[hi])}${where(hi)}.`;
  return `${lead}${plotted}, ${count}, from ${formatValue(measure.values[lo])}${where(lo)} to ${formatValue(measure.values[hi])}${where(hi)}.`;
}

function joinAnd(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}
