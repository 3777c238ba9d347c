/**
 * Checking an action against the legal-action specs a game publishes.
 * Returns null when legal, else a message naming the field and what was
 * expected (the runner stores it as turns.rule_break_reason and shows it to
 * a language agent when it asks again). A value is quoted as JSON, cut short
 * (jsonPreview): a model's answer may hold megabytes, or nest thousands deep.
 */
import type {ActionSpec} from "./game.js";
import {jsonPreview} from "../../src/lib/untrustedJson.js";

const fmt = (x: number) => (Number.isInteger(x) ? String(x) : x.toPrecision(6));

/** Why `action` matches none of `specs`, or null when it matches one. */
export function checkAction(specs: readonly ActionSpec[], action: unknown): string | null {
  if (action === null || typeof action !== "object" || Array.isArray(action)) return `expected an object, got ${jsonPreview(action)}`;
  const a = action as Record<string, unknown>;
  const spec = specs.find((s) => s.type === a.type);
  if (!spec) return `action type ${jsonPreview(a.type)} is not allowed now; expected ${specs.map((s) => JSON.stringify(s.type)).join(" or ")}`;
  return checkSpec(spec, a);
}

// Plain loops (no Object.entries, no Set): this runs for every turn of every game.
function checkSpec(spec: ActionSpec, a: Record<string, unknown>): string | null {
  const optional = spec.optional;
  const numbers = spec.numbers;
  if (numbers) {
    for (const field in numbers) {
      const range = numbers[field];
      const v = a[field];
      if (v === undefined && optional?.includes(field)) continue;
      const error = checkNumber(field, v, range);
      if (error) return error;
    }
  }
  const lists = spec.lists;
  if (lists) {
    for (const field in lists) {
      const {length, item} = lists[field];
      const v = a[field];
      if (v === undefined && optional?.includes(field)) continue;
      if (!Array.isArray(v)) return `${field}: expected a list of ${length} numbers, got ${jsonPreview(v)}`;
      if (v.length !== length) return `${field}: expected ${length} entries, got ${v.length}`;
      for (let i = 0; i < v.length; i++) {
        const error = checkNumber(`${field}[${i}]`, v[i], item);
        if (error) return error;
      }
    }
  }
  const choices = spec.choices;
  if (choices) {
    for (const field in choices) {
      const values = choices[field];
      const v = a[field];
      if (v === undefined && optional?.includes(field)) continue;
      if (!(typeof v === "string" || v === null) || !values.includes(v)) return `${field}: expected one of ${values.map((x) => JSON.stringify(x)).join(", ")}, got ${jsonPreview(v)}`;
    }
  }
  if (spec.sum) {
    let total = 0;
    for (const f of spec.sum.fields) {
      const v = a[f];
      if (Array.isArray(v)) for (const x of v) total += x as number;
      else total += v as number;
    }
    const tolerance = 1e-6 * Math.max(1, Math.abs(spec.sum.equals));
    if (Math.abs(total - spec.sum.equals) > tolerance) return `${spec.sum.fields.join(" + ")} must equal ${fmt(spec.sum.equals)}, got ${fmt(total)}`;
  }
  if (spec.text && spec.text.field !== "message" && spec.text.field !== "text") {
    const error = checkText(spec, a, spec.text.field);
    if (error) return error;
  }
  return checkText(spec, a, "message") ?? checkText(spec, a, "text");
}

function checkNumber(field: string, v: unknown, range: {min?: number; max?: number; integer?: boolean}): string | null {
  if (typeof v !== "number" || !Number.isFinite(v)) return `${field}: expected a number, got ${jsonPreview(v)}`;
  if (range.integer && !Number.isInteger(v)) return `${field}: expected a whole number, got ${fmt(v)}`;
  if (range.min !== undefined && v < range.min) return `${field}: ${fmt(v)} is below the minimum ${fmt(range.min)}`;
  if (range.max !== undefined && v > range.max) return `${field}: ${fmt(v)} is above the maximum ${fmt(range.max)}`;
  return null;
}

function checkText(spec: ActionSpec, a: Record<string, unknown>, field: string): string | null {
  const v = a[field];
  const allowed = spec.text?.field === field;
  if (v === undefined || v === null || v === "") return allowed && spec.text!.required ? `${field}: a non-empty text is required` : null;
  if (!allowed) return `${field}: no text may be sent in this game`;
  if (typeof v !== "string") return `${field}: expected a string, got ${jsonPreview(v)}`;
  return null;
}

/**
 * Formats a money amount the way the GLEE prompts do ($1,000; $12.5), at most
 * two decimals. Hand-rolled because toLocaleString costs tens of
 * microseconds a call, which dominated full-grid runs.
 */
export function money(x: number): string {
  const [int, frac] = Math.abs(x).toFixed(2).split(".");
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const cents = frac === "00" ? "" : "." + frac.replace(/0$/, "");
  return (x < 0 && (int !== "0" || cents) ? "-$" : "$") + grouped + cents;
}

/** "10%" from a discount factor 0.9 (the per-round loss of value). */
export function lossPercent(delta: number): string {
  return `${Math.round((1 - delta) * 1000) / 10}%`;
}
