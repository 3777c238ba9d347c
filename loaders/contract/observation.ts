/**
 * Observations whose history copy is made on first access: scripted agents
 * rarely read it, and copying the histories of 99-round games at every turn
 * dominated full-grid runs.
 * `toJSON` gives the plain object, so an observation serialises with all its
 * fields (getters on a prototype would otherwise be skipped).
 */
import type {ActionSpec, Family, Observation, Player, Role, SeenEvent, ViewOf} from "../papers/glee/types.js";

export class LazyObservation<F extends Family> implements Observation<F> {
  retry?: {attempt: number; error: string};
  private cachedHistory?: SeenEvent[];

  constructor(
    readonly family: F,
    readonly game_id: string,
    readonly player: Player,
    readonly role: Role,
    readonly round: number,
    readonly view: ViewOf[F],
    readonly legal: ActionSpec[],
    /** The game's append-only event log and how much of it this player may see now. */
    private readonly events: readonly SeenEvent[],
    private readonly visible: number,
  ) {}

  get history(): SeenEvent[] {
    return (this.cachedHistory ??= this.events.slice(0, this.visible));
  }

  toJSON(): Observation<F> {
    const {family, game_id, player, role, round, view, history, legal, retry} = this;
    return {family, game_id, player, role, round, view, history, legal, ...(retry ? {retry} : {})};
  }
}
