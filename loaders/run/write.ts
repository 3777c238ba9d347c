/**
 * Streaming a run's tables to Parquet: rows are checked against the schema
 * and appended as JSON lines to a staging file as games finish (so memory
 * stays flat however many games a run plays); `finish` has native DuckDB copy
 * the staged file into Parquet with the schema's exact types, atomically.
 */
import {closeSync, openSync, rmSync, writeSync} from "node:fs";
import {checkRow, duckdbColumns, type Row, type TableSchema} from "../io/schema.js";
import {tempPathFor, writeAtomic} from "../io/atomic.js";
import {sqlString, withDuckDB, type Db} from "../io/duckdb.js";

const FLUSH_BYTES = 1 << 20;

export class ParquetStage {
  private readonly staged: string;
  private fd: number;
  private chunk: string[] = [];
  private bytes = 0;
  count = 0;

  constructor(readonly path: string, readonly schema: TableSchema) {
    this.staged = tempPathFor(path) + ".jsonl";
    this.fd = openSync(this.staged, "w");
  }

  add(row: Row): void {
    checkRow(this.schema, row, this.count);
    const line = JSON.stringify(row) + "\n";
    this.chunk.push(line);
    this.bytes += line.length;
    this.count++;
    if (this.bytes >= FLUSH_BYTES) this.flush();
  }

  private flush(): void {
    if (!this.chunk.length) return;
    writeSync(this.fd, this.chunk.join(""));
    this.chunk = [];
    this.bytes = 0;
  }

  /** Writes the Parquet file and removes the staging file. Returns the row count. */
  async finish(db?: Db): Promise<number> {
    try {
      this.flush();
      closeSync(this.fd);
      this.fd = -1;
      await writeAtomic(this.path, async (tmp) => {
        const copy = (d: Db) =>
          d.run(
            `COPY (SELECT * FROM read_json(${sqlString(this.staged)}, format = 'newline_delimited', ` +
              `columns = ${duckdbColumns(this.schema)}, maximum_object_size = 268435456)) ` +
              `TO ${sqlString(tmp)} (FORMAT parquet, COMPRESSION zstd)`,
          );
        if (db) await copy(db);
        else await withDuckDB(copy);
      });
      return this.count;
    } finally {
      this.abandon();
    }
  }

  /** Removes the staging file without writing Parquet. */
  abandon(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
    rmSync(this.staged, {force: true});
  }
}
