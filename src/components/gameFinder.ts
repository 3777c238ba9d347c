/**
 * A table of games to find one in: a search box, filters ("no agreement",
 * "rule breaks", and one per parameter that tells the games apart: a select
 * of its values, or a from–to range for a parameter of many numbers), one
 * column per such parameter, columns sortable by a click on their heading,
 * each game's id a link to its transcript. The element's value is the
 * chosen game's id (an `input` event on each choice), so it works with
 * urlInput and view(); when the filters hide the chosen game, the value
 * becomes null (nothing chosen) rather than a game the table no longer
 * shows. `ChosenGame` names the chosen game above its transcript.
 * Numbers are written with one count of decimals per column
 * (src/lib/gameFinder.ts); text is set as text, never as HTML.
 */
import * as Inputs from "@observablehq/inputs";
import {columnFormat, filterGames, parameterColumns, parameterText, parseParameters, sharedParameters, type ColumnFilter, type GameRow, type ParameterColumn} from "../lib/gameFinder.js";
import {reasonText} from "../lib/studyParticipants.js";
import {rowsCsv} from "./exports.js";
import {Exportable} from "./exports.js";

export interface GameFinderOptions {
  /** The game chosen first (its id). */
  value?: string;
  /** The columns shown, in order (game_id first is added when missing); "parameters" stands for one column per parameter that tells the games apart. */
  columns: string[];
  header?: Record<string, string>;
  /** The parameters' names as people read them (name → label), for their columns, filters and the chosen game's heading. */
  parameterLabels?: Record<string, string>;
  /** Counts each game's rule breaks, asked when the filter is first ticked (it may read every turn). */
  ruleBreaks?: () => Promise<Map<string, number>>;
  /** The id of the element that shows the chosen game (its transcript), for the links. */
  target?: string;
  name?: string;
}

type Finder = HTMLElement & {value: string | null};

/** The key of a parameter's column among a finder's rows (apart from the outcome columns of the same name). */
export const parameterKey = (name: string): string => `parameter:${name}`;

/** The current page's address with `game` set to `id`, pointing at `target`. */
function gameHref(id: string, target: string): string {
  const url = new URL(location.href);
  url.searchParams.set("game", id);
  url.hash = target;
  return url.pathname + url.search + url.hash;
}

/** A labelled control: `<label>text <control></label>`. */
function labelled(text: string, control: HTMLElement): HTMLLabelElement {
  const label = document.createElement("label");
  label.append(`${text} `, control);
  return label;
}

/** One parameter's filter: a select of its values ("any" first), or two number boxes (from, to); `read` gives the filter it sets, or null for none. */
function parameterFilter(column: ParameterColumn, label: string, format: (v: unknown) => string): {element: HTMLElement; read(): ColumnFilter | null} {
  if (column.filter === "select") {
    const select = document.createElement("select");
    select.append(new Option("any", ""), ...column.values.map((v, i) => new Option(format(v), String(i))));
    // Named by the parameter alone (a label around a select would add the option shown to its name).
    select.setAttribute("aria-label", label);
    return {element: labelled(label, select), read: () => (select.value === "" ? null : {equals: column.values[Number(select.value)]})};
  }
  const finite = column.values.filter((v): v is number => typeof v === "number" && Number.isFinite(v));
  const bound = (which: string, placeholder: number) => {
    const input = Object.assign(document.createElement("input"), {type: "number", step: "any", placeholder: format(placeholder)});
    input.min = String(finite[0]);
    input.max = String(finite[finite.length - 1]);
    input.setAttribute("aria-label", `${label} ${which}`);
    return input;
  };
  const from = bound("from", finite[0]);
  const to = bound("to", finite[finite.length - 1]);
  const group = document.createElement("span");
  group.setAttribute("role", "group");
  group.setAttribute("aria-label", `${label} range`);
  group.className = "parley-parameter-range";
  group.append(`${label} from `, from, " to ", to);
  const number = (input: HTMLInputElement) => (input.value.trim() === "" || !Number.isFinite(input.valueAsNumber) ? null : input.valueAsNumber);
  return {element: group, read: () => (number(from) === null && number(to) === null ? null : {min: number(from), max: number(to)})};
}

/** The filters of every parameter, in a fieldset; `read` gives those set, by the parameter's column key. */
function parameterFilters(parameters: readonly ParameterColumn[], labelOf: (name: string) => string, formats: Record<string, (v: unknown) => unknown>): {element: HTMLFieldSetElement; read(): Record<string, ColumnFilter>} {
  const filters = parameters.map((p) => ({key: parameterKey(p.name), ...parameterFilter(p, labelOf(p.name), formats[parameterKey(p.name)] as (v: unknown) => string)}));
  const element = document.createElement("fieldset");
  element.className = "parley-parameter-filters";
  element.style.cssText = "display: flex; flex-wrap: wrap; gap: 0.4rem 1.2rem; align-items: center; margin: 0.5rem 0; border: none; padding: 0;";
  const legend = document.createElement("legend");
  legend.textContent = "Parameters";
  legend.style.cssText = "float: left; margin-right: 0.4rem; font-weight: 600;";
  element.append(legend, ...filters.map((f) => f.element));
  const read = () => Object.fromEntries(filters.flatMap((f) => {
    const filter = f.read();
    return filter ? [[f.key, filter]] : [];
  }));
  return {element, read};
}

export function GameFinder(given: GameRow[], {value, columns, header = {}, parameterLabels = {}, ruleBreaks, target = "transcript", name = "games"}: GameFinderOptions): Finder {
  const root = document.createElement("div") as unknown as Finder;
  root.className = "parley-game-finder";
  root.value = given.some((r) => r.game_id === value) ? value! : (given[0]?.game_id ?? null);
  let counted: Map<string, number> | null = null;
  const labelOf = (parameter: string) => parameterLabels[parameter] ?? parameter;
  // One column per parameter that tells the listed games apart; those every game shares are said once, above the table.
  const parameters = parameterColumns(given.map((r) => r.parameters));
  const rows = given.map((r) => {
    const values = parseParameters(r.parameters);
    return {...r, ...Object.fromEntries(parameters.map((p) => [parameterKey(p.name), values.get(p.name) ?? null]))};
  });
  const shared = sharedParameters(given.map((r) => r.parameters)).map(([p, v]) => `${labelOf(p)} = ${parameterText(v)}`).join(", ");
  const shown = (columns.includes("game_id") ? [...columns] : ["game_id", ...columns]).flatMap((c) => (c === "parameters" ? parameters.map((p) => parameterKey(p.name)) : [c]));
  // The mark of an excluded participant's game comes right after its link.
  if (rows.some((r) => r.excluded)) shown.splice(1, 0, "excluded");
  const headers = {game_id: "game", rule_breaks: "rule breaks", excluded: "participant", ...Object.fromEntries(parameters.map((p) => [parameterKey(p.name), labelOf(p.name)])), ...header};

  const controls = document.createElement("div");
  controls.className = "parley-game-filters";
  const search = Object.assign(document.createElement("input"), {type: "search", placeholder: "agent, parameter, outcome…"});
  search.setAttribute("aria-label", "Search the games");
  const box = (text: string) => {
    const input = Object.assign(document.createElement("input"), {type: "checkbox"});
    const label = document.createElement("label");
    label.append(input, ` ${text}`);
    return {input, label};
  };
  const noDeal = box("no agreement");
  const broke = box("rule breaks");
  const count = document.createElement("span");
  count.className = "parley-game-count";
  count.setAttribute("aria-live", "polite");
  controls.append(labelled("Search", search), noDeal.label, broke.label, count);
  controls.style.cssText = "display: flex; flex-wrap: wrap; gap: 0.4rem 1.2rem; align-items: center; margin: 0.5rem 0;";

  const formats: Record<string, (v: unknown) => unknown> = {};
  for (const p of parameters) {
    const key = parameterKey(p.name);
    formats[key] = p.numeric ? columnFormat(rows.map((r) => r[key])) : (v: unknown) => parameterText(v as string | null);
  }
  const byParameter = parameterFilters(parameters, labelOf, formats);

  const area = document.createElement("div");
  const common = document.createElement("p");
  common.className = "parley-game-common";
  common.textContent = shared ? `Every game listed: ${shared}.` : "";
  root.append(controls, ...(parameters.length ? [byParameter.element] : []), ...(shared ? [common] : []), area);

  for (const c of shown) {
    if (formats[c]) continue;
    const values = rows.map((r) => (r as GameRow)[c]);
    if (c === "game_id") formats[c] = (id) => {
      // The link reads "transcript"; the id (long, and searchable) is its title and data.
      // The shown game's link says so (the table has no selection column: a row is chosen by its link, which a keyboard reaches).
      const link = Object.assign(document.createElement("a"), {href: gameHref(String(id), target), textContent: id === root.value ? "transcript (shown)" : "transcript", title: String(id), className: "parley-game-link"});
      link.dataset.game = String(id);
      if (id === root.value) link.setAttribute("aria-current", "true");
      return link;
    };
    else if (c === "excluded") formats[c] = (v) => (v ? "excluded" : "");
    else if (values.some((v) => typeof v === "number")) formats[c] = columnFormat(values);
    else if (values.some((v) => typeof v === "boolean")) formats[c] = (v) => (v === true ? "yes" : v === false ? "no" : "–");
  }

  const choose = (id: string | null) => {
    root.value = id;
    root.dispatchEvent(new Event("input", {bubbles: true}));
  };

  const render = () => {
    const withCounts = counted ? rows.map((r) => ({...r, rule_breaks: counted!.get(r.game_id) ?? 0})) : rows;
    const kept = filterGames(withCounts, {search: search.value, noAgreement: noDeal.input.checked, ruleBreaks: broke.input.checked && counted !== null, columns: byParameter.read()});
    // A game the table no longer lists is no longer the chosen one: the transcript below would name a game nobody can see in the table.
    if (root.value !== null && !kept.some((r) => r.game_id === root.value)) choose(null);
    const cols = counted && !shown.includes("rule_breaks") ? [...shown, "rule_breaks"] : shown;
    if (counted) formats.rule_breaks = columnFormat(withCounts.map((r) => r.rule_breaks));
    count.textContent = `${kept.length.toLocaleString("en-US")} of ${rows.length.toLocaleString("en-US")} games${root.value === null && rows.length ? "; no game chosen" : ""}`;
    const table = Inputs.table(kept, {
      columns: cols, header: headers, format: formats, select: false,
      layout: "auto", maxWidth: "100%", rows: 12.5,
    } as any) as HTMLElement;
    table.addEventListener("click", (event) => {
      const link = (event.target as Element).closest?.("a.parley-game-link");
      if (!link) return;
      event.preventDefault();
      const id = (link as HTMLElement).dataset.game!;
      history.replaceState(history.state, "", gameHref(id, target));
      choose(id);
      render();
      document.getElementById(target)?.scrollIntoView({block: "start"});
    });
    area.replaceChildren(Exportable(table, {name, csvText: () => rowsCsv(kept, {columns: cols, header: headers, format: formats as any})}));
  };

  // The filters' own input events stay inside: the finder's value changes only by a choice (view() listens for input on it).
  for (const part of [controls, byParameter.element]) part.addEventListener("input", (event) => event.stopPropagation());
  search.addEventListener("input", render);
  noDeal.input.addEventListener("change", render);
  byParameter.element.addEventListener("input", render);
  broke.input.addEventListener("change", async () => {
    if (broke.input.checked && counted === null && ruleBreaks) {
      count.textContent = "counting rule breaks…";
      broke.input.disabled = true;
      try {
        counted = await ruleBreaks();
      } finally {
        broke.input.disabled = false;
      }
    }
    render();
  });
  if (!ruleBreaks && !rows.some((r) => r.rule_breaks != null)) broke.label.hidden = true;
  else if (rows.some((r) => r.rule_breaks != null)) counted = new Map(rows.map((r) => [r.game_id, Number(r.rule_breaks ?? 0)]));
  render();
  return root;
}

/**
 * The chosen game named above its transcript: a heading with its id, and
 * its parameters in a line, as text. With no game chosen (the filters hid
 * it, or none was picked), a line that says so and how to pick one.
 */
export function ChosenGame(row: GameRow | undefined, {parameterLabels = {} as Record<string, string>} = {}): HTMLElement {
  const root = document.createElement("div");
  root.className = "parley-chosen-game";
  if (!row) {
    const none = document.createElement("p");
    none.className = "parley-no-game";
    none.textContent = "No game is chosen: pick one in the table above (its “transcript” link).";
    root.append(none);
    return root;
  }
  const heading = document.createElement("h3");
  const id = document.createElement("code");
  id.textContent = row.game_id;
  heading.append("Game ", id);
  const parameters = [...parseParameters(row.parameters)].map(([p, v]) => `${parameterLabels[p] ?? p} = ${parameterText(v)}`);
  root.append(heading);
  if (parameters.length) {
    const line = document.createElement("p");
    line.className = "parley-chosen-parameters";
    line.textContent = `${parameters.join(", ")}.`;
    root.append(line);
  }
  return root;
}

/** One game's outcome above its transcript: how it ended, each side's payoff, and the metrics, as a one-row table. */
export function GameOutcome(row: GameRow | undefined, facts: {label: string; column: string; digits?: number}[]): HTMLElement {
  const table = document.createElement("table");
  table.className = "parley-game-outcome";
  if (!row) return table;
  const shown = facts.filter(({column}) => row[column] !== undefined);
  const head = table.createTHead().insertRow();
  const body = table.createTBody().insertRow();
  for (const {label, column, digits} of shown) {
    const v = row[column];
    head.appendChild(document.createElement("th")).textContent = label;
    body.insertCell().textContent = typeof v === "number" ? (digits === undefined ? v.toLocaleString("en-US") : v.toFixed(digits)) : v === null ? "–" : typeof v === "boolean" ? (v ? "yes" : "no") : String(v);
  }
  return table;
}

/** A mark above the transcript of a game whose participant the study excluded, with the reason in words. */
export function ExcludedNote(reason: string | undefined): HTMLElement {
  const note = document.createElement("p");
  note.className = "parley-excluded-note";
  note.dataset.excluded = "true";
  const strong = document.createElement("strong");
  strong.textContent = "Excluded participant. ";
  note.append(strong, `This game's participant ${reasonText(reason ?? "unstated")}; the report's headline results leave the game out.`);
  return note;
}
