/**
 * The games of an experiment's participants while they play: one
 * `PlaySession` (session.ts: the runner's `playGame` with the person's seat
 * as an ordinary agent) per participant, started on their first visit to the
 * game and rebuilt, after a reload of the server, from what the participant
 * file holds: the seed and the accepted moves. The LLM's replies of a rebuilt
 * game come from the response cache in the state directory (keyed by the
 * messages and the participant's seed and game id), so the replay sends no
 * call twice and reaches exactly the state the participant left.
 *
 * An accepted move is saved to the participant's file before the game moves
 * on (the LLM's turn may take seconds; a crash then loses nothing the person
 * did). A finished game's rows are saved and the tables rewritten
 * (studyTables.ts) before the participant is shown the quiz.
 */
import type {AgentDef} from "../contract/agent.js";
import {agents} from "../registry/agents.js";
import {games} from "../registry/games.js";
import {narrators} from "../registry/narrators.js";
import {idStem} from "../contract/game.js";
import {ResponseCache} from "../llm/cache.js";
import {completerForSpec} from "../llm/complete.js";
import {checkSharedLimits} from "../runner/llmPlayers.js";
import {llmPlayerDef} from "../llm/llmPlayer.js";
import {PlaySession, restore, startSession, type Engine, type ResolvedSpec} from "./session.js";
import {experimentLlms, type Condition, type Experiment} from "./experiment.js";
import type {Participant, ParticipantStore} from "./participants.js";
import type {GameRecord} from "../runner/tournament.js";

export interface LiveGamesOptions {
  experiment: Experiment;
  store: ParticipantStore;
  cacheDir: string;
  /** Called once a participant's game is over, with its rows (saves them and writes the tables). */
  onFinished(p: Participant, record: GameRecord): Promise<void>;
  /** Told when a participant's game cannot go on (an LLM endpoint failed for good, or saved moves no longer replay). */
  onError?(p: Participant, message: string): void;
}

/** What the participant's page is told about their game (no other seat's private facts: the seat's own observation only). */
export interface GameView {
  seat: number;
  seat_name: string | null;
  /** The game's seat names in seat order (empty when it names none): the page labels fields and moves with them. */
  seat_names: string[];
  /** The decision the person is asked now (messages, legal actions), or null. */
  pending: ReturnType<PlaySession["pending"]>;
  /** The game could not go on (an LLM endpoint failed for good); `retry` rebuilds it. */
  failed: boolean;
  over: boolean;
  /** The person's moves received so far: the page sends it back with a move (`after`), so a resent move is not played twice. */
  moves: number;
}

/** Every LLM player's key is read now, so a missing variable stops the server before anyone starts. */
export function studyEngine(experiment: Experiment, cacheDir: string): Engine {
  const llms = experimentLlms(experiment);
  checkSharedLimits(llms);
  const cache = new ResponseCache(cacheDir);
  const defs: AgentDef[] = llms.map((spec) => llmPlayerDef(spec, completerForSpec(spec, cache)));
  return {games, agents: [...agents, ...defs], narrators};
}

/** The session spec of `p`'s game: the condition's game and seats (the person in theirs), the participant's seed. */
export function sessionSpec(experiment: Experiment, condition: Condition, p: Participant): ResolvedSpec {
  return {
    game: condition.def.id,
    params: condition.params,
    seats: [...condition.seats],
    seed: p.seed,
    game_id: `${idStem(condition.def, condition.params)}.play.${experiment.id}.${p.id}`,
    run_id: experiment.id,
    max_attempts: experiment.max_attempts,
  };
}

export class LiveGames {
  private readonly sessions = new Map<string, Promise<PlaySession>>();
  private readonly engine: Engine;

  constructor(private readonly options: LiveGamesOptions) {
    this.engine = studyEngine(options.experiment, options.cacheDir);
  }

  private condition(p: Participant): Condition {
    return this.options.experiment.conditions.find((c) => c.id === p.condition)!;
  }

  /** `p`'s session: the live one, or a new one (replaying the saved moves). */
  private session(p: Participant): Promise<PlaySession> {
    const live = this.sessions.get(p.id);
    if (live) return live;
    const spec = sessionSpec(this.options.experiment, this.condition(p), p);
    const s = p.moves.length ? restore(spec, p.moves, this.engine) : startSession(spec, this.engine);
    this.sessions.set(p.id, s);
    s.then(
      (session) => this.settle(p, session),
      // A game that could not start (the endpoint down at its first turn) is rebuilt on the next visit.
      (error: Error) => {
        this.options.onError?.(p, error.message);
        if (this.sessions.get(p.id) === s) this.sessions.delete(p.id);
      },
    ).catch(() => {});
    return s;
  }

  /** Participants whose finished game has been handed to onFinished (in this process), and when that is done. */
  private readonly done = new Map<string, Promise<void>>();

  /**
   * Once the game is over: its rows are handed on, once per process (a
   * restart hands them on again: saving is idempotent). Every caller waits
   * for the same hand-over, so no request answers before the game is saved.
   */
  private settle(p: Participant, session: PlaySession): Promise<void> {
    const record = session.finished();
    if (!record) return Promise.resolve();
    let saved = this.done.get(p.id);
    if (!saved) {
      // A hand-over that failed (the disk full) is tried again by the next request.
      saved = this.options.onFinished(p, record).catch((error: unknown) => {
        this.done.delete(p.id);
        throw error;
      });
      this.done.set(p.id, saved);
    }
    return saved;
  }

  /** The game as the participant's page shows it. */
  async view(p: Participant): Promise<GameView> {
    const condition = this.condition(p);
    let session: PlaySession;
    try {
      session = await this.session(p);
    } catch {
      return {seat: condition.human_seat, seat_name: condition.def.seats.names?.[condition.human_seat] ?? null, seat_names: [...(condition.def.seats.names ?? [])], pending: null, failed: true, over: false, moves: p.moves.length};
    }
    await this.settle(p, session);
    return {seat: session.seat, seat_name: condition.def.seats.names?.[session.seat] ?? null, seat_names: [...(condition.def.seats.names ?? [])], pending: session.pending(), failed: session.error !== null, over: session.finished() !== null, moves: p.moves.length};
  }

  /**
   * Plays the person's entry. Refused (nothing changes, nothing is saved)
   * when it is not legal now; otherwise saved with the participant's moves
   * first, then the game goes on until the person is asked again or it ends.
   */
  async move(p: Participant, action: unknown, token?: string): Promise<{ok: true} | {error: string; failed?: boolean}> {
    let session: PlaySession;
    try {
      session = await this.session(p);
    } catch {
      return {error: "the game could not be started; try again in a moment", failed: true};
    }
    const before = session.moves.length;
    const done = session.submit(action);
    // submit() has checked the entry and handed it to the game synchronously: an accepted move is in
    // session.moves now, before the other seats' turns, so it is saved before any LLM call is awaited.
    if (session.moves.length > before) {
      p.moves = [...session.moves];
      if (token !== undefined) p.move_tokens = [...(p.move_tokens ?? []), token];
      this.options.store.save(p);
    }
    const result = await done;
    if ("failed" in result && result.failed) this.options.onError?.(p, result.error);
    await this.settle(p, session);
    return result;
  }

  /** Forgets a failed game so that the next visit rebuilds it from the saved moves (the cache answers what was answered). */
  async retry(p: Participant): Promise<void> {
    const s = this.sessions.get(p.id);
    if (!s) return;
    try {
      if ((await s).error === null) return;
    } catch {
      // never started
    }
    if (this.sessions.get(p.id) === s) this.sessions.delete(p.id);
  }

  /** Replays `p`'s saved moves and hands the finished game on (a record that could not be read); why not, or null. */
  async rebuild(p: Participant): Promise<string | null> {
    try {
      const session = await this.session(p);
      if (!session.finished()) return session.error ?? "the saved moves do not finish the game";
      await this.settle(p, session);
      return null;
    } catch (error) {
      return (error as Error).message;
    }
  }

  /** Starts `p`'s game (its first decision, and the opponent's turns before it, are under way once this resolves). */
  async begin(p: Participant): Promise<void> {
    await this.session(p).catch(() => {});
  }
}
