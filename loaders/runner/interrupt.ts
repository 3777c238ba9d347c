/**
 * Stopping a run on Ctrl-C or `kill` (SIGINT, SIGTERM; `npm run` and `npx`
 * forward both to the command) without losing or repeating work:
 *
 *   1. no new game is scheduled (TournamentOptions.signal);
 *   2. no new model call is made (`stopAgentsOnAbort`): calls in flight may
 *      answer, so their answers land in the response cache and a re-run does
 *      not send them again, but the games they belong to end unrecorded and
 *      are replayed on resume;
 *   3. after at most `graceMs` the run stops waiting for calls in flight and
 *      the finished games (checkpoints) are written as tables.
 *
 * A second signal exits at once: checkpoints and the last complete set of
 * tables are on disk whatever moment it comes at.
 */
import {LlmCallError} from "../llm/types.js";
import {withAct, type Agent, type SeatContext} from "../contract/agent.js";

/** Exit status of a process stopped by `signal`, as shells report it (128 + signal number). */
export function signalExitCode(signal: NodeJS.Signals): number {
  return signal === "SIGINT" ? 130 : signal === "SIGTERM" ? 143 : 1;
}

export interface Interrupts {
  /** Aborted at the first SIGINT or SIGTERM. */
  signal: AbortSignal;
  /** The first signal received, or null. */
  received(): NodeJS.Signals | null;
  /** Removes the handlers (the default actions apply again). */
  dispose(): void;
}

/**
 * Catches SIGINT and SIGTERM: the first calls `onFirst` and aborts `signal`,
 * the second calls `onSecond` (which should exit).
 */
export function watchInterrupts(onFirst: (signal: NodeJS.Signals) => void, onSecond: (signal: NodeJS.Signals) => void): Interrupts {
  const controller = new AbortController();
  let first: NodeJS.Signals | null = null;
  const handler = (signal: NodeJS.Signals) => {
    if (first) return onSecond(signal);
    first = signal;
    onFirst(signal);
    controller.abort();
  };
  process.on("SIGINT", handler);
  process.on("SIGTERM", handler);
  return {
    signal: controller.signal,
    received: () => first,
    dispose() {
      process.off("SIGINT", handler);
      process.off("SIGTERM", handler);
    },
  };
}

/**
 * A game stopped because the run is stopping. It is an LlmCallError so that
 * the game loop (play.ts) ends the game unrecorded instead of counting a
 * rule break, exactly as for a call that failed for good.
 */
export class RunInterrupted extends LlmCallError {
  constructor() {
    super("the run is stopping", "client", null, 0);
    this.name = "RunInterrupted";
  }
}

/** Wraps an agent factory so that, once `signal` is aborted, agents refuse to act (no new model call); the rest of each agent (its traits, its own max attempts, finish) passes through. */
export function stopAgentsOnAbort(factory: (id: string, context: SeatContext) => Agent, signal: AbortSignal) {
  return (id: string, context: SeatContext): Agent => {
    const agent = factory(id, context);
    return withAct(agent, (observation, rng) => {
      if (signal.aborted) throw new RunInterrupted();
      return agent.act(observation, rng);
    });
  };
}

/** Resolves with `work`, or `graceMs` after `signal` aborts if `work` is still going then. */
export function settleOrGiveUp<T>(work: Promise<T>, signal: AbortSignal, graceMs: number): Promise<T | undefined> {
  return new Promise<T | undefined>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const giveUp = () => {
      timer = setTimeout(() => resolve(undefined), graceMs);
    };
    if (signal.aborted) giveUp();
    else signal.addEventListener("abort", giveUp, {once: true});
    work.then(
      (value) => {
        clearTimeout(timer);
        signal.removeEventListener("abort", giveUp);
        resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        signal.removeEventListener("abort", giveUp);
        reject(error);
      },
    );
  });
}
