/**
 * JSON written by people (run configs, experiments, parley.config.json,
 * datasets sources, play records) read strictly. JSON.parse keeps the last
 * of two equal keys without a word, so `"seed": 1, …, "seed": 2` silently
 * plays seed 2; and it accepts arrays nested 100,000 deep, which the
 * recursive code after it (validators, JSON.stringify in a message)
 * cannot walk without overflowing the stack. So the text is parsed, then
 * scanned once, without recursion, for a key given twice in one object and
 * for nesting deeper than `maxDepth`; either is a JsonInputError whose
 * message names the line, column and key path
 * (`line 3, column 22 (grid.money): "money" is given twice in one object (also at line 3); give each key once`).
 */

/** Nesting any configuration may have: objects and arrays inside each other, counted from the top value. */
export const MAX_JSON_DEPTH = 32;

/** Text that is not strict JSON; the message is one line (the caller adds the file name). */
export class JsonInputError extends Error {}

interface Level {
  array: boolean;
  /** Keys met so far in an object, with the line of each. */
  keys: Map<string, number>;
  /** The current key (objects) or index (arrays): the path component of the value being read. */
  at: string | number | null;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** A path such as `grid.money[0]`, shortened in the middle when deep. */
function pathOf(stack: readonly Level[]): string {
  const parts = stack.filter((l) => l.at !== null).map((l) => (typeof l.at === "number" ? `[${l.at}]` : IDENTIFIER.test(l.at!) ? `.${l.at}` : `[${JSON.stringify(l.at!.slice(0, 40))}]`));
  const shown = parts.length > 12 ? [...parts.slice(0, 8), "…", ...parts.slice(-2)] : parts;
  return shown.join("").replace(/^\./, "") || "the top value";
}

/**
 * Parses `text` as JSON, refusing a key given twice in one object and
 * nesting deeper than `maxDepth`. Throws JsonInputError (one line) for
 * those and for text that is not JSON.
 */
export function parseJsonStrict(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new JsonInputError(`not valid JSON (${(error as Error).message.split("\n")[0]})`);
  }
  // Valid JSON from here on: only strings and the structural characters need reading.
  const stack: Level[] = [];
  let line = 1;
  let lineStart = 0;
  const where = (i: number) => `line ${line}, column ${i - lineStart + 1} (${pathOf(stack)})`;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) {
      line++;
      lineStart = i + 1;
    } else if (c === 0x22) {
      // A string: to its closing quote (JSON strings hold no raw line breaks).
      let end = i + 1;
      while (text.charCodeAt(end) !== 0x22) end += text.charCodeAt(end) === 0x5c ? 2 : 1;
      const top = stack.at(-1);
      if (expectKey && top) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        top.at = key;
        const also = top.keys.get(key);
        if (also !== undefined) throw new JsonInputError(`${where(i)}: ${JSON.stringify(key.slice(0, 60))} is given twice in one object (also at line ${also}); give each key once`);
        top.keys.set(key, line);
        expectKey = false;
      }
      i = end;
    } else if (c === 0x7b || c === 0x5b) {
      // { or [
      if (stack.length >= maxDepth) throw new JsonInputError(`${where(i)}: nested deeper than ${maxDepth} levels; a configuration needs far fewer`);
      const array = c === 0x5b;
      stack.push({array, keys: new Map(), at: array ? 0 : null});
      expectKey = !array;
    } else if (c === 0x7d || c === 0x5d) {
      stack.pop();
      expectKey = false;
    } else if (c === 0x2c) {
      // ,
      const top = stack.at(-1);
      if (top?.array) top.at = (top.at as number) + 1;
      else if (top) expectKey = true;
    }
  }
  return value;
}
