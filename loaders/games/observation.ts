/**
 * Observations whose costly parts are computed on first access: the history
 * copy and the natural-language `rules` and `update` texts. Scripted agents
 * read none of them, and building them eagerly for every turn dominated
 * full-grid runs (copying histories of 99-round games, formatting text).
 * `toJSON` gives the plain object, so an observation serialises with all its
 * fields (getters on a prototype would otherwise be skipped).
 */
import type {ActionSpec, Family, Observation, Player, Role, SeenEvent, ViewOf} from "./types.js";

export class LazyObservation<F extends Family> implements Observation<F> {
  retry?: {attempt: number; error: string};
  private cachedHistory?: SeenEvent[];
  private cachedUpdate?: string;

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
    private readonly rulesText: () => string,
    private readonly updateText: () => string,
  ) {}

  get history(): SeenEvent[] {
    return (this.cachedHistory ??= this.events.slice(0, this.visible));
  }

  get rules(): string {
    return this.rulesText();
  }

  get update(): string {
    return (this.cachedUpdate ??= this.updateText());
  }

  toJSON(): Observation<F> {
    const {family, game_id, player, role, round, view, history, legal, rules, update, retry} = this;
    return {family, game_id, player, role, round, view, history, legal, rules, update, ...(retry ? {retry} : {})};
  }
}
