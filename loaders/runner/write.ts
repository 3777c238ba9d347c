/**
 * Streaming a run's tables to Parquet: rows are checked against the schema
 * and appended as JSON lines to a staging file as games finish (so memory
 * stays flat however many games a run plays); `finish` has native DuckDB copy
 * the staged file into Parquet with the schema's exact types, checks the
 * schema's key for duplicates (io/tableKey.ts), and renames it into place.
 */
import {closeSync, openSync, rmSync, writeSync} from "node:fs";
import {join} from "node:path";
import {beginTableSet, type TableSetWriter, type TableWriter} from "../io/tableSet.js";
import type {GameDef} from "../contract/game.js";
import {gameTables, partitionDir} from "../contract/tables.js";
import {copyJsonLines} from "../io/parquet.js";
import {checkRow, type Column, type Row, type TableSchema} from "../io/schema.js";
import {tempPathFor, writeAtomic} from "../io/atomic.js";
import {sqlFile, sqlString, withDuckDB, type Db} from "../io/duckdb.js";
import {IdHashes} from "./idHashes.js";
import {checkUniqueKey, DuplicateKeyError} from "../io/tableKey.js";
import {idProblem, MAX_MADE_ID_LENGTH} from "../io/ids.js";
import {UsageError} from "../io/usageError.js";
import {shardPartition, tableSetOptions, type Shard} from "./shard.js";

const FLUSH_BYTES = 1 << 20;

export class ParquetStage {
  private readonly staged: string;
  private fd: number;
  private chunk: string[] = [];
  private bytes = 0;
  /** Length of the longest line staged (io/parquet.ts objectSizeLimit). */
  private longest = 0;
  count = 0;

  private readonly columns: Map<string, Column>;
  private readonly required: string[];

  /**
   * `keysChecked`: the caller guarantees the schema's key is unique (RunTables
   * checks game ids as games arrive and numbers turns itself), so the
   * DuckDB pass over the written file is skipped.
   */
  constructor(readonly path: string, readonly schema: TableSchema, private readonly keysChecked = false) {
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
    if (line.length > this.longest) this.longest = line.length;
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
          await copyJsonLines(d, this.staged, this.schema, tmp, this.longest);
          if (!this.keysChecked) await checkUniqueKey(d, tmp, this.schema);
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
 * current at once. The set holds exactly this run's games; the links of
 * the previous set's games it did not play are removed (a real file or
 * folder in the way is refused, never removed: io/tableSet.ts).
 * A shard's set (run/shard.ts) holds `game=<id>/shard=<i>/` folders and
 * lives in the shard's own state directory, so shards never touch each other's files.
 * `writer` is recorded with the set (io/tableSet.ts), for the next writer's claimTables.
 */
export class RunTables {
  private readonly stages = new Map<string, {games: ParquetStage; players: ParquetStage; turns: ParquetStage}>();
  private readonly defs: Map<string, GameDef>;
  private set: TableSetWriter | null = null;
  /** Game ids added, as hashes (run/idHashes.ts). */
  protected readonly ids = new IdHashes();
  /** Ids whose hash was seen before: duplicates, or (rarely) hash collisions that `finish` tells apart. */
  private readonly repeated = new Set<string>();

  /** Partitions already being written, by game id. */
  private readonly sealed = new Map<string, Promise<void>>();

  /**
   * `expected`: games planned per game id. A partition whose last planned
   * game has arrived is written to Parquet at once, in the background (DuckDB
   * works on its own threads), while the run plays the next game's partition.
   */
  constructor(readonly dir: string, defs: readonly GameDef[], private readonly expected?: ReadonlyMap<string, number>, private readonly shard: Shard | null = null, private readonly writer?: TableWriter) {
    this.defs = new Map(defs.map((d) => [d.id, d]));
  }

  /** The folder of `game`'s files, relative to the run directory. */
  private partition(game: string): string {
    return this.shard ? `${partitionDir(game)}/${shardPartition(this.shard)}` : partitionDir(game);
  }

  private begin(): TableSetWriter {
    return beginTableSet(this.dir, {...tableSetOptions(this.dir, this.shard), writer: this.writer});
  }

  /** Writes the three files of `game`'s partition with its own DuckDB (one thread). */
  private async writePartition(game: string): Promise<void> {
    const s = this.stages.get(game)!;
    await withDuckDB(async (db) => {
      await db.run("SET threads = 1");
      for (const table of ["games", "players", "turns"] as const) await s[table].finish(db);
    });
  }

  private stage(game: string) {
    let s = this.stages.get(game);
    if (!s) {
      const def = this.defs.get(game);
      if (!def) throw new Error(`${this.dir}: no table schema for game ${game}`);
      this.set ??= this.begin();
      const schemas = gameTables(def);
      const file = (table: string) => this.set!.file(`${this.partition(game)}/${table}.parquet`);
      s = {
        games: new ParquetStage(file("games"), schemas.games, true),
        players: new ParquetStage(file("players"), schemas.players, true),
        turns: new ParquetStage(file("turns"), schemas.turns, true),
      };
      this.stages.set(game, s);
    }
    return s;
  }

  /**
   * Adds one game's rows. Keys are checked here, as games arrive, rather than
   * by a pass over the written files (1.2 million turns in the default run):
   * the game's players and turns must carry its id with distinct seats and
   * turn numbers, and its id must be new. Ids are kept as 64-bit hashes, so
   * a repeated hash is confirmed against the written games files by `finish`
   * (a duplicate then refuses the whole set).
   */
  add(record: {game: string; row: Row; players: Row[]; turns: Row[]}): void {
    const id = record.row.game_id as string;
    // Readers and adapters check ids where they read them, naming the file; this is the last guard before the tables.
    const badId = idProblem(id, MAX_MADE_ID_LENGTH);
    if (badId) throw new UsageError(`${this.dir}: games: game_id: ${badId}; the tables were not written`);
    if (this.repeated.has(id)) throw duplicateGame(id);
    if (!this.ids.add(id)) this.repeated.add(id);
    const seats = new Set<unknown>();
    for (const p of record.players) {
      if (p.game_id !== id || seats.has(p.seat)) throw new DuplicateKeyError(`players: (game_id, seat) (${JSON.stringify(p.game_id)}, ${p.seat}) repeats or belongs to another game than ${JSON.stringify(id)}`);
      seats.add(p.seat);
    }
    let last = -1;
    for (const t of record.turns) {
      if (t.game_id !== id || (t.turn as number) <= last) throw new DuplicateKeyError(`turns: (game_id, turn) (${JSON.stringify(t.game_id)}, ${t.turn}) repeats or belongs to another game than ${JSON.stringify(id)}`);
      last = t.turn as number;
    }
    if (this.sealed.has(record.game)) throw new Error(`${this.dir}: more ${record.game} games than planned`);
    const s = this.stage(record.game);
    s.games.add(record.row);
    for (const p of record.players) s.players.add(p);
    for (const t of record.turns) s.turns.add(t);
    if (this.expected?.get(record.game) === s.games.count) {
      const writing = this.writePartition(record.game);
      writing.catch(() => {}); // awaited (and reported) by finish
      this.sealed.set(record.game, writing);
    }
  }

  /**
   * Writes every partition and switches the set in; returns row counts and
   * the partition directories. `extra` writes more files into the same set
   * (a side table beside the partitions, such as `parley play`'s
   * participants) and returns their rows by path relative to the set.
   */
  async finish(extra?: (set: TableSetWriter) => Promise<Record<string, number>>): Promise<{games: number; players: number; turns: number; partitions: Record<string, string>}> {
    const counts = {games: 0, players: 0, turns: 0};
    const partitions: Record<string, string> = {};
    const rows: Record<string, number> = {};
    this.set ??= this.begin();
    try {
      for (const game of this.stages.keys()) if (!this.sealed.has(game)) this.sealed.set(game, this.writePartition(game));
      await Promise.all(this.sealed.values());
      await this.confirmUnique();
      for (const [game, s] of this.stages) {
        for (const table of ["games", "players", "turns"] as const) {
          counts[table] += s[table].count;
          rows[`${this.partition(game)}/${table}.parquet`] = s[table].count;
        }
        partitions[game] = join(this.dir, this.partition(game));
      }
      if (extra) Object.assign(rows, await extra(this.set));
      await this.set.commit(rows);
    } catch (error) {
      this.abandon();
      throw error;
    }
    return {...counts, partitions};
  }

  /** Throws if an id whose hash repeated (normally none) occurs twice in the written games files. */
  private async confirmUnique(): Promise<void> {
    if (!this.repeated.size) return;
    const files = [...this.stages.values()].map((s) => sqlFile(s.games.path)).join(", ");
    const ids = [...this.repeated].map(sqlString).join(", ");
    const [dup] = await withDuckDB((db) => db.query<{game_id: string}>(`SELECT game_id FROM read_parquet([${files}]) WHERE game_id IN (${ids}) GROUP BY game_id HAVING count(*) > 1 ORDER BY game_id LIMIT 1`));
    if (dup) throw duplicateGame(dup.game_id);
  }

  abandon(): void {
    for (const s of this.stages.values()) for (const t of [s.games, s.players, s.turns]) t.abandon();
    this.set?.abandon();
  }
}

const duplicateGame = (id: string) => new DuplicateKeyError(`games: game_id ${JSON.stringify(id)} occurs twice; game_id must be unique, so the tables were not written`);

