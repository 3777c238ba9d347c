/**
 * Participants of a `parley play` experiment and where each stands, kept in
 * the server's state directory as one JSON file per participant
 * (`<state>/participants/<id>.json`), each change written beside the file
 * and renamed over it, so a crash or a restart leaves every participant at
 * their last completed step: condition, consent, attention check, the seed
 * of their game and every move they made in it (the game is replayed from
 * these, the LLM's replies coming back from the response cache), quiz
 * answers and completion code.
 *
 * Each file is written durably (io/atomic.ts writeFileDurable: fsync of the
 * file and of the folder around the rename). A file that cannot be read as a
 * participant (empty after a crash on a filesystem that reordered writes,
 * cut short, edited by hand) is set aside as `<id>.json.unreadable-<time>`
 * and named in `problems`; the others are served.
 *
 * Identifiers are 128 random bits (crypto), never derived from anything a
 * participant tells; a participant's link `/p/<id>` is their only key.
 */
import {mkdirSync, readdirSync, readFileSync, renameSync} from "node:fs";
import {randomBytes, randomInt} from "node:crypto";
import {join} from "node:path";
import {writeFileDurable} from "../io/atomic.js";
import type {Experiment} from "./experiment.js";

/** Where a participant is: each screen in order, and the ends. */
export type Step = "consent" | "instructions" | "game" | "quiz" | "done" | "declined" | "failed_attention" | "failed_quiz";

/** One accepted entry of the person's, as the human seat answered it (replayed in order). */
export type Move = Record<string, unknown>;

export interface Participant {
  id: string;
  experiment: string;
  condition: string;
  step: Step;
  /** Seed of the participant's game (its chance moves and the LLM's sample key). */
  seed: number;
  assigned_at: string;
  consented_at: string | null;
  game_started_at: string | null;
  game_finished_at: string | null;
  completed_at: string | null;
  attention: {answer: string; passed: boolean} | null;
  moves: Move[];
  quiz: {answers: number[]; passed: boolean} | null;
  /** The code shown at the end; null until earned. */
  completion_code: string | null;
  game_id: string | null;
  excluded: boolean;
  /** Why: "attention_check", "quiz" (both when both failed, comma separated). */
  exclusion_reason: string | null;
  /** The recruiting panel's id of the person (experiment.ts Panel: PROLIFIC_PID, workerId, …), null when the link named none; absent in older files. Taken only at the first arrival (when the record is made). */
  panel_id?: string | null;
  /** The link parameter `panel_id` came from at the first arrival (PROLIFIC_PID, workerId, …); null: none; absent in older files (not recorded). */
  panel_id_param?: string | null;
  /** The panel's link parameters kept with it (name → value). */
  panel?: Record<string, string> | null;
  /** Panel ids a later link brought to this participant, refused (never attached): the first MAX_REFUSED_PANEL_IDS, for the admin. */
  panel_refused?: RefusedPanelId[];
  /** How many later links brought a panel id, in all (the list above keeps the first few). */
  panel_refused_count?: number;
  /** The tokens of the accepted moves (one per move the page sent): a move sent twice with its token is played once. */
  move_tokens?: string[];
}

/** What a study's link said about the person: their panel id, the parameter it came from, and the parameters kept. */
export interface PanelInfo {
  id: string | null;
  /** The link parameter that gave `id` (the first of the panel's `id_params` present); null with `id`. */
  param: string | null;
  params: Record<string, string>;
}

/** A panel id that a later link brought to an existing participant: refused, kept for the admin to see. */
export interface RefusedPanelId {
  param: string;
  id: string;
  /** ISO time of the link. */
  at: string;
}

/** How many refused panel ids a participant keeps (the count goes on): a link opened again and again cannot grow the file without bound. */
export const MAX_REFUSED_PANEL_IDS = 10;

/**
 * Records that a later link brought panel id `panel.id` to `p`, who came
 * without one: a panel id is taken only at a participant's first arrival,
 * since a link from another site can carry any id, and payments matched on
 * it would go to whoever chose it. `p` keeps no panel id; the caller saves.
 */
export function refusePanelId(p: Participant, panel: PanelInfo, now: number): void {
  if (panel.id === null || panel.param === null) return;
  p.panel_refused ??= [];
  if (p.panel_refused.length < MAX_REFUSED_PANEL_IDS) p.panel_refused.push({param: panel.param, id: panel.id, at: new Date(now).toISOString()});
  p.panel_refused_count = (p.panel_refused_count ?? 0) + 1;
}

/** A panel id or parameter as kept: at most 128 characters of printable ASCII (anything else in the link is not kept). */
const PANEL_VALUE = /^[\x21-\x7e]{1,128}$/;

/** The panel id and kept parameters of a study link's query (`id_params`: the first present names the person). */
export function panelInfo(query: URLSearchParams, panel: {id_params: readonly string[]; params: readonly string[]}): PanelInfo {
  const value = (name: string) => {
    const v = query.get(name)?.trim();
    return v && PANEL_VALUE.test(v) ? v : null;
  };
  const params: Record<string, string> = {};
  let id: string | null = null;
  let param: string | null = null;
  for (const name of panel.id_params) {
    const v = value(name);
    if (v === null) continue;
    params[name] = v;
    if (id === null) [id, param] = [v, name];
  }
  for (const name of panel.params) {
    const v = value(name);
    if (v !== null) params[name] = v;
  }
  return {id, param, params};
}

/** A participant id: 22 characters of base64url (128 random bits). */
export const PARTICIPANT_ID = /^[A-Za-z0-9_-]{22}$/;

export const newParticipantId = (): string => randomBytes(16).toString("base64url");

/** A per-participant completion code: 10 characters without look-alikes (0/O, 1/I/L). */
export function randomCode(): string {
  const alphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
  return Array.from({length: 10}, () => alphabet[randomInt(alphabet.length)]).join("");
}

/**
 * Balanced random assignment: the condition with the fewest started
 * participants, ties broken uniformly at random (`pick(n)` → 0..n-1).
 * `started[i]` counts condition i's participants who have started.
 */
export function assignCondition(started: readonly number[], pick: (n: number) => number = randomInt): number {
  const least = Math.min(...started);
  const tied = started.flatMap((n, i) => (n === least ? [i] : []));
  return tied[pick(tied.length)];
}

/**
 * How long an assigned participant who has not yet consented counts as
 * started for the balance: people who open their links at the same moment
 * spread over the conditions, while links opened and abandoned (or fetched
 * by a link preview) stop counting after this.
 */
export const PENDING_MS = 30 * 60_000;

/** Whether `p` counts as started for the assignment at time `now`. */
export function countsAsStarted(p: Participant, now: number): boolean {
  if (p.step === "declined") return false;
  if (p.consented_at !== null) return true;
  return now - Date.parse(p.assigned_at) < PENDING_MS;
}

const STEPS: readonly Step[] = ["consent", "instructions", "game", "quiz", "done", "declined", "failed_attention", "failed_quiz"];

/** Why `value` (read from `<id>.json`) is not a participant record, or null. */
function notAParticipant(value: unknown, name: string): string | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "not a JSON object";
  const p = value as Record<string, unknown>;
  if (typeof p.id !== "string" || !PARTICIPANT_ID.test(p.id) || `${p.id}.json` !== name) return "id: expected the 22-character id the file is named after";
  if (typeof p.experiment !== "string" || typeof p.condition !== "string") return "experiment, condition: expected text";
  if (!STEPS.includes(p.step as Step)) return `step: expected one of ${STEPS.join(", ")}`;
  if (!Number.isSafeInteger(p.seed)) return "seed: expected an integer";
  if (!Array.isArray(p.moves)) return "moves: expected a list";
  const refused = (r: unknown) => typeof r === "object" && r !== null && ["param", "id", "at"].every((k) => typeof (r as Record<string, unknown>)[k] === "string");
  if (p.panel_refused !== undefined && !(Array.isArray(p.panel_refused) && p.panel_refused.every(refused))) return "panel_refused: expected a list of {param, id, at} (text)";
  if (p.panel_refused_count !== undefined && !(Number.isSafeInteger(p.panel_refused_count) && (p.panel_refused_count as number) >= 0)) return "panel_refused_count: expected a whole number";
  return null;
}

/**
 * Sets the unreadable state file `path` aside (renamed, so it is neither
 * read again nor lost) and returns the line that says so.
 */
export function setAside(path: string, what: string, reason: string, then: string): string {
  const aside = `${path}.unreadable-${Date.now()}`;
  try {
    renameSync(path, aside);
    return `${path}: not a readable ${what} (${reason}); set aside as ${aside}, ${then}`;
  } catch (error) {
    return `${path}: not a readable ${what} (${reason}); it could not be set aside (${(error as Error).message}) and is skipped, ${then}`;
  }
}

export class ParticipantStore {
  private readonly dir: string;
  private readonly byId = new Map<string, Participant>();
  /** One line per state file that could not be read (set aside; the others are served). */
  readonly problems: string[] = [];

  /** Opens (or creates) the store in `stateDir`; participants of other experiments there are refused by the caller. */
  constructor(stateDir: string, readonly experiment: Experiment) {
    this.dir = join(stateDir, "participants");
    mkdirSync(this.dir, {recursive: true});
    for (const name of readdirSync(this.dir)) {
      if (!name.endsWith(".json") || name.startsWith(".")) continue;
      const path = join(this.dir, name);
      let p: Participant;
      try {
        const value: unknown = JSON.parse(readFileSync(path, "utf8"));
        const problem = notAParticipant(value, name);
        if (problem) throw new Error(problem);
        p = value as Participant;
      } catch (error) {
        this.problems.push(setAside(path, "participant record", (error as Error).message, "the others are served"));
        continue;
      }
      if (p.experiment !== experiment.id) throw new Error(`${path}: participant of experiment "${p.experiment}", but this server runs "${experiment.id}"; use another --out for another experiment`);
      if (!experiment.conditions.some((c) => c.id === p.condition)) throw new Error(`${path}: condition "${p.condition}" is not in the experiment config any more; put it back, or use another --out`);
      this.byId.set(p.id, p);
    }
  }

  get(id: string): Participant | undefined {
    return PARTICIPANT_ID.test(id) ? this.byId.get(id) : undefined;
  }

  /** The participant the panel knows as `panelId`, if any (one person, one participant). */
  byPanelId(panelId: string): Participant | undefined {
    for (const p of this.byId.values()) if (p.panel_id === panelId) return p;
    return undefined;
  }

  all(): Participant[] {
    return [...this.byId.values()];
  }

  /**
   * A new participant, saved: in condition `conditionId` when given (the
   * admin's link for one condition: pilots, demos, tests), else assigned by
   * balanced random assignment.
   */
  create(now = Date.now(), conditionId?: string, panel: PanelInfo | null = null): Participant {
    const conditions = this.experiment.conditions;
    const started = conditions.map((c) => this.all().filter((p) => p.condition === c.id && countsAsStarted(p, now)).length);
    const condition = conditionId === undefined ? conditions[assignCondition(started)] : conditions.find((c) => c.id === conditionId);
    if (!condition) throw new Error(`no condition "${conditionId}"; expected one of ${conditions.map((c) => c.id).join(", ")}`);
    let id = newParticipantId();
    while (this.byId.has(id)) id = newParticipantId();
    const p: Participant = {
      id, experiment: this.experiment.id, condition: condition.id, step: "consent", seed: randomInt(2 ** 31 - 1),
      assigned_at: new Date(now).toISOString(), consented_at: null, game_started_at: null, game_finished_at: null, completed_at: null,
      attention: null, moves: [], quiz: null, completion_code: null, game_id: null, excluded: false, exclusion_reason: null,
      panel_id: panel?.id ?? null, panel_id_param: panel?.param ?? null, panel: panel && Object.keys(panel.params).length ? panel.params : null,
      panel_refused: [], panel_refused_count: 0, move_tokens: [],
    };
    this.save(p);
    return p;
  }

  /** Writes `p` (already changed in memory) to its file. */
  save(p: Participant): void {
    writeFileDurable(join(this.dir, `${p.id}.json`), JSON.stringify(p) + "\n");
    this.byId.set(p.id, p);
  }
}

/** Marks `p` excluded for `reason` (kept, never deleted: the tables say why). */
export function exclude(p: Participant, reason: string): void {
  p.excluded = true;
  const reasons = new Set((p.exclusion_reason ?? "").split(",").filter(Boolean));
  reasons.add(reason);
  p.exclusion_reason = [...reasons].join(",");
}
