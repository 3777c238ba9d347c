/**
 * One experiment's participants walking through its steps, as GLEE's human
 * study did (GLEE (Shapira et al. 2024) Appendix E.1): consent →
 * instructions with the hidden attention check → the game against the
 * condition's opponent → the comprehension quiz → the completion code.
 * Failing the attention check stops the participant there (or, with
 * `on_fail: "play"`, lets them play and marks the game excluded); failing the
 * quiz withholds the code and marks the game excluded. Every step is saved
 * (participants.ts) before it is answered, and every change the tables
 * must show is written into `<out>` (studyTables.ts). No HTTP here: the
 * server (studyServer.ts) maps requests onto these methods.
 */
import {join} from "node:path";
import {exclude, ParticipantStore, randomCode, type Participant, type Step} from "./participants.js";
import {instructionParagraphs, passesAttention, quizFailureNote, returnLink, type Condition, type Experiment, type Results} from "./experiment.js";
import {LiveGames, sessionSpec, type GameView} from "./liveGames.js";
import {RECORD_FORMAT, type PlayRecord, type ResolvedSpec} from "./session.js";
import type {GameRecord} from "../runner/tournament.js";
import {CoalescingWriter, GameRecords, writeStudyTables} from "./studyTables.js";
import type {TableWriter} from "../io/tableSet.js";

/** A request that does not fit the participant's step or is malformed: the status to answer and one line. */
export class StepError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/** What a participant's page shows: the step and what it needs, nothing else. */
export interface StudyView {
  title: string;
  step: Step;
  participant: string;
  consent?: string;
  /** What the consent screen adds about a wrong quiz answer (experiment quiz_failure). */
  consent_note?: string | null;
  instructions?: string[];
  /** Whether the instructions end with a box for the code word. */
  attention?: boolean;
  game?: GameView;
  quiz?: {question: string; options: string[]}[];
  completion_code?: string | null;
  message?: string;
  /** Once the game is over: its record as the person may see it (publicRecord). */
  outcome?: PlayRecord;
  /** The end screen's wording (experiment results), at the end. */
  results?: Results;
  /** The panel's return link with the completion code in it, at the end; null: none. */
  return_url?: string | null;
}

/** Turns columns everybody saw during the game; another seat's raw reply, private reasoning, hidden facts and token counts stay out. */
const PUBLIC_TURN = ["turn", "round", "seat", "action", "message", "rule_break"];

/**
 * The record of a finished game as its participant may see it (the play
 * view's outcome and "Download record"): the spec, their moves, the games
 * and players rows, and the turns with only the public columns for the
 * other seats (their own turns in full but for the raw reply and token counts).
 */
export function publicRecord(spec: ResolvedSpec, moves: Participant["moves"], record: GameRecord, seat: number): PlayRecord {
  const turns = record.turns.map((t) => {
    if (t.seat !== seat) return Object.fromEntries(PUBLIC_TURN.filter((k) => k in t).map((k) => [k, t[k]])) as typeof t;
    const {raw: _r, reasoning: _q, input_tokens: _i, output_tokens: _o, cached_input_tokens: _c, cache_write_tokens: _w, reasoning_tokens: _t, latency_ms: _l, ...own} = t;
    return own as typeof t;
  });
  return {format: RECORD_FORMAT, spec, moves: moves as PlayRecord["moves"], rows: {row: record.row, players: record.players, turns}};
}

/** What a participant who stopped is told. */
export const STOPPED: Partial<Record<Step, string>> = {
  declined: "You chose not to take part in this study. You may close this page.",
  failed_attention: "You did not pass the attention check in the instructions (the code word), so you cannot receive a completion code for this study. Thank you for your time.",
  failed_quiz: "Your answer to the final question was not correct, so we cannot give you a completion code. Thank you for your time.",
};

export interface StudyOptions {
  experiment: Experiment;
  out: string;
  /** Participants, finished games and the LLM response cache; default <out>/.parley/play. */
  state?: string;
  /** Told about a tables write that failed (the rows stay saved in the state directory; the next write includes them). */
  onWriteError?(error: unknown): void;
  /** Told when a participant's game cannot go on (liveGames.ts). */
  onGameError?(p: Participant, message: string): void;
  /** Recorded with the tables (io/tableSet.ts). */
  writer?: TableWriter;
}

export class Study {
  readonly experiment: Experiment;
  readonly store: ParticipantStore;
  readonly records: GameRecords;
  readonly games: LiveGames;
  /** One line per state file that could not be read (set aside; the rest is served). */
  readonly problems: string[];
  private readonly writer: CoalescingWriter;

  constructor(options: StudyOptions) {
    const {experiment, out} = options;
    const state = options.state ?? join(out, ".parley", "play");
    this.experiment = experiment;
    this.store = new ParticipantStore(state, experiment);
    const rebuildable = (id: string) => (this.store.get(id)?.moves.length ?? 0) > 0;
    this.records = new GameRecords(state, (id) => (rebuildable(id) ? "the game is rebuilt from the participant's saved moves" : "no participant's saved moves to rebuild it from; it is left out of the tables"));
    this.problems = [...this.store.problems, ...this.records.problems];
    this.writer = new CoalescingWriter(async () => {
      try {
        await writeStudyTables(out, experiment, this.records, this.store.all(), options.writer);
      } catch (error) {
        options.onWriteError?.(error);
        throw error;
      }
    });
    this.games = new LiveGames({
      experiment, store: this.store, cacheDir: join(state, "llm-cache"), onError: options.onGameError,
      onFinished: async (p, record) => {
        await this.records.save(p.id, record);
        if (p.step === "game") {
          p.game_id = record.row.game_id;
          p.game_finished_at ??= new Date().toISOString();
          if (this.condition(p).quiz.length) p.step = "quiz";
          else this.finish(p);
          this.store.save(p);
        }
        // A failed write is reported (onWriteError); the rows are saved, and the next write includes them.
        await this.tablesChanged().catch(() => {});
      },
    });
  }

  /**
   * Rebuilds the records that could not be read from their participants'
   * saved moves (the game replayed, the LLM's replies from the response
   * cache), saving them as a finished game is saved. Returns a line for
   * each game that could not be rebuilt.
   */
  async rebuildRecords(): Promise<string[]> {
    const failed: string[] = [];
    for (const id of this.records.unreadable) {
      const p = this.store.get(id);
      if (!p?.moves.length) continue;
      const rebuilt = await this.games.rebuild(p);
      if (rebuilt) failed.push(`participant ${id}: the game could not be rebuilt (${rebuilt}); it is left out of the tables`);
    }
    return failed;
  }

  condition(p: Participant): Condition {
    return this.experiment.conditions.find((c) => c.id === p.condition)!;
  }

  /** Rewrites the tables (coalesced with other requests); resolves once they show every change made before the call. */
  tablesChanged(): Promise<void> {
    return this.writer.request();
  }

  /** Waits for the table writes requested so far. */
  idle(): Promise<void> {
    return this.writer.idle();
  }

  /** Where `p` stands, as their page shows it. */
  async view(p: Participant): Promise<StudyView> {
    const condition = this.condition(p);
    const view: StudyView = {title: this.experiment.title, step: p.step, participant: p.id};
    switch (p.step) {
      case "consent":
        view.consent = this.experiment.consent;
        view.consent_note = quizFailureNote(this.experiment);
        break;
      case "instructions":
        view.instructions = instructionParagraphs(this.experiment, condition);
        view.attention = this.experiment.attention_check !== null;
        break;
      case "game":
        view.game = await this.games.view(p);
        // The game may have ended while it was being looked at: the participant has moved on.
        if (p.step !== "game") return this.view(p);
        break;
      case "quiz":
        view.quiz = condition.quiz.map(({question, options}) => ({question, options}));
        break;
      case "done":
        view.completion_code = p.completion_code;
        view.results = this.experiment.results;
        view.return_url = returnLink(this.experiment.panel, p.completion_code);
        if (p.quiz && !p.quiz.passed) view.message = "Your answer to the final question was not correct; you receive your completion code all the same.";
        break;
      default:
        view.message = STOPPED[p.step];
    }
    const record = this.records.byParticipant.get(p.id);
    if (record && p.step !== "game") view.outcome = publicRecord(sessionSpec(this.experiment, condition, p), p.moves, record, condition.human_seat);
    return view;
  }

  private expect(p: Participant, step: Step): void {
    if (p.step !== step) throw new StepError(409, `this step is over (you are at: ${p.step})`);
  }

  async consent(p: Participant, agree: unknown): Promise<void> {
    this.expect(p, "consent");
    if (typeof agree !== "boolean") throw new StepError(400, "expected {agree: true or false}");
    p.consented_at = new Date().toISOString();
    p.step = agree ? "instructions" : "declined";
    this.store.save(p);
    if (!agree) await this.tablesChanged();
  }

  async attention(p: Participant, answer: unknown): Promise<void> {
    this.expect(p, "instructions");
    if (typeof answer !== "string" || answer.length > 200) throw new StepError(400, "expected {answer: the word asked for (at most 200 characters)}");
    const check = this.experiment.attention_check;
    // An empty box is asked again, never failed for good (nothing is saved).
    if (check && answer.trim() === "") throw new StepError(400, "Please type the code word the instructions ask for.");
    if (check) {
      const passed = passesAttention(check, answer);
      p.attention = {answer, passed};
      if (!passed) {
        exclude(p, "attention_check");
        if (check.on_fail === "stop") {
          p.step = "failed_attention";
          p.completed_at = new Date().toISOString();
          this.store.save(p);
          await this.tablesChanged();
          return;
        }
      }
    }
    p.step = "game";
    p.game_started_at = new Date().toISOString();
    this.store.save(p);
    void this.games.begin(p);
  }

  /**
   * The person's move: `{error}` when refused (nothing changed), else null.
   * `after`, when the page gives it, is the number of its moves the page had
   * seen received: a move sent again after it was received (a retried
   * request, a second tab) no longer matches and is refused as `stale`.
   * `token`, when the page gives one, names the move: a move whose token was
   * accepted already (a double click, a resent request) is not played again,
   * and is answered as the first one is (after it, when it is under way).
   */
  async move(p: Participant, action: unknown, after?: number, token?: string): Promise<{error: string; failed: boolean; stale?: true} | null> {
    if (token !== undefined) {
      const key = `${p.id} ${token}`;
      const running = this.movesUnderWay.get(key);
      if (running) return running.then(() => null);
      if (p.move_tokens?.includes(token)) return null;
      const done = this.playMove(p, action, after, token);
      this.movesUnderWay.set(key, done);
      try {
        return await done;
      } finally {
        this.movesUnderWay.delete(key);
      }
    }
    return this.playMove(p, action, after);
  }

  /** Moves being played, by participant and token: a second request with the same token waits for the first. */
  private readonly movesUnderWay = new Map<string, Promise<{error: string; failed: boolean; stale?: true} | null>>();

  private async playMove(p: Participant, action: unknown, after?: number, token?: string): Promise<{error: string; failed: boolean; stale?: true} | null> {
    this.expect(p, "game");
    if (after !== undefined && after !== p.moves.length) {
      return {error: `this move was sent after ${after} of your moves, but ${p.moves.length} have been received: the game has moved on (another tab, or the move was sent twice); nothing was changed`, failed: false, stale: true};
    }
    const done = await this.games.move(p, action, token);
    return "error" in done ? {error: done.error, failed: done.failed ?? false} : null;
  }

  async retry(p: Participant): Promise<void> {
    this.expect(p, "game");
    await this.games.retry(p);
  }

  async quiz(p: Participant, answers: unknown): Promise<void> {
    this.expect(p, "quiz");
    const quiz = this.condition(p).quiz;
    if (!Array.isArray(answers) || answers.length !== quiz.length || !answers.every((a, i) => Number.isInteger(a) && a >= 0 && a < quiz[i].options.length)) {
      throw new StepError(400, `expected {answers: one option index per question (${quiz.length})}`);
    }
    const passed = answers.every((a, i) => a === quiz[i].answer);
    p.quiz = {answers: answers as number[], passed};
    if (!passed) exclude(p, "quiz");
    this.finish(p);
    this.store.save(p);
    await this.tablesChanged();
  }

  /**
   * The end: the completion code, unless the participant was excluded (then
   * they are told why); a wrong quiz answer alone still earns the code when
   * the experiment says so (quiz_failure "paid"), the game staying marked.
   */
  private finish(p: Participant): void {
    p.completed_at = new Date().toISOString();
    const paid = this.experiment.quiz_failure === "paid" && p.exclusion_reason === "quiz";
    if (p.excluded && !paid) {
      p.step = p.exclusion_reason?.includes("quiz") ? "failed_quiz" : "failed_attention";
      return;
    }
    p.step = "done";
    p.completion_code = this.experiment.completion_code === "random" ? randomCode() : this.experiment.completion_code;
  }
}
