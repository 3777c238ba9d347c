/** Writing an adapter's result: one Parquet file per table in the output directory, replaced as a set (io/tableSet.ts). */
import {writeParquet} from "../io/parquet.js";
import {withDuckDB} from "../io/duckdb.js";
import {beginTableSet, type TableWriter} from "../io/tableSet.js";
import {idProblem} from "../io/ids.js";
import {UsageError} from "../io/usageError.js";
import type {IngestResult} from "./types.js";
import type {TableSchema} from "../io/schema.js";

/** Writes `<outDir>/<table>.parquet` for every table of `result`, recording `writer` with them; returns the paths written. */
export async function writeIngest(result: Pick<IngestResult, "tables">, outDir: string, writer?: TableWriter): Promise<string[]> {
  // Adapters check the ids they make, naming the file; this is the last guard before the tables.
  for (const table of result.tables) {
    if (table.schema.name !== "games") continue;
    for (const [i, row] of table.rows.entries()) {
      const badId = idProblem(row.game_id);
      if (badId) throw new UsageError(`${outDir}: games row ${i}: game_id: ${badId}; the tables were not written`);
    }
  }
  const set = beginTableSet(outDir, {writer});
  try {
    const rows: Record<string, number> = {};
    await withDuckDB(async (db) => {
      for (const table of result.tables) rows[table.schema.name] = await writeParquet(set.path(table.schema.name), table.schema, table.rows, db);
    });
    return await set.commit(rows);
  } catch (error) {
    set.abandon();
    throw error;
  }
}

/** Empty tables with the given schemas, for a dataset that is not there. */
export function emptyTables(schemas: TableSchema[]): Pick<IngestResult, "tables"> {
  return {tables: schemas.map((schema) => ({schema, rows: []}))};
}
