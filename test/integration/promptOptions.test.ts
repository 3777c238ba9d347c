/**
 * What the Guide says each `prompts` option does (and what a game refuses),
 * run through run configs: `parley run` child processes against a fake
 * OpenAI-compatible endpoint on 127.0.0.1 that records every request.
 *
 * - GLEE (src/guide/glee.md): `"paper"` prints bargaining's rules as
 *   Appendix D.2 does (one paragraph, single spaces) and changes nothing in
 *   negotiation; `"code"` is refused, saying why and that GLEE offers "paper".
 * - Deal or No Deal (src/guide/gtllm.md): `"code"` sends the bare word
 *   "rational" as the system message; `"paper"` is refused, naming "code".
 * - NegotiationArena (src/guide/negotiationarena.md): the repository's four
 *   example buy/sell logs replayed with `prompts: "code"` (their replies
 *   sent back in order): all of RED's requests are the logged ones, byte for
 *   byte; BLUE's differ only in the behaviour line, which the logs wrote
 *   themselves and no persona words (a BLUE with the "cunning" persona
 *   gets its own line there).
 * - Economics Arena (src/guide/econarena.md): the history's JSON as sent is
 *   the Guide's example, compact.
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {existsSync, readFileSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {parley, root, scratch} from "../support/cli.js";
import {startFakeLlm, type FakeRequest, type Reply, type Responder} from "../support/fakeLlm.js";
import {gleeBot} from "../support/gleeBot.js";
import {datasetsConfig} from "../../loaders/projectConfig.js";

const {dir: tempDir, keep} = scratch("parley-prompt-options-");
const KEY = {PARLEY_FAKE_KEY: "sk-fake"};

const player = (id: string, baseURL: string, extra: object = {}) => ({id, provider: "openai", model: `model-${id}`, base_url: baseURL, api_key_env: "PARLEY_FAKE_KEY", max_tokens: 400, max_retries: 0, ...extra});

/** Plays `config` with `parley run`; the output directory, or the failed run's result when `fails`. */
async function run(config: object, fails = false) {
  const dir = tempDir();
  writeFileSync(join(dir, "run.json"), JSON.stringify(config));
  const done = await parley(["run", join(dir, "run.json"), "--out", join(dir, "out"), "--quiet"], KEY);
  if (!fails) assert.equal(done.code, 0, done.stderr);
  return done;
}

async function endpoint(respond: Responder) {
  const server = await startFakeLlm("openai", respond);
  keep(server);
  return server;
}

/** A Guide page's text, its line breaks read as spaces. */
const guide = (page: string) => readFileSync(join(root, "src/guide", page), "utf8").replace(/\s+/g, " ");

test('GLEE: "paper" prints bargaining\'s rules as Appendix D.2 does and leaves negotiation as it is; "code" is refused, naming what GLEE offers', async () => {
  const server = await endpoint(gleeBot());
  await run({
    game: ["glee/bargaining", "glee/negotiation"],
    grid: {"glee/bargaining": {horizon: [3], messages: [true]}, "glee/negotiation": {horizon: [3], messages: [true]}},
    players: [player("d", server.baseURL), player("d-b", server.baseURL), player("p", server.baseURL, {prompts: "paper"}), player("p-b", server.baseURL, {prompts: "paper"})],
    lineups: [["d", "d-b"], ["p", "p-b"]],
    seed: 1,
  });
  const asked = (model: string, family: RegExp) => server.requests.filter((r) => r.model === model && family.test(r.system));
  const bargaining = /divide/;
  const negotiation = /product/;
  for (const seat of ["", "-b"]) {
    const plain = asked(`model-d${seat}`, bargaining);
    const paper = asked(`model-p${seat}`, bargaining);
    assert.ok(plain.length >= 2 && paper.length === plain.length, `bargaining${seat}: requests of both players`);
    paper.forEach((r, k) => {
      // The rules: the code's lines joined into one paragraph with single spaces; this turn's format after them, as the code has it.
      const lines = plain[k].system.split("\n");
      const at = lines.findIndex((line) => /^(Send your offer|Answer with)/.test(line));
      assert.ok(at > 2, `bargaining${seat}, request ${k + 1}: rules of several lines, then the format`);
      assert.equal(r.system, [lines.slice(0, at).filter(Boolean).join(" ").replace(/ {2,}/g, " "), ...lines.slice(at)].join("\n"), `bargaining${seat}, request ${k + 1}: D.2's rules`);
    });
    // Negotiation: the paper prints no prompt of it, so "paper" changes nothing.
    const plainNeg = asked(`model-d${seat}`, negotiation);
    assert.ok(plainNeg.length >= 2);
    assert.deepEqual(asked(`model-p${seat}`, negotiation).map((r) => [r.system, r.turns]), plainNeg.map((r) => [r.system, r.turns]), `negotiation${seat}: the same bytes`);
  }
  const refused = await run({game: "glee/bargaining", players: [player("c", server.baseURL, {prompts: "code"}), "fair"], lineups: [["c", "fair"]]}, true);
  assert.equal(refused.code, 2);
  assert.equal(refused.stderr.trim().split("\n").length, 1, refused.stderr);
  assert.match(refused.stderr, /c asks for "prompts": "code", but glee\/bargaining does not offer "code": its default words already are the authors' code's .*; it offers "paper" \(bargaining's rules and turns as Appendix D\.2 prints them/);
  // What the Guide says of it.
  assert.match(guide("glee.md"), /`prompts: "code"` is refused/);
  assert.doesNotMatch(guide("glee.md"), /`prompts: "code"` changes nothing/);
});

test('Deal or No Deal: "code" sends the authors\' bare "rational" system message; "paper" is refused, naming "code"', async () => {
  // Talk ends on a halt; then each side writes an empty deal.
  const server = await endpoint((r: FakeRequest): Reply => ({text: r.lastUser.includes("### Present Deal") ? "<deal>book=0 hat=0 ball=0</deal>" : "<s>halt negotiation</s>"}));
  await run({game: "dond/negotiation", grid: {point: [0]}, players: [player("code", server.baseURL, {prompts: "code"}), player("plain", server.baseURL), "greedy"], lineups: [["code", "greedy"], ["plain", "greedy"]], seed: 1});
  const systems = (model: string) => [...new Set(server.requests.filter((r) => r.model === model).map((r) => r.system))];
  assert.deepEqual(systems("model-code"), ["rational"]);
  assert.deepEqual(systems("model-plain"), ["You are a rational assistant that carefully answer the question."]);
  const refused = await run({game: "dond/negotiation", players: [player("p", server.baseURL, {prompts: "paper"}), "greedy"], lineups: [["p", "greedy"]]}, true);
  assert.equal(refused.code, 2);
  assert.equal(refused.stderr.trim().split("\n").length, 1, refused.stderr);
  assert.match(refused.stderr, /p asks for "prompts": "paper", but dond\/negotiation does not offer "paper": the paper prints none of Deal or No Deal's prompts .*; it offers "code" \(the system message the authors' script sends, the bare word "rational"\)/);
});

const examples = datasetsConfig().dir ? join(datasetsConfig().dir!, "negotiationarena") : null;
const LOGS = ["1707347676639", "1707348339631", "1707348684961", "1707348776397"];

test('NegotiationArena: the example logs with prompts "code": RED\'s requests are the logged ones; BLUE\'s differ only in the logs\' behaviour line, which no persona words', {skip: examples && existsSync(join(examples, LOGS[0])) ? false : "the example logs are not in the datasets directory"}, async () => {
  interface Logged {
    iterations: number;
    players: {conversation: {role: string; content: string}[]}[];
    game_state: {settings?: {player_social_behaviour: string[]}}[];
  }
  const logs = LOGS.map((name) => ({name, log: JSON.parse(readFileSync(join(examples!, name, "game_state.json"), "utf8")) as Logged}));
  // Each seat of each log is a model of its own; it answers its k-th request with the log's k-th reply.
  const replies = new Map<string, string[]>();
  for (const {name, log} of logs) ["red", "blue"].forEach((seat, i) => replies.set(`model-${seat}-${name}`, log.players[i].conversation.filter((m) => m.role === "assistant").map((m) => m.content)));
  replies.set(`model-cunning-${LOGS[0]}`, replies.get(`model-blue-${LOGS[0]}`)!);
  const asked = new Map<string, number>();
  const server = await endpoint((r) => {
    const k = asked.get(r.model) ?? 0;
    asked.set(r.model, k + 1);
    return {text: replies.get(r.model)![k] ?? "<player answer> NONE </player answer>"};
  });
  const code = {prompts: "code"};
  const players = logs.flatMap(({name}) => [player(`red-${name}`, server.baseURL, code), player(`blue-${name}`, server.baseURL, code)]);
  // The first log once more, BLUE with the "cunning" persona (RED a model of its own, so that its replies start over).
  replies.set(`model-again-${LOGS[0]}`, replies.get(`model-red-${LOGS[0]}`)!);
  await run({
    game: "negotiationarena/buy_sell",
    grid: {iterations: [logs[0].log.iterations], seller_cost: [40], buyer_value: [60], budget: [1000]},
    players: [...players, player(`again-${LOGS[0]}`, server.baseURL, code), player(`cunning-${LOGS[0]}`, server.baseURL, {...code, persona: "cunning"})],
    lineups: [...logs.map(({name}) => [`red-${name}`, `blue-${name}`]), [`again-${LOGS[0]}`, `cunning-${LOGS[0]}`]],
    seed: 1,
  });
  const sent = (model: string) => server.requests.filter((r) => r.model === model).map((r) => [{role: "system", content: r.system}, ...r.turns]);
  let red = 0;
  let blue = 0;
  for (const {name, log} of logs) {
    const [redLog, blueLog] = log.players.map((p) => p.conversation);
    const behaviour = log.game_state[0].settings!.player_social_behaviour[1];
    assert.ok(behaviour && blueLog[0].content.includes(`\n${behaviour}\nYou are Player BLUE.`), `${name}: BLUE's logged system message holds its behaviour line`);
    // The request before the k-th reply is the logged conversation's first 2 + 2k messages.
    const redSent = sent(`model-red-${name}`);
    assert.equal(redSent.length, redLog.filter((m) => m.role === "assistant").length, `${name}: every logged RED reply was asked for`);
    redSent.forEach((request, k) => assert.deepEqual(request, redLog.slice(0, 2 + 2 * k), `${name}: RED's request ${k + 1}`));
    const blueSent = sent(`model-blue-${name}`);
    assert.equal(blueSent.length, blueLog.filter((m) => m.role === "assistant").length, `${name}: every logged BLUE reply was asked for`);
    blueSent.forEach((request, k) => {
      const logged = blueLog.slice(0, 2 + 2 * k);
      // The behaviour line is empty in Parley's request (no persona), the rest is the log's, byte for byte.
      assert.deepEqual(request, [{...logged[0], content: logged[0].content.replace(`\n${behaviour}\n`, "\n\n")}, ...logged.slice(1)], `${name}: BLUE's request ${k + 1}`);
      assert.notDeepEqual(request, logged);
    });
    red += redSent.length;
    blue += blueSent.length;
  }
  assert.deepEqual([red, blue], [12, 11], "the 23 requests of the example logs");
  // A persona fills the same line with its own words, never the logs' behaviour.
  const cunning = sent(`model-cunning-${LOGS[0]}`)[0][0].content;
  const logged = logs[0].log.players[1].conversation[0].content;
  const behaviour = logs[0].log.game_state[0].settings!.player_social_behaviour[1];
  const line = cunning.slice(logged.indexOf(`\n${behaviour}\n`) + 1).split("\n")[0];
  assert.ok(line.length > 20 && line !== behaviour && cunning === logged.replace(behaviour, line), `the cunning persona's line: ${line}`);
  // What the Guide says of it: 23 requests, RED's identical, BLUE's differing in that line.
  assert.match(guide("negotiationarena.md"), /RED's 12 requests are identical and BLUE's 11 differ only in the behaviour line/);
});

test("Economics Arena: the history's JSON as sent is the Guide's example, compact", async () => {
  // The model (id 1) answers 20 in the first run of a history session against four level-0 players (c̄ / 2 = 50).
  const server = await endpoint((r) => ({text: JSON.stringify(/has been hold/.test(r.lastUser) ? {goal: "win", "previous answer": 20, answer: 20, reason: "r"} : {understanding: "2/3 of the mean", "popular answer": 33, answer: 20, reason: "r"})}));
  await run({
    game: "econarena/beauty_contest",
    grid: {environment: ["rational"], runs: [2], upper_bound: [100]},
    players: [player("m", server.baseURL), "level-0"],
    lineups: [["level-0", "m", "level-0", "level-0", "level-0"]],
    seed: 1,
  });
  const second = server.requests.find((r) => /has been hold for 1 run\(s\)/.test(r.lastUser))!;
  const sentJson = /\(your id is 1\): (\[.*\])\n/.exec(second.lastUser)![1];
  const shown = /the history as sent in the beauty contest, e\.g\. `(\[[^`]*\])`/.exec(guide("econarena.md"));
  assert.ok(shown, "the Guide shows an example of the history's JSON");
  assert.equal(sentJson, shown![1]);
  assert.doesNotMatch(sentJson, /[:,] /, "compact: no space after a colon or a comma");
});
