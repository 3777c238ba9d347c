/**
 * The participants of a human study (`parley play`), as a report's front
 * page counts them: recruited, consented, declined, finished their game,
 * completed, excluded (and why), still under way, and the time the
 * completed ones took. Read from each run's participants table
 * (loaders/study/studyTables.ts) when the report is built; pure.
 */

/** The columns of a participants row this summary reads (a study writes more). */
export interface ParticipantRow {
  participant_id: string;
  condition: string;
  game_id: string | null;
  step: string | null;
  game_finished: boolean | null;
  excluded: boolean;
  exclusion_reason: string | null;
  assigned_at: string | null;
  consented_at: string | null;
  completed_at: string | null;
}

export interface ParticipantsSummary {
  recruited: number;
  consented: number;
  declined: number;
  /** Their game's rows are in the tables. */
  played: number;
  /** Reached the end (step "done"). */
  completed: number;
  excluded: number;
  /** Excluded participants per reason ("attention_check", "quiz"), most first. */
  reasons: {reason: string; participants: number}[];
  /** Neither done, declined nor stopped by a check: still at consent, the instructions, the game or the quiz. */
  underWay: number;
  /** Minutes from consent (else assignment) to completion of those who completed: median, fastest and slowest; null when none completed. */
  minutes: {median: number; min: number; max: number} | null;
  /** Per condition: recruited, completed, excluded. */
  conditions: {condition: string; recruited: number; completed: number; excluded: number}[];
  /** The game ids of excluded participants, with the reason (the run's own ids). */
  excludedGames: {game_id: string; reason: string}[];
}

const STOPPED = new Set(["done", "declined", "failed_attention", "failed_quiz"]);

/** The median of a non-empty sorted list. */
function median(sorted: number[]): number {
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The reasons a row names ("attention_check,quiz" → two). */
const reasonsOf = (r: ParticipantRow): string[] => (r.exclusion_reason ?? "").split(",").map((s) => s.trim()).filter(Boolean);

export function summarizeParticipants(rows: readonly ParticipantRow[]): ParticipantsSummary {
  const reasons = new Map<string, number>();
  const durations: number[] = [];
  const conditions = new Map<string, {condition: string; recruited: number; completed: number; excluded: number}>();
  for (const r of rows) {
    const c = conditions.get(r.condition) ?? {condition: r.condition, recruited: 0, completed: 0, excluded: 0};
    conditions.set(r.condition, c);
    c.recruited++;
    if (r.step === "done") c.completed++;
    if (r.excluded) {
      c.excluded++;
      for (const why of reasonsOf(r).length ? reasonsOf(r) : ["unstated"]) reasons.set(why, (reasons.get(why) ?? 0) + 1);
    }
    const from = Date.parse(r.consented_at ?? r.assigned_at ?? "");
    const to = Date.parse(r.completed_at ?? "");
    if (r.step === "done" && Number.isFinite(from) && Number.isFinite(to) && to >= from) durations.push((to - from) / 60_000);
  }
  durations.sort((a, b) => a - b);
  return {
    recruited: rows.length,
    consented: rows.filter((r) => r.consented_at !== null && r.consented_at !== undefined).length,
    declined: rows.filter((r) => r.step === "declined").length,
    played: rows.filter((r) => r.game_finished === true).length,
    completed: rows.filter((r) => r.step === "done").length,
    excluded: rows.filter((r) => r.excluded).length,
    reasons: [...reasons].map(([reason, participants]) => ({reason, participants})).sort((a, b) => b.participants - a.participants || a.reason.localeCompare(b.reason)),
    underWay: rows.filter((r) => !STOPPED.has(r.step ?? "")).length,
    minutes: durations.length ? {median: median(durations), min: durations[0], max: durations[durations.length - 1]} : null,
    conditions: [...conditions.values()].sort((a, b) => a.condition.localeCompare(b.condition)),
    excludedGames: rows.filter((r) => r.excluded && r.game_id).map((r) => ({game_id: r.game_id!, reason: reasonsOf(r).join(", ") || "unstated"})),
  };
}

/** An exclusion reason in words. */
export function reasonText(reason: string): string {
  return reason.split(",").map((w) => ({attention_check: "failed the attention check", quiz: "failed the comprehension quiz"})[w.trim()] ?? w.trim()).join(" and ");
}
