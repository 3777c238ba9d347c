/**
 * Tables 2 and 3 of GLEE (Shapira et al. 2024) as HTML: effects in percentage points with CI
 * half-widths; bold = interval reaches the best estimate, underlined =
 * reaches the worst (see src/lib/gleeTables.ts).
 */
import {formatEffect, type AgentRow, type Effect, type MarketRow} from "../lib/gleeTables.js";

function cell(e: Effect | null | undefined): HTMLTableCellElement {
  const td = document.createElement("td");
  td.textContent = formatEffect(e);
  td.style.textAlign = "right";
  td.style.fontVariantNumeric = "tabular-nums";
  if (e?.best) td.style.fontWeight = "700";
  if (e?.worst) td.style.textDecoration = "underline";
  if (e?.baseline) td.style.color = "var(--theme-foreground-muted)";
  if (e) td.title = `${e.pp.toFixed(2)} pp, 95% CI [${e.ci_low.toFixed(2)}, ${e.ci_high.toFixed(2)}], n = ${e.n}${e.baseline ? " (baseline)" : ""}`;
  return td;
}

/** A table whose last `numeric` columns are right-aligned numbers. */
function table(head: string[], body: HTMLTableRowElement[], numeric: number): HTMLTableElement {
  const t = document.createElement("table");
  const tr = document.createElement("tr");
  head.forEach((h, i) => {
    const th = document.createElement("th");
    th.textContent = h;
    if (i >= head.length - numeric) th.style.textAlign = "right";
    tr.append(th);
  });
  const thead = document.createElement("thead");
  thead.append(tr);
  const tbody = document.createElement("tbody");
  tbody.append(...body);
  t.append(thead, tbody);
  return t;
}

function empty(text: string): HTMLElement {
  const p = document.createElement("p");
  p.textContent = text;
  return p;
}

/** Table 2 for one family: market components, then efficiency and fairness effects. */
export function MarketEffectsTable(rows: MarketRow[]): HTMLElement {
  if (!rows.length) return empty("No market levels to show (no games match the filters).");
  const parts = Object.keys(rows[0].parts);
  const body = rows.map((r) => {
    const tr = document.createElement("tr");
    for (const k of parts) {
      const td = document.createElement("td");
      td.textContent = r.parts[k] ?? "";
      tr.append(td);
    }
    tr.append(cell(r.efficiency), cell(r.fairness));
    return tr;
  });
  return table([...parts, "Eff. (pp)", "Fair. (pp)"], body, 2);
}

/** Table 3: agents by row, one column per (family, role). */
export function AgentEffectsTable(rows: AgentRow[], columns: Array<{key: string; label: string}>): HTMLElement {
  if (!rows.length) return empty("No agents to show (no games match the filters).");
  const body = rows.map((r) => {
    const tr = document.createElement("tr");
    const name = document.createElement("td");
    name.textContent = r.agent;
    tr.append(name, ...columns.map((c) => cell(r.cells[c.key])));
    return tr;
  });
  return table(["Agent", ...columns.map((c) => c.label)], body, columns.length);
}
