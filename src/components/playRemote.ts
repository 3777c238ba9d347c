/**
 * The remote driver: the play page's game view (playView.ts, through the
 * `PlayDriver` interface of playDriver.ts) playing a participant's game on
 * the experiment server of `parley play`. The server runs the game, holds
 * the API keys and calls the LLM; the page sends only the person's entries
 * and receives only what their seat may see.
 */
import type {Pending, PlayDriver, PlayRecord} from "./playDriver.js";

/** The study's HTTP API for one participant (playStudy.ts). */
export interface StudyApi<S extends RemoteState = RemoteState> {
  state(): Promise<S>;
  post(path: string, body: unknown): Promise<{status: number; data: Record<string, unknown>}>;
}

/** What the server says about the participant's game (loaders/study/liveGames.ts GameView). */
export interface RemoteGame {
  seat: number;
  seat_name: string | null;
  /** The game's seat names in seat order (empty when it names none). */
  seat_names?: string[];
  pending: Pending | null;
  failed: boolean;
  over: boolean;
  /** The person's moves the server has received; sent back with the next move, so that one sent twice is played once. */
  moves?: number;
}

/** The part of the study's state the driver reads: the step, the game while it runs, its public record once it is over. */
export interface RemoteState {
  step: string;
  game?: RemoteGame;
  outcome?: PlayRecord;
}

export interface RemoteHooks<S extends RemoteState> {
  /** The game is over and the study has moved on (to the quiz or the end): the new state. */
  movedOn(state: S): void;
  /** The game could not go on (the LLM endpoint failed for good): the new state, showing it. */
  failed(state: S): void;
}

const WAIT_MS = 1000;

/** A move's token: 128 random bits (getRandomValues works on a plain-http page too, where randomUUID does not). */
export function moveToken(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A driver over `api`, starting from the state the page loaded. */
export function remoteDriver<S extends RemoteState>(api: StudyApi<S>, first: S, hooks: RemoteHooks<S>): PlayDriver {
  let state = first;
  let announced = false;
  // One token per decision: the same move sent again (a resent request) is played once by the server.
  let token = moveToken();
  const movedOn = () => {
    if (!announced) hooks.movedOn(state);
    announced = true;
  };
  return {
    async pending() {
      for (;;) {
        if (state.step !== "game") {
          movedOn();
          return null;
        }
        if (state.game?.failed) {
          hooks.failed(state);
          return new Promise<never>(() => {}); // the study replaces this view
        }
        if (state.game?.pending) return state.game.pending;
        // The other player is still thinking (a reload in the middle of its turn): ask again shortly.
        await new Promise((resolve) => setTimeout(resolve, WAIT_MS));
        state = await api.state();
      }
    },
    async submit(action) {
      const {status, data} = await api.post("/move", {action, after: state.game?.moves, token});
      if (status === 200) {
        state = data as unknown as S;
        token = moveToken();
        return {ok: true};
      }
      if (data.state) state = data.state as S;
      if (data.failed) hooks.failed(state);
      return {error: String(data.error ?? `HTTP ${status}`)};
    },
    async record() {
      if (!state.outcome) state = await api.state();
      return state.outcome!;
    },
  };
}
