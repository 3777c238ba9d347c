/**
 * The tables of a `parley play` experiment: every finished game in the same
 * tables as `parley run` (`<out>/game=<id>/{games,players,turns}.parquet`,
 * run/write.ts), the person's seat with agent `human`, plus a side table
 * `<out>/participants.parquet`, one row per participant: condition, where
 * they stopped, the attention check and quiz, and whether their game is
 * **excluded** (a participant who failed the attention check or the quiz
 * keeps their game in the tables, marked here, as GLEE's Appendix E.3
 * excluded such players from its analysis rather than from its records).
 * Join on `game_id` to leave excluded games out:
 *
 *   SELECT g.* FROM games g JOIN participants p USING (game_id) WHERE NOT p.excluded
 *
 * Each finished game's rows are first saved in the state directory
 * (`<state>/games/<participant>.json`, atomically and durably: fsync of the
 * file and its folder; one that cannot be read is set aside and named, and
 * the study rebuilds it from the participant's moves); the tables are then
 * rewritten as one set from all saved games (io/tableSet.ts: readers see the
 * old set or the new one, never a mix), by one writer at a time. Requests
 * that arrive while a write is under way are served by one more write, so
 * games finishing together are never lost and never cost a write each.
 */
import {mkdirSync, readdirSync, readFileSync} from "node:fs";
import {join} from "node:path";
import type {TableSchema} from "../io/schema.js";
import type {TableWriter} from "../io/tableSet.js";
import {ParquetStage, RunTables} from "../runner/write.js";
import type {GameRecord} from "../runner/tournament.js";
import {writeFileDurable} from "../io/atomic.js";
import {withDuckDB} from "../io/duckdb.js";
import type {Experiment} from "./experiment.js";
import {setAside, type Participant} from "./participants.js";

export const PARTICIPANTS_TABLE: TableSchema = {
  name: "participants",
  key: ["participant_id"],
  columns: [
    {name: "participant_id", type: "VARCHAR", nullable: false, doc: "random (128 bits), never derived from personal data"},
    {name: "experiment", type: "VARCHAR", nullable: false},
    {name: "condition", type: "VARCHAR", nullable: false},
    {name: "game", type: "VARCHAR", doc: "the condition's game id"},
    {name: "game_id", type: "VARCHAR", doc: "the participant's game in games/players/turns (null before it started)"},
    {name: "step", type: "VARCHAR", doc: "consent, instructions, game, quiz, done, declined, failed_attention, failed_quiz"},
    {name: "game_finished", type: "BOOLEAN", doc: "the game's rows are in the tables"},
    {name: "attention_passed", type: "BOOLEAN", doc: "null: not reached"},
    {name: "attention_answer", type: "VARCHAR"},
    {name: "quiz_passed", type: "BOOLEAN", doc: "null: not reached (or no quiz)"},
    {name: "quiz_answers", type: "VARCHAR", doc: "JSON list of the chosen option indices"},
    {name: "excluded", type: "BOOLEAN", nullable: false, doc: "failed the attention check or the quiz: leave out of analyses"},
    {name: "exclusion_reason", type: "VARCHAR", doc: "attention_check, quiz (comma separated)"},
    {name: "completion_code", type: "VARCHAR", doc: "the code shown at the end (null when none was earned)"},
    {name: "panel_id", type: "VARCHAR", doc: "the recruiting panel's id of the person, from the study's link (PROLIFIC_PID, workerId, or the experiment's panel.id_param); payments are matched on it"},
    {name: "panel_id_param", type: "VARCHAR", doc: "the link parameter panel_id came from when the participant first arrived (a panel id is taken only then); null: none, or a record from an older version"},
    {name: "panel_params", type: "VARCHAR", doc: "JSON object of the panel's other link parameters kept (STUDY_ID, SESSION_ID, assignmentId, …)"},
    {name: "panel_refused", type: "VARCHAR", doc: "JSON list of panel ids that later links brought to this participant, refused and never attached ({param, id, at}; the first 10)"},
    {name: "panel_refused_count", type: "INTEGER", doc: "how many later links brought a panel id, in all"},
    {name: "assigned_at", type: "VARCHAR", doc: "ISO time"},
    {name: "consented_at", type: "VARCHAR"},
    {name: "game_started_at", type: "VARCHAR"},
    {name: "game_finished_at", type: "VARCHAR"},
    {name: "completed_at", type: "VARCHAR"},
  ],
};

/** The participants row of `p`. */
export function participantRow(p: Participant, experiment: Experiment, finished: boolean): Record<string, unknown> {
  return {
    participant_id: p.id,
    experiment: p.experiment,
    condition: p.condition,
    game: experiment.conditions.find((c) => c.id === p.condition)?.def.id ?? null,
    game_id: p.game_id,
    step: p.step,
    game_finished: finished,
    attention_passed: p.attention?.passed ?? null,
    attention_answer: p.attention?.answer ?? null,
    quiz_passed: p.quiz?.passed ?? null,
    quiz_answers: p.quiz ? JSON.stringify(p.quiz.answers) : null,
    excluded: p.excluded,
    exclusion_reason: p.exclusion_reason,
    completion_code: p.completion_code,
    panel_id: p.panel_id ?? null,
    panel_id_param: p.panel_id_param ?? null,
    panel_params: p.panel ? JSON.stringify(p.panel) : null,
    panel_refused: p.panel_refused?.length ? JSON.stringify(p.panel_refused) : null,
    panel_refused_count: p.panel_refused_count ?? 0,
    assigned_at: p.assigned_at,
    consented_at: p.consented_at,
    game_started_at: p.game_started_at,
    game_finished_at: p.game_finished_at,
    completed_at: p.completed_at,
  };
}

/** Why `value` is not a finished game's record, or null. */
function notARecord(value: unknown): string | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "not a JSON object";
  const r = value as Record<string, unknown>;
  if (typeof r.game !== "string") return "game: expected the game's id";
  if (typeof r.row !== "object" || r.row === null || Array.isArray(r.row)) return "row: expected the games row";
  if (!Array.isArray(r.players) || !Array.isArray(r.turns)) return "players, turns: expected lists of rows";
  return null;
}

/** Finished games' records, one file per participant in `<state>/games/`. */
export class GameRecords {
  private readonly dir: string;
  readonly byParticipant = new Map<string, GameRecord>();
  /** Participants whose record could not be read (set aside): their games are to be rebuilt. */
  readonly unreadable: string[] = [];
  /** One line per record that could not be read. */
  readonly problems: string[] = [];

  /** `then(participant)` says, for a record that cannot be read, what becomes of its game. */
  constructor(stateDir: string, then: (participant: string) => string = () => "its game is left out of the tables") {
    this.dir = join(stateDir, "games");
    mkdirSync(this.dir, {recursive: true});
    for (const name of readdirSync(this.dir)) {
      if (!name.endsWith(".json") || name.startsWith(".")) continue;
      const path = join(this.dir, name);
      const participant = name.slice(0, -".json".length);
      try {
        const value: unknown = JSON.parse(readFileSync(path, "utf8"));
        const problem = notARecord(value);
        if (problem) throw new Error(problem);
        this.byParticipant.set(participant, value as GameRecord);
      } catch (error) {
        this.problems.push(setAside(path, "game record", (error as Error).message, then(participant)));
        this.unreadable.push(participant);
      }
    }
  }

  async save(participant: string, record: GameRecord): Promise<void> {
    writeFileDurable(join(this.dir, `${participant}.json`), JSON.stringify(record) + "\n");
    this.byParticipant.set(participant, record);
  }
}

/** Writes the experiment's tables into `out` as one new set: every saved game and every participant; `writer` is recorded with them. */
export async function writeStudyTables(out: string, experiment: Experiment, records: GameRecords, participants: readonly Participant[], writer?: TableWriter): Promise<{games: number; participants: number}> {
  const tables = new RunTables(out, experiment.conditions.map((c) => c.def), undefined, null, writer);
  try {
    for (const record of records.byParticipant.values()) tables.add(record);
    const {games} = await tables.finish(async (set) => {
      const stage = new ParquetStage(set.file("participants.parquet"), PARTICIPANTS_TABLE);
      try {
        for (const p of participants) stage.add(participantRow(p, experiment, records.byParticipant.has(p.id)));
        return {participants: await withDuckDB((db) => stage.finish(db))};
      } catch (error) {
        stage.abandon();
        throw error;
      }
    });
    return {games, participants: participants.length};
  } catch (error) {
    tables.abandon();
    throw error;
  }
}

/**
 * One write at a time, coalesced: `request()` resolves once a write that
 * began after the call has finished (so it includes every change made
 * before the call); calls made while a write waits to start share it.
 */
export class CoalescingWriter {
  private queued: Promise<void> | null = null;
  private running: Promise<void> | null = null;

  constructor(private readonly write: () => Promise<void>) {}

  request(): Promise<void> {
    if (this.queued) return this.queued;
    const previous = this.running;
    const run = (async () => {
      await previous?.catch(() => {});
      this.queued = null; // from here on the write reads the state; later changes need another one
      await this.write();
    })();
    this.queued = run;
    this.running = run;
    return run;
  }

  /** Waits for the writes requested so far. */
  async idle(): Promise<void> {
    await this.running?.catch(() => {});
  }
}
