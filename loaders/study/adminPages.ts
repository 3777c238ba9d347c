/**
 * The experimenter's pages of a `parley play` server (studyServer.ts serves
 * them behind the admin token): progress per condition, the list of
 * participants (condition, step, time on the step, time since they were
 * last active, completion code, exclusion and why, panel id, where it came
 * from and the panel ids later links brought, refused), refreshed
 * every few seconds by a small script of its own (/admin/admin.js, allowed
 * by the page's content security policy as the server's own script), CSV
 * downloads of every table, and one participant's game: their moves and,
 * once it is over, its turns. Every value is escaped; nothing is taken as HTML.
 */
import type {Experiment} from "./experiment.js";
import type {Participant, Step} from "./participants.js";
import type {ConditionProgress} from "./progress.js";
import type {GameRecord} from "../runner/tournament.js";
import {csvRows} from "../io/csvRows.js";

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The tables the admin page offers as CSV (games, players and turns over every game partition). */
export const CSV_TABLES = ["participants", "games", "players", "turns"] as const;
export type CsvTable = (typeof CSV_TABLES)[number];

/** How often the admin page asks for fresh numbers. */
export const ADMIN_REFRESH_MS = 5000;

/** When `p` entered the step they are at (ISO), for the time on it. */
export function stepStartedAt(p: Participant): string {
  const at: Record<Step, string | null> = {
    consent: p.assigned_at,
    instructions: p.consented_at,
    game: p.game_started_at,
    quiz: p.game_finished_at,
    done: p.completed_at,
    declined: p.consented_at,
    failed_attention: p.completed_at,
    failed_quiz: p.completed_at,
  };
  return at[p.step] ?? p.assigned_at;
}

/** The last moment `p` did something the server saw: their last request in this process, else the latest saved step. */
export function lastActive(p: Participant, seen: number | undefined): number {
  const saved = [p.assigned_at, p.consented_at, p.game_started_at, p.game_finished_at, p.completed_at].filter((t): t is string => t !== null).map(Date.parse);
  return Math.max(seen ?? 0, ...saved);
}

/** A duration as people read it: "45 s", "3 min", "2 h 05 min", "3 d 4 h". */
export function duration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 24) return `${h} h ${String(min % 60).padStart(2, "0")} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}

/** Whether a step is an end (nobody is idle there). */
const ENDS: readonly Step[] = ["done", "declined", "failed_attention", "failed_quiz"];

export interface ParticipantLine {
  id: string;
  condition: string;
  step: Step;
  moves: number;
  time_on_step: string;
  /** Time since the last request; "" at an end. */
  idle: string;
  code: string;
  excluded: boolean;
  exclusion_reason: string;
  panel_id: string;
  /** Where the panel id came from: "PROLIFIC_PID at first arrival, <time> UTC", or "none". */
  panel_id_from: string;
  /** Panel ids later links brought and that were refused (never attached), as text; "" when none. */
  panel_refused: string;
  assigned_at: string;
}

/** An ISO time as the admin reads it: "2026-01-01 10:00:00 UTC". */
const utc = (iso: string) => `${iso.slice(0, 19).replace("T", " ")} UTC`;

/** Where `p`'s panel id came from: the link parameter and the time of the first arrival, or "none". */
export function panelIdFrom(p: Participant): string {
  if (!p.panel_id) return "none";
  // Records written before the parameter was kept: the id may even have come from a later link.
  if (!p.panel_id_param) return "not recorded (a record from an older version)";
  return `${p.panel_id_param} at first arrival, ${utc(p.assigned_at)}`;
}

/** The panel ids later links brought to `p`, refused: "X (PROLIFIC_PID, <time> UTC); …; and 3 more", or "". */
export function refusedPanelIds(p: Participant): string {
  const kept = p.panel_refused ?? [];
  const more = Math.max(0, (p.panel_refused_count ?? kept.length) - kept.length);
  return [...kept.map((r) => `${r.id} (${r.param}, ${utc(r.at)})`), ...(more ? [`and ${more} more`] : [])].join("; ");
}

/** One line per participant, newest first, as the admin page lists them at time `now`. */
export function participantLines(participants: readonly Participant[], now: number, seen: ReadonlyMap<string, number>): ParticipantLine[] {
  return [...participants]
    .sort((a, b) => b.assigned_at.localeCompare(a.assigned_at) || a.id.localeCompare(b.id))
    .map((p) => {
      const over = ENDS.includes(p.step);
      return {
        id: p.id,
        condition: p.condition,
        step: p.step,
        moves: p.moves.length,
        time_on_step: over ? "" : duration(now - Date.parse(stepStartedAt(p))),
        idle: over ? "" : duration(now - lastActive(p, seen.get(p.id))),
        code: p.completion_code ?? "",
        excluded: p.excluded,
        exclusion_reason: p.exclusion_reason ?? "",
        panel_id: p.panel_id ?? "",
        panel_id_from: panelIdFrom(p),
        panel_refused: refusedPanelIds(p),
        assigned_at: p.assigned_at,
      };
    });
}

/**
 * Rows as CSV for a spreadsheet: csvRows, with a text that a spreadsheet
 * would run as a formula (starting with =, +, -, @, tab or carriage return,
 * and not a number) prefixed with an apostrophe, since messages come from
 * participants and models.
 */
export function spreadsheetCsv(rows: readonly Record<string, unknown>[]): string {
  const safe = (v: unknown) => (typeof v === "string" && /^[=+\-@\t\r]/.test(v) && !Number.isFinite(Number(v)) ? `'${v}` : v);
  return csvRows(rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, safe(v)]))));
}

const cell = (v: unknown) => `<td>${escapeHtml(v === null || v === undefined ? "" : String(v))}</td>`;

/** The live part of the admin page: progress per condition and the participants (replaced every ADMIN_REFRESH_MS by admin.js). */
export function adminLive(rows: readonly ConditionProgress[], lines: readonly ParticipantLine[], now: number): string {
  const head = ["condition", "game", "opponent", "assigned", "started", "playing", "finished", "completed", "excluded", "declined", "pilot"];
  const cells = (r: ConditionProgress) => [r.condition, r.game, r.opponent, r.assigned, r.started, r.playing, r.finished, r.completed, r.excluded, r.declined];
  const tryIt = (r: ConditionProgress) => `<td><a class="parley-try" href="/admin/new?condition=${encodeURIComponent(r.condition)}">play it</a></td>`;
  const progressTable = `<table class="parley-progress"><caption>Progress per condition</caption><thead><tr>${head.map((h) => `<th scope="col">${h}</th>`).join("")}</tr></thead><tbody>${rows.map((r) => `<tr>${cells(r).map(cell).join("")}${tryIt(r)}</tr>`).join("")}</tbody></table>`;
  const people = ["participant", "condition", "step", "moves", "time on step", "idle", "completion code", "excluded", "reason", "panel id", "panel id from", "refused panel ids"];
  const line = (l: ParticipantLine) =>
    `<tr data-participant="${escapeHtml(l.id)}"><td><a href="/admin/p/${encodeURIComponent(l.id)}"><code>${escapeHtml(l.id)}</code></a></td>${[l.condition, l.step, l.moves, l.time_on_step, l.idle, l.code, l.excluded ? "yes" : "", l.exclusion_reason, l.panel_id, l.panel_id_from, l.panel_refused].map(cell).join("")}</tr>`;
  const list = lines.length
    ? `<table class="parley-participants"><caption>Participants (${lines.length}), newest first</caption><thead><tr>${people.map((h) => `<th scope="col">${h}</th>`).join("")}</tr></thead><tbody>${lines.map(line).join("")}</tbody></table>`
    : `<p>No participants yet.</p>`;
  return `${progressTable}${list}<p class="parley-updated">Updated ${escapeHtml(new Date(now).toISOString().slice(11, 19))} UTC; refreshed every ${ADMIN_REFRESH_MS / 1000} s.</p>`;
}

/** The admin page. */
export function adminPage(experiment: Experiment, live: string): string {
  const downloads = CSV_TABLES.map((t) => `<a href="/admin/csv/${t}.csv" download>${t}.csv</a>`).join(" · ");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(experiment.title)}: admin</title><link rel="stylesheet" href="/admin/study.css"></head>
<body><main class="parley-study parley-admin"><h1>${escapeHtml(experiment.title)}</h1><p>Experiment <code>${escapeHtml(experiment.id)}</code>.
<em>started</em>: gave consent; <em>finished</em>: the game is over and in the tables; <em>completed</em>: got the completion code; <em>excluded</em>: failed the attention check or the quiz (kept in the tables, marked in participants.parquet).
<em>play it</em>: a new participant in that condition (not assigned at random; counted like any other), to pilot it. <em>time on step</em>: since the participant reached their step; <em>idle</em>: since their page last asked the server anything. A participant's id opens their game.</p>
<div id="parley-live" aria-live="polite">${live}</div>
<p>Download: ${downloads} (CSV, games, players and turns over every game) · <a href="/admin/tables.tar">all tables</a> (Parquet, as <code>parley run</code> writes them) · <a href="/admin/progress.json">progress.json</a> · <a href="/admin/participants.json">participants.json</a></p></main><script src="/admin/admin.js"></script></body></html>
`;
}

/** The admin page's script: fetches the live part every ADMIN_REFRESH_MS and puts it in place (server-escaped HTML). */
export const ADMIN_SCRIPT = `(() => {
  const live = document.getElementById("parley-live");
  if (!live) return;
  setInterval(async () => {
    try {
      const r = await fetch("/admin/live", {credentials: "same-origin"});
      if (r.ok) live.innerHTML = await r.text();
    } catch {}
  }, ${ADMIN_REFRESH_MS});
})();
`;

/** What one action was, for the experimenter: its fields without the type, as "field: value". */
function actionText(action: unknown): string {
  if (!action || typeof action !== "object") return String(action ?? "");
  const {type, ...rest} = action as Record<string, unknown>;
  const fields = Object.entries(rest).map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`);
  return [String(type ?? ""), ...fields].filter(Boolean).join(", ");
}

/** One participant's page: where they stand, their moves, and the game's turns once it is over. */
export function participantPage(experiment: Experiment, p: Participant, line: ParticipantLine | undefined, record: GameRecord | undefined): string {
  const facts: [string, unknown][] = [
    ["participant", p.id], ["condition", p.condition], ["step", p.step], ["time on step", line?.time_on_step], ["idle", line?.idle],
    ["assigned", p.assigned_at], ["consented", p.consented_at], ["game started", p.game_started_at], ["game finished", p.game_finished_at], ["completed", p.completed_at],
    ["attention answer", p.attention ? `${p.attention.answer} (${p.attention.passed ? "passed" : "failed"})` : null],
    ["quiz", p.quiz ? `${JSON.stringify(p.quiz.answers)} (${p.quiz.passed ? "passed" : "failed"})` : null],
    ["completion code", p.completion_code], ["excluded", p.excluded ? `yes: ${p.exclusion_reason}` : "no"],
    ["panel id", p.panel_id], ["panel id from", panelIdFrom(p)], ["refused panel ids", refusedPanelIds(p) || "none"], ["panel parameters", p.panel ? JSON.stringify(p.panel) : null], ["game id", p.game_id],
  ];
  const factList = `<table class="parley-facts"><tbody>${facts.map(([k, v]) => `<tr><th scope="row">${escapeHtml(k)}</th>${cell(v ?? "")}</tr>`).join("")}</tbody></table>`;
  const moves = p.moves.length ? `<ol class="parley-moves">${p.moves.map((m) => `<li>${escapeHtml(actionText(m))}</li>`).join("")}</ol>` : "<p>No moves yet.</p>";
  let turns = "<p>The game is not over yet: its turns are in the tables once it is.</p>";
  if (record) {
    const seatName = (seat: number) => String(record.players.find((r) => r.seat === seat)?.seat_name ?? `seat ${seat}`);
    const agent = (seat: number) => String(record.players.find((r) => r.seat === seat)?.agent ?? "");
    const head = ["round", "seat", "player", "move", "message", "rule break"];
    const body = record.turns.map((t) => `<tr>${[t.round, seatName(t.seat as number), agent(t.seat as number), turnMove(t), t.message ?? "", t.rule_break ? "yes" : ""].map(cell).join("")}</tr>`).join("");
    const players = record.players.map((r) => `${r.seat_name ?? `seat ${r.seat}`}: ${r.agent}, return ${typeof r.return === "number" ? r.return.toFixed(4) : ""}`).join("; ");
    turns = `<p>Ended by ${escapeHtml(String(record.row.ended_by))} after ${escapeHtml(String(record.row.rounds))} rounds. ${escapeHtml(players)}.</p><table class="parley-turns"><thead><tr>${head.map((h) => `<th scope="col">${h}</th>`).join("")}</tr></thead><tbody>${body}</tbody></table>`;
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(experiment.title)}: participant ${escapeHtml(p.id)}</title><link rel="stylesheet" href="/admin/study.css"></head>
<body><main class="parley-study parley-admin"><p><a href="/admin">← all participants</a></p><h1>Participant <code>${escapeHtml(p.id)}</code></h1>${factList}<h2>Their moves</h2>${moves}<h2>The game</h2>${turns}</main></body></html>
`;
}

/** The turns columns every game has (the rest are the game's own: the move's fields). */
const TURN_COLUMNS = new Set(["game_id", "game", "turn", "round", "seat", "player", "role", "action", "message", "reasoning", "raw", "rule_break", "rule_break_reason", "attempt", "input_tokens", "output_tokens", "latency_ms"]);

/** A turns row's move: its action type and the game's own columns that are set ("offer, alice_gain: 600, bob_gain: 400"). */
export function turnMove(turn: Record<string, unknown>): string {
  const fields = Object.fromEntries(Object.entries(turn).filter(([k, v]) => !TURN_COLUMNS.has(k) && v !== null && v !== undefined));
  return actionText({type: turn.action, ...fields});
}
