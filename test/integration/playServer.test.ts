/**
 * `parley play`, the experiment server, as a child process against a fake
 * LLM endpoint on 127.0.0.1, driven over HTTP as the participant page drives
 * it: consent, the attention check, a GLEE bargaining game against the LLM
 * (illegal entries refused with nothing changed; the server killed with
 * SIGKILL mid-game and started again: the game goes on where it stood and
 * no answered LLM call is sent twice), the quiz and the completion code.
 * The rows land in Parquet (read by `parley metrics`, with the person as
 * agent `human`), the participants table marks exclusions, the admin pages
 * need the token, other hosts are refused, and the API key is in no
 * response the server sent.
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {request} from "node:http";
import {readFileSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {networkInterfaces} from "node:os";
import {parley, scratch} from "../support/cli.js";
import {ADMIN_TOKEN, call as callServer, experimentConfig, FAKE_GUESS, fakeModel as fakeLlm, PLAY_KEY, startStudy, startStudyIn, threeGamesConfig, XSS, type Answer, type CallOptions} from "../support/playStudy.js";
import {gleeBot} from "../support/gleeBot.js";
import {queryRun} from "../../loaders/io/parquet.js";
import {withDuckDB, sqlString} from "../../loaders/io/duckdb.js";

const KEY = PLAY_KEY;
const {dir: tempDir, keep} = scratch("parley-play-");

async function fakeModel() {
  const server = await fakeLlm();
  keep(server);
  return server;
}

/** Every response the server sent in this test, for the key scan. */
const seen: Answer[] = [];

/** One HTTP request to the server, its answer kept for the key scan. */
const call = (url: string, options: CallOptions = {}): Promise<Answer> => callServer(url, options, seen);

const startServer = startStudy;

/** Writes `config` into a fresh directory and starts the server on it (tables in <dir>/out). */
const studyOn = (config: Record<string, unknown>, extra: string[] = []) => startStudyIn(tempDir(), config, extra);

/** A new participant's id (from the redirect of /p/new). */
const newParticipant = async (url: string): Promise<string> => /\/p\/([^?]+)/.exec(String((await call(`${url}/p/new`)).headers.location))![1];

/** GET (no body) or POST (a body) on a participant's API. */
const apiOf = (url: string, id: string) => (path = "", body?: unknown) => call(`${url}/api/p/${id}${path}`, body === undefined ? {} : {method: "POST", body});

const pending = (state: any) => state.game?.pending;
const askedFor = (state: any) => pending(state)?.legal.map((a: {type: string}) => a.type).join(",");

test("a participant plays GLEE bargaining against the LLM through the server; kill -9 mid-game resumes; tables, admin, access, no key", async () => {
  const llm = await fakeModel();
  const study = await studyOn(experimentConfig(llm));
  const {file: config, out} = study;
  let server = study.server;

  // A new participant is assigned and sent to their own page.
  const start = await call(`${server.url}/p/new`);
  assert.equal(start.status, 303);
  const id = /^\/p\/([A-Za-z0-9_-]{22})$/.exec(String(start.headers.location))![1];
  const page = await call(`${server.url}/p/${id}`);
  assert.equal(page.status, 200);
  assert.match(page.body, /<script type="module" src="\/assets\/study\.js">/);
  const js = await call(`${server.url}/assets/study.js`);
  assert.equal(js.status, 200);
  const api = (path = "", body?: unknown) => apiOf(server.url, id)(path, body);

  let state = (await api()).json;
  assert.equal(state.step, "consent");
  assert.equal((await api("/attention", {answer: "sdkot"})).status, 409, "a step out of order is refused");
  state = (await api("/consent", {agree: true})).json;
  assert.equal(state.step, "instructions");
  assert.ok(state.instructions.some((p: string) => p.includes("sdkot")));
  assert.ok(state.instructions.includes("You and another player divide $1000."));
  state = (await api("/attention", {answer: " SDKOT"})).json;
  assert.equal(state.step, "game");

  // Round 1: the person (Alice) offers. The page shows what an LLM in her seat reads.
  state = (await api()).json;
  assert.equal(askedFor(state), "offer");
  assert.ok(pending(state).messages.length >= 2);

  // Illegal entries: refused with a message, nothing changed (same decision asked, nothing saved).
  const participantFile = join(out, ".parley", "play", "participants", `${id}.json`);
  const before = readFileSync(participantFile, "utf8");
  for (const [action, why] of [
    [{type: "offer", alice_gain: -100, bob_gain: 1100}, /alice_gain/],
    [{type: "offer", alice_gain: "ten", bob_gain: 990}, /alice_gain/],
    [{type: "offer", alice_gain: 1200, bob_gain: -200}, /alice_gain|bob_gain/],
    [{type: "decision", decision: "accept"}, /offer|decision|type/],
  ] as const) {
    const refused = await api("/move", {action});
    assert.equal(refused.status, 422, JSON.stringify(action));
    assert.match(refused.json.error, why);
    assert.equal(askedFor(refused.json.state), "offer");
  }
  assert.equal(readFileSync(participantFile, "utf8"), before, "a refused entry changed the participant's state");

  state = (await api("/move", {action: {type: "offer", alice_gain: 600, bob_gain: 400, message: "60/40?"}})).json;
  // Bob (the LLM) rejected in round 1 and offered an even split with the XSS text as his message; Alice decides.
  assert.equal(askedFor(state), "decision");
  const shown = JSON.stringify(pending(state).messages);
  assert.ok(shown.includes(JSON.stringify(XSS).slice(1, -1)), "the other player's message reaches the page as text data");
  const callsBefore = llm.answered.length;

  // The server is killed mid-game and started again on the same --out: the participant's game stands where it was.
  server.child.kill("SIGKILL");
  await server.done;
  server = await startServer(config, out);
  state = (await api()).json;
  assert.equal(state.step, "game");
  assert.equal(askedFor(state), "decision");
  assert.equal(JSON.stringify(pending(state).messages), shown);
  assert.equal(llm.answered.length, callsBefore, "the replay sent an LLM call again");

  // Alice rejects; in round 3 she offers again and Bob accepts (round ≥ 2).
  state = (await api("/move", {action: {type: "decision", decision: "reject"}})).json;
  assert.equal(askedFor(state), "offer");
  state = (await api("/move", {action: {type: "offer", alice_gain: 550, bob_gain: 450}})).json;
  assert.equal(state.step, "quiz");
  assert.deepEqual(state.quiz, [{question: "Your discount factor?", options: ["0.8", "0.9", "1"]}]);
  state = (await api("/quiz", {answers: [1]})).json;
  assert.equal(state.step, "done");
  assert.equal(state.completion_code, "DONE-4821");
  const hashes = llm.answered.map((r) => r.bodyHash);
  assert.equal(new Set(hashes).size, hashes.length, "an answered LLM call was sent twice");

  // The game's rows are in the tables `parley run` writes, and `parley metrics` reads them.
  const games = await queryRun(out, ["games"], "SELECT game_id, source, alice_agent, bob_agent, agreement, rounds, alice_gain, bob_gain FROM games");
  assert.equal(games.length, 1);
  assert.deepEqual({...games[0], game_id: undefined}, {game_id: undefined, source: "human", alice_agent: "human", bob_agent: "fake", agreement: true, rounds: 3, alice_gain: 550, bob_gain: 450});
  const turns = await queryRun(out, ["turns"], "SELECT round, seat, action, message, rule_break FROM turns ORDER BY turn");
  assert.deepEqual(turns.map((t) => [t.round, t.seat, t.action, t.rule_break]), [
    [1, 0, "offer", false], [1, 1, "decision", false], [2, 1, "offer", false], [2, 0, "decision", false], [3, 0, "offer", false], [3, 1, "decision", false],
  ]);
  assert.equal(turns[2].message, XSS);
  const metrics = await parley(["metrics", out]);
  assert.equal(metrics.code, 0, metrics.stderr);
  const row = JSON.parse(metrics.stdout.trim());
  assert.equal(row.alice_agent, "human");
  assert.equal(row.game_id, games[0].game_id);
  // Alice's self-gain: her utility 550 in round 3, δ_A² · 550 / 1000 of M.
  assert.ok(Math.abs(row.alice_self_gain - 0.81 * 0.55) < 1e-9, String(row.alice_self_gain));
  const participants = await withDuckDB((db) => db.query(`SELECT participant_id, condition, step, game_id, excluded, attention_passed, quiz_passed, completion_code FROM read_parquet(${sqlString(join(out, "participants.parquet"))})`));
  assert.deepEqual(participants, [{participant_id: id, condition: "alice", step: "done", game_id: games[0].game_id, excluded: false, attention_passed: true, quiz_passed: true, completion_code: "DONE-4821"}]);

  // A participant who fails the attention check is told so and plays no game; one who fails the quiz keeps the game, excluded.
  const failing = await newParticipant(server.url);
  await call(`${server.url}/api/p/${failing}/consent`, {method: "POST", body: {agree: true}});
  state = (await call(`${server.url}/api/p/${failing}/attention`, {method: "POST", body: {answer: "I read it"}})).json;
  assert.equal(state.step, "failed_attention");
  assert.match(state.message, /attention check/);
  assert.equal(state.completion_code, undefined);

  // Admin: 401 without the token (or with a wrong one); with it, progress and the tables.
  for (const path of ["/admin", "/admin/progress.json", "/admin/tables.tar", "/admin/new?condition=alice"]) {
    assert.equal((await call(server.url + path)).status, 401, path);
    assert.equal((await call(server.url + path, {headers: {authorization: "Bearer wrong"}})).status, 401, path);
  }
  const auth = {authorization: `Bearer ${ADMIN_TOKEN}`};
  const progress = (await call(`${server.url}/admin/progress.json`, {headers: auth})).json;
  assert.deepEqual(progress.conditions.map((c: any) => [c.condition, c.assigned, c.started, c.finished, c.completed, c.excluded]), [["alice", 2, 2, 1, 1, 1]]);
  const login = await call(server.admin);
  assert.equal(login.status, 303);
  const cookie = String(login.headers["set-cookie"]).split(";")[0];
  const adminPage = await call(`${server.url}/admin`, {headers: {cookie}});
  assert.equal(adminPage.status, 200);
  assert.match(adminPage.body, /<td>alice<\/td>/);
  const archive = await new Promise<Buffer>((resolve, reject) => {
    request(`${server.url}/admin/tables.tar`, {headers: auth}, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve(Buffer.concat(chunks)));
    }).on("error", reject).end();
  });
  const names: string[] = [];
  for (let at = 0; at + 512 <= archive.length && archive[at] !== 0; ) {
    const name = archive.subarray(at, at + 100).toString("utf8").replace(/\0.*$/s, "");
    const size = parseInt(archive.subarray(at + 124, at + 136).toString("ascii"), 8);
    names.push(name);
    if (name.endsWith(".parquet")) assert.equal(archive.subarray(at + 512, at + 516).toString("ascii"), "PAR1", name);
    at += 512 + Math.ceil(size / 512) * 512;
  }
  assert.deepEqual(names.sort(), ["game=glee%2Fbargaining/games.parquet", "game=glee%2Fbargaining/players.parquet", "game=glee%2Fbargaining/turns.parquet", "participants.parquet", "tables.json"]);

  // Other hosts: a request addressed to another name is refused (DNS rebinding), and the server does not listen beyond loopback.
  assert.equal((await call(`${server.url}/p/new`, {headers: {host: "evil.example"}})).status, 403);
  const port = new URL(server.url).port;
  const outside = Object.values(networkInterfaces()).flat().find((a) => a && a.family === "IPv4" && !a.internal)?.address;
  if (outside) {
    await assert.rejects(call(`http://${outside}:${port}/p/new`), /ECONNREFUSED/);
    // A connection from another address (here this machine's own non-loopback address, which the kernel routes
    // to 127.0.0.1) is seen by the server as a non-loopback peer, and refused.
    const foreign = await call(`${server.url}/p/new`, {localAddress: outside});
    assert.equal(foreign.status, 403);
    assert.match(foreign.body, /answers only this machine/);
  }

  // The key: in no body and no header of any response, and in none of the files the page loads.
  for (const answer of seen) {
    assert.ok(!answer.body.includes(KEY), `the key is in a response body (${answer.status})`);
    assert.ok(!JSON.stringify(answer.headers).includes(KEY), "the key is in a response header");
  }
  assert.ok(seen.length >= 20, `only ${seen.length} responses seen`);
  server.child.kill("SIGTERM");
  await server.done;
});

test("exposed with --host: every participant request needs the access token (link, then cookie); admin still needs its own", async (t) => {
  const outside = Object.values(networkInterfaces()).flat().find((a) => a && a.family === "IPv4" && !a.internal)?.address;
  if (!outside) return t.skip("no non-loopback IPv4 interface on this machine");
  const llm = await fakeModel();
  const {server} = await studyOn(experimentConfig(llm), ["--host", outside]);
  assert.equal(new URL(server.url).hostname, outside);
  const link = /participants: (\S+)/.exec(server.stderr())![1];
  const token = new URL(link).searchParams.get("t")!;
  assert.ok(token.length >= 32);

  for (const path of ["/", "/p/new", "/assets/study.js", `/p/new?t=${token}x`]) assert.equal((await call(server.url + path)).status, 403, path);
  const start = await call(link);
  assert.equal(start.status, 303);
  const cookie = String(start.headers["set-cookie"]).split(";")[0];
  assert.match(String(start.headers["set-cookie"]), /HttpOnly; SameSite=Strict/);
  const location = String(start.headers.location);
  assert.ok(location.endsWith(`?t=${token}`), "the participant's own link carries the token, so it works from another browser");
  const id = /^\/p\/([^?]+)/.exec(location)![1];
  assert.equal((await call(`${server.url}/api/p/${id}`)).status, 403, "no token, no state");
  const state = await call(`${server.url}/api/p/${id}`, {headers: {cookie}});
  assert.equal(state.status, 200);
  assert.equal(state.json.step, "consent");
  assert.equal((await call(`${server.url}/admin/progress.json`, {headers: {cookie}})).status, 401);
  // The admin page works with its own token alone (its stylesheet too).
  assert.equal((await call(`${server.url}/admin/study.css`, {headers: {authorization: `Bearer ${ADMIN_TOKEN}`}})).status, 200);
  for (const answer of seen) assert.ok(!answer.body.includes(KEY) && !JSON.stringify(answer.headers).includes(KEY));
  server.child.kill("SIGTERM");
  await server.done;
});

test("balanced assignment over two conditions; a participant who fails the quiz keeps the game, marked excluded, and gets no code", async () => {
  const llm = await fakeModel();
  const {out, server} = await studyOn(experimentConfig(llm, [{id: "alice", seat: "alice"}, {id: "bob", seat: "bob"}]));
  const ids: string[] = [];
  for (let k = 0; k < 6; k++) ids.push(await newParticipant(server.url));
  const auth = {authorization: `Bearer ${ADMIN_TOKEN}`};
  const assigned = (await call(`${server.url}/admin/progress.json`, {headers: auth})).json.conditions.map((c: any) => [c.condition, c.assigned]);
  assert.deepEqual(assigned, [["alice", 3], ["bob", 3]], "participants opening their links one after another alternate between the conditions");

  // A participant in Bob's seat: Alice (the LLM) offers an even split first; the person accepts, then fails the quiz.
  const states = await Promise.all(ids.map(async (id) => ({id, state: (await call(`${server.url}/api/p/${id}`)).json})));
  const states2 = await Promise.all(ids.map(async (id) => (await call(`${server.url}/api/p/${id}`)).json));
  assert.deepEqual(states.map((s) => s.state), states2, "looking at a participant's state changes nothing");
  const bobs = [];
  for (const id of ids) {
    const file = JSON.parse(readFileSync(join(out, ".parley", "play", "participants", `${id}.json`), "utf8"));
    if (file.condition === "bob") bobs.push(id);
  }
  const id = bobs[0];
  const api = apiOf(server.url, id);
  await api("/consent", {agree: true});
  let state = (await api("/attention", {answer: "sdkot"})).json;
  state = (await api()).json;
  assert.equal(askedFor(state), "decision");
  assert.equal(state.game.seat_name, "bob");
  state = (await api("/move", {action: {type: "decision", decision: "accept"}})).json;
  assert.equal(state.step, "quiz");
  // The outcome shown to the person: the other seat's raw reply stays on the server.
  assert.equal(state.outcome.rows.turns[0].seat, 0);
  assert.equal(state.outcome.rows.turns[0].raw, undefined);
  state = (await api("/quiz", {answers: [2]})).json;
  assert.equal(state.step, "failed_quiz");
  assert.match(state.message, /final question was not correct/);
  assert.equal(state.completion_code, undefined);
  assert.equal((await api("/quiz", {answers: [0]})).status, 409, "a second try at the quiz is refused");

  const games = await queryRun(out, ["games"], "SELECT game_id, bob_agent, agreement FROM games");
  assert.deepEqual(games.map((g) => [g.bob_agent, g.agreement]), [["human", true]]);
  const rows = await withDuckDB((db) => db.query(`SELECT participant_id, condition, step, excluded, exclusion_reason, quiz_passed, quiz_answers, game_id FROM read_parquet(${sqlString(join(out, "participants.parquet"))}) WHERE game_id IS NOT NULL`));
  assert.deepEqual(rows, [{participant_id: id, condition: "bob", step: "failed_quiz", excluded: true, exclusion_reason: "quiz", quiz_passed: false, quiz_answers: "[2]", game_id: games[0].game_id}]);
  // The documented join leaves it out.
  const kept = await withDuckDB((db) => db.query(`SELECT count(*)::INTEGER AS n FROM read_parquet(${sqlString(join(out, "game=glee%2Fbargaining", "games.parquet"))}) g JOIN read_parquet(${sqlString(join(out, "participants.parquet"))}) p USING (game_id) WHERE NOT p.excluded`));
  assert.deepEqual(kept, [{n: 0}]);
  server.child.kill("SIGTERM");
  await server.done;
});

test("parley play refuses a bad experiment config with one line naming the file and key, and a missing key variable", async () => {
  const llm = await fakeModel();
  const dir = tempDir();
  const config = join(dir, "study.json");
  const bad = experimentConfig(llm) as any;
  bad.conditions[0].params.delta_a = 2;
  writeFileSync(config, JSON.stringify(bad));
  let r = await parley(["play", "--config", config, "--out", join(dir, "out")]);
  assert.equal(r.code, 2);
  assert.equal(r.stderr.trim(), `parley play: ${config}: conditions[0].params.delta_a: expected a number in (0, 1], got 2`);
  writeFileSync(config, JSON.stringify(experimentConfig(llm)));
  r = await parley(["play", "--config", config, "--out", join(dir, "out")], {PARLEY_PLAY_TEST_KEY: ""});
  assert.equal(r.code, 2);
  assert.match(r.stderr.trim(), /^parley play: .*study\.json: player fake: environment variable PARLEY_PLAY_TEST_KEY \(api_key_env\) is not set$/);

  // A state directory started with one set of conditions refuses changed ones (its saved moves would not replay).
  const server = await startServer(config, join(dir, "out"));
  server.child.kill("SIGTERM");
  await server.done;
  const changed = experimentConfig(llm) as any;
  changed.conditions[0].params.delta_a = 0.95;
  writeFileSync(config, JSON.stringify(changed));
  r = await parley(["play", "--config", config, "--out", join(dir, "out")], {PARLEY_PLAY_TEST_KEY: PLAY_KEY});
  assert.equal(r.code, 2);
  assert.match(r.stderr.trim(), /^parley play: .*study\.json: the conditions \(games, parameters, seats or opponents\) differ from those this --out was started with/);
});

/** An entry for any decision, from its legal actions alone: mid-range numbers (within a sum), the first choice (reject in round 1, else accept), a short text. */
function someEntry(pending: any): Record<string, unknown> {
  const spec = pending.legal[0];
  const action: Record<string, unknown> = {type: spec.type};
  for (const [name, r] of Object.entries<any>(spec.numbers ?? {})) {
    const mid = r.max !== undefined ? ((r.min ?? 0) + r.max) / 2 : (r.min ?? 0) + 10;
    action[name] = r.integer ? Math.floor(mid) : mid;
  }
  for (const [name, values] of Object.entries<any>(spec.choices ?? {})) action[name] = values.includes("accept") ? (pending.round >= 2 ? "accept" : "reject") : values[0];
  if (spec.text?.required) action[spec.text.field] = "A fine product.";
  return action;
}

test("negotiation and persuasion through the server too, played at the same time: every seat's decisions, to the end, both games in the tables", async () => {
  const llm = await fakeModel();
  const base = experimentConfig(llm) as any;
  const opponent = base.conditions[0].opponent;
  base.conditions = [
    {id: "negotiation-seller", game: "glee/negotiation", human_seat: "alice", opponent, params: {horizon: 10, money: 100, messages: true}, quiz: []},
    {id: "persuasion-buyer", game: "glee/persuasion", human_seat: "bob", opponent, params: {horizon: 20, money: 100}, quiz: []},
  ];
  const {out, server} = await studyOn(base);
  // Both participants play at once, so their games finish together: the tables must hold both.
  const ids: string[] = [];
  for (let k = 0; k < 2; k++) ids.push(await newParticipant(server.url));
  const done = await Promise.all(ids.map(async (id) => {
    const api = apiOf(server.url, id);
    await api("/consent", {agree: true});
    let state = (await api("/attention", {answer: "sdkot"})).json;
    state = (await api()).json;
    for (let moves = 0; state.step === "game"; moves++) {
      assert.ok(moves < 40, "the game does not end");
      const r = await api("/move", {action: someEntry(pending(state))});
      assert.equal(r.status, 200, JSON.stringify(r.json));
      state = r.json;
    }
    assert.equal(state.step, "done", "no quiz: the code at once");
    return state.outcome.spec.game as string;
  }));
  assert.deepEqual(done.sort(), ["glee/negotiation", "glee/persuasion"]);
  const games = await queryRun(out, ["games"], "SELECT game, alice_agent, bob_agent FROM games ORDER BY game");
  assert.deepEqual(games, [{game: "glee/negotiation", alice_agent: "human", bob_agent: "fake"}, {game: "glee/persuasion", alice_agent: "fake", bob_agent: "human"}]);
  const metrics = await parley(["metrics", out]);
  assert.equal(metrics.code, 0, metrics.stderr);
  assert.equal(metrics.stdout.trim().split("\n").length, 2);
  server.child.kill("SIGTERM");
  await server.done;
});

test("an LLM endpoint that fails for good: the move is kept, the participant is told, and a retry replays it once the endpoint is back", async () => {
  const llm = await fakeModel();
  const {out, server} = await studyOn(experimentConfig(llm));
  const id = await newParticipant(server.url);
  const api = apiOf(server.url, id);
  await api("/consent", {agree: true});
  await api("/attention", {answer: "sdkot"});
  assert.equal(askedFor((await api()).json), "offer");

  llm.setResponder(() => ({status: 500, message: "the model is down"}));
  const failed = await api("/move", {action: {type: "offer", alice_gain: 600, bob_gain: 400}});
  assert.equal(failed.status, 422);
  assert.equal(failed.json.failed, true);
  assert.equal(failed.json.state.game.failed, true);
  const saved = JSON.parse(readFileSync(join(out, ".parley", "play", "participants", `${id}.json`), "utf8"));
  assert.deepEqual(saved.moves, [{type: "offer", alice_gain: 600, bob_gain: 400}], "the person's move is kept");
  assert.match(server.stderr(), new RegExp(`participant ${id} \\(alice\\): the game cannot go on: .*500`));

  // The endpoint is back: a retry rebuilds the game from the saved move and the LLM answers it.
  llm.setResponder(gleeBot());
  const state = (await api("/retry", {})).json;
  assert.equal(state.game.failed, false);
  assert.equal(askedFor(state), "decision");
  assert.ok(!server.stderr().includes(PLAY_KEY));
  server.child.kill("SIGTERM");
  await server.done;
});

test("a gamma-Bench condition over HTTP: the admin places a participant in it; illegal guesses are refused and change nothing; the LLM seats and the strategy play around the person", async () => {
  const llm = await fakeModel();
  const {out, server} = await studyOn(threeGamesConfig(llm));
  const auth = {authorization: `Bearer ${ADMIN_TOKEN}`};
  assert.equal((await call(`${server.url}/admin/new?condition=nope`, {headers: auth})).status, 400);
  const placed = await call(`${server.url}/admin/new?condition=guessing`, {headers: auth});
  assert.equal(placed.status, 303);
  const id = /^\/p\/([A-Za-z0-9_-]{22})$/.exec(String(placed.headers.location))![1];
  const api = apiOf(server.url, id);
  await api("/consent", {agree: true});
  await api("/attention", {answer: "sdkot"});
  let state = (await api()).json;
  assert.equal(state.game.seat, 0);
  assert.equal(askedFor(state), "choose");
  const file = join(out, ".parley", "play", "participants", `${id}.json`);
  const before = readFileSync(file, "utf8");
  for (const amount of [-5, "30", 101, 33.5, null]) {
    const refused = await api("/move", {action: {type: "choose", amount}});
    assert.equal(refused.status, 422, JSON.stringify(amount));
    assert.match(refused.json.error, /amount/i);
    assert.equal(askedFor(refused.json.state), "choose");
    assert.equal(refused.json.state.game.pending.round, 1);
  }
  assert.equal(readFileSync(file, "utf8"), before, "a refused guess changed the participant's state");
  state = (await api("/move", {action: {type: "choose", amount: 30}})).json;
  assert.equal(state.game.pending.round, 2);
  // What the person is told next is what a model in the seat is told: the round's average, (30 + 40 + 40 + 0) / 4.
  assert.match(JSON.stringify(state.game.pending.messages), /Average Number Chosen: 27\.5/);
  state = (await api("/move", {action: {type: "choose", amount: 20}})).json;
  assert.equal(state.step, "done");
  const turns = await queryRun(out, ["turns"], "SELECT round, seat, amount FROM turns ORDER BY round, seat");
  assert.deepEqual(turns.map((t) => t.amount), [30, FAKE_GUESS, FAKE_GUESS, 0, 20, FAKE_GUESS, FAKE_GUESS, 0]);
  for (const answer of seen) assert.ok(!answer.body.includes(KEY) && !JSON.stringify(answer.headers).includes(KEY));
  server.child.kill("SIGTERM");
  await server.done;
});
