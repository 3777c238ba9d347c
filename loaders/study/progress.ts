/**
 * Progress of an experiment per condition, for the admin page: how many
 * participants were assigned, started (gave consent), are playing, finished
 * their game, completed (got the code), were excluded, or declined.
 */
import type {Experiment} from "./experiment.js";
import type {Participant} from "./participants.js";

export interface ConditionProgress {
  condition: string;
  game: string;
  opponent: string;
  assigned: number;
  started: number;
  playing: number;
  finished: number;
  completed: number;
  excluded: number;
  declined: number;
}

export function progress(experiment: Experiment, participants: readonly Participant[]): ConditionProgress[] {
  return experiment.conditions.map((c) => {
    const mine = participants.filter((p) => p.condition === c.id);
    const count = (keep: (p: Participant) => boolean) => mine.filter(keep).length;
    return {
      condition: c.id,
      game: c.def.id,
      opponent: c.llms.length ? `${c.opponent} (${c.llms.map((l) => `${l.id}: ${l.provider} ${l.model}`).join("; ")})` : c.opponent,
      assigned: mine.length,
      started: count((p) => p.consented_at !== null && p.step !== "declined"),
      playing: count((p) => p.step === "game"),
      finished: count((p) => p.game_finished_at !== null),
      completed: count((p) => p.step === "done"),
      excluded: count((p) => p.excluded),
      declined: count((p) => p.step === "declined"),
    };
  });
}
