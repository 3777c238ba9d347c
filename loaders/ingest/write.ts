/** Writing an adapter's result: one Parquet file per table in the output directory. */
import {mkdirSync} from "node:fs";
import {join} from "node:path";
import {writeParquet} from "../io/parquet.js";
import {withDuckDB} from "../io/duckdb.js";
import type {IngestResult} from "./types.js";
import type {TableSchema} from "../io/schema.js";

/** Writes `<outDir>/<table>.parquet` for every table of `result`; returns the paths written. */
export async function writeIngest(result: Pick<IngestResult, "tables">, outDir: string): Promise<string[]> {
  mkdirSync(outDir, {recursive: true});
  return withDuckDB(async (db) => {
    const paths: string[] = [];
    for (const table of result.tables) {
      const path = join(outDir, `${table.schema.name}.parquet`);
      await writeParquet(path, table.schema, table.rows, db);
      paths.push(path);
    }
    return paths;
  });
}

/** Empty tables with the given schemas, for a dataset that is not there. */
export function emptyTables(schemas: TableSchema[]): Pick<IngestResult, "tables"> {
  return {tables: schemas.map((schema) => ({schema, rows: []}))};
}
