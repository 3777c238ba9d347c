/**
 * A generalisation report (src/lib/generalisation.ts) drawn for /ratings:
 * a choice of measure (return or win share), a chart of each comparison's
 * gap with its interval (group A − group B, zero marked: right of zero, the
 * focal agents do better with what they know), and a table of every row with
 * both groups' means. Everything from the data is set as text.
 *
 *   GeneralisationView(report, {width, name: "generalisation-<run>"})
 */
import * as Inputs from "@observablehq/inputs";
import * as Plot from "@observablehq/plot";
import {plot} from "./figure.js";
import {Exportable, Table} from "./exports.js";
import type {ComparisonRow, GeneralisationReport, Measure} from "../lib/generalisation.js";

const MEASURES: readonly Measure[] = ["return", "win share"];

const label = (r: ComparisonRow) => `${r.a} − ${r.b}`;
const digits = (x: number | null) => (x === null || x === undefined || !Number.isFinite(x) ? "" : Number(x.toPrecision(3)).toString());

function paragraph(text: string): HTMLParagraphElement {
  const p = document.createElement("p");
  p.textContent = text;
  return p;
}

/** The gaps of `measure`'s rows: one line per comparison, a panel per focal agent and game (named on the right). */
function GapChart(rows: readonly ComparisonRow[], measure: Measure, width: number, level: number): Element {
  const shown = rows
    .filter((r) => r.measure === measure)
    .map((r) => ({comparison: label(r), "agent and game": `${r.focal} · ${r.game}`, gap: r.gap, low: r.gap_lo, high: r.gap_hi, "mean of A": r.mean_a, "mean of B": r.mean_b, "seats A": r.seats_a, "seats B": r.seats_b}));
  if (!shown.length) return paragraph(`No comparison in ${measure}.`);
  const panels = [...new Set(shown.map((r) => r["agent and game"]))];
  const labels = [...new Set(shown.map((r) => r.comparison))];
  const faceted = panels.length > 1;
  const longest = (texts: string[]) => Math.max(...texts.map((t) => t.length));
  return plot({
    width,
    height: 40 + panels.length * (22 * labels.length + 24),
    // Room for the longest label on each side (about 7 px a character), so none is cut.
    marginLeft: 12 + 7 * longest(labels),
    marginRight: faceted ? Math.min(360, 12 + 7 * longest(panels)) : 20,
    x: {label: `Gap in ${measure} (A − B, ${Math.round(100 * level)} % interval)`, grid: true},
    y: {label: null, domain: labels},
    fy: faceted ? {label: null, domain: panels} : undefined,
    marks: [
      Plot.ruleX([0]),
      Plot.ruleY(shown, {y: "comparison", x1: "low", x2: "high", fy: faceted ? "agent and game" : undefined, strokeWidth: 2}),
      Plot.dot(shown, {y: "comparison", x: "gap", fy: faceted ? "agent and game" : undefined, r: 4, fill: "currentColor", tip: true, channels: {"mean of A": "mean of A", "mean of B": "mean of B", "seats A": "seats A", "seats B": "seats B"}}),
    ],
  });
}

/** The report's choice of measure, chart and table (a list of nodes to display). */
export function GeneralisationView(report: GeneralisationReport, {width, name}: {width: number; name: string}): Node[] {
  const out: Node[] = [];
  const counts = report.seats;
  out.push(paragraph(`${counts["self-play"] + counts.seen + counts.unseen + counts.mixed + counts.other} focal seats: ${counts["self-play"]} in self-play, ${counts.seen} with seen co-players, ${counts.unseen} with unseen ones, ${counts.mixed} with both, ${counts.other} with an agent the protocol does not list; ${report.configurations.seen} seen and ${report.configurations.held_out} held-out configurations; ${Math.round(100 * report.level)} % cluster-robust intervals over configurations (Student's t).`));
  for (const note of report.notes) out.push(paragraph(note));
  if (!report.rows.length) return out;
  const choice = Inputs.radio(MEASURES, {label: "Measure", value: "return"});
  const chart = document.createElement("div");
  const draw = () => chart.replaceChildren(Exportable(GapChart(report.rows, choice.value, width, report.level), {name: `${name} gaps in ${choice.value}`}));
  choice.addEventListener("input", draw);
  draw();
  out.push(choice, chart);
  out.push(
    Table(report.rows as unknown as Record<string, unknown>[], {
      name,
      columns: ["focal", "game", "measure", "a", "mean_a", "lo_a", "hi_a", "b", "mean_b", "lo_b", "hi_b", "gap", "gap_lo", "gap_hi", "df", "seats_a", "seats_b"],
      header: {a: "group A", mean_a: "mean A", lo_a: "A low", hi_a: "A high", b: "group B", mean_b: "mean B", lo_b: "B low", hi_b: "B high", gap: "A − B", gap_lo: "gap low", gap_hi: "gap high", df: "degrees of freedom", seats_a: "seats A", seats_b: "seats B"},
      format: Object.fromEntries(["mean_a", "lo_a", "hi_a", "mean_b", "lo_b", "hi_b", "gap", "gap_lo", "gap_hi", "df"].map((c) => [c, digits])),
      rows: 20,
      select: false,
    }),
  );
  return out;
}
