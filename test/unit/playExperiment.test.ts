// Experiment configs of `parley play`, balanced assignment, access rules and the coalescing tables writer.
import {test} from "node:test";
import assert from "node:assert/strict";
import {readFileSync} from "node:fs";
import {join} from "node:path";
import {instructionParagraphs, parseExperiment, passesAttention} from "../../loaders/study/experiment.js";
import {assignCondition, countsAsStarted, newParticipantId, PARTICIPANT_ID, PENDING_MS, type Participant} from "../../loaders/study/participants.js";
import {isLoopbackAddress, isLoopbackHost, isLoopbackHostHeader, sameToken} from "../../loaders/study/access.js";
import {CoalescingWriter} from "../../loaders/study/studyTables.js";
import {projectRoot} from "../../loaders/projectConfig.js";
import {games} from "../../loaders/registry/games.js";

const example = () => JSON.parse(readFileSync(join(projectRoot, "data/experiments/glee-bargaining.json"), "utf8"));

test("the shipped example experiment parses: two GLEE bargaining conditions against one LLM player, params filled in", () => {
  const e = parseExperiment(example());
  assert.equal(e.id, "glee-bargaining");
  assert.deepEqual(e.conditions.map((c) => [c.id, c.def.id, c.human_seat, c.opponent]), [["human-alice", "glee/bargaining", 0, "gemini-flash"], ["human-bob", "glee/bargaining", 1, "gemini-flash"]]);
  assert.equal(e.conditions[0].params.delta_b, 0.8);
  // {money} in the instructions is the condition's parameter.
  assert.match(e.conditions[0].instructions[0], /\$10000 to divide/);
  // The attention check sits at the position asked for, among the paragraphs.
  const shown = instructionParagraphs(e, e.conditions[0]);
  assert.equal(shown.length, 5);
  assert.match(shown[2], /code word sdkot/);
  assert.equal(e.completion_code, "random");
});

test("bad experiment configs fail with one line naming the key", () => {
  const cases: [(c: any) => void, RegExp][] = [
    [(c) => (c.conditions[1].params.delta_a = 2), /^conditions\[1\]\.params\.delta_a: expected a number in \(0, 1\], got 2$/],
    [(c) => (c.conditions[0].game = "glee/nope"), /^conditions\[0\]\.game: expected one game id/],
    [(c) => (c.conditions[0].human_seat = "carol"), /^conditions\[0\]\.human_seat: expected a seat number 0 to 1 or a seat name \(alice, bob\), got "carol"$/],
    [(c) => (c.conditions[0].opponent = "nobody"), /^conditions\[0\]\.opponent: /],
    [(c) => (c.conditions[0].opponent.provider = "acme"), /conditions\[0\]\.opponent \(gemini-flash\): "provider" must be one of/],
    [(c) => (c.conditions[1].opponent.temperature = 0.5), /^conditions\[1\]\.opponent: LLM player "gemini-flash" is also defined, differently, at conditions\[0\]\.opponent/],
    [(c) => (c.conditions[1].id = "human-alice"), /^conditions\[1\]\.id: "human-alice" is also the id of conditions\[0\]$/],
    [(c) => (c.conditions[0].quiz[0].answer = 4), /^conditions\[0\]\.quiz\[0\]\.answer: expected the index of the correct option, 0 to 3, got 4$/],
    [(c) => (c.attention_check.answer = "banana"), /^attention_check\.sentence: does not contain the answer "banana"/],
    [(c) => (c.instructions[0] = "You have {cash}."), /^instructions\[0\]: \{cash\} is not a parameter/],
    [(c) => (c.completion_code = "a b"), /^completion_code: expected a code/],
    [(c) => (c.conditions = []), /^conditions: expected a non-empty list/],
    [(c) => (c.colour = "red"), /^colour: unknown key/],
    [(c) => delete c.consent, /^consent: expected a non-empty string/],
  ];
  for (const [change, expected] of cases) {
    const config = example();
    change(config);
    assert.throws(() => parseExperiment(config), (error: Error) => expected.test(error.message) && !error.message.includes("\n"), String(expected));
  }
});

test("a built-in agent may be the opponent; it must be able to sit in the other seat", () => {
  const config = example();
  config.conditions[0].opponent = "rubinstein";
  const e = parseExperiment(config);
  assert.equal(e.conditions[0].opponent, "rubinstein");
  assert.deepEqual(e.conditions[0].llms, []);
  assert.deepEqual(e.conditions[0].seats, ["human", "rubinstein"]);
});

const fourGames = () => JSON.parse(readFileSync(join(projectRoot, "data/experiments/glee-gamabench.json"), "utf8"));

test("the shipped four-game experiment: GLEE's three families and a gamma-Bench game with the person, two LLM players and two strategies", () => {
  const e = parseExperiment(fourGames());
  assert.deepEqual(e.conditions.map((c) => [c.id, c.def.id, c.n_players, c.seats]), [
    ["bargaining-alice", "glee/bargaining", 2, ["human", "gemini-flash"]],
    ["negotiation-bob", "glee/negotiation", 2, ["gemini-flash", "human"]],
    ["persuasion-alice", "glee/persuasion", 2, ["human", "gemini-flash"]],
    ["guessing", "gamabench/guessing", 5, ["human", "gemini-flash", "gemini-flash", "level-1", "equilibrium"]],
  ]);
  // "gemini-flash" as a string names the LLM player defined in the first condition: one player, everywhere.
  assert.deepEqual(e.conditions.map((c) => c.llms.map((l) => l.model)), [["gemini-1.5-flash"], ["gemini-1.5-flash"], ["gemini-1.5-flash"], ["gemini-1.5-flash"]]);
  assert.equal(e.conditions[3].opponent, "gemini-flash ×2, level-1, equilibrium");
  assert.match(e.conditions[3].instructions[0], /from 0 to 100, in each of 5 rounds/);
});

test("every registered game can be a condition, the person in any seat, an LLM player in the others", () => {
  const config = fourGames();
  const llm = config.conditions[0].opponent;
  for (const def of games) {
    for (const seat of [0, def.seats.default - 1]) {
      config.conditions = [{id: "c", game: def.id, human_seat: seat, opponent: llm, instructions: ["Read the rules."]}];
      const [c] = parseExperiment(config).conditions;
      assert.equal(c.seats.length, def.seats.default, def.id);
      assert.deepEqual(c.seats.map((id, s) => (s === seat ? id === "human" : id === "gemini-flash")), c.seats.map(() => true), def.id);
    }
  }
});

test("N-player and per-seat conditions: seat counts and who can sit where fail with one line naming the key", () => {
  const cases: [(c: any) => void, RegExp][] = [
    [(c) => c.conditions[3].opponents.pop(), /^conditions\[3\]\.opponents: expected 4 agents, one per seat but the person's \(gamabench\/guessing with 5 players\), got 3$/],
    [(c) => (c.conditions[3].n_players = 30), /^conditions\[3\]\.n_players: gamabench\/guessing seats 2 to 20 players, got 30$/],
    [(c) => (c.conditions[3].human_seat = 5), /^conditions\[3\]\.human_seat: expected a seat number 0 to 4, got 5$/],
    [(c) => (c.conditions[3].opponents[2] = "rubinstein"), /^conditions\[3\]\.opponents\[2\]: rubinstein cannot sit in seat seat3 of gamabench\/guessing$/],
    [(c) => (c.conditions[3].opponents[0] = "gpt-nobody"), /^conditions\[3\]\.opponents\[0\]: unknown agent "gpt-nobody"; .*, or an LLM player defined earlier in the file$/],
    [(c) => (c.conditions[3].opponent = "equilibrium"), /^conditions\[3\]: expected either "opponent" \(one agent in every other seat\) or "opponents" \(one per other seat\), not both$/],
    [(c) => delete c.conditions[0].opponent, /^conditions\[0\]: expected either "opponent" .* not neither$/],
    // A persuasion strategy for the seller cannot sit in the buyer's seat.
    [(c) => (c.conditions[2].opponent = "truthful"), /^conditions\[2\]\.opponent: truthful cannot sit in seat bob of glee\/persuasion$/],
    [(c) => (c.conditions[3].opponents[1] = {...c.conditions[0].opponent, temperature: 0.2}), /^conditions\[3\]\.opponents\[1\]: LLM player "gemini-flash" is also defined, differently, at conditions\[0\]\.opponent/],
  ];
  for (const [change, expected] of cases) {
    const config = fourGames();
    change(config);
    assert.throws(() => parseExperiment(config), (error: Error) => expected.test(error.message) && !error.message.includes("\n"), `${expected}`);
  }
});

test("the attention check accepts the code word in any case, with spaces or quotes around it, and nothing else", () => {
  const check = parseExperiment(example()).attention_check!;
  for (const typed of ["sdkot", " SDKOT ", '"sdkot"', "sdkot."]) assert.equal(passesAttention(check, typed), true, typed);
  for (const typed of ["", "sdkott", "the code word", "sd kot"]) assert.equal(passesAttention(check, typed), false, typed);
});

test("balanced assignment: the condition with the fewest started, ties at random", () => {
  assert.equal(assignCondition([3, 1, 2]), 1);
  // Ties: every tied condition is drawn, none other.
  const drawn = new Set<number>();
  for (let k = 0; k < 200; k++) drawn.add(assignCondition([2, 1, 1, 5]));
  assert.deepEqual([...drawn].sort(), [1, 2]);
  // The pick function chooses among the tied ones in order.
  assert.equal(assignCondition([0, 4, 0, 0], () => 2), 3);
  // Assigning one at a time keeps the counts within one of each other.
  const counts = [0, 0, 0];
  for (let k = 0; k < 100; k++) counts[assignCondition(counts)]++;
  assert.ok(Math.max(...counts) - Math.min(...counts) <= 1, String(counts));
});

test("who counts as started: consented, or assigned within the pending window, never one who declined", () => {
  const now = Date.parse("2026-01-01T12:00:00Z");
  const p = (over: Partial<Participant>) => ({assigned_at: new Date(now - 60_000).toISOString(), consented_at: null, step: "consent", ...over}) as Participant;
  assert.equal(countsAsStarted(p({}), now), true);
  assert.equal(countsAsStarted(p({assigned_at: new Date(now - PENDING_MS - 1).toISOString()}), now), false);
  assert.equal(countsAsStarted(p({assigned_at: new Date(now - PENDING_MS - 1).toISOString(), consented_at: "x", step: "game"}), now), true);
  assert.equal(countsAsStarted(p({consented_at: "x", step: "declined"}), now), false);
});

test("participant ids are 128 random bits, base64url", () => {
  const ids = new Set(Array.from({length: 1000}, newParticipantId));
  assert.equal(ids.size, 1000);
  for (const id of ids) assert.match(id, PARTICIPANT_ID);
});

test("access: loopback addresses and Host headers; tokens compared whole", () => {
  for (const a of ["127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1"]) assert.equal(isLoopbackAddress(a), true, a);
  for (const a of ["192.0.2.2", "::ffff:192.0.2.2", "10.0.0.1", "", undefined, "fe80::1"]) assert.equal(isLoopbackAddress(a), false, String(a));
  assert.equal(isLoopbackHost("localhost"), true);
  assert.equal(isLoopbackHost("0.0.0.0"), false);
  for (const h of ["127.0.0.1:4000", "localhost:4000", "[::1]:4000", "localhost"]) assert.equal(isLoopbackHostHeader(h), true, h);
  for (const h of ["evil.example:4000", "127.0.0.1.evil.example", "192.0.2.2:4000", "", undefined]) assert.equal(isLoopbackHostHeader(h), false, String(h));
  assert.equal(sameToken("abc", "abc"), true);
  assert.equal(sameToken("ab", "abc"), false);
  assert.equal(sameToken(null, "abc"), false);
});

test("the coalescing writer: one write at a time, requests during a write share the next one, none lost", async () => {
  let state = 0;
  const written: number[] = [];
  let active = 0;
  let release!: () => void;
  let gate = new Promise<void>((r) => (release = r));
  const writer = new CoalescingWriter(async () => {
    active++;
    assert.equal(active, 1, "two writes at once");
    const seen = state;
    await gate;
    written.push(seen);
    active--;
  });
  state = 1;
  const first = writer.request();
  await new Promise((r) => setImmediate(r));
  // While the first write runs, three changes and requests: one more write covers them all.
  state = 2;
  const a = writer.request();
  state = 3;
  const b = writer.request();
  const c = writer.request();
  assert.equal(a, b);
  assert.equal(b, c);
  release();
  await first;
  gate = Promise.resolve();
  await Promise.all([a, b, c]);
  assert.deepEqual(written, [1, 3]);
});
