/**
 * The play page's game view: what the person is told (the conversation an
 * LLM in the seat would read), a form that offers only the legal moves
 * (src/lib/playForm.ts), a clear message for an entry the game refuses, and
 * at the end the outcome and a "Download record" link. Everything a game,
 * an agent or a person wrote is inserted with textContent, never as HTML.
 */
import {actionForms, parseEntry, rangeText, type ActionForm, type FieldModel, type FormValues} from "../lib/playForm.js";
import type {Pending, PlayDriver, PlayRecord} from "./playDriver.js";

/** An element with properties and children (text children are text nodes, never HTML). */
export const el = <K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] => {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
};

const ROLE_LABELS = {system: "Rules", user: "Game", assistant: "You"} as const;

/** The conversation, each message as text. */
export function conversation(p: Pending): HTMLElement {
  const list = el("div", {className: "play-messages"});
  for (const m of p.messages) {
    list.append(el("div", {className: `play-message play-${m.role}`}, el("div", {className: "play-role", textContent: ROLE_LABELS[m.role]}), el("div", {className: "play-text", textContent: m.content})));
  }
  return list;
}

/** One input per field; `read` collects what was typed. */
function fieldInput(f: FieldModel): {node: HTMLElement; read: () => string | string[]} {
  const label = el("label", {className: "play-field"}, el("span", {textContent: f.label}));
  if (f.kind === "number") {
    const input = el("input", {type: "text", name: `field-${f.name}`, inputMode: "decimal", placeholder: rangeText(f.range), autocomplete: "off"});
    label.append(input);
    return {node: label, read: () => input.value};
  }
  if (f.kind === "list") {
    const inputs = Array.from({length: f.length}, (_, i) => el("input", {type: "text", name: `field-${f.name}-${i}`, inputMode: "decimal", placeholder: rangeText(f.item), size: 6, autocomplete: "off"}));
    label.append(...inputs);
    return {node: label, read: () => inputs.map((x) => x.value)};
  }
  if (f.kind === "choice") {
    const select = el("select", {name: `field-${f.name}`});
    if (f.optional) select.append(el("option", {value: "", textContent: "(none)"}));
    for (const o of f.options) if (!(f.optional && o.value === "")) select.append(el("option", {value: o.value, textContent: o.label}));
    label.append(select);
    return {node: label, read: () => select.value};
  }
  const area = el("textarea", {name: `field-${f.name}`, rows: 2, placeholder: f.required ? "required" : "optional"});
  label.append(area);
  return {node: label, read: () => area.value};
}

/** The form of the legal moves: a choice of move when there are several, then its fields. */
function moveForm(p: Pending, onEntry: (form: ActionForm, values: FormValues) => void): HTMLFormElement {
  const forms = actionForms(p.legal);
  const form = el("form", {className: "play-form"});
  const kind = el("select", {name: "action-type"});
  for (const f of forms) kind.append(el("option", {value: f.type, textContent: f.label}));
  const fields = el("div", {className: "play-fields"});
  let readers: {name: string; read: () => string | string[]}[] = [];
  const show = () => {
    const chosen = forms.find((f) => f.type === kind.value) ?? forms[0];
    readers = [];
    fields.replaceChildren();
    for (const f of chosen.fields) {
      const {node, read} = fieldInput(f);
      fields.append(node);
      readers.push({name: f.name, read});
    }
  };
  kind.addEventListener("change", show);
  if (forms.length > 1) form.append(el("label", {className: "play-field"}, el("span", {textContent: "Move"}), kind));
  show();
  form.append(fields, el("button", {type: "submit", className: "play-submit", textContent: "Play this move"}));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const chosen = forms.find((f) => f.type === kind.value) ?? forms[0];
    onEntry(chosen, Object.fromEntries(readers.map((r) => [r.name, r.read()])));
  });
  return form;
}

/** The outcome: how the game ended, and each seat's agent and payoff. */
function outcome(record: PlayRecord): HTMLElement {
  const box = el("div", {className: "play-outcome"});
  const rows = record.rows;
  if (!rows) return box;
  const you = record.spec.seats.indexOf("human");
  box.append(el("h3", {textContent: "Game over"}), el("p", {textContent: `Ended by ${rows.row.ended_by} after ${rows.row.rounds} round${rows.row.rounds === 1 ? "" : "s"}.`}));
  const table = el("table");
  table.append(el("tr", {}, ...["Seat", "Player", "Payoff"].map((h) => el("th", {textContent: h}))));
  for (const p of rows.players) {
    const seat = String(p.seat_name ?? `seat ${p.seat}`) + (p.seat === you ? " (you)" : "");
    const ret = typeof p.return === "number" ? String(Math.round(p.return * 100) / 100) : "";
    table.append(el("tr", {}, el("td", {textContent: seat}), el("td", {textContent: String(p.agent)}), el("td", {className: "play-return", textContent: ret})));
  }
  box.append(table, downloadLink(record));
  return box;
}

/** The record as a JSON file to download (`parley ingest human` reads it). */
export function downloadLink(record: PlayRecord): HTMLAnchorElement {
  const blob = new Blob([JSON.stringify(record, null, 2)], {type: "application/json"});
  return el("a", {className: "play-download", href: URL.createObjectURL(blob), download: `parley-play-${record.spec.game_id}.json`, textContent: "Download record"});
}

/** The game view: shows the current decision, plays entries, and ends with the outcome. */
export function PlayView(driver: PlayDriver): HTMLElement {
  const root = el("div", {className: "play-game"});
  const error = el("p", {className: "play-error", role: "alert"});
  // Said by screen readers as it changes (a polite live region, kept across renders): the round and the game's newest message, or the outcome.
  const announce = el("p", {className: "play-announce parley-visually-hidden"});
  announce.setAttribute("aria-live", "polite");
  announce.setAttribute("role", "status");
  let moves = 0;
  const render = async () => {
    const p = await driver.pending();
    if (!p) {
      const record = await driver.record();
      const turns = el("pre", {className: "play-turns", tabIndex: 0, textContent: JSON.stringify(record.rows?.turns ?? [], null, 1)});
      turns.setAttribute("aria-label", "The game's turns as JSON");
      const result = outcome(record);
      root.replaceChildren(announce, result, el("details", {}, el("summary", {textContent: "The game's turns"}), turns));
      announce.textContent = `Game over. ${result.querySelector("p")?.textContent ?? ""}`;
      result.tabIndex = -1;
      if (moves) result.focus();
      return;
    }
    const head = el("p", {className: "play-status", tabIndex: -1, textContent: `Round ${p.round} — you play ${p.seat_name ?? `seat ${p.seat}`}.`});
    const last = p.messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
    announce.textContent = `${head.textContent} ${last.length > 400 ? `${last.slice(0, 400)}…` : last}`;
    error.textContent = "";
    const form = moveForm(p, async (chosen, values) => {
      const parsed = parseEntry(chosen, values);
      if ("error" in parsed) {
        error.textContent = parsed.error;
        return;
      }
      const done = await driver.submit(parsed.action);
      if ("error" in done) error.textContent = `Not played: ${done.error}`;
      else moves++, await render();
    });
    root.replaceChildren(announce, conversation(p), head, form, error);
    // After a move the keyboard goes on from the new round's status, not from the top of the page.
    if (moves) head.focus();
  };
  void render();
  return root;
}
