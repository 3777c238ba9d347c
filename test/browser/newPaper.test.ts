// Proof that a paper is one package: a copy of the project gets one new
// folder (loaders/papers/textbook/: a Prisoner's Dilemma with its rules, two
// scripted agents, a narrator, one analysis measure and a sample run; the
// files are test/fixtures/new-paper/textbook/) and one line in the list of
// papers, and nothing else. The game is then listed by `parley games`,
// played by built-in agents and by an LLM player (a loopback
// OpenAI-compatible server), scored by `parley stats`, playable in a
// `parley play` study and on /play, and shown on its generated overview
// page (/papers/textbook).
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {spawn, spawnSync, type ChildProcess} from "node:child_process";
import {cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {dirname, join} from "node:path";
import type {Browser} from "playwright-core";
import {freePort, root} from "../support/cli.js";
import {startFakeLlm, type FakeLlmServer} from "../support/fakeLlm.js";
import {launch, settle, visit} from "./harness.js";
import type {StaticServer} from "../../loaders/site/serve.js";
import {queryRun} from "../../loaders/io/parquet.js";

const LIST = "loaders/papers/index.ts";
const LINE = '  import("./textbook/index.js"),\n';
let project: string;
let llm: FakeLlmServer;
const children = new Set<ChildProcess>();

/** The project's files as git tracks them, copied into a scratch directory (node_modules linked). */
function copyProject(): string {
  const dir = mkdtempSync(join(tmpdir(), "parley-new-paper-"));
  const files = spawnSync("git", ["ls-files", "-z"], {cwd: root, encoding: "utf8"}).stdout.split("\0").filter(Boolean);
  for (const file of files) {
    mkdirSync(dirname(join(dir, file)), {recursive: true});
    cpSync(join(root, file), join(dir, file));
  }
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"));
  return dir;
}

/**
 * `parley <args>` of the copied project as a child process in a process
 * group of its own, so that stopping it also stops what it started (the
 * preview server of `parley dev`, which holds the child's output pipes).
 */
function launchParley(args: string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", join(project, "loaders/cli/main.ts"), ...args], {cwd: project, env: {...process.env, ...env}, detached: true, stdio: ["ignore", "pipe", "pipe"]});
  children.add(child);
  child.on("close", () => children.delete(child));
  return child;
}

/** Stops a child started by `launchParley` and what it started, and waits until it has closed. */
async function stop(child: ChildProcess): Promise<void> {
  if (!children.has(child)) return; // closed: it and everything holding its output are gone
  const closed = new Promise((resolve) => child.on("close", resolve));
  try {
    process.kill(-child.pid!, "SIGTERM");
  } catch {
    // Already gone.
  }
  await closed;
}

/** `parley <args>` of the copied project, run in it. */
function parley(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{code: number | null; stdout: string; stderr: string}> {
  const child = launchParley(args, env);
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (c) => (stdout += c));
  child.stderr!.on("data", (c) => (stderr += c));
  return new Promise((resolve) => child.on("close", (code) => resolve({code, stdout, stderr})));
}

before(async () => {
  project = copyProject();
  cpSync(join(root, "test/fixtures/new-paper/textbook"), join(project, "loaders/papers/textbook"), {recursive: true});
  const list = readFileSync(join(project, LIST), "utf8");
  const at = list.indexOf('  import("./negotiationarena/index.js"),\n');
  assert.ok(at > 0, "the list of papers has its one line per paper");
  writeFileSync(join(project, LIST), list.slice(0, at) + LINE + list.slice(at));
  // The model answers C, except that its first answer breaks the rules.
  llm = await startFakeLlm("openai", (r) => ({text: r.index === 0 ? '{"choice": "maybe"}' : '{"choice": "C"}'}));
});

after(async () => {
  await Promise.all([...children].map(stop));
  await llm?.close();
  if (project) rmSync(project, {recursive: true, force: true});
});

test("the new paper is one new folder and one line in the list of papers; no other file differs", () => {
  const files = spawnSync("git", ["ls-files", "-z"], {cwd: root, encoding: "utf8"}).stdout.split("\0").filter(Boolean);
  const changed = files.filter((f) => !readFileSync(join(project, f)).equals(readFileSync(join(root, f))));
  assert.deepEqual(changed, [LIST]);
  const [before, after] = [readFileSync(join(root, LIST), "utf8"), readFileSync(join(project, LIST), "utf8")];
  assert.equal(after.length - before.length, LINE.length);
  assert.equal(after.replace(LINE, ""), before);
});

test("parley games and parley agents list the new game and its agents, with the paper's citation", async () => {
  const games = JSON.parse((await parley(["games"])).stdout) as {id: string; citation: string}[];
  const game = games.find((g) => g.id === "textbook/prisoners");
  assert.match(String(game?.citation), /^Prisoner's Dilemma \(Tucker 1950\)/);
  const agents = JSON.parse((await parley(["agents"])).stdout) as {id: string}[];
  assert.ok(["always-defect", "always-cooperate"].every((id) => agents.some((a) => a.id === id)));
});

test("built-in agents play it, and parley stats scores it as computed by hand", async () => {
  const out = join(project, "runs", "sample");
  const run = await parley(["run", "loaders/papers/textbook/run.json", "--out", out, "--quiet"]);
  assert.equal(run.code, 0, run.stderr);
  // Every ordered lineup of the two strategies, 5 games each: always-defect earns 1 (against itself) or 5, always-cooperate 3 or 0.
  const stats = await parley(["stats", "textbook", out]);
  assert.equal(stats.code, 0, stats.stderr);
  assert.deepEqual(JSON.parse(stats.stdout), [
    {agent: "always-cooperate", seats: 20, mean_return: (10 * 3 + 10 * 0) / 20, cooperated: 1},
    {agent: "always-defect", seats: 20, mean_return: (10 * 1 + 10 * 5) / 20, cooperated: 0},
  ]);
});

test("an LLM player sits it through its narrator; an answer that breaks the rules is a rule break", async () => {
  const config = join(project, "llm.json");
  const model = {id: "fake", provider: "openai", model: "fake-model", base_url: llm.baseURL, max_tokens: 50, max_retries: 0};
  writeFileSync(config, JSON.stringify({run_id: "llm", game: "textbook/prisoners", players: [model, "always-defect"], lineups: [["fake", "always-defect"]], games_per_lineup: 2, seed: 3}));
  const out = join(project, "runs", "llm");
  const run = await parley(["run", config, "--out", out, "--quiet"]);
  assert.equal(run.code, 0, run.stderr);
  const turns = await queryRun(out, ["turns"], "SELECT seat, choice, rule_break FROM turns WHERE seat = 0 ORDER BY game_id, turn");
  assert.deepEqual(turns.map((t) => [t.choice, t.rule_break]), [["MAYBE", true], ["C", false], ["C", false]]);
  assert.match(llm.requests[0].system, /^You and another player each choose C \(cooperate\) or D \(defect\)/);
  assert.match(llm.requests[0].lastUser, /You are alice\. Your choice\?/);
});

test("a parley play study seats a person at it against the LLM", async () => {
  const config = join(project, "study.json");
  const opponent = {id: "fake", provider: "openai", model: "fake-model", base_url: llm.baseURL, max_tokens: 50, max_retries: 0};
  writeFileSync(config, JSON.stringify({
    id: "pd", title: "A dilemma", consent: "You agree to play.", instructions: ["Choose C or D."],
    attention_check: {sentence: "Type sdkot below.", answer: "sdkot"}, completion_code: "DONE-7",
    conditions: [{id: "alice", game: "textbook/prisoners", human_seat: "alice", opponent, quiz: []}],
  }));
  const child = launchParley(["play", "--config", config, "--out", join(project, "study"), "--port", "0"]);
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (c) => (stderr += c));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (c) => {
      stdout += c;
      const end = stdout.indexOf("\n}");
      if (end >= 0) resolve(JSON.parse(stdout.slice(0, end + 2)).url);
    });
    child.on("close", (code) => reject(new Error(`parley play exited with ${code}: ${stderr}`)));
  });
  const start = await fetch(`${url}/p/new`, {redirect: "manual"});
  const id = /\/p\/([^?/]+)/.exec(start.headers.get("location")!)![1];
  const api = async (path: string, body?: unknown) => (await fetch(`${url}/api/p/${id}${path}`, body === undefined ? {} : {method: "POST", headers: {"content-type": "application/json"}, body: JSON.stringify(body)})).json();
  await api("/consent", {agree: true});
  let state = await api("/attention", {answer: "sdkot"});
  assert.equal(state.step, "game");
  state = await api("");
  assert.match(JSON.stringify(state.game.pending.messages), /Your choice\?/, "the person reads what the model in that seat reads");
  state = await api("/move", {action: {type: "move", choice: "D"}});
  assert.notEqual(state.step, "game", JSON.stringify(state));
  assert.match(JSON.stringify(state), /DONE-7/);
  await stop(child);
});

test("/play offers the game against its agents, and its overview page shows the measure over the sample run", async () => {
  const port = await freePort();
  const child = launchParley(["dev", "--port", String(port)]);
  let browser: Browser | null = null;
  try {
    const server = {url: `http://127.0.0.1:${port}`} as StaticServer;
    for (let i = 0; i < 240; i++) {
      const up = await fetch(server.url).then((r) => r.ok, () => false);
      if (up) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    browser = await launch();
    const play = await visit(browser, server, "/play");
    await play.page.selectOption("select[name=game]", "textbook/prisoners");
    await play.page.selectOption("select[name=seat]", "0");
    await play.page.selectOption("select[name=agent-1]", "always-defect");
    await play.page.click("button.play-start");
    await play.page.locator("[name=field-choice]").selectOption("C");
    await play.page.click("button.play-submit");
    await play.page.locator(".play-outcome").waitFor();
    // The person cooperated, the agent defected: 0 and 5.
    assert.match((await play.page.locator(".play-outcome").textContent())!, /alice \(you\)\s*human\s*0\s*bob\s*always-defect\s*5/);
    assert.deepEqual(play.problems, []);

    const overview = await visit(browser, server, "/papers/textbook");
    await settle(overview.page);
    const text = (await overview.page.locator("main").textContent())!;
    assert.match(text, /Prisoner's Dilemma \(Tucker 1950\)/);
    assert.match(text, /textbook\/prisoners/);
    const row = (await overview.page.locator("main table tr", {hasText: "always-defect"}).last().textContent())!;
    assert.match(row, /always-defect\s*20\s*3\s*0/);
    assert.deepEqual(overview.problems, []);
  } finally {
    await browser?.close();
    await stop(child);
  }
});
