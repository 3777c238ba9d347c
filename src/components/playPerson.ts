/**
 * The game as a participant of `parley play` sees it (playStudy.ts): what
 * has happened in words, the situation now (the standing offer and what it
 * is worth to them after discounting), and the move as a form labelled from
 * their side in the game's currency, nothing chosen in advance
 * (src/lib/playWords.ts); what a language model in their seat would be told
 * is one click away in a <details>. While the other player moves, the form
 * is disabled and a live region says so; a second click plays nothing; the
 * current question is scrolled into view after every move. Everything from
 * the game, the model or the person is set as text, never as HTML.
 */
import {actionForms, parseEntry, rangeText, type ActionForm, type FieldModel, type FormValues} from "../lib/playForm.js";
import {amount, gameUnit, historyLines, outcomeWords, personForm, promptForPeople, seatLabel, situation, type Side} from "../lib/playWords.js";
import {conversation, el} from "./playView.js";
import type {Pending, PlayDriver, PlayRecord} from "./playDriver.js";

let ids = 0;
const uid = (stem: string) => `${stem}-${++ids}`;

/** One field as labelled inputs; `read` collects what was typed or chosen. Nothing is chosen in advance. */
function field(f: FieldModel, side: Side): {node: HTMLElement; read: () => string | string[]} {
  if (f.kind === "choice") {
    const group = el("fieldset", {className: "play-choice"}, el("legend", {textContent: f.label}));
    const inputs = f.options.map((o) => {
      const input = el("input", {type: "radio", name: `field-${f.name}`, value: o.value});
      group.append(el("label", {className: "play-option"}, input, el("span", {textContent: o.label})));
      return input;
    });
    return {node: group, read: () => inputs.find((i) => i.checked)?.value ?? ""};
  }
  const hintId = uid("play-hint");
  const wrap = el("div", {className: "play-field"});
  const id = uid("play-input");
  wrap.append(el("label", {htmlFor: id, textContent: f.label}));
  if (f.kind === "text") {
    const area = el("textarea", {id, name: `field-${f.name}`, rows: 2});
    wrap.append(area);
    return {node: wrap, read: () => area.value};
  }
  const range = f.kind === "number" ? f.range : f.item;
  const hint = el("small", {id: hintId, className: "play-hint", textContent: f.kind === "list" ? `${f.length} numbers, each ${rangeText(range)}` : `Enter ${rangeText(range).replace(/(\d+)/g, (d) => amount(Number(d), null))}${side.unit ? ` (${side.unit})` : ""}.`});
  if (f.kind === "number") {
    const input = el("input", {id, type: "text", name: `field-${f.name}`, inputMode: "decimal", autocomplete: "off"});
    input.setAttribute("aria-describedby", hintId);
    wrap.append(input, hint);
    return {node: wrap, read: () => input.value};
  }
  const inputs = Array.from({length: f.length}, (_, i) => {
    const input = el("input", {type: "text", name: `field-${f.name}-${i}`, inputMode: "decimal", size: 6, autocomplete: "off"});
    input.setAttribute("aria-label", `${f.label} ${i + 1}`);
    input.setAttribute("aria-describedby", hintId);
    return input;
  });
  inputs[0].id = id;
  wrap.append(el("span", {className: "play-list"}, ...inputs), hint);
  return {node: wrap, read: () => inputs.map((x) => x.value)};
}

/** The form of the legal moves from the person's side: a choice of move when there are several (none chosen), then its fields. */
function moveForm(p: Pending, side: Side, onEntry: (form: ActionForm, values: FormValues) => void): {form: HTMLFormElement; controls: HTMLFieldSetElement} {
  const forms = actionForms(p.legal).map((f) => personForm(f, side));
  const form = el("form", {className: "play-form play-person-form"});
  form.noValidate = true;
  const controls = el("fieldset", {className: "play-controls"});
  controls.append(el("legend", {className: "play-visually-hidden", textContent: "Your move"}));
  const fields = el("div", {className: "play-fields"});
  let chosen: ActionForm | null = forms.length === 1 ? forms[0] : null;
  let readers: {name: string; read: () => string | string[]}[] = [];
  const show = () => {
    readers = [];
    fields.replaceChildren();
    for (const f of chosen?.fields ?? []) {
      const {node, read} = field(f, side);
      fields.append(node);
      readers.push({name: f.name, read});
    }
  };
  if (forms.length > 1) {
    const kinds = el("fieldset", {className: "play-choice"}, el("legend", {textContent: "What do you do?"}));
    for (const f of forms) {
      const input = el("input", {type: "radio", name: "action-type", value: f.type});
      input.addEventListener("change", () => {
        chosen = f;
        show();
      });
      kinds.append(el("label", {className: "play-option"}, input, el("span", {textContent: f.label})));
    }
    controls.append(kinds);
  }
  show();
  controls.append(fields, el("button", {type: "submit", className: "play-submit", textContent: "Send my move"}));
  form.append(controls);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    onEntry(chosen ?? ({type: "", label: "", fields: [], sum: null} as ActionForm), Object.fromEntries(readers.map((r) => [r.name, r.read()])));
  });
  return {form, controls};
}

/** Who the person is, for labels: their seat name, the game's seat names, the game's unit. */
export function sideOf(game: string, seatName: string | null, names: readonly string[]): Side {
  return {me: seatName, names, unit: gameUnit(game)};
}

/** The outcome in words (the record of the finished game). */
export function outcomeView(record: PlayRecord, names: readonly string[]): HTMLElement {
  const box = el("div", {className: "play-outcome"});
  const rows = record.rows;
  if (!rows) return box;
  const seat = record.spec.seats.indexOf("human");
  const seatName = names[seat] ?? null;
  box.append(el("h2", {textContent: "The game is over"}));
  for (const line of outcomeWords(record.spec.game, record.spec.params as Record<string, unknown>, rows.row as Record<string, unknown>, rows.players as Record<string, unknown>[], seat, sideOf(record.spec.game, seatName, names))) box.append(el("p", {textContent: line}));
  return box;
}

export interface PersonViewOptions {
  /** The game's seat names in seat order (empty when it names none). */
  seatNames: readonly string[];
}

/** The participant's game view over `driver`. */
export function PersonPlayView(driver: PlayDriver, options: PersonViewOptions): HTMLElement {
  const root = el("div", {className: "play-game play-person"});
  const waiting = el("p", {className: "play-waiting", role: "status"});
  waiting.setAttribute("aria-live", "polite");
  const error = el("p", {className: "play-error", role: "alert"});
  let busy = false;
  let first = true;

  const wait = (text: string) => {
    waiting.textContent = text;
    root.classList.toggle("play-is-waiting", text !== "");
    root.setAttribute("aria-busy", text ? "true" : "false");
  };

  const render = async () => {
    // The other player may still be thinking (a reload in the middle of its turn): say so until the decision comes.
    const slow = setTimeout(() => {
      if (!waiting.isConnected) root.append(waiting);
      wait("Waiting for the other player…");
    }, 150);
    const p = await driver.pending();
    clearTimeout(slow);
    wait("");
    if (!p) {
      const record = await driver.record();
      root.replaceChildren(outcomeView(record, options.seatNames), waiting);
      root.querySelector("h2")?.scrollIntoView({block: "start"});
      return;
    }
    const side = sideOf(p.observation.game, p.seat_name, options.seatNames);
    const others = options.seatNames.filter((n) => n !== p.seat_name);
    const otherName = others.length === 1 ? seatLabel(others[0], options.seatNames.indexOf(others[0])) : "the other players";

    const history = historyLines(p.observation.view, side);
    const past = el("section", {className: "play-history"});
    if (history.length) {
      past.append(el("h2", {textContent: "So far"}));
      const list = el("ol");
      for (const line of history) list.append(el("li", {textContent: line}));
      past.append(list);
    }

    const current = el("section", {className: "play-current", tabIndex: -1});
    const headId = uid("play-now");
    current.setAttribute("aria-labelledby", headId);
    current.append(el("h2", {id: headId, className: "play-status", textContent: `Your move (you are ${seatLabel(p.seat_name, p.seat)})`}));
    const told = situation(p.observation.game, p.observation.view, p.round, side);
    if (told) for (const line of told) current.append(el("p", {className: "play-situation", textContent: line}));
    else {
      current.append(el("p", {className: "play-situation", textContent: `Round ${p.round}.`}));
      const last = [...p.messages].reverse().find((m) => m.role === "user");
      if (last) current.append(el("p", {className: "play-situation", textContent: promptForPeople(last.content)}));
    }
    error.textContent = "";
    const {form, controls} = moveForm(p, side, async (chosen, values) => {
      if (busy) return;
      if (!chosen.type) {
        error.textContent = "Please choose what you do.";
        return;
      }
      const parsed = parseEntry(chosen, values);
      if ("error" in parsed) {
        error.textContent = parsed.error;
        return;
      }
      busy = true;
      controls.disabled = true;
      error.textContent = "";
      wait(`Your move is sent. Waiting for ${otherName}…`);
      try {
        const done = await driver.submit(parsed.action);
        if ("error" in done) {
          error.textContent = `Not played: ${done.error}`;
          controls.disabled = false;
          wait("");
        } else await render();
      } catch (e) {
        error.textContent = `Could not reach the server: ${(e as Error).message}. Your move may not have been sent; please try again.`;
        controls.disabled = false;
        wait("");
      } finally {
        busy = false;
      }
    });
    current.append(form, waiting, error);
    const prompt = el("details", {className: "play-prompt"}, el("summary", {textContent: "What a language model in your seat would be told"}), conversation(p));
    root.replaceChildren(past, current, prompt);
    // The question stays in view: the page scrolls to it after every move (not on the first screen, which starts at the top).
    if (!first) current.scrollIntoView({block: "start"});
    current.focus({preventScroll: true});
    first = false;
  };
  void render();
  return root;
}
