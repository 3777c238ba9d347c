/**
 * How the play page talks to a game: a small driver interface, so the same
 * page components (playView.ts) play a game in the browser (`localDriver`,
 * a session of the bundled engine, src/data/play-engine.js.ts) or on the
 * local experiment server (`parley play`, a remote driver speaking HTTP).
 * Every method is asynchronous because a remote driver waits for the server.
 */
import type * as PlayEngine from "../../loaders/study/browserEngine.js";
import type {Engine as Registries, Pending, PlayRecord, PlaySpec} from "../../loaders/study/session.js";

export type {Pending, PlayRecord, PlaySpec};
/** The bundled engine module (src/data/play-engine.js.ts): scripted.ts's exports and the `scriptedEngine` built from the game files. */
export type Engine = typeof PlayEngine & {scriptedEngine: Registries};

export interface PlayDriver {
  /** What the person sees and may do now; null once the game is over. */
  pending(): Promise<Pending | null>;
  /** Plays an entry: {ok} once the game has moved on, or {error} (the game is unchanged). */
  submit(action: Record<string, unknown>): Promise<{ok: true} | {error: string}>;
  /** The game's record: spec, the person's moves, and its rows once it is over. */
  record(): Promise<PlayRecord>;
}

/** A game played entirely in the browser against the bundled scripted agents. Throws the engine's PlayError for a spec that cannot be played. */
export async function localDriver(engine: Engine, spec: PlaySpec): Promise<PlayDriver> {
  const session = await engine.startSession(spec, engine.scriptedEngine);
  return {
    pending: async () => session.pending(),
    submit: (action) => session.submit(action),
    record: async () => session.record(),
  };
}
