/**
 * A reader for Python literals as `repr()` writes them: dicts, lists, tuples,
 * strings in either quote style (with escapes and r/b/u prefixes), numbers,
 * True/False/None. gamma-Bench stores some transcripts this way instead of as
 * JSON. `parsePythonLiteral` returns plain JavaScript values (tuples become
 * arrays, dict keys become strings) and throws an Error naming the character
 * offset where the text stops being a literal; it never evaluates anything.
 */

export function parsePythonLiteral(text: string): unknown {
  let i = 0;
  const fail = (what: string): never => {
    throw new Error(`${what} at offset ${i} (near ${JSON.stringify(text.slice(i, i + 20))})`);
  };
  const space = () => {
    while (i < text.length && /\s/.test(text[i])) i++;
  };

  function value(): unknown {
    space();
    const c = text[i];
    if (c === undefined) fail("unexpected end of text");
    if (c === "{") return dict();
    if (c === "[") return sequence("[", "]");
    if (c === "(") return sequence("(", ")");
    if (c === "'" || c === '"') return string("");
    const prefix = /^([rRbBuU]{1,2})(['"])/.exec(text.slice(i, i + 3));
    if (prefix) {
      i += prefix[1].length;
      return string(prefix[1].toLowerCase());
    }
    const word = /^(True|False|None|nan|inf|-inf)\b/.exec(text.slice(i, i + 5));
    if (word) {
      i += word[1].length;
      return {True: true, False: false, None: null, nan: NaN, inf: Infinity, "-inf": -Infinity}[word[1]];
    }
    const number = /^[-+]?(\d[\d_]*\.?\d*(e[-+]?\d+)?|\.\d+(e[-+]?\d+)?)/i.exec(text.slice(i, i + 64));
    if (number) {
      i += number[0].length;
      return Number(number[0].replaceAll("_", ""));
    }
    return fail("expected a Python literal");
  }

  function sequence(open: string, close: string): unknown[] {
    i++; // open
    const items: unknown[] = [];
    for (;;) {
      space();
      if (text[i] === close) {
        i++;
        return items;
      }
      items.push(value());
      space();
      if (text[i] === ",") i++;
      else if (text[i] !== close) fail(`expected "," or "${close}" after item ${items.length} of a ${open}${close}`);
    }
  }

  function dict(): Record<string, unknown> {
    i++; // {
    const out: Record<string, unknown> = {};
    for (;;) {
      space();
      if (text[i] === "}") {
        i++;
        return out;
      }
      const key = value();
      space();
      if (text[i] !== ":") fail('expected ":" after a dict key');
      i++;
      out[String(key)] = value();
      space();
      if (text[i] === ",") i++;
      else if (text[i] !== "}") fail('expected "," or "}" in a dict');
    }
  }

  function string(prefix: string): string {
    const quote = text[i];
    const triple = text.startsWith(quote.repeat(3), i);
    const end = triple ? quote.repeat(3) : quote;
    i += end.length;
    const raw = prefix.includes("r");
    let out = "";
    for (;;) {
      if (i >= text.length) fail("unterminated string");
      if (text.startsWith(end, i)) {
        i += end.length;
        return out;
      }
      const c = text[i];
      if (c === "\\" && !raw) {
        const e = text[i + 1];
        i += 2;
        switch (e) {
          case "n": out += "\n"; break;
          case "t": out += "\t"; break;
          case "r": out += "\r"; break;
          case "0": out += "\0"; break;
          case "a": out += "\x07"; break;
          case "b": out += "\b"; break;
          case "f": out += "\f"; break;
          case "v": out += "\v"; break;
          case "\n": break;
          case "x": out += hex(2); break;
          case "u": out += hex(4); break;
          case "U": out += hex(8); break;
          case undefined: return fail("unterminated escape");
          default: out += e === "\\" || e === "'" || e === '"' ? e : "\\" + e;
        }
        continue;
      }
      if (c === "\\" && raw && text[i + 1] !== undefined) {
        out += c + text[i + 1];
        i += 2;
        continue;
      }
      if (!triple && c === "\n") fail("newline inside a single-quoted string");
      out += c;
      i++;
    }
  }

  function hex(n: number): string {
    const digits = text.slice(i, i + n);
    if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(digits)) fail(`expected ${n} hex digits`);
    i += n;
    return String.fromCodePoint(parseInt(digits, 16));
  }

  const result = value();
  space();
  if (i < text.length) fail("unexpected text after the literal");
  return result;
}
