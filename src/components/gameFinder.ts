/**
 * A table of games to find one in: a search box, filters ("no agreement",
 * "rule breaks"), columns sortable by a click on their heading, each game's
 * id a link to its transcript. The element's value is the chosen game's id
 * (an `input` event on each choice), so it works with urlInput and view().
 * Numbers are written with one count of decimals per column
 * (src/lib/gameFinder.ts); text is set as text, never as HTML.
 */
import * as Inputs from "@observablehq/inputs";
import {columnFormat, filterGames, varyingParameters, type GameRow} from "../lib/gameFinder.js";
import {reasonText} from "../lib/studyParticipants.js";
import {rowsCsv} from "./exports.js";
import {Exportable} from "./exports.js";

export interface GameFinderOptions {
  /** The game chosen first (its id). */
  value?: string;
  /** The columns shown, in order (game_id first is added when missing). */
  columns: string[];
  header?: Record<string, string>;
  /** Counts each game's rule breaks, asked when the filter is first ticked (it may read every turn). */
  ruleBreaks?: () => Promise<Map<string, number>>;
  /** The id of the element that shows the chosen game (its transcript), for the links. */
  target?: string;
  name?: string;
}

type Finder = HTMLElement & {value: string | null};

/** The current page's address with `game` set to `id`, pointing at `target`. */
function gameHref(id: string, target: string): string {
  const url = new URL(location.href);
  url.searchParams.set("game", id);
  url.hash = target;
  return url.pathname + url.search + url.hash;
}

export function GameFinder(given: GameRow[], {value, columns, header = {}, ruleBreaks, target = "transcript", name = "games"}: GameFinderOptions): Finder {
  const root = document.createElement("div") as unknown as Finder;
  root.className = "parley-game-finder";
  root.value = given.some((r) => r.game_id === value) ? value! : (given[0]?.game_id ?? null);
  let counted: Map<string, number> | null = null;
  // The parameters every listed game shares are said once, above the table; the column keeps what tells the games apart.
  const own = varyingParameters(given.map((r) => r.parameters));
  const rows = given.map((r, i) => ("parameters" in r ? {...r, parameters: own[i]} : r));
  const shared = given.length && "parameters" in given[0] ? (given[0].parameters ?? "").split(", ").filter((part) => !own[0].split(", ").includes(part)).join(", ") : "";
  const shown = (columns.includes("game_id") ? [...columns] : ["game_id", ...columns]).filter((c) => c !== "parameters" || own.some(Boolean));
  // The mark of an excluded participant's game comes right after its link.
  if (rows.some((r) => r.excluded)) shown.splice(1, 0, "excluded");

  const controls = document.createElement("div");
  controls.className = "parley-game-filters";
  const search = Object.assign(document.createElement("input"), {type: "search", placeholder: "agent, parameter, outcome…"});
  search.setAttribute("aria-label", "Search the games");
  const searchLabel = document.createElement("label");
  searchLabel.append("Search ", search);
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
  controls.append(searchLabel, noDeal.label, broke.label, count);
  controls.style.cssText = "display: flex; flex-wrap: wrap; gap: 0.4rem 1.2rem; align-items: center; margin: 0.5rem 0;";
  const area = document.createElement("div");
  const common = document.createElement("p");
  common.className = "parley-game-common";
  common.textContent = shared ? `Every game listed: ${shared}.` : "";
  root.append(controls, ...(shared ? [common] : []), area);

  const formats: Record<string, (v: unknown) => unknown> = {};
  for (const c of shown) {
    const values = rows.map((r) => r[c]);
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
    const kept = filterGames(withCounts, {search: search.value, noAgreement: noDeal.input.checked, ruleBreaks: broke.input.checked && counted !== null});
    const cols = counted && !shown.includes("rule_breaks") ? [...shown, "rule_breaks"] : shown;
    if (counted) formats.rule_breaks = columnFormat(withCounts.map((r) => r.rule_breaks));
    count.textContent = `${kept.length.toLocaleString("en-US")} of ${rows.length.toLocaleString("en-US")} games`;
    const table = Inputs.table(kept, {
      columns: cols, header: {game_id: "game", rule_breaks: "rule breaks", excluded: "participant", ...header}, format: formats, select: false,
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
    area.replaceChildren(Exportable(table, {name, csvText: () => rowsCsv(kept, {columns: cols, header, format: formats as any})}));
  };

  search.addEventListener("input", render);
  noDeal.input.addEventListener("change", render);
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
