/**
 * What every ingest adapter returns: typed tables, a summary, and the
 * problems it met. Adapters never throw on bad records: they report each one
 * (file, line or field, what was expected) and keep the rest.
 */
import type {Row, TableSchema} from "../io/schema.js";

export interface Problem {
  file: string;
  line?: number;
  field?: string;
  message: string;
}

export interface IngestTable {
  schema: TableSchema;
  rows: Row[];
}

export interface IngestResult {
  tables: IngestTable[];
  /** Counts for the printed summary, e.g. {lines_read, dialogues_written, lines_skipped}. */
  summary: Record<string, number>;
  problems: Problem[];
}

export function formatProblem(p: Problem): string {
  const where = [p.file, p.line !== undefined ? `line ${p.line}` : null, p.field ? `field ${p.field}` : null].filter(Boolean).join(", ");
  return `${where}: ${p.message}`;
}
