/**
 * One game a person plays against agents, in the browser (src/play.md, with
 * the scripted agents) or through the local experiment server (`parley
 * play`, with LLM players). The game is played by the ordinary runner
 * (loaders/runner/gameLoop.ts `playGame`) with the person's seat as a `HumanSeat`
 * (human.ts), so its rows are those of `parley run`, with agent `human`.
 *
 * A session is saved as its spec (game, parameters, who sits where, seed,
 * game id) and the person's accepted moves: the other seats' randomness
 * derives from the seed and game id (run/play.ts), so `restore` replays the
 * moves and reaches the same state; a move that no longer fits is refused
 * with its number. Pure: no I/O, no Node modules (the browser bundles it).
 *
 * Use:
 *   const s = await startSession(spec, engine);     // or restore(spec, moves, engine)
 *   s.pending()      // what the person sees now (messages, legal actions), null once over
 *   await s.submit(action)   // {ok: true} after the game has moved on, or {error} (nothing changed)
 *   s.finished()     // the games, players and turns rows once the game is over, else null
 *   s.record()       // the downloadable record (spec, moves, rows)
 */
import type {Action, ActionSpec, GameDef, GameObservation, Params} from "../contract/game.js";
import {idStem, seatName} from "../contract/game.js";
import {resolveParams} from "../contract/params.js";
import type {Agent, AgentDef} from "../contract/agent.js";
import type {Narrator} from "../contract/narrator.js";
import {playsGame} from "../contract/agent.js";
import type {ChatMessage} from "../llm/types.js";
import {playGame} from "../runner/gameLoop.js";
import {gameRow, playerRows} from "../runner/rows.js";
import type {GameRecord} from "../runner/tournament.js";
import {HUMAN, HumanSeat} from "./human.js";
import {Narration} from "./narration.js";

/** What to play. `params` may leave parameters out (their defaults are used). */
export interface PlaySpec {
  game: string;
  params?: Record<string, unknown>;
  /** Agent id per seat; exactly one is "human". */
  seats: readonly string[];
  /** The run seed the game's randomness derives from (an unsigned 32-bit integer); random when absent. */
  seed?: number;
  /** Unique id of the game; generated when absent. */
  game_id?: string;
  /** The games row's run_id (default "play"). */
  run_id?: string;
  /** Answers an agent may give to one decision before the game's fallback (default 3). */
  max_attempts?: number;
}

/** A spec with everything filled in: what a record keeps, and what `restore` needs. */
export interface ResolvedSpec {
  game: string;
  params: Params;
  seats: string[];
  seed: number;
  game_id: string;
  run_id: string;
  max_attempts: number;
}

/** The games and agents a session may use: the registries (engine.ts), the scripted ones in the browser, plus LLM players on the server. */
export interface Engine {
  games: readonly GameDef[];
  agents: readonly AgentDef[];
  /** What a seat reads in each game, by game id (registry/narrators.ts in Node, the papers' play parts in the browser). */
  narrators: Readonly<Record<string, Narrator>>;
}

/** What the person sees and may do now. */
export interface Pending {
  seat: number;
  seat_name: string | null;
  round: number;
  /** What an LLM in this seat would read: rules (system), what happened and what to do now (user), the person's earlier answers (assistant). */
  messages: ChatMessage[];
  /** The legal actions as data (src/lib/playForm.ts builds the form from them). */
  legal: ActionSpec[];
  observation: GameObservation;
}

/** The downloadable record of a finished (or unfinished) game; `parley ingest human` reads it. */
export interface PlayRecord {
  format: typeof RECORD_FORMAT;
  spec: ResolvedSpec;
  /** The person's accepted moves, in order. */
  moves: Action[];
  /** The rows as the game wrote them (null until it is over); ingest replays `moves` rather than trusting them. */
  rows: Omit<GameRecord, "game"> | null;
}

export const RECORD_FORMAT = "parley-play/1";

/** games.source of a game a person played. */
export const PLAY_SOURCE = "human";

/** A spec that cannot be played: one line naming what is wrong. */
export class PlayError extends Error {}

const SEED_MAX = 2 ** 32 - 1;

function randomHex(bytes: number): string {
  const a = new Uint8Array(bytes);
  globalThis.crypto.getRandomValues(a);
  return [...a].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Checks `spec` against the engine and fills in defaults; throws PlayError naming the problem. */
export function resolveSpec(spec: PlaySpec, engine: Engine): ResolvedSpec {
  const def = engine.games.find((g) => g.id === spec.game);
  if (!def) throw new PlayError(`unknown game "${spec.game}"; expected one of ${engine.games.map((g) => g.id).join(", ")}`);
  const n = spec.seats.length;
  if (n < def.seats.min || n > def.seats.max) throw new PlayError(`${def.id} seats ${def.seats.min === def.seats.max ? def.seats.min : `${def.seats.min} to ${def.seats.max}`} players, got ${n}`);
  const humans = spec.seats.filter((id) => id === HUMAN).length;
  if (humans !== 1) throw new PlayError(`exactly one seat is "${HUMAN}", got ${humans}`);
  spec.seats.forEach((id, seat) => {
    if (id === HUMAN) return;
    const agent = engine.agents.find((a) => a.id === id);
    if (!agent) throw new PlayError(`unknown agent "${id}" for seat ${seat}; available: ${engine.agents.map((a) => a.id).join(", ")}`);
    if (!playsGame(agent, def.id) || !(agent.canSit?.(def.id, seat, n) ?? true)) throw new PlayError(`agent "${id}" cannot take seat ${seatName(def, seat)} of ${def.id}`);
  });
  const resolved = resolveParams(def, spec.params ?? {}, n);
  if ("error" in resolved) throw new PlayError(resolved.error);
  const seed = spec.seed ?? parseInt(randomHex(4), 16);
  if (!Number.isInteger(seed) || seed < 0 || seed > SEED_MAX) throw new PlayError(`seed: expected an integer in [0, ${SEED_MAX}], got ${JSON.stringify(spec.seed)}`);
  const maxAttempts = spec.max_attempts ?? 3;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new PlayError(`max_attempts: expected a positive integer, got ${JSON.stringify(spec.max_attempts)}`);
  return {
    game: def.id,
    params: resolved.params,
    seats: [...spec.seats],
    seed,
    game_id: spec.game_id ?? `${idStem(def, resolved.params)}.play.${randomHex(6)}`,
    run_id: spec.run_id ?? "play",
    max_attempts: maxAttempts,
  };
}

export class PlaySession {
  readonly moves: Action[] = [];
  private readonly human: HumanSeat;
  private readonly narration: Narration;
  private readonly humanSeat: number;
  private rows: GameRecord | null = null;
  private failure: Error | null = null;
  /**
   * Everyone waiting for the game to next wait for the person or end. A list,
   * not one slot: whoever waits is woken, so no caller can take another's
   * wake-up (a second request once left the first one waiting for ever).
   */
  private waiters: (() => void)[] = [];

  private constructor(readonly spec: ResolvedSpec, private readonly engine: Engine) {
    this.humanSeat = spec.seats.indexOf(HUMAN);
    this.narration = new Narration(spec.game, engine.narrators[spec.game] ?? null);
    this.human = new HumanSeat(() => this.wake());
  }

  /** Starts the game and runs the other seats until the person is asked (or the game ends). */
  static async start(spec: PlaySpec, engine: Engine): Promise<PlaySession> {
    const session = new PlaySession(resolveSpec(spec, engine), engine);
    const asked = session.nextStop();
    session.run();
    await asked;
    session.throwIfFailed();
    return session;
  }

  /** Resolves the next time the game waits for the person or ends (registered before the game is moved on, so the wake-up is not missed). */
  private nextStop(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }

  private run(): void {
    const {spec, engine} = this;
    const def = engine.games.find((g) => g.id === spec.game)!;
    const n = spec.seats.length;
    const agents: Agent[] = spec.seats.map((id, seat) =>
      id === HUMAN ? this.human : engine.agents.find((a) => a.id === id)!.create({game: def.id, gameId: spec.game_id, seat, seatName: def.seats.names?.[seat] ?? null, nSeats: n, params: spec.params}),
    );
    playGame(def, spec.params, spec.game_id, agents, {seed: spec.seed, maxAttempts: spec.max_attempts, onState: (state) => (this.human.state = state)}).then(
      ({result, turns}) => {
        const planned = {def, params: spec.params, config_id: 0, lineup: spec.seats, repetition: 0, game_id: spec.game_id};
        // A person played: the source says so (a run's games are "simulated").
        const row = {...gameRow(planned, spec, result, agents.map((a) => a.traits)), source: PLAY_SOURCE};
        this.rows = {game: def.id, row, players: playerRows(planned, result), turns};
        this.wake();
      },
      (error: unknown) => {
        this.failure = error instanceof Error ? error : new Error(String(error));
        this.wake();
      },
    );
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure;
  }

  /** What the person sees now, or null when the game is over (or failed). */
  pending(): Pending | null {
    const obs = this.human.asked;
    if (!obs) return null;
    return {seat: obs.seat, seat_name: obs.seat_name, round: obs.round, messages: this.narration.tell(obs), legal: obs.legal, observation: obs};
  }

  /**
   * Plays the person's entry: refused with the reason when it is not legal
   * now (nothing changes, nothing is recorded); otherwise the game goes on
   * until the person is asked again or it ends. An agent that failed for
   * good (an LLM endpoint down) is reported as `failed`.
   */
  async submit(action: unknown): Promise<{ok: true} | {error: string; failed?: boolean}> {
    if (this.failure) return {error: `the game stopped: ${this.failure.message}`, failed: true};
    // The entry is checked before anything waits: a refused one (nothing is due while the other seats play) is answered at once.
    const refused = this.human.check(action);
    if (refused) return {error: refused};
    const obs = this.human.asked!;
    const waitFor = this.nextStop();
    const error = this.human.submit(action);
    if (error) return {error};
    this.narration.answered(obs, action as Action);
    this.moves.push(action as Action);
    await waitFor;
    const stopped = this.error;
    if (stopped !== null) return {error: `the game stopped: ${stopped}`, failed: true};
    return {ok: true};
  }

  /** The seat the person plays. */
  get seat(): number {
    return this.humanSeat;
  }

  /** Why the game stopped without ending (an agent failed for good), or null. */
  get error(): string | null {
    return this.failure?.message ?? null;
  }

  /** The game's rows once it is over, else null. */
  finished(): GameRecord | null {
    return this.rows;
  }

  /** The record to download (src/play.md) or keep (`parley play`); `restore` and `parley ingest human` read it back. */
  record(): PlayRecord {
    const rows = this.rows && {row: this.rows.row, players: this.rows.players, turns: this.rows.turns};
    // A copy: whoever holds the record may change it without changing the game.
    return structuredClone({format: RECORD_FORMAT, spec: this.spec, moves: this.moves, rows});
  }
}

/** Starts a game: see PlaySession. */
export const startSession = (spec: PlaySpec, engine: Engine): Promise<PlaySession> => PlaySession.start(spec, engine);

/**
 * Replays `moves` (a saved session's accepted moves) into a new session of
 * `spec` (which must name its seed and game id): the same game, where it stood.
 * Throws PlayError naming the first move that does not fit.
 */
export async function restore(spec: PlaySpec, moves: readonly unknown[], engine: Engine): Promise<PlaySession> {
  if (spec.seed === undefined || spec.game_id === undefined) throw new PlayError("a saved session names its seed and game_id");
  const session = await PlaySession.start(spec, engine);
  for (let i = 0; i < moves.length; i++) {
    if (!session.pending()) throw new PlayError(`move ${i + 1}: the game was already over after ${i} moves`);
    const done = await session.submit(moves[i]);
    if ("error" in done) throw new PlayError(`move ${i + 1} (${JSON.stringify(moves[i])}): ${done.error}`);
  }
  return session;
}
