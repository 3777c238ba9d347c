/**
 * The form a person fills in to move, derived from the legal actions a game
 * publishes (`ActionSpec`, actionSpec.ts): one form per legal
 * action type, a field per number (with its range), choice, list of numbers
 * and free-text message. Pure, so the static play page and the experiment
 * server's page render the same form (src/components/playForm.ts) and read
 * it the same way: `parseEntry` turns what was typed into the action, or one
 * sentence saying what is wrong ("Price must be a number, not "ten"").
 * The session checks the action again against the game (loaders/play/).
 */
import type {ActionSpec, NumberSpec} from "./actionSpec.js";

export type FieldModel =
  | {kind: "number"; name: string; label: string; range: NumberSpec; optional: boolean}
  | {kind: "list"; name: string; label: string; length: number; item: NumberSpec; optional: boolean}
  | {kind: "choice"; name: string; label: string; options: {value: string; label: string}[]; optional: boolean}
  | {kind: "text"; name: string; label: string; required: boolean};

/** One legal action type as a form. */
export interface ActionForm {
  type: string;
  label: string;
  fields: FieldModel[];
  sum: {fields: string[]; equals: number} | null;
}

/** What the inputs hold: a string per field, a list of strings for a list field. */
export type FormValues = Record<string, string | readonly string[] | undefined>;

/** The value of a choice option that stands for null (a choice a game lets a seat leave empty). */
export const NONE = "";

/** "alice_gain" → "Alice gain". */
export function fieldLabel(name: string): string {
  const words = name.replace(/_/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The forms of the legal actions, in the game's order. */
export function actionForms(legal: readonly ActionSpec[]): ActionForm[] {
  return legal.map((spec) => {
    const optional = (name: string) => spec.optional?.includes(name) ?? false;
    const fields: FieldModel[] = [];
    for (const [name, range] of Object.entries(spec.numbers ?? {})) fields.push({kind: "number", name, label: fieldLabel(name), range, optional: optional(name)});
    for (const [name, {length, item}] of Object.entries(spec.lists ?? {})) fields.push({kind: "list", name, label: fieldLabel(name), length, item, optional: optional(name)});
    for (const [name, values] of Object.entries(spec.choices ?? {})) {
      const options = values.map((v) => (v === null ? {value: NONE, label: "(none)"} : {value: v, label: v}));
      fields.push({kind: "choice", name, label: fieldLabel(name), options, optional: optional(name)});
    }
    if (spec.text) fields.push({kind: "text", name: spec.text.field, label: fieldLabel(spec.text.field), required: spec.text.required});
    return {type: spec.type, label: fieldLabel(spec.type), fields, sum: spec.sum ?? null};
  });
}

const fmt = (x: number): string => (Number.isInteger(x) ? String(x) : String(Math.round(x * 1e6) / 1e6));

/** What a number field accepts, in words: "a whole number between 0 and 100". */
export function rangeText(range: NumberSpec): string {
  const what = range.integer ? "a whole number" : "a number";
  const {min, max} = range;
  if (min !== undefined && max !== undefined) return `${what} between ${fmt(min)} and ${fmt(max)}`;
  if (min !== undefined) return `${what} of at least ${fmt(min)}`;
  if (max !== undefined) return `${what} of at most ${fmt(max)}`;
  return what;
}

/** Reads a typed number: "1,000", "$1,000.50" and " 7 " are numbers; anything else is not. */
export function readNumber(text: string): number | null {
  const t = text.trim().replace(/^\$/, "").replace(/,(?=\d{3}(\D|$))/g, "");
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return null;
  const x = Number(t);
  return Number.isFinite(x) ? x : null;
}

function parseNumber(label: string, text: string, range: NumberSpec): {value: number} | {error: string} {
  const x = readNumber(text);
  const due = rangeText(range);
  if (x === null) return {error: `${label} must be ${due}, not "${text.trim()}" (text where a number is due)`};
  const out = (range.integer && !Number.isInteger(x)) || (range.min !== undefined && x < range.min) || (range.max !== undefined && x > range.max);
  return out ? {error: `${label} must be ${due}; ${fmt(x)} is not`} : {value: x};
}

const blank = (v: string | readonly string[] | undefined): boolean => v === undefined || (typeof v === "string" ? v.trim() === "" : v.every((x) => x.trim() === ""));

/** The action the form's values make, or why they make none. */
export function parseEntry(form: ActionForm, values: FormValues): {action: Record<string, unknown>} | {error: string} {
  const action: Record<string, unknown> = {type: form.type};
  for (const f of form.fields) {
    const v = values[f.name];
    if (f.kind === "text") {
      const text = typeof v === "string" ? v : "";
      if (text.trim() === "") {
        if (f.required) return {error: `${f.label} is required`};
        continue;
      }
      action[f.name] = text;
      continue;
    }
    if (blank(v)) {
      if (f.optional) continue;
      return {error: `${f.label} is required${f.kind === "number" ? `: enter ${rangeText(f.range)}` : ""}`};
    }
    if (f.kind === "number") {
      const r = parseNumber(f.label, String(v), f.range);
      if ("error" in r) return r;
      action[f.name] = r.value;
    } else if (f.kind === "list") {
      const items = typeof v === "string" ? v.split(/[\s,;]+/).filter((x) => x !== "") : [...v!];
      if (items.length !== f.length) return {error: `${f.label} needs ${f.length} numbers, got ${items.length}`};
      const list: number[] = [];
      for (let i = 0; i < items.length; i++) {
        const r = parseNumber(`${f.label} #${i + 1}`, items[i], f.item);
        if ("error" in r) return r;
        list.push(r.value);
      }
      action[f.name] = list;
    } else {
      const option = f.options.find((o) => o.value === v);
      if (!option) return {error: `${f.label} must be one of ${f.options.map((o) => o.label).join(", ")}`};
      action[f.name] = option.value === NONE ? null : option.value;
    }
  }
  if (form.sum) {
    let total = 0;
    for (const name of form.sum.fields) {
      const v = action[name];
      total += Array.isArray(v) ? v.reduce((a: number, b: number) => a + b, 0) : (v as number);
    }
    if (Math.abs(total - form.sum.equals) > 1e-6 * Math.max(1, Math.abs(form.sum.equals))) {
      const labels = form.sum.fields.map(fieldLabel).join(" + ");
      return {error: `${labels} must add up to ${fmt(form.sum.equals)}; they add up to ${fmt(total)}`};
    }
  }
  return {action};
}
