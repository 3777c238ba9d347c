/**
 * Experiment configurations for `parley play` (JSON): the conditions people
 * are assigned to and the screens around their game, laid out as GLEE ran its
 * human study (GLEE (Shapira et al. 2024), Appendix E.1 and E.3): a consent
 * text, instructions with an attention check hidden among them (a sentence
 * asking for a code word, "sdkot" in GLEE, typed into a box at their end), the
 * game against the condition's opponent, a comprehension quiz at the end, and
 * a completion code for those who pass. Example: data/experiments/glee-bargaining.json.
 *
 *   {"id": "glee-bargaining", "title": "...", "consent": "...",
 *    "instructions": ["paragraph", "... {money} ..."],
 *    "attention_check": {"sentence": "... type the word sdkot ...", "answer": "sdkot", "position": 1},
 *    "quiz": [{"question": "...", "options": ["a", "b", "c", "d"], "answer": 2}],
 *    "completion_code": "PARLEY-4821" | "random",
 *    "conditions": [{"id": "alice-vs-mini", "game": "glee/bargaining", "params": {"delta_a": 0.9},
 *                    "human_seat": "alice", "opponent": {"id": "mini", "provider": "openai", ...}}]}
 *
 * - `instructions` and `quiz` may be given per condition (they replace the
 *   experiment's); `{name}` in their text is the condition's parameter
 *   `name` (`{money}` → 10000), so one text serves several conditions.
 * - `attention_check.position`: the paragraph index the sentence is inserted
 *   before (default: the middle, as GLEE hid it "in the middle of the
 *   game's rules"); `on_fail`: "stop" (GLEE: the participant is told and does
 *   not play) or "play" (plays, and the game is marked excluded).
 * - `opponent`: a built-in agent id, or an LLM player object exactly as in
 *   a run config's `players` (agents/llm/spec.ts); it sits in every seat but
 *   the person's. Or `opponents`: one entry per seat but the person's, in
 *   seat order, each a built-in agent id, an LLM player object, or the id of
 *   an LLM player defined earlier in the file; so a gamma-Bench game can
 *   seat the person, two LLM players and a built-in strategy:
 *     {"game": "gamabench/guessing", "n_players": 4, "human_seat": 0,
 *      "opponents": [{"id": "mini", ...}, "mini", "equilibrium"]}
 *   Every agent must be able to sit in its seat (a GLEE seller strategy
 *   cannot sit in the buyer's seat). `params` left out take the game's default.
 * - `completion_code`: one code for everybody, or "random": a code of its
 *   own per participant (kept in the participants table, so an experimenter
 *   can match what a crowd worker reports).
 * Errors are one line naming the file and the key: `study.json:
 * conditions[1].params.delta_a: expected a number in (0, 1], got 2`.
 */
import type {GameDef, ParamValue, Params} from "../contract/game.js";
import {seatName} from "../contract/game.js";
import {HUMAN} from "./human.js";
import {gameDef, games, matchGames} from "../registry/games.js";
import {agentDef, agents, canSit} from "../registry/agents.js";
import {llmPlays} from "../llm/llmPlayer.js";
import {hasWorkflow} from "../registry/workflows.js";
import {isLlmPlayerConfig, parseLlmPlayerSpec, type LlmPlayerSpec} from "../llm/playerSpec.js";
import {checkParamValue, ConfigError, MAX_DESCRIPTION} from "../runner/runConfig.js";
import {keyNames, type ConfigKey} from "../io/configKeys.js";

export interface QuizQuestion {
  question: string;
  options: string[];
  /** Index of the correct option. */
  answer: number;
}

export interface AttentionCheck {
  sentence: string;
  answer: string;
  position: number | null;
  on_fail: "stop" | "play";
}

export interface Condition {
  id: string;
  def: GameDef;
  params: Params;
  n_players: number;
  human_seat: number;
  /** Agent id per seat ("human" in the person's): built-in agent ids and LLM player ids. */
  seats: string[];
  /** The other seats' agents, for people to read: "mini", or "mini ×2, equilibrium". */
  opponent: string;
  /** The LLM players among the other seats, each once. */
  llms: LlmPlayerSpec[];
  instructions: string[];
  quiz: QuizQuestion[];
}

/** The recruiting panel: which parameters of the study's link identify a person, which are kept, and where they return. */
export interface Panel {
  /** Link parameters naming the person (the first one present is their panel id): one person, one participant. */
  id_params: string[];
  /** Further link parameters kept with the participant (a study's or a session's id). */
  params: string[];
  /** Where the end screen sends the person back, `{code}` the completion code; null: no link. */
  return_url: string | null;
}

/** The end screen's wording. */
export interface Results {
  heading: string;
  text: string[];
  /** Whether the game's outcome is told in words above the code. */
  show_outcome: boolean;
}

export interface Experiment {
  id: string;
  title: string;
  consent: string;
  attention_check: AttentionCheck | null;
  completion_code: string;
  max_attempts: number;
  conditions: Condition[];
  panel: Panel;
  results: Results;
  /** A wrong quiz answer after a whole game: "no_code" (told, no code, excluded) or "paid" (the code, and the game marked excluded). */
  quiz_failure: "no_code" | "paid";
}

/** The default of max_attempts, as the validator fills it in. */
const DEFAULT_MAX_ATTEMPTS = 3;
const ID_TYPE = 'letters, digits, ".", "_" or "-" (at most 64), starting with a letter or digit';

/**
 * The keys of an experiment, of one of its conditions, of its attention
 * check and of a quiz question: the tables `parseExperiment` checks keys
 * against (in this order in its errors) and the site's Reference
 * (/reference/config) prints.
 */
export const EXPERIMENT_KEYS: readonly ConfigKey[] = [
  {key: "id", type: ID_TYPE, default: "required", meaning: "the experiment's id (`parley play` writes into play-<id> unless --out is given)"},
  {key: "title", type: "a non-empty string", default: "required", meaning: "what participants see as the study's title"},
  {key: "description", type: "a string of at most 10,000 characters", default: "none", meaning: "free text about the experiment (not shown to participants)"},
  {key: "consent", type: "a non-empty string", default: "required", meaning: "the consent text participants agree to before anything else"},
  {key: "instructions", type: "a non-empty string or a list of non-empty strings (paragraphs); {name} is the condition's parameter name", default: "required, unless every condition gives its own", meaning: "the instructions before the game"},
  {key: "attention_check", type: "null or an object (keys below)", default: "null: none", meaning: "a sentence asking for a code word, hidden among the instructions and typed into a box at their end (GLEE, App. E)"},
  {key: "quiz", type: "a list of questions (keys below)", default: "[]: no quiz", meaning: "comprehension questions after the game"},
  {key: "completion_code", type: '4 to 64 letters, digits, "_" or "-", or "random"', default: "required", meaning: 'the code shown to those who pass ("random": one code per participant, kept in the participants table)'},
  {key: "conditions", type: "a non-empty list of conditions (keys below), ids unique", default: "required", meaning: "the conditions participants are assigned to"},
  {key: "max_attempts", type: "an integer from 1 to 20", default: String(DEFAULT_MAX_ATTEMPTS), meaning: "answers to one decision before the game's rule-break fallback, as in a run config"},
  {key: "panel", type: '"prolific", "mturk", or an object {id_param: a name or a list of names, params: a list of names, return_url: null or an https URL containing {code}}', default: "ids from PROLIFIC_PID or workerId, keeping STUDY_ID, SESSION_ID, assignmentId, hitId; no return link", meaning: "the recruiting panel: the link parameters that identify a person (the same id resumes the same participant, and is kept in the participants table for payments), those kept beside it, and the return link the end screen offers"},
  {key: "results", type: "an object {heading: a string, text: a string or a list of paragraphs, show_outcome: true or false}", default: '{"heading": "Thank you", "text": "You have completed the study.", "show_outcome": true}', meaning: "the end screen's wording, above the completion code; show_outcome tells the game's outcome in words"},
  {key: "quiz_failure", type: '"no_code" or "paid"', default: '"no_code"', meaning: 'a wrong quiz answer after a whole game: "no_code": told, no code, the game marked excluded; "paid": the completion code all the same, the game marked excluded. The consent screen says which'},
];

/** The panels `panel` may name, and the default (either panel's ids read from the link, no return link). */
export const PANELS: Readonly<Record<string, Panel>> = {
  prolific: {id_params: ["PROLIFIC_PID"], params: ["STUDY_ID", "SESSION_ID"], return_url: "https://app.prolific.com/submissions/complete?cc={code}"},
  mturk: {id_params: ["workerId"], params: ["assignmentId", "hitId"], return_url: null},
};
export const DEFAULT_PANEL: Panel = {id_params: ["PROLIFIC_PID", "workerId"], params: ["STUDY_ID", "SESSION_ID", "assignmentId", "hitId"], return_url: null};
export const DEFAULT_RESULTS: Results = {heading: "Thank you", text: ["You have completed the study."], show_outcome: true};
const PARAM_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

function parsePanel(v: unknown): Panel {
  if (v === undefined || v === null) return DEFAULT_PANEL;
  if (typeof v === "string") {
    if (!(v in PANELS)) fail("panel", `expected "prolific", "mturk" or an object {id_param, params, return_url}, got ${JSON.stringify(v)}`);
    return PANELS[v];
  }
  if (!isObject(v)) fail("panel", `expected "prolific", "mturk" or an object {id_param, params, return_url}, got ${JSON.stringify(v)}`);
  for (const name of Object.keys(v)) if (!["id_param", "params", "return_url"].includes(name)) fail(`panel.${name}`, `unknown key; expected id_param, params, return_url`);
  const names = (x: unknown, key: string, required: boolean): string[] => {
    const list = typeof x === "string" ? [x] : x === undefined && !required ? [] : x;
    if (!Array.isArray(list) || (required && !list.length) || !list.every((n) => typeof n === "string" && PARAM_NAME.test(n))) {
      fail(key, `expected ${required ? "a link parameter's name or a non-empty list of names" : "a list of link parameters' names"} (letters, digits, "_" or "-"), got ${JSON.stringify(x)}`);
    }
    return list as string[];
  };
  const id_params = names(v.id_param, "panel.id_param", true);
  const params = names(v.params, "panel.params", false);
  const url = v.return_url ?? null;
  if (url !== null) {
    if (typeof url !== "string" || !/^https?:\/\//.test(url) || !url.includes("{code}")) fail("panel.return_url", `expected null or an http(s) URL containing {code} (where the completion code goes), got ${JSON.stringify(url)}`);
    try {
      new URL(url.replace("{code}", "CODE"));
    } catch {
      fail("panel.return_url", `not a valid URL: ${JSON.stringify(url)}`);
    }
  }
  return {id_params, params, return_url: url as string | null};
}

function parseResults(v: unknown): Results {
  if (v === undefined || v === null) return DEFAULT_RESULTS;
  if (!isObject(v)) fail("results", `expected an object {heading, text, show_outcome}, got ${JSON.stringify(v)}`);
  for (const name of Object.keys(v)) if (!["heading", "text", "show_outcome"].includes(name)) fail(`results.${name}`, `unknown key; expected heading, text, show_outcome`);
  const heading = v.heading === undefined ? DEFAULT_RESULTS.heading : text(v, "heading", "results.");
  const body = v.text === undefined ? DEFAULT_RESULTS.text : paragraphs(v.text, "results.text");
  const show = v.show_outcome ?? true;
  if (typeof show !== "boolean") fail("results.show_outcome", `expected true or false, got ${JSON.stringify(show)}`);
  return {heading, text: body, show_outcome: show};
}

/** What the consent screen adds about a wrong quiz answer (quiz_failure), or null when no condition has a quiz. */
export function quizFailureNote(experiment: Experiment): string | null {
  if (!experiment.conditions.some((c) => c.quiz.length)) return null;
  return experiment.quiz_failure === "paid"
    ? "After the game there is a short question about its rules. If your answer is wrong you still receive your completion code, and your game is marked in our data."
    : "After the game there is a short question about its rules. If your answer is wrong you do not receive a completion code, and your game is marked in our data.";
}

/** The return link of `panel` for `code`, or null. */
export function returnLink(panel: Panel, code: string | null): string | null {
  return panel.return_url && code ? panel.return_url.replace("{code}", encodeURIComponent(code)) : null;
}

export const CONDITION_KEYS: readonly ConfigKey[] = [
  {key: "id", type: ID_TYPE, default: "required", meaning: "the condition's id"},
  {key: "game", type: "one game id", default: "required", meaning: "the game played (`parley games` lists them)"},
  {key: "params", type: "an object of parameter -> one value", default: "{}: every parameter at its default", meaning: "the game's parameters (each game's are listed below)"},
  {key: "n_players", type: "an integer within the game's seats", default: "the game's default number of seats", meaning: "seats in the game"},
  {key: "human_seat", type: "a seat number, or a seat name where the game names seats", default: "0", meaning: "the person's seat"},
  {key: "opponent", type: "a built-in agent id or an LLM player object", default: 'give "opponent" or "opponents"', meaning: "the agent in every seat but the person's"},
  {key: "opponents", type: "a list, one per seat but the person's, in seat order: built-in agent ids, LLM player objects, or the ids of LLM players defined earlier in the file", default: 'give "opponent" or "opponents"', meaning: "the agents of the other seats"},
  {key: "instructions", type: "as the experiment's", default: "the experiment's", meaning: "this condition's instructions, replacing the experiment's"},
  {key: "quiz", type: "as the experiment's", default: "the experiment's", meaning: "this condition's quiz, replacing the experiment's"},
];

export const ATTENTION_CHECK_KEYS: readonly ConfigKey[] = [
  {key: "sentence", type: "a non-empty string that contains the answer", default: "required", meaning: "the sentence inserted among the instruction paragraphs"},
  {key: "answer", type: "a non-empty string", default: "required", meaning: "the code word (case, surrounding spaces and quotes ignored)"},
  {key: "position", type: "null or a paragraph index ≥ 0", default: "null: the middle", meaning: "the paragraph the sentence is inserted before"},
  {key: "on_fail", type: '"stop" or "play"', default: '"stop"', meaning: '"stop": the participant is told and does not play (GLEE); "play": plays, and the game is marked excluded'},
];

export const QUIZ_KEYS: readonly ConfigKey[] = [
  {key: "question", type: "a non-empty string", default: "required", meaning: "the question ({name} is a parameter of the condition's game)"},
  {key: "options", type: "2 to 10 distinct non-empty strings", default: "required", meaning: "the choices"},
  {key: "answer", type: "an index into options", default: "required", meaning: "the correct option"},
];

const KEYS = keyNames(EXPERIMENT_KEYS);
const CONDITION_NAMES = keyNames(CONDITION_KEYS);
const ATTENTION_NAMES = keyNames(ATTENTION_CHECK_KEYS);
const QUIZ_NAMES = keyNames(QUIZ_KEYS);
const ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

function fail(key: string, message: string): never {
  throw new ConfigError(`${key}: ${message}`);
}

function text(raw: Record<string, unknown>, key: string, where: string, optional = false): string {
  const v = raw[key];
  if (v === undefined && optional) return "";
  if (typeof v !== "string" || !v.trim()) fail(where + key, `expected a non-empty string, got ${JSON.stringify(v)}`);
  return v;
}

function identifier(raw: Record<string, unknown>, key: string, where: string): string {
  const v = raw[key];
  if (typeof v !== "string" || !ID.test(v)) fail(where + key, `expected an id of letters, digits, ".", "_" or "-" (at most 64), got ${JSON.stringify(v)}`);
  return v;
}

function paragraphs(v: unknown, key: string): string[] {
  if (typeof v === "string" && v.trim()) return [v];
  if (Array.isArray(v) && v.length && v.every((p) => typeof p === "string" && p.trim())) return v as string[];
  fail(key, `expected a non-empty string or a list of non-empty strings (paragraphs), got ${JSON.stringify(v)}`);
}

function parseQuiz(v: unknown, key: string): QuizQuestion[] {
  if (!Array.isArray(v)) fail(key, `expected a list of {question, options, answer}, got ${JSON.stringify(v)}`);
  return v.map((q, i) => {
    const k = `${key}[${i}]`;
    if (!isObject(q)) fail(k, `expected {question, options, answer}, got ${JSON.stringify(q)}`);
    for (const name of Object.keys(q)) if (!QUIZ_NAMES.includes(name)) fail(`${k}.${name}`, `unknown key; expected ${QUIZ_NAMES.join(", ")}`);
    const question = text(q, "question", `${k}.`);
    const options = q.options;
    if (!Array.isArray(options) || options.length < 2 || options.length > 10 || !options.every((o) => typeof o === "string" && o.trim())) {
      fail(`${k}.options`, `expected 2 to 10 non-empty strings, got ${JSON.stringify(options)}`);
    }
    if (new Set(options).size !== options.length) fail(`${k}.options`, `lists an option twice`);
    const answer = q.answer;
    if (typeof answer !== "number" || !Number.isInteger(answer) || answer < 0 || answer >= options.length) {
      fail(`${k}.answer`, `expected the index of the correct option, 0 to ${options.length - 1}, got ${JSON.stringify(answer)}`);
    }
    return {question, options: options as string[], answer};
  });
}

function parseAttention(v: unknown): AttentionCheck | null {
  if (v === undefined || v === null) return null;
  const key = "attention_check";
  if (!isObject(v)) fail(key, `expected {sentence, answer, position?, on_fail?}, got ${JSON.stringify(v)}`);
  for (const name of Object.keys(v)) if (!ATTENTION_NAMES.includes(name)) fail(`${key}.${name}`, `unknown key; expected ${ATTENTION_NAMES.join(", ")}`);
  const sentence = text(v, "sentence", `${key}.`);
  const answer = text(v, "answer", `${key}.`).trim();
  if (!sentence.includes(answer)) fail(`${key}.sentence`, `does not contain the answer ${JSON.stringify(answer)}, so no participant could know it`);
  const position = v.position ?? null;
  if (position !== null && !(typeof position === "number" && Number.isInteger(position) && position >= 0)) fail(`${key}.position`, `expected a paragraph index ≥ 0, got ${JSON.stringify(position)}`);
  const onFail = v.on_fail ?? "stop";
  if (onFail !== "stop" && onFail !== "play") fail(`${key}.on_fail`, `expected "stop" or "play", got ${JSON.stringify(onFail)}`);
  return {sentence, answer, position: position as number | null, on_fail: onFail};
}

/** `{name}` in `s` replaced by the parameter `name`; a name that is not a parameter fails naming `key`. */
function fill(s: string, params: Params, key: string): string {
  return s.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    if (!(name in params)) fail(key, `{${name}} is not a parameter of this condition's game (${Object.keys(params).join(", ")})`);
    return String(params[name]);
  });
}

/**
 * The agent of one seat of a condition: a built-in agent id, an LLM player
 * object (registered in `llms`; the same id must describe the same player
 * everywhere, since it shares its cache and limits), or the id of an LLM
 * player defined earlier. It must be able to sit in `seat`.
 */
function seatAgent(o: unknown, key: string, def: GameDef, seat: number, n: number, llms: Map<string, {spec: LlmPlayerSpec; key: string}>): {id: string; llm: LlmPlayerSpec | null} {
  const where = `seat ${seatName(def, seat)} of ${def.id}`;
  if (isLlmPlayerConfig(o)) {
    let llm: LlmPlayerSpec;
    try {
      llm = parseLlmPlayerSpec(o, key);
    } catch (error) {
      throw new ConfigError((error as Error).message);
    }
    if (agents.some((a) => a.id === llm.id) || llm.id === HUMAN) fail(`${key}.id`, `"${llm.id}" is the id of a built-in agent; LLM players need their own ids`);
    if (!llmPlays(def.id)) fail(key, `LLM players cannot play ${def.id} (no narrator)`);
    if (llm.workflow && !hasWorkflow(def.id)) fail(`${key}.workflow`, `${def.id} has no workflow`);
    const same = llms.get(llm.id);
    if (same && JSON.stringify(same.spec) !== JSON.stringify(llm)) fail(key, `LLM player "${llm.id}" is also defined, differently, at ${same.key}; give it another id`);
    if (!same) llms.set(llm.id, {spec: llm, key});
    return {id: llm.id, llm};
  }
  if (typeof o !== "string") fail(key, `expected a built-in agent id or an LLM player object {id, provider, model, ...}, got ${JSON.stringify(o)}`);
  const defined = llms.get(o);
  if (defined) {
    if (!llmPlays(def.id)) fail(key, `LLM players cannot play ${def.id} (no narrator)`);
    if (defined.spec.workflow && !hasWorkflow(def.id)) fail(key, `LLM player "${o}" (${defined.key}) asks for a workflow, and ${def.id} has none`);
    return {id: o, llm: defined.spec};
  }
  let agent;
  try {
    agent = agentDef(o);
  } catch (error) {
    fail(key, `${(error as Error).message}, or an LLM player defined earlier in the file`);
  }
  if (!canSit(agent, def.id, seat, n)) fail(key, `${o} cannot sit in ${where}`);
  return {id: o, llm: null};
}

/** "mini", "mini ×2, equilibrium": the other seats' agents in seat order, repeats counted. */
function opponentLabel(seats: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const id of seats) if (id !== HUMAN) counts.set(id, (counts.get(id) ?? 0) + 1);
  return [...counts].map(([id, k]) => (k > 1 ? `${id} ×${k}` : id)).join(", ");
}

function parseCondition(raw: unknown, i: number, base: {instructions: string[] | null; quiz: QuizQuestion[]}, llms: Map<string, {spec: LlmPlayerSpec; key: string}>): Condition {
  const key = `conditions[${i}]`;
  if (!isObject(raw)) fail(key, `expected an object {id, game, params, human_seat, opponent or opponents}, got ${JSON.stringify(raw)}`);
  for (const name of Object.keys(raw)) if (!CONDITION_NAMES.includes(name)) fail(`${key}.${name}`, `unknown key; expected one of ${CONDITION_NAMES.join(", ")}`);
  const id = identifier(raw, "id", `${key}.`);
  const gameId = raw.game;
  const found = typeof gameId === "string" ? matchGames(gameId) : [];
  if (found.length !== 1 || found[0].id !== gameId) fail(`${key}.game`, `expected one game id (${games.map((d) => d.id).join(", ")}), got ${JSON.stringify(gameId)}`);
  const def = gameDef(gameId as string);

  const n = raw.n_players ?? def.seats.default;
  if (typeof n !== "number" || !Number.isInteger(n) || n < def.seats.min || n > def.seats.max) fail(`${key}.n_players`, `${def.id} seats ${def.seats.min} to ${def.seats.max} players, got ${JSON.stringify(n)}`);

  const rawParams = raw.params ?? {};
  if (!isObject(rawParams)) fail(`${key}.params`, `expected an object of parameter -> one value, got ${JSON.stringify(rawParams)}`);
  for (const name of Object.keys(rawParams)) {
    if (!def.params.some((p) => p.name === name)) fail(`${key}.params.${name}`, `unknown ${def.id} parameter; expected one of ${def.params.map((p) => p.name).join(", ")}`);
  }
  const params: Params = {};
  for (const spec of def.params) {
    const v = rawParams[spec.name];
    params[spec.name] = v === undefined ? spec.default : (checkParamValue(spec, v, `${key}.params.${spec.name}`) as ParamValue);
  }
  const problem = def.checkParams?.(params, n);
  if (problem) fail(`${key}.params`, problem);

  const seatRaw = raw.human_seat ?? 0;
  const names = def.seats.names ?? [];
  const seat = typeof seatRaw === "string" ? names.indexOf(seatRaw) : seatRaw;
  if (typeof seat !== "number" || !Number.isInteger(seat) || seat < 0 || seat >= n) {
    fail(`${key}.human_seat`, `expected a seat number 0 to ${n - 1}${names.length ? ` or a seat name (${names.join(", ")})` : ""}, got ${JSON.stringify(seatRaw)}`);
  }

  if ((raw.opponent === undefined) === (raw.opponents === undefined)) {
    fail(key, `expected either "opponent" (one agent in every other seat) or "opponents" (one per other seat), not ${raw.opponent === undefined ? "neither" : "both"}`);
  }
  const others = Array.from({length: n}, (_, s) => s).filter((s) => s !== seat);
  let entries: [unknown, string][];
  if (raw.opponents !== undefined) {
    const list = raw.opponents;
    if (!Array.isArray(list) || list.length !== others.length) {
      fail(`${key}.opponents`, `expected ${others.length} agents, one per seat but the person's (${def.id} with ${n} players), got ${Array.isArray(list) ? list.length : JSON.stringify(list)}`);
    }
    entries = list.map((o, j) => [o, `${key}.opponents[${j}]`]);
  } else {
    entries = others.map(() => [raw.opponent, `${key}.opponent`]);
  }
  const seats = Array.from({length: n}, () => HUMAN);
  const mine = new Map<string, LlmPlayerSpec>();
  entries.forEach(([o, where], j) => {
    const agent = seatAgent(o, where, def, others[j], n, llms);
    seats[others[j]] = agent.id;
    if (agent.llm) mine.set(agent.id, agent.llm);
  });

  const instructions = raw.instructions === undefined ? base.instructions : paragraphs(raw.instructions, `${key}.instructions`);
  if (!instructions) fail(`${key}.instructions`, `required here, since the experiment gives no instructions`);
  const quiz = raw.quiz === undefined ? base.quiz : parseQuiz(raw.quiz, `${key}.quiz`);
  const where = raw.instructions === undefined ? "instructions" : `${key}.instructions`;
  const quizWhere = raw.quiz === undefined ? "quiz" : `${key}.quiz`;
  return {
    id, def, params, n_players: n, human_seat: seat, seats, opponent: opponentLabel(seats), llms: [...mine.values()],
    instructions: instructions.map((p, j) => fill(p, params, `${where}[${j}]`)),
    quiz: quiz.map((q, j) => ({question: fill(q.question, params, `${quizWhere}[${j}].question`), options: q.options.map((opt, k) => fill(opt, params, `${quizWhere}[${j}].options[${k}]`)), answer: q.answer})),
  };
}

/** Validates a parsed experiment config; throws ConfigError naming the key (the caller adds the file name). */
export function parseExperiment(raw: unknown): Experiment {
  if (!isObject(raw)) throw new ConfigError(`expected a JSON object`);
  for (const key of Object.keys(raw)) if (!KEYS.includes(key)) fail(key, `unknown key; expected one of ${KEYS.join(", ")}`);
  const id = identifier(raw, "id", "");
  const title = text(raw, "title", "");
  const consent = text(raw, "consent", "");
  if (raw.description !== undefined && typeof raw.description !== "string") fail("description", `expected a string`);
  if (typeof raw.description === "string" && raw.description.length > MAX_DESCRIPTION) fail("description", `expected at most ${MAX_DESCRIPTION.toLocaleString("en-US")} characters, got ${raw.description.length.toLocaleString("en-US")}`);
  const attention_check = parseAttention(raw.attention_check);
  const code = raw.completion_code;
  if (typeof code !== "string" || !/^[A-Za-z0-9_-]{4,64}$/.test(code)) fail("completion_code", `expected a code of 4 to 64 letters, digits, "_" or "-", or "random", got ${JSON.stringify(code)}`);
  const maxAttempts = raw.max_attempts ?? DEFAULT_MAX_ATTEMPTS;
  if (typeof maxAttempts !== "number" || !Number.isInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > 20) fail("max_attempts", `expected an integer from 1 to 20, got ${JSON.stringify(maxAttempts)}`);
  const base = {
    instructions: raw.instructions === undefined ? null : paragraphs(raw.instructions, "instructions"),
    quiz: raw.quiz === undefined ? [] : parseQuiz(raw.quiz, "quiz"),
  };
  if (!Array.isArray(raw.conditions) || !raw.conditions.length) fail("conditions", `expected a non-empty list of conditions`);
  const llms = new Map<string, {spec: LlmPlayerSpec; key: string}>();
  const conditions = raw.conditions.map((c, i) => parseCondition(c, i, base, llms));
  const seen = new Map<string, number>();
  conditions.forEach((c, i) => {
    if (seen.has(c.id)) fail(`conditions[${i}].id`, `"${c.id}" is also the id of conditions[${seen.get(c.id)}]`);
    seen.set(c.id, i);
    if (attention_check?.position != null && attention_check.position > c.instructions.length) {
      fail("attention_check.position", `${attention_check.position} is past the ${c.instructions.length} paragraphs of condition ${c.id}'s instructions`);
    }
  });
  const panel = parsePanel(raw.panel);
  const results = parseResults(raw.results);
  const quizFailure = raw.quiz_failure ?? "no_code";
  if (quizFailure !== "no_code" && quizFailure !== "paid") fail("quiz_failure", `expected "no_code" or "paid", got ${JSON.stringify(quizFailure)}`);
  return {id, title, consent, attention_check, completion_code: code, max_attempts: maxAttempts, conditions, panel, results, quiz_failure: quizFailure};
}

/** The instruction paragraphs a participant of `condition` reads, the attention check's sentence among them. */
export function instructionParagraphs(experiment: Experiment, condition: Condition): string[] {
  const paragraphs = [...condition.instructions];
  const check = experiment.attention_check;
  if (check) paragraphs.splice(check.position ?? Math.ceil(paragraphs.length / 2), 0, check.sentence);
  return paragraphs;
}

/** Whether a typed answer passes the attention check: the code word, ignoring case and surrounding spaces or quotes. */
export function passesAttention(check: AttentionCheck, typed: string): boolean {
  return typed.trim().replace(/^["'“”‘’]+|["'“”‘’.]+$/g, "").toLowerCase() === check.answer.toLowerCase();
}

/** The LLM players of an experiment's conditions, each once. */
export function experimentLlms(experiment: Experiment): LlmPlayerSpec[] {
  const byId = new Map<string, LlmPlayerSpec>();
  for (const c of experiment.conditions) for (const llm of c.llms) byId.set(llm.id, llm);
  return [...byId.values()];
}
