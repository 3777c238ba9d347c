/**
 * Typed table schemas for the Parquet and Arrow files Parley writes.
 *
 * A schema is a list of columns with a DuckDB type. Rows are plain objects;
 * `checkRow` rejects a value whose JavaScript type does not fit its column, so
 * a bug in an adapter fails loudly (naming the table, row and column) instead
 * of writing a corrupt file.
 */

export type ScalarType = "VARCHAR" | "BOOLEAN" | "INTEGER" | "BIGINT" | "DOUBLE";
export type ColumnType = ScalarType | `${ScalarType}[]`;

export interface Column {
  name: string;
  type: ColumnType;
  /** Defaults to true: most outcome fields are missing for some games. */
  nullable?: boolean;
  doc?: string;
}

export interface TableSchema {
  /** Table name, used in error messages and as the file stem (`games` -> games.parquet). */
  name: string;
  columns: readonly Column[];
  /** Columns that identify a row (games: ["game_id"]; turns: ["game_id", "turn"]); writers refuse a table where they repeat (tableKey.ts). */
  key?: readonly string[];
}

export type Row = Record<string, unknown>;

function scalarFits(type: ScalarType, value: unknown): boolean {
  switch (type) {
    case "VARCHAR":
      return typeof value === "string";
    case "BOOLEAN":
      return typeof value === "boolean";
    case "INTEGER":
    case "BIGINT":
      return (typeof value === "number" && Number.isInteger(value)) || typeof value === "bigint";
    case "DOUBLE":
      // Infinity would be written as JSON null on the way to Parquet: refused rather than lost.
      return typeof value === "number" && Number.isFinite(value);
  }
}

/** Whether a (non-null) value can be stored in a column of `type`; list entries may be null. */
export function valueFits(type: ColumnType, value: unknown): boolean {
  switch (type) {
    case "VARCHAR":
    case "BOOLEAN":
    case "INTEGER":
    case "BIGINT":
    case "DOUBLE":
      return scalarFits(type, value);
    default: {
      const element = type.slice(0, -2) as ScalarType;
      return Array.isArray(value) && value.every((v) => v === null || scalarFits(element, v));
    }
  }
}

/** Throws an Error naming table, row index and column when `row` does not fit `schema`. */
export function checkRow(schema: TableSchema, row: Row, index: number): void {
  for (const column of schema.columns) {
    const value = row[column.name];
    const where = `${schema.name} row ${index}, column ${column.name}`;
    if (value === null || value === undefined) {
      if (column.nullable === false) throw new Error(`${where}: missing value (column is not nullable)`);
      continue;
    }
    if (column.type.endsWith("[]")) {
      const element = column.type.slice(0, -2) as ScalarType;
      if (!Array.isArray(value)) throw new Error(`${where}: expected a list of ${element}, got ${typeof value}`);
      value.forEach((v, i) => {
        if (v !== null && !scalarFits(element, v)) throw new Error(`${where}[${i}]: expected ${element}, got ${JSON.stringify(v)}`);
      });
    } else if (!scalarFits(column.type as ScalarType, value)) {
      throw new Error(`${where}: expected ${column.type}, got ${JSON.stringify(value)}`);
    }
  }
  for (const key of Object.keys(row)) {
    if (!schema.columns.some((c) => c.name === key)) throw new Error(`${schema.name} row ${index}: unknown column ${key}`);
  }
}

/** The DuckDB `columns={...}` struct literal that read_json needs to type a staged file. */
export function duckdbColumns(schema: TableSchema): string {
  return `{${schema.columns.map((c) => `'${c.name}': '${c.type}'`).join(", ")}}`;
}
