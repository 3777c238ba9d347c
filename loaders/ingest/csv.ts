/**
 * A small RFC 4180 CSV reader that keeps line numbers and reports damage
 * instead of guessing: quoted fields (with "" escapes and embedded newlines),
 * CRLF or LF. `readCsv` returns the header, records as objects with the line
 * each starts on, and problems: a record with fewer or more fields than the
 * header (a truncated file usually ends with one), or a quote left open at
 * the end of the text.
 */

export interface CsvRecord {
  line: number;
  values: Record<string, string>;
}

export interface CsvResult {
  header: string[];
  records: CsvRecord[];
  /** Each names the line and, for short records, the first missing field. */
  problems: {line: number; field?: string; message: string}[];
}

/** Splits text into rows of fields; `open` is set when the text ends inside quotes. */
function rows(text: string): {rows: {line: number; fields: string[]}[]; open: number | null} {
  const out: {line: number; fields: string[]}[] = [];
  let fields: string[] = [];
  let field = "";
  let quoted = false;
  let line = 1;
  let start = 1;
  let touched = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === "\n") line++;
        field += c;
      }
      continue;
    }
    if (c === '"' && field === "") {
      quoted = true;
      touched = true;
    } else if (c === ",") {
      fields.push(field);
      field = "";
      touched = true;
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      if (touched || field !== "") out.push({line: start, fields: [...fields, field]});
      fields = [];
      field = "";
      touched = false;
      line++;
      start = line;
    } else {
      field += c;
      touched = true;
    }
  }
  if (quoted) return {rows: out, open: start};
  if (touched || field !== "") out.push({line: start, fields: [...fields, field]});
  return {rows: out, open: null};
}

export function readCsv(text: string): CsvResult {
  const {rows: all, open} = rows(text.replace(/^\uFEFF/, ""));
  const problems: CsvResult["problems"] = [];
  if (!all.length) return {header: [], records: [], problems: [{line: 1, message: "empty file: expected a header line"}]};
  const header = all[0].fields.map((h) => h.trim());
  const records: CsvRecord[] = [];
  for (const row of all.slice(1)) {
    if (row.fields.length < header.length) {
      problems.push({line: row.line, field: header[row.fields.length], message: `record has ${row.fields.length} of ${header.length} fields (truncated?)`});
      continue;
    }
    if (row.fields.length > header.length) {
      problems.push({line: row.line, message: `record has ${row.fields.length} fields, the header ${header.length}`});
      continue;
    }
    records.push({line: row.line, values: Object.fromEntries(header.map((h, k) => [h, row.fields[k]]))});
  }
  if (open !== null) problems.push({line: open, message: "a quoted field is never closed (truncated file?)"});
  return {header, records, problems};
}
