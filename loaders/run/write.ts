/**
 * Streaming a run's tables to Parquet: rows are checked against the schema
 * and appended as JSON lines to a staging file as games finish (so memory
 * stays flat however many games a run plays); `finish` has native DuckDB copy
 * the staged file into Parquet with the schema's exact types, checks the
 * schema's key for duplicates (io/tableKey.ts), and renames it into place.
 */
import {closeSync, existsSync, lstatSync, openSync, rmSync, writeSync} from "node:fs";
import {join} from "node:path";
import {beginTableSet, type TableSetWriter} from "../io/tableSet.js";
import type {GameDef} from "../games/contract.js";
import {gameTables, partitionDir} from "./tables.js";
import {checkRow, duckdbColumns, type Column, type Row, type TableSchema} from "../io/schema.js";
import {tempPathFor, writeAtomic} from "../io/atomic.js";
import {sqlString, withDuckDB, type Db} from "../io/duckdb.js";
import {checkUniqueKey} from "../io/tableKey.js";

const FLUSH_BYTES = 1 << 20;

export class ParquetStage {
  private readonly staged: string;
  private fd: number;
  private chunk: string[] = [];
  private bytes = 0;
  count = 0;

  private readonly columns: Map<string, Column>;
  private readonly required: string[];

  constructor(readonly path: string, readonly schema: TableSchema) {
    this.staged = tempPathFor(path) + ".jsonl";
    this.fd = openSync(this.staged, "w");
    this.columns = new Map(schema.columns.map((c) => [c.name, c]));
    this.required = schema.columns.filter((c) => c.nullable === false).map((c) => c.name);
  }

  /** Same verdict as io/schema.ts checkRow, in time linear in the row's fields (rows here are sparse). */
  private fits(row: Row): boolean {
    for (const name of this.required) if (row[name] === null || row[name] === undefined) return false;
    for (const key in row) {
      const column = this.columns.get(key);
      if (!column) return false;
      const v = row[key];
      if (v === null || v === undefined) continue;
      switch (column.type) {
        case "VARCHAR":
          if (typeof v !== "string") return false;
          break;
        case "BOOLEAN":
          if (typeof v !== "boolean") return false;
          break;
        case "DOUBLE":
          if (typeof v !== "number" || Number.isNaN(v)) return false;
          break;
        case "INTEGER":
        case "BIGINT":
          if (!((typeof v === "number" && Number.isInteger(v)) || typeof v === "bigint")) return false;
          break;
        default:
          if (!Array.isArray(v)) return false;
          return false; // lists: let checkRow decide
      }
    }
    return true;
  }

  add(row: Row): void {
    if (!this.fits(row)) checkRow(this.schema, row, this.count); // throws with the precise message, or accepts (lists)
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
        const copy = async (d: Db) => {
          await d.run(
            `COPY (SELECT * FROM read_json(${sqlString(this.staged)}, format = 'newline_delimited', ` +
              `columns = ${duckdbColumns(this.schema)}, maximum_object_size = 268435456)) ` +
              `TO ${sqlString(tmp)} (FORMAT parquet, COMPRESSION zstd)`,
          );
          await checkUniqueKey(d, tmp, this.schema);
        };
        if (db) await copy(db);
        else
          await withDuckDB(async (own) => {
            // One thread: about as fast for this single-file scan, with about half the peak memory.
            await own.run("SET threads = 1");
            await copy(own);
          });
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

/**
 * A run's three tables, partitioned by game (run/tables.ts): one staged
 * Parquet writer per game and table, created when the game first finishes,
 * all written into one new table set (io/tableSet.ts) that `finish` makes
 * current at once. The set holds exactly this run's games; partitions of
 * games it did not play, and flat tables of an older layout, are removed.
 */
export class RunTables {
  private readonly stages = new Map<string, {games: ParquetStage; players: ParquetStage; turns: ParquetStage}>();
  private readonly defs: Map<string, GameDef>;
  private set: TableSetWriter | null = null;

  constructor(readonly dir: string, defs: readonly GameDef[]) {
    this.defs = new Map(defs.map((d) => [d.id, d]));
  }

  private stage(game: string) {
    let s = this.stages.get(game);
    if (!s) {
      const def = this.defs.get(game);
      if (!def) throw new Error(`${this.dir}: no table schema for game ${game}`);
      this.set ??= beginTableSet(this.dir);
      const schemas = gameTables(def);
      const file = (table: string) => this.set!.file(`${partitionDir(game)}/${table}.parquet`);
      s = {
        games: new ParquetStage(file("games"), schemas.games),
        players: new ParquetStage(file("players"), schemas.players),
        turns: new ParquetStage(file("turns"), schemas.turns),
      };
      this.stages.set(game, s);
    }
    return s;
  }

  add(record: {game: string; row: Row; players: Row[]; turns: Row[]}): void {
    const s = this.stage(record.game);
    s.games.add(record.row);
    for (const p of record.players) s.players.add(p);
    for (const t of record.turns) s.turns.add(t);
  }

  /** Writes every partition and switches the set in; returns row counts and the partition directories. */
  async finish(): Promise<{games: number; players: number; turns: number; partitions: Record<string, string>}> {
    const counts = {games: 0, players: 0, turns: 0};
    const partitions: Record<string, string> = {};
    const rows: Record<string, number> = {};
    this.set ??= beginTableSet(this.dir);
    try {
      for (const [game, s] of this.stages) {
        for (const table of ["games", "players", "turns"] as const) {
          const n = await s[table].finish();
          counts[table] += n;
          rows[`${partitionDir(game)}/${table}.parquet`] = n;
        }
        partitions[game] = join(this.dir, partitionDir(game));
      }
      await this.set.commit(rows);
    } catch (error) {
      this.abandon();
      throw error;
    }
    for (const name of LEGACY_FLAT) {
      const path = join(this.dir, name);
      if (existsSync(path) && !lstatSync(path).isSymbolicLink()) rmSync(path, {force: true});
    }
    return {...counts, partitions};
  }

  abandon(): void {
    for (const s of this.stages.values()) for (const t of [s.games, s.players, s.turns]) t.abandon();
    this.set?.abandon();
  }
}

/** Flat tables an older Parley wrote at the top of a run directory. */
const LEGACY_FLAT = ["games.parquet", "turns.parquet", "players.parquet"];
