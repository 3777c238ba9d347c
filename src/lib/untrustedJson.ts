/**
 * JSON values whose shape nobody here chose: a model's answer, a provider's
 * reply body. V8's JSON.parse reads any nesting (it keeps its own stack, not
 * the call stack), but JSON.stringify, structuredClone and any recursive walk
 * afterwards throw "Maximum call stack size exceeded" on a value nested some
 * thousands deep, and a value of megabytes quoted in an error message makes a
 * megabyte message. The helpers here never recurse: `deeperThan` says
 * whether a value nests past a limit, `jsonText` writes any JSON value as
 * JSON.stringify does, and `jsonPreview` quotes a value in a message, cut
 * short. Pure: no DOM, no Node API.
 */

/** Nesting a model's answer may have: a game's action is two or three levels deep (structured output's `{"action": {..., "plan": [...]}}`); deeper is not an answer. */
export const MAX_ANSWER_DEPTH = 64;

/** Characters of a value quoted in a message (a rule break's reason, which the model is shown when asked again). */
export const PREVIEW_CHARS = 200;

const isContainer = (v: unknown): v is object => v !== null && typeof v === "object";

/** Whether `value` nests arrays and objects more than `limit` levels (a scalar is 0 levels, `[]` and `{}` one). */
export function deeperThan(value: unknown, limit: number): boolean {
  if (!isContainer(value)) return false;
  const stack: object[] = [value];
  const depths: number[] = [1];
  while (stack.length) {
    const v = stack.pop()!;
    const depth = depths.pop()!;
    if (depth > limit) return true;
    const children = Array.isArray(v) ? v : Object.values(v);
    for (const child of children) {
      if (isContainer(child)) {
        stack.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/** One array or object being written: its items (an object's keys) and how far. */
interface Frame {
  value: object;
  keys: string[] | null;
  i: number;
  wrote: boolean;
}

/**
 * The JSON text of `value`, as JSON.stringify writes it (no indentation), at
 * any nesting; `limit` stops writing once the text is that long (a prefix is
 * returned). undefined where JSON.stringify returns it (undefined, a function).
 */
export function jsonText(value: unknown, limit = Infinity): string | undefined {
  if (!isContainer(value) || typeof (value as {toJSON?: unknown}).toJSON === "function") return JSON.stringify(value);
  const out: string[] = [];
  let length = 0;
  const write = (s: string) => {
    out.push(s);
    length += s.length;
  };
  const stack: Frame[] = [];
  const open = (v: object) => {
    write(Array.isArray(v) ? "[" : "{");
    stack.push({value: v, keys: Array.isArray(v) ? null : Object.keys(v), i: 0, wrote: false});
  };
  // A member: a nested container is opened, anything else written by JSON.stringify (which does not recurse on it).
  const member = (v: unknown) => (isContainer(v) && typeof (v as {toJSON?: unknown}).toJSON !== "function" ? open(v) : write(JSON.stringify(v) ?? "null"));
  open(value);
  while (stack.length && length < limit) {
    const f = stack[stack.length - 1];
    if (f.keys === null) {
      const items = f.value as unknown[];
      if (f.i === items.length) {
        write("]");
        stack.pop();
        continue;
      }
      if (f.i > 0) write(",");
      member(items[f.i++]);
      continue;
    }
    const object = f.value as Record<string, unknown>;
    // Members JSON.stringify leaves out of an object.
    while (f.i < f.keys.length && skipped(object[f.keys[f.i]])) f.i++;
    if (f.i === f.keys.length) {
      write("}");
      stack.pop();
      continue;
    }
    const key = f.keys[f.i++];
    write(`${f.wrote ? "," : ""}${JSON.stringify(key)}:`);
    f.wrote = true;
    member(object[key]);
  }
  return out.join("");
}

const skipped = (v: unknown) => v === undefined || typeof v === "function" || typeof v === "symbol";

/** `value` quoted for a message: its JSON (as JSON.stringify writes it), cut to `max` characters and an ellipsis; "undefined" for undefined. */
export function jsonPreview(value: unknown, max = PREVIEW_CHARS): string {
  const text = jsonText(value, max + 1);
  if (text === undefined) return "undefined";
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
