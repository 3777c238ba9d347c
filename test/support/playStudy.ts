/**
 * `parley play` for tests: a fake model that plays GLEE from the prompts
 * (and sends the XSS string as every message), an experiment config whose
 * opponent is that model, and the server as a child process whose URLs are
 * read from its JSON line on stdout. Servers still running when the test
 * file ends are killed.
 */
import {after} from "node:test";
import {request} from "node:http";
import {writeFileSync} from "node:fs";
import {join} from "node:path";
import type {ChildProcess} from "node:child_process";
import {startParley} from "./cli.js";
import {startFakeLlm, type FakeLlmServer} from "./fakeLlm.js";
import {gleeBot} from "./gleeBot.js";

export const PLAY_KEY = "sk-parley-play-" + "5ec7e75ec7".repeat(4);
export const XSS = "<img src=x onerror=alert(1)>";
export const ADMIN_TOKEN = "admin-secret-token-for-tests";

const children = new Set<ChildProcess>();
after(() => children.forEach((c) => c.kill("SIGKILL")));

/** The number the fake model guesses in gamma-Bench's Guess 2/3 of the Average, every round. */
export const FAKE_GUESS = 40;

/**
 * GLEE's scripted answers (reject in round 1, accept from round 2), every
 * message the XSS string; in gamma-Bench's guessing game, FAKE_GUESS in the
 * format its prompt asks for (a JSON string, as the paper's prompt has it).
 */
export async function fakeModel({delayMs = 0}: {delayMs?: number} = {}): Promise<FakeLlmServer> {
  const bot = gleeBot({misbehave: (r) => (r.lastUser.includes('"chosen_number"') ? {text: `{"chosen_number": "${FAKE_GUESS}"}`} : null)});
  return startFakeLlm("openai", async (r) => {
    const reply = await bot(r);
    // `delayMs`: a slow model (each answer that long), for the participant's waiting state.
    return "text" in reply ? {...reply, text: reply.text.replace("Let's split it evenly.", XSS).replace("A fair price.", XSS), ...(delayMs && {delayMs})} : reply;
  });
}

/** A bargaining study (M = 1000, δ_A = 0.9, δ_B = 0.8, 12 rounds, messages) with one condition per seat given, against the fake model. */
export function experimentConfig(server: FakeLlmServer, conditions: {id: string; seat: string}[] = [{id: "alice", seat: "alice"}]): Record<string, unknown> {
  const opponent = {id: "fake", provider: "openai", model: "fake-model", base_url: server.baseURL, api_key_env: "PARLEY_PLAY_TEST_KEY", temperature: 1.0, max_tokens: 400, timeout_ms: 5000, max_retries: 1};
  return {
    id: "test-study",
    title: "A bargaining study",
    consent: "You agree to play one game.",
    instructions: ["You and another player divide ${money}.", "Each round one proposes."],
    attention_check: {sentence: "Type the word sdkot in the box below.", answer: "sdkot"},
    completion_code: "DONE-4821",
    conditions: conditions.map(({id, seat}) => ({
      id, game: "glee/bargaining", human_seat: seat, opponent,
      params: {delta_a: 0.9, delta_b: 0.8, money: 1000, horizon: 12, complete_information: true, messages: true},
      quiz: [{question: "Your discount factor?", options: ["0.8", "0.9", "1"], answer: seat === "alice" ? 1 : 0}],
    })),
  };
}

/**
 * A study of three conditions against the fake model: GLEE negotiation with
 * the person as the buyer (F_A = 0.8, F_B = 1.2, M = 100, 6 rounds,
 * messages), GLEE persuasion with the person as the seller (3 rounds, binary
 * messages), and gamma-Bench's Guess 2/3 of the Average over 2 rounds with
 * the person in seat 0, the fake model in seats 1 and 2 and the built-in
 * `equilibrium` strategy in seat 3. No quiz: the code follows the game.
 */
export function threeGamesConfig(server: FakeLlmServer): Record<string, unknown> {
  const base = experimentConfig(server);
  const opponent = (base.conditions as {opponent: unknown}[])[0].opponent;
  return {
    ...base,
    id: "three-games",
    title: "Three games",
    instructions: ["You will play one game against computer players.", "The next screen shows its rules."],
    conditions: [
      {id: "negotiation", game: "glee/negotiation", human_seat: "bob", opponent, params: {factor_a: 0.8, factor_b: 1.2, money: 100, horizon: 6, messages: true}, quiz: []},
      {id: "persuasion", game: "glee/persuasion", human_seat: "alice", opponent: "fake", params: {money: 100, horizon: 3}, quiz: []},
      {id: "guessing", game: "gamabench/guessing", n_players: 4, human_seat: 0, opponents: ["fake", "fake", "equilibrium"], params: {rounds: 2}, quiz: []},
    ],
  };
}

export interface RunningStudy {
  child: ChildProcess;
  url: string;
  admin: string;
  stderr(): string;
  done: Promise<unknown>;
}

/** Starts `parley play --config <config> --out <out>` (port 0 unless `extra` names one) and waits for its URLs. */
export async function startStudy(config: string, out: string, extra: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<RunningStudy> {
  const port = extra.includes("--port") ? [] : ["--port", "0"];
  const {child, done} = startParley(["play", "--config", config, "--out", out, ...port, ...extra], {PARLEY_PLAY_TEST_KEY: PLAY_KEY, PARLEY_ADMIN_TOKEN: ADMIN_TOKEN, ...env}, 600_000);
  children.add(child);
  child.on("close", () => children.delete(child));
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (c) => (stderr += c));
  const info = await new Promise<{url: string}>((resolve, reject) => {
    child.stdout!.on("data", (c) => {
      stdout += c;
      const end = stdout.indexOf("\n}");
      if (end >= 0) resolve(JSON.parse(stdout.slice(0, end + 2)));
    });
    child.on("close", (code) => reject(new Error(`parley play exited with ${code}: ${stderr}`)));
  });
  // The admin token comes from the environment, so the server does not print it: the link is made here.
  return {child, url: info.url, admin: `${info.url}/admin?token=${encodeURIComponent(ADMIN_TOKEN)}`, stderr: () => stderr, done};
}

/** Writes `config` into `dir` (study.json) and starts the server on it, tables in <dir>/out. */
export async function startStudyIn(dir: string, config: Record<string, unknown>, extra: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<{file: string; out: string; server: RunningStudy}> {
  const file = join(dir, "study.json");
  writeFileSync(file, JSON.stringify(config));
  const out = join(dir, "out");
  return {file, out, server: await startStudy(file, out, extra, env)};
}

/** A response as the study tests read it. */
export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json: any;
}

export interface CallOptions {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** The local address to send from (node:http, so it and the Host header can be chosen). */
  localAddress?: string;
  /** Rejects when no answer comes within it: a request left waiting is the failure some tests look for. */
  timeoutMs?: number;
}

/** One HTTP request to a study server; `seen`, if given, collects every answer (for a scan of all that was sent). */
export function call(url: string, {method = "GET", body, headers = {}, localAddress, timeoutMs}: CallOptions = {}, seen?: Answer[]): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = request(url, {method, localAddress, headers: {...(data && {"content-type": "application/json"}), ...headers}}, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (text += c));
      res.on("end", () => {
        let json: unknown = null;
        try {
          json = JSON.parse(text);
        } catch {
          // not JSON
        }
        const answer = {status: res.statusCode!, headers: res.headers, body: text, json};
        seen?.push(answer);
        resolve(answer);
      });
    });
    if (timeoutMs !== undefined) req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer to ${method} ${url} within ${timeoutMs} ms`)));
    req.on("error", reject);
    req.end(data);
  });
}
