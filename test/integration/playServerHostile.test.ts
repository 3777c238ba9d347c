/**
 * `parley play` against careless and hostile requests and state, as a child
 * process on loopback driven over real HTTP: a second move while the LLM is
 * answering (every request answered, the game-ending move saved at once),
 * weak or printed tokens, guessing (slowed per peer), a malformed cookie,
 * `/p/new` from other sites and in floods, a panel id chosen by another site's
 * link (never attached to a participant), and a state folder holding an
 * unreadable record (named, set aside, the game rebuilt, the rest served).
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {existsSync, readdirSync, readFileSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {networkInterfaces} from "node:os";
import {parley, scratch} from "../support/cli.js";
import {ADMIN_TOKEN, call as callServer, experimentConfig, fakeModel as fakeLlm, PLAY_KEY, startStudy, startStudyIn, type Answer, type CallOptions} from "../support/playStudy.js";
import {gleeBot} from "../support/gleeBot.js";
import {queryRun} from "../../loaders/io/parquet.js";

const {dir: tempDir, keep} = scratch("parley-play-hostile-");

async function fakeModel() {
  const server = await fakeLlm();
  keep(server);
  return server;
}

/** One HTTP request; rejects when no answer comes within `timeoutMs` (15 s unless given). */
const call = (url: string, options: CallOptions = {}): Promise<Answer> => callServer(url, {timeoutMs: 15_000, ...options});

const apiOf = (url: string, id: string) => (path = "", body?: unknown, timeoutMs?: number) => call(`${url}/api/p/${id}${path}`, body === undefined ? {timeoutMs} : {method: "POST", body, timeoutMs});
const newParticipant = async (url: string): Promise<string> => /\/p\/([^?]+)/.exec(String((await call(`${url}/p/new`)).headers.location))![1];
const askedFor = (state: any) => state.game?.pending?.legal.map((a: {type: string}) => a.type).join(",");
const stateDir = (out: string) => join(out, ".parley", "play");

test("a second move while the LLM answers (another tab, a resent move) is answered at once; the first gets its answer, and a game-ending move is saved before it is answered", async () => {
  const llm = await fakeModel();
  const {out, server} = await startStudyIn(tempDir(), experimentConfig(llm));
  const id = await newParticipant(server.url);
  const api = apiOf(server.url, id);
  await api("/consent", {agree: true});
  await api("/attention", {answer: "sdkot"});
  assert.equal(askedFor((await api()).json), "offer");

  // The LLM takes a while from here on.
  const bot = gleeBot();
  llm.setResponder(async (r) => ({...(await bot(r)), delayMs: 1500} as never));
  const first = api("/move", {action: {type: "offer", alice_gain: 600, bob_gain: 400}});
  await new Promise((resolve) => setTimeout(resolve, 300));
  const second = await api("/move", {action: {type: "offer", alice_gain: 600, bob_gain: 400}});
  assert.ok(second.status === 409 || second.status === 422, `the second move: ${second.status}`);
  assert.match(second.json.error, /no move is due from you now/);
  const answered = await first;
  assert.equal(answered.status, 200, JSON.stringify(answered.json));
  assert.equal(askedFor(answered.json), "decision", "the first move went on to Bob's counter-offer");
  const saved = JSON.parse(readFileSync(join(stateDir(out), "participants", `${id}.json`), "utf8"));
  assert.deepEqual(saved.moves, [{type: "offer", alice_gain: 600, bob_gain: 400}], "one move, not two");

  // A move sent again once it has been received (the page says how many of its moves it had seen) is refused, not played twice.
  assert.equal(answered.json.game.moves, 1);
  const twice = await api("/move", {action: {type: "decision", decision: "reject"}, after: 0});
  assert.equal(twice.status, 409);
  assert.match(twice.json.error, /sent after 0 of your moves, but 1 have been received/);
  assert.equal(askedFor(twice.json.state), "decision");
  assert.equal(JSON.parse(readFileSync(join(stateDir(out), "participants", `${id}.json`), "utf8")).moves.length, 1);

  // Round 2: Alice rejects; round 3: her offer, which Bob accepts, ends the game. A resend arrives while Bob thinks.
  assert.equal(askedFor((await api("/move", {action: {type: "decision", decision: "reject"}, after: 1})).json), "offer");
  const ending = api("/move", {action: {type: "offer", alice_gain: 550, bob_gain: 450}});
  await new Promise((resolve) => setTimeout(resolve, 300));
  const resent = await api("/move", {action: {type: "offer", alice_gain: 550, bob_gain: 450}});
  assert.ok(resent.status === 409 || resent.status === 422, `the resent move: ${resent.status}`);
  const over = await ending;
  assert.equal(over.status, 200);
  assert.equal(over.json.step, "quiz");
  // Saved before the answer: the record and the participant's step, with no later request needed.
  assert.ok(existsSync(join(stateDir(out), "games", `${id}.json`)), "the finished game's record is saved");
  assert.equal(JSON.parse(readFileSync(join(stateDir(out), "participants", `${id}.json`), "utf8")).step, "quiz");
  server.child.kill("SIGTERM");
  await server.done;
});

test("tokens from the environment must be strong, are never printed, and only generated ones are shown", async () => {
  const llm = await fakeModel();
  const dir = tempDir();
  const config = join(dir, "study.json");
  writeFileSync(config, JSON.stringify(experimentConfig(llm)));
  for (const [name, value] of [["PARLEY_ADMIN_TOKEN", "x"], ["PARLEY_ADMIN_TOKEN", "aaaaaaaaaaaaaaaaaaaaaaaa"], ["PARLEY_PLAY_TOKEN", "short-token"], ["PARLEY_ADMIN_TOKEN", "a token with spaces in it"]]) {
    const r = await parley(["play", "--config", config, "--out", join(dir, "out"), "--port", "0"], {PARLEY_PLAY_TEST_KEY: PLAY_KEY, PARLEY_ADMIN_TOKEN: ADMIN_TOKEN, [name]: value}, 20_000);
    assert.equal(r.code, 2, `${name}=${value}: ${r.stderr}`);
    assert.match(r.stderr.trim(), new RegExp(`^parley play: ${name}: expected a random token of at least 16 characters \\(letters, digits and -_\\.~\\+/=, at least 8 different\\)[^\\n]*$`));
    assert.ok(!r.stderr.includes(value) || value.length < 2, "the refused value is not printed");
  }

  // Given through the environment: not printed (the links say where it goes instead).
  const {server} = await startStudyIn(dir, experimentConfig(llm));
  assert.ok(!server.stderr().includes(ADMIN_TOKEN), server.stderr());
  assert.match(server.stderr(), /admin: +http:\/\/127\.0\.0\.1:\d+\/admin\?token=\$PARLEY_ADMIN_TOKEN/);
  server.child.kill("SIGTERM");
  const done = (await server.done) as {stdout: string};
  assert.ok(!done.stdout.includes(ADMIN_TOKEN), done.stdout);

  // Generated: printed once, so the experimenter can use it.
  const generated = await parleyPlayFor(config, join(dir, "out2"));
  assert.match(generated, /admin: +http:\/\/127\.0\.0\.1:\d+\/admin\?token=[A-Za-z0-9_-]{32}/);
});

/** The stderr of `parley play` without PARLEY_ADMIN_TOKEN, until it prints its links. */
async function parleyPlayFor(config: string, out: string): Promise<string> {
  const {startParley} = await import("../support/cli.js");
  const {child, done} = startParley(["play", "--config", config, "--out", out, "--port", "0"], {PARLEY_PLAY_TEST_KEY: PLAY_KEY, PARLEY_ADMIN_TOKEN: ""}, 60_000);
  let stderr = "";
  await new Promise<void>((resolve) => {
    child.stderr!.on("data", (c) => {
      stderr += c;
      if (stderr.includes("Ctrl-C")) resolve();
    });
    child.on("close", () => resolve());
  });
  child.kill("SIGTERM");
  await done;
  return stderr;
}

test("guessing is slowed per peer: after 10 wrong admin tokens or unknown participant links, 429 with Retry-After, even for the right token, until the pause is over", async () => {
  const llm = await fakeModel();
  const {server} = await startStudyIn(tempDir(), experimentConfig(llm));
  const wrong = {authorization: "Bearer wrong-token-guess-0000000"};
  const statuses: number[] = [];
  for (let i = 0; i < 12; i++) statuses.push((await call(`${server.url}/admin/progress.json`, {headers: wrong})).status);
  assert.deepEqual(statuses.slice(0, 11), Array(11).fill(401), String(statuses));
  assert.equal(statuses[11], 429);
  const blocked = await call(`${server.url}/admin/progress.json`, {headers: {authorization: `Bearer ${ADMIN_TOKEN}`}});
  assert.equal(blocked.status, 429, "the right token waits too (else guessing would go on at full speed)");
  const wait = Number(blocked.headers["retry-after"]);
  assert.ok(wait >= 1 && wait <= 2, `Retry-After ${blocked.headers["retry-after"]}`);
  assert.match(blocked.json.error, /too many failed attempts from your address; try again in \d+ s/);
  // No credentials at all is not a guess: still the plain 401... once the pause is over.
  await new Promise((resolve) => setTimeout(resolve, wait * 1000 + 100));
  assert.equal((await call(`${server.url}/admin/progress.json`, {headers: {authorization: `Bearer ${ADMIN_TOKEN}`}})).status, 200);
  assert.equal((await call(`${server.url}/admin/progress.json`, {headers: wrong})).status, 401, "a success starts the count again");

  // Participant links are keys too: unknown ids are counted the same way (participants' own requests are not held up).
  const id = await newParticipant(server.url);
  const unknown: number[] = [];
  for (let i = 0; i < 12; i++) unknown.push((await call(`${server.url}/api/p/${"A".repeat(21)}${"BCDEFGHIJKLM"[i]}`)).status);
  assert.deepEqual(unknown.slice(0, 11), Array(11).fill(404), String(unknown));
  assert.equal(unknown[11], 429);
  assert.equal((await call(`${server.url}/api/p/${id}`)).status, 429, "a known link waits as well while the peer is paused");
  assert.ok(!/\n\s+at /.test(server.stderr()), server.stderr());
  server.child.kill("SIGTERM");
  await server.done;
});

test("exposed with --host: an access token from the environment is not printed, and wrong ones pause the peer too", async (t) => {
  const outside = Object.values(networkInterfaces()).flat().find((a) => a && a.family === "IPv4" && !a.internal)?.address;
  if (!outside) return t.skip("no non-loopback IPv4 interface on this machine");
  const llm = await fakeModel();
  const token = "play-token-from-the-environment-0123";
  const {server} = await startStudyIn(tempDir(), experimentConfig(llm), ["--host", outside], {PARLEY_PLAY_TOKEN: token});
  assert.ok(!server.stderr().includes(token), server.stderr());
  assert.match(server.stderr(), /participants: http:\/\/[\d.]+:\d+\/p\/new\?t=\$PARLEY_PLAY_TOKEN$/m);
  const statuses: number[] = [];
  for (let i = 0; i < 12; i++) statuses.push((await call(`${server.url}/p/new?t=wrong-${i}`)).status);
  assert.deepEqual(statuses, [...Array(11).fill(403), 429], String(statuses));
  assert.equal((await call(`${server.url}/p/new?t=${token}`)).status, 429, "the right token waits too");
  assert.equal((await call(`${server.url}/p/new?t=${token}`, {headers: {cookie: "parley_play=%"}})).status, 429);
  server.child.kill("SIGTERM");
  await server.done;
});

test("a malformed cookie is a refusal (401/403), not a 500 with a stack trace", async () => {
  const llm = await fakeModel();
  const {server} = await startStudyIn(tempDir(), experimentConfig(llm));
  for (const cookie of ["parley_admin=%", "parley_admin=%E0%A4%A", "parley_admin"]) {
    const r = await call(`${server.url}/admin`, {headers: {cookie}});
    assert.equal(r.status, 401, `${cookie}: ${r.status} ${r.body}`);
  }
  const r = await call(`${server.url}/admin/progress.json`, {headers: {cookie: `parley_admin=%; other=1`, authorization: `Bearer ${ADMIN_TOKEN}`}});
  assert.equal(r.status, 200, "the bearer token still counts beside a broken cookie");
  assert.ok(!/URIError|\n\s+at /.test(server.stderr()), server.stderr());
  server.child.kill("SIGTERM");
  await server.done;
});

test("/p/new: a link opened from an email or this site makes a participant; a request from another site's page (an image, a fetch, a frame) does not; floods are refused with 429", async () => {
  const llm = await fakeModel();
  const {server} = await startStudyIn(tempDir(), experimentConfig(llm));
  const assigned = async () => (await call(`${server.url}/admin/progress.json`, {headers: {authorization: `Bearer ${ADMIN_TOKEN}`}})).json.conditions[0].assigned as number;
  const navigate = {"sec-fetch-mode": "navigate", "sec-fetch-dest": "document", accept: "text/html,application/xhtml+xml,*/*;q=0.8"};
  const cases: [string, Record<string, string>, number][] = [
    ["a link in a webmail page", {...navigate, "sec-fetch-site": "cross-site", "sec-fetch-user": "?1", referer: "https://mail.example.com/"}, 303],
    ["the address typed or a link in a mail program", {...navigate, "sec-fetch-site": "none", "sec-fetch-user": "?1"}, 303],
    ["the study's own page", {...navigate, "sec-fetch-site": "same-origin", referer: `${server.url}/`}, 303],
    ["a client without fetch metadata (curl, an old browser) and no referrer", {}, 303],
    ["an image on another site", {"sec-fetch-site": "cross-site", "sec-fetch-mode": "no-cors", "sec-fetch-dest": "image", referer: "https://evil.example/"}, 403],
    ["a fetch from another site", {"sec-fetch-site": "cross-site", "sec-fetch-mode": "cors", "sec-fetch-dest": "empty", origin: "https://evil.example"}, 403],
    ["a fetch from another site without fetch metadata", {origin: "https://evil.example"}, 403],
    ["a frame on another site", {"sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate", "sec-fetch-dest": "iframe"}, 403],
    ["an old browser's image on another site", {referer: "https://evil.example/page", accept: "image/avif,image/webp,*/*"}, 403],
  ];
  let made = 0;
  for (const [what, headers, status] of cases) {
    const r = await call(`${server.url}/p/new`, {headers});
    assert.equal(r.status, status, `${what}: ${r.status} ${r.body}`);
    if (status === 303) made++;
    else assert.match(r.body, /open the study's link in your browser/);
  }
  assert.equal(await assigned(), made, "refused requests make no participant");

  // A flood from one address: the first ones are served, then 429 with Retry-After.
  const statuses = [];
  for (let i = 0; i < 80; i++) statuses.push((await call(`${server.url}/p/new`)).status);
  const served = statuses.filter((s) => s === 303).length;
  assert.ok(served >= 40 && served <= 60, `served ${served} of 80`);
  assert.ok(statuses.slice(-10).every((s) => s === 429), String(statuses));
  const limited = await call(`${server.url}/p/new`);
  assert.equal(limited.status, 429);
  assert.ok(Number(limited.headers["retry-after"]) >= 1);
  assert.equal(await assigned(), made + served);
  // The admin's own link for a condition is not limited (it needs the token).
  assert.equal((await call(`${server.url}/admin/new?condition=alice`, {headers: {authorization: `Bearer ${ADMIN_TOKEN}`}})).status, 303);
  server.child.kill("SIGTERM");
  await server.done;
});

test("a panel id is taken only at a participant's first arrival: a later link from another site cannot attach one; the admin sees where each id came from and the refused ones, as text", async () => {
  const llm = await fakeModel();
  const {server} = await startStudyIn(tempDir(), {...experimentConfig(llm), panel: "prolific"});
  const admin = {authorization: `Bearer ${ADMIN_TOKEN}`};
  const lines = async () => (await call(`${server.url}/admin/participants.json`, {headers: admin})).json.participants as Record<string, unknown>[];
  const line = async (id: string) => (await lines()).find((l) => l.id === id)!;
  // A link clicked on another site: a top-level navigation, which carries this browser's SameSite=Lax cookie.
  const crossSite = {"sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document", "sec-fetch-user": "?1", referer: "https://evil.example/"};
  const redirectedTo = (r: Answer) => /^\/p\/([^?]+)/.exec(String(r.headers.location))?.[1];

  // A person opens the study's bare link (no panel id): their browser gets the participant's cookie.
  const first = await call(`${server.url}/p/new`);
  const mine = redirectedTo(first)!;
  const cookie = String(first.headers["set-cookie"]).split(";")[0];
  assert.match(cookie, /^parley_participant=/);

  // Another site sends that browser to the link with an id of its choosing (markup in it, to check it stays text).
  const chosen = "<img/src=x/onerror=alert(1)>";
  const attack = await call(`${server.url}/p/new?PROLIFIC_PID=${encodeURIComponent(chosen)}&STUDY_ID=s-1&SESSION_ID=evil`, {headers: {...crossSite, cookie}});
  assert.equal(attack.status, 303, attack.body);
  assert.equal(redirectedTo(attack), mine, "the browser goes back to its own participant");
  const after = await line(mine);
  assert.equal(after.panel_id, "", `the id a later link brought is not attached: panel id ${JSON.stringify(after.panel_id)}`);
  assert.equal(after.panel_id_from, "none");
  assert.match(String(after.panel_refused), /^<img\/src=x\/onerror=alert\(1\)> \(PROLIFIC_PID, \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\)$/);
  assert.equal((await lines()).length, 1, "no participant was made for the chosen id");
  // The same id again from any browser makes its own participant (its first arrival), never the one above.
  const fresh = await call(`${server.url}/p/new?PROLIFIC_PID=${encodeURIComponent(chosen)}`);
  assert.notEqual(redirectedTo(fresh), mine);

  // A person arriving from the panel: the id is theirs from the first arrival, and the admin sees where it came from.
  const panelArrival = await call(`${server.url}/p/new?PROLIFIC_PID=pid-7&STUDY_ID=s-1&SESSION_ID=se-7`);
  const theirs = redirectedTo(panelArrival)!;
  const theirLine = await line(theirs);
  assert.equal(theirLine.panel_id, "pid-7");
  assert.equal(theirLine.panel_id_from, `PROLIFIC_PID at first arrival, ${String(theirLine.assigned_at).slice(0, 19).replace("T", " ")} UTC`);
  assert.equal(theirLine.panel_refused, "");
  // Their id from another browser resumes them; a later link with another id on their browser is another person, never their id.
  assert.equal(redirectedTo(await call(`${server.url}/p/new?PROLIFIC_PID=pid-7`)), theirs);
  const theirCookie = String(panelArrival.headers["set-cookie"]).split(";")[0];
  assert.notEqual(redirectedTo(await call(`${server.url}/p/new?PROLIFIC_PID=pid-8`, {headers: {...crossSite, cookie: theirCookie}})), theirs);
  assert.equal((await line(theirs)).panel_id, "pid-7");

  // The admin page, its participant page and the CSV show the refused id as text, never as markup.
  for (const path of ["/admin", "/admin/live", `/admin/p/${mine}`]) {
    const page = await call(`${server.url}${path}`, {headers: admin});
    assert.equal(page.status, 200, path);
    assert.ok(!page.body.includes("<img"), `${path} holds markup from a link`);
    assert.ok(page.body.includes("&#60;img/src=x/onerror=alert(1)&#62; (PROLIFIC_PID, "), `${path} shows the refused id`);
    assert.match(page.body, /panel id from/);
  }
  const csv = (await call(`${server.url}/admin/csv/participants.csv`, {headers: admin})).body;
  const [head, ...rows] = csv.trim().split("\r\n");
  for (const column of ["panel_id", "panel_id_param", "panel_refused", "panel_refused_count"]) assert.ok(head.split(",").includes(column), `participants.csv has ${column}: ${head}`);
  assert.ok(rows.some((r) => r.startsWith(mine) && r.includes("onerror=alert(1)") && r.includes("PROLIFIC_PID")), csv);
  server.child.kill("SIGTERM");
  await server.done;
});

test("an unreadable record in the state folder is named in one line and set aside; the game is rebuilt from the saved moves, the rest is served", async () => {
  const llm = await fakeModel();
  const study = await startStudyIn(tempDir(), experimentConfig(llm, [{id: "bob", seat: "bob"}]));
  const {file: config, out} = study;
  let server = study.server;
  // One participant finishes (Bob accepts Alice's opening offer), one is still at the consent.
  const done = await newParticipant(server.url);
  const api = apiOf(server.url, done);
  await api("/consent", {agree: true});
  await api("/attention", {answer: "sdkot"});
  assert.equal(askedFor((await api()).json), "decision");
  assert.equal((await api("/move", {action: {type: "decision", decision: "accept"}})).json.step, "quiz");
  const waiting = await newParticipant(server.url);
  server.child.kill("SIGTERM");
  await server.done;
  const gameFile = join(stateDir(out), "games", `${done}.json`);
  const record = JSON.parse(readFileSync(gameFile, "utf8"));
  // A crash mid-write on a filesystem without ordering: a zero-byte record, and a participant file cut short.
  writeFileSync(gameFile, "");
  const broken = "Z".repeat(22);
  writeFileSync(join(stateDir(out), "participants", `${broken}.json`), '{"id": "ZZZ');

  server = await startStudy(config, out);
  const lines = server.stderr().split("\n").filter((l) => l.includes(`${done}.json`) || l.includes(`${broken}.json`));
  assert.equal(lines.length, 2, server.stderr());
  assert.match(lines.find((l) => l.includes("games"))!, new RegExp(`^parley play: .*games/${done}\\.json: not a readable game record \\(.*\\); set aside as .*${done}\\.json\\.unreadable-\\d+, the game is rebuilt from the participant's saved moves$`));
  assert.match(lines.find((l) => l.includes("participants"))!, new RegExp(`^parley play: .*participants/${broken}\\.json: not a readable participant record \\(.*\\); set aside as .*${broken}\\.json\\.unreadable-\\d+, the others are served$`));
  assert.ok(!/\n\s+at /.test(server.stderr()), server.stderr());
  // The rest is served, the game is back (record and tables), nothing unreadable was deleted.
  assert.equal((await call(`${server.url}/api/p/${waiting}`)).json.step, "consent");
  assert.equal((await call(`${server.url}/api/p/${done}`)).json.step, "quiz");
  for (let i = 0; i < 100 && !(existsSync(gameFile) && readFileSync(gameFile, "utf8").length); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(JSON.parse(readFileSync(gameFile, "utf8")).row, record.row, "the rebuilt record is the game that was played");
  assert.equal(readdirSync(join(stateDir(out), "games")).filter((n) => n.includes(".unreadable-")).length, 1);
  assert.equal(readdirSync(join(stateDir(out), "participants")).filter((n) => n.includes(".unreadable-")).length, 1);
  const games = await queryRun(out, ["games"], "SELECT bob_agent FROM games");
  assert.deepEqual(games, [{bob_agent: "human"}]);
  server.child.kill("SIGTERM");
  await server.done;
});
