/**
 * A person in a seat, as an ordinary agent: `act` returns a promise that
 * resolves when the person's entry has been accepted, so the runner
 * (loaders/runner/gameLoop.ts `playGame`) plays the game unchanged and writes the
 * same rows as `parley run`, with agent id `human`. An entry is checked
 * before the promise resolves (the legal-action specs, loaders/contract/legal.ts,
 * then the game's own `validate`), so an illegal entry is refused with its
 * reason and never reaches the runner: it is not a turn and changes nothing.
 * The session (session.ts) drives it.
 */
import type {Action, GameObservation, GameState} from "../contract/game.js";
import {checkAction} from "../contract/legal.js";
import type {Agent, AgentReply} from "../contract/agent.js";

/** The agent id of a person's seat in every table. */
export const HUMAN = "human";

/** A decision the person has to make: the observation, until `submit` accepts an entry. */
interface Waiting {
  observation: GameObservation;
  resolve: (reply: AgentReply) => void;
}

export class HumanSeat implements Agent {
  private waiting: Waiting | null = null;
  /** The game's state, for `validate` (set by the session through playGame's `onState`). */
  state: GameState | null = null;

  /** `onAsk` is told each time the runner asks the person (the session then shows the decision). */
  constructor(private readonly onAsk: (observation: GameObservation) => void) {}

  act(observation: GameObservation): Promise<AgentReply> {
    return new Promise((resolve) => {
      this.waiting = {observation, resolve};
      this.onAsk(observation);
    });
  }

  /** The observation the person is asked about now, or null. */
  get asked(): GameObservation | null {
    return this.waiting?.observation ?? null;
  }

  /** Why `action` is not legal now (nothing is due, the specs, the game's rules), or null. */
  check(action: unknown): string | null {
    const w = this.waiting;
    if (!w) return "no move is due from you now";
    return checkAction(w.observation.legal, action) ?? this.state?.validate(w.observation.seat, action) ?? null;
  }

  /** Gives `action` to the runner when it is legal; returns why not otherwise (and nothing changes). */
  submit(action: unknown): string | null {
    const error = this.check(action);
    if (error) return error;
    const w = this.waiting!;
    this.waiting = null;
    w.resolve({action: action as Action});
    return null;
  }
}
