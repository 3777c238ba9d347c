/**
 * Arrow IPC files with the same typed schemas as the Parquet writer, for
 * tables a page wants without a DuckDB round trip.
 */
import {readFileSync} from "node:fs";
import {Bool, Field, Float64, Int32, Int64, List, Table, Utf8, tableFromIPC, tableToIPC, vectorFromArray, type DataType} from "apache-arrow";
import {checkRow, type ColumnType, type Row, type TableSchema} from "./schema.js";
import {writeFileAtomic} from "./atomic.js";

function arrowType(type: ColumnType): DataType {
  if (type.endsWith("[]")) return new List(new Field("item", arrowType(type.slice(0, -2) as ColumnType), true));
  switch (type) {
    case "VARCHAR":
      return new Utf8();
    case "BOOLEAN":
      return new Bool();
    case "INTEGER":
      return new Int32();
    case "BIGINT":
      return new Int64();
    default:
      return new Float64();
  }
}

/** Builds an Arrow table from rows, typed by `schema` (rows are checked first). */
export function toArrowTable(schema: TableSchema, rows: readonly Row[]): Table {
  rows.forEach((row, i) => checkRow(schema, row, i));
  const vectors = Object.fromEntries(
    schema.columns.map((c) => {
      const values = rows.map((r) => {
        const v = r[c.name] ?? null;
        return c.type === "BIGINT" && typeof v === "number" ? BigInt(v) : v;
      });
      return [c.name, vectorFromArray(values, arrowType(c.type))];
    }),
  );
  return new Table(vectors);
}

/** Writes rows as an Arrow IPC file, atomically. */
export async function writeArrow(path: string, schema: TableSchema, rows: readonly Row[]): Promise<number> {
  await writeFileAtomic(path, tableToIPC(toArrowTable(schema, rows), "file"));
  return rows.length;
}

/** Reads an Arrow IPC file (file or stream format) into a Table. */
export function readArrow(path: string): Table {
  return tableFromIPC(readFileSync(path));
}
