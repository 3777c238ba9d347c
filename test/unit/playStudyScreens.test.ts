// The participant's screens of `parley play` in words (src/lib/playWords.ts), the experiment's panel, results and
// quiz_failure keys, panel ids from a study link, and the admin page's participant lines and CSV.
import {test} from "node:test";
import assert from "node:assert/strict";
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {DEFAULT_PANEL, PANELS, parseExperiment, quizFailureNote, returnLink} from "../../loaders/study/experiment.js";
import {MAX_REFUSED_PANEL_IDS, panelInfo, ParticipantStore, refusePanelId, type Participant} from "../../loaders/study/participants.js";
import {duration, panelIdFrom, participantLines, refusedPanelIds, spreadsheetCsv, stepStartedAt, turnMove} from "../../loaders/study/adminPages.js";
import {actionForms} from "../../src/lib/playForm.js";
import {actionWords, amount, discounted, historyLines, outcomeWords, personForm, promptForPeople, situation, type Side} from "../../src/lib/playWords.js";
import {projectRoot} from "../../loaders/projectConfig.js";

const example = () => JSON.parse(readFileSync(join(projectRoot, "data/experiments/glee-bargaining.json"), "utf8"));

test("panel, results and quiz_failure: defaults, presets, and one line naming the key for a mistake", () => {
  const plain = parseExperiment(example());
  assert.deepEqual(plain.panel, DEFAULT_PANEL);
  assert.deepEqual(plain.results, {heading: "Thank you", text: ["You have completed the study."], show_outcome: true});
  assert.equal(plain.quiz_failure, "no_code");
  assert.match(quizFailureNote(plain)!, /do not receive a completion code/);

  const prolific = parseExperiment({...example(), panel: "prolific", quiz_failure: "paid", results: {heading: "Done", text: ["a", "b"], show_outcome: false}});
  assert.deepEqual(prolific.panel, PANELS.prolific);
  assert.deepEqual(prolific.results, {heading: "Done", text: ["a", "b"], show_outcome: false});
  assert.match(quizFailureNote(prolific)!, /still receive your completion code/);
  assert.equal(returnLink(prolific.panel, "AB 12"), "https://app.prolific.com/submissions/complete?cc=AB%2012");
  assert.equal(returnLink(DEFAULT_PANEL, "AB12"), null);

  const own = parseExperiment({...example(), panel: {id_param: "pid", params: ["wave"], return_url: "https://panel.example/done?code={code}"}});
  assert.deepEqual(own.panel, {id_params: ["pid"], params: ["wave"], return_url: "https://panel.example/done?code={code}"});

  const cases: [Record<string, unknown>, RegExp][] = [
    [{panel: "qualtrics"}, /^panel: expected "prolific", "mturk" or an object/],
    [{panel: {id_param: []}}, /^panel\.id_param: expected a link parameter's name or a non-empty list of names/],
    [{panel: {id_param: "pid", return_url: "https://x.example/done"}}, /^panel\.return_url: expected null or an http\(s\) URL containing \{code\}/],
    [{panel: {id_param: "pid", return_url: "javascript:alert({code})"}}, /^panel\.return_url: /],
    [{panel: {id_param: "pid", colour: 1}}, /^panel\.colour: unknown key; expected id_param, params, return_url$/],
    [{results: {heading: ""}}, /^results\.heading: expected a non-empty string/],
    [{results: {show_outcome: "yes"}}, /^results\.show_outcome: expected true or false, got "yes"$/],
    [{quiz_failure: "pay"}, /^quiz_failure: expected "no_code" or "paid", got "pay"$/],
  ];
  for (const [change, message] of cases) assert.throws(() => parseExperiment({...example(), ...change}), (e: Error) => message.test(e.message) && !e.message.includes("\n"), JSON.stringify(change));
});

test("panel ids from a study link: the first id parameter present names the person; other kept parameters beside it; junk is not kept", () => {
  const q = (s: string) => new URLSearchParams(s);
  assert.deepEqual(panelInfo(q("PROLIFIC_PID=5f1a&STUDY_ID=st&SESSION_ID=se&other=x"), DEFAULT_PANEL), {id: "5f1a", param: "PROLIFIC_PID", params: {PROLIFIC_PID: "5f1a", STUDY_ID: "st", SESSION_ID: "se"}});
  assert.deepEqual(panelInfo(q("workerId=A1B2&assignmentId=X9&hitId=H"), PANELS.mturk), {id: "A1B2", param: "workerId", params: {workerId: "A1B2", assignmentId: "X9", hitId: "H"}});
  assert.deepEqual(panelInfo(q("STUDY_ID=st"), DEFAULT_PANEL), {id: null, param: null, params: {STUDY_ID: "st"}});
  // Spaces, control characters and over-long values are not kept.
  assert.deepEqual(panelInfo(q(`PROLIFIC_PID=a%20b&STUDY_ID=${"x".repeat(129)}`), DEFAULT_PANEL), {id: null, param: null, params: {}});
});

const bob: Side = {me: "bob", names: ["alice", "bob"], unit: "$"};

test("a GLEE bargaining move form from Bob's side: his own share first, labelled in dollars, choices as sentences, nothing else changed", () => {
  const legal = [{type: "offer", numbers: {alice_gain: {min: 0, max: 10000}, bob_gain: {min: 0, max: 10000}}, sum: {fields: ["alice_gain", "bob_gain"], equals: 10000}, text: {field: "message", required: false}}];
  const [offer] = actionForms(legal).map((f) => personForm(f, bob));
  assert.deepEqual(offer.fields.map((f) => [f.name, f.label]), [["bob_gain", "You get ($)"], ["alice_gain", "Alice gets ($)"], ["message", "Message to Alice (optional)"]]);
  assert.equal(offer.label, "Make an offer");
  assert.deepEqual(offer.sum, {fields: ["alice_gain", "bob_gain"], equals: 10000});
  const [decision] = actionForms([{type: "decision", choices: {decision: ["accept", "reject"]}}]).map((f) => personForm(f, bob));
  assert.deepEqual(decision.fields[0].kind === "choice" && decision.fields[0].options, [{value: "accept", label: "Accept the offer"}, {value: "reject", label: "Reject the offer"}]);
});

test("moves, history, the standing offer and its discounted worth, in words", () => {
  assert.equal(actionWords({type: "offer", alice_gain: 6000, bob_gain: 4000, message: "Deal?"}, bob), "you get $4,000, Alice gets $6,000, with the message “Deal?”");
  assert.equal(actionWords({type: "decision", decision: "reject"}, bob), "rejected");
  assert.equal(actionWords({type: "offer", price: 90.5}, bob), "a price of $90.5");
  assert.equal(actionWords({type: "guess", amount: 30}, {me: null, names: [], unit: null}), "amount 30");
  const view = {
    family: "bargaining", money: 10000, delta_self: 0.8, horizon: 12,
    history: [
      {round: 1, player: "alice", action: {type: "offer", alice_gain: 6000, bob_gain: 4000}},
      {round: 1, player: "bob", action: {type: "decision", decision: "reject"}},
      {round: 2, player: "bob", action: {type: "offer", alice_gain: 5000, bob_gain: 5000, message: "Even."}},
      {round: 2, player: "alice", action: {type: "decision", decision: "reject"}},
      {round: 3, player: "alice", action: {type: "offer", alice_gain: 5800, bob_gain: 4200}},
    ],
    offer: {type: "offer", alice_gain: 5800, bob_gain: 4200},
  };
  // The offer now standing is told by the situation, not twice.
  assert.deepEqual(historyLines(view, bob), [
    "Round 1: Alice offered: you get $4,000, Alice gets $6,000.",
    "Round 1: You rejected.",
    "Round 2: You offered: you get $5,000, Alice gets $5,000, with the message “Even.”",
    "Round 2: Alice rejected.",
  ]);
  // Round 3 with δ_B = 0.8: 4200 · 0.8² = 2688 (by hand).
  assert.ok(Math.abs(discounted(4200, 0.8, 3) - 2688) < 1e-9);
  assert.deepEqual(situation("glee/bargaining", view, 3, bob), [
    "Round 3 of 12.",
    "Alice offers: you get $4,200, Alice gets $5,800.",
    "Money is worth less to you each round (×0.8 per round): in round 3, $4,200 is worth $2,688 to you.",
  ]);
  assert.deepEqual(situation("glee/bargaining", {...view, offer: null}, 2, bob)!.slice(1), [
    "Your turn to propose how to divide $10,000 between you and Alice.",
    "Money is worth less to you each round (×0.8 per round): in this round every $100 you get is worth $80 to you.",
  ]);
  assert.equal(situation("gamabench/guessing", {}, 1, bob), null);
  assert.equal(amount(1234567.891, "$"), "$1,234,567.89");
  assert.equal(amount(-50, "$"), "-$50");
});

test("the outcome in words, and a model's prompt for people: answer formats and # marks left out", () => {
  const params = {money: 10000, delta_a: 0.9, delta_b: 0.8};
  assert.deepEqual(outcomeWords("glee/bargaining", params, {rounds: 3, agreement: true, alice_gain: 5800, bob_gain: 4200}, [], 1, bob), [
    "You and Alice agreed in round 3: you get $4,200 of $10,000.",
    "Since money was worth less each round (×0.8 per round), that is worth $2,688 to you.",
  ]);
  assert.deepEqual(outcomeWords("glee/bargaining", params, {rounds: 12, agreement: false}, [], 1, bob), ["You and Alice did not reach an agreement in 12 rounds, so neither of you gets anything."]);
  assert.deepEqual(outcomeWords("gamabench/guessing", {}, {rounds: 2}, [{seat: 0, return: 12.5}], 0, {me: null, names: [], unit: null}), ["The game is over after 2 rounds. Your score: 12.5."]);
  assert.equal(promptForPeople('Round 2\n# Alice gain: 6000\nAnswer with {"decision": "accept"} or {"decision": "reject"}\n\n\n\nGood luck'), "Round 2\nAlice gain: 6000\n\nGood luck");
});

const participant = (over: Partial<Participant>): Participant => ({
  id: "A".repeat(22), experiment: "e", condition: "c", step: "consent", seed: 1, assigned_at: "2026-01-01T10:00:00.000Z",
  consented_at: null, game_started_at: null, game_finished_at: null, completed_at: null, attention: null, moves: [], quiz: null,
  completion_code: null, game_id: null, excluded: false, exclusion_reason: null, ...over,
});

test("the admin page's participant lines: time on the step from when it was reached, idle from the last request; CSV safe for spreadsheets", () => {
  const t0 = Date.parse("2026-01-01T10:00:00.000Z");
  const playing = participant({id: "B".repeat(22), step: "game", consented_at: "2026-01-01T10:01:00.000Z", game_started_at: "2026-01-01T10:02:00.000Z", moves: [{type: "offer"}], panel_id: "pid-1"});
  const done = participant({id: "C".repeat(22), assigned_at: "2026-01-01T09:00:00.000Z", step: "done", completed_at: "2026-01-01T09:30:00.000Z", completion_code: "XYZ", excluded: true, exclusion_reason: "quiz"});
  assert.equal(stepStartedAt(playing), "2026-01-01T10:02:00.000Z");
  const lines = participantLines([done, playing], t0 + 5 * 60_000, new Map([[playing.id, t0 + 4 * 60_000 + 30_000]]));
  assert.deepEqual(lines.map((l) => [l.id[0], l.step, l.moves, l.time_on_step, l.idle, l.code, l.excluded, l.exclusion_reason, l.panel_id]), [
    ["B", "game", 1, "3 min", "30 s", "", false, "", "pid-1"],
    ["C", "done", 0, "", "", "XYZ", true, "quiz", ""],
  ]);
  // Where a panel id came from, and the ids later links brought (refused): the first few kept, the rest counted.
  assert.equal(panelIdFrom(participant({panel_id: "pid-1", panel_id_param: "PROLIFIC_PID"})), "PROLIFIC_PID at first arrival, 2026-01-01 10:00:00 UTC");
  assert.equal(panelIdFrom(participant({panel_id: "pid-1"})), "not recorded (a record from an older version)");
  assert.equal(panelIdFrom(playing), "not recorded (a record from an older version)");
  assert.equal(panelIdFrom(done), "none");
  const refused = participant({});
  for (let i = 0; i < MAX_REFUSED_PANEL_IDS + 3; i++) refusePanelId(refused, {id: `x${i}`, param: "workerId", params: {}}, t0 + i * 1000);
  refusePanelId(refused, {id: null, param: null, params: {}}, t0);
  assert.equal(refused.panel_id, undefined);
  assert.equal(refused.panel_refused!.length, MAX_REFUSED_PANEL_IDS);
  assert.equal(refused.panel_refused_count, MAX_REFUSED_PANEL_IDS + 3);
  assert.match(refusedPanelIds(refused), /^x0 \(workerId, 2026-01-01 10:00:00 UTC\); x1 \(workerId, 2026-01-01 10:00:01 UTC\); .*; x9 \(workerId, 2026-01-01 10:00:09 UTC\); and 3 more$/);
  assert.equal(refusedPanelIds(done), "");
  assert.deepEqual([duration(59_000), duration(3_600_000 + 5 * 60_000), duration(27 * 3_600_000)], ["59 s", "1 h 05 min", "1 d 3 h"]);
  assert.equal(turnMove({game_id: "g", turn: 0, round: 1, seat: 0, action: "offer", message: "hi", alice_gain: 600, bob_gain: 400, price: null, rule_break: false}), "offer, alice_gain: 600, bob_gain: 400");
  assert.equal(spreadsheetCsv([{a: "=HYPERLINK(1)", b: -5, c: "-5", d: "+x", e: "plain, text"}]), `a,b,c,d,e\r\n'=HYPERLINK(1),-5,-5,'+x,"plain, text"\r\n`);
});

test("a participant file whose refused panel ids are not a list of {param, id, at} is set aside, not shown broken on the admin page", () => {
  const experiment = parseExperiment(example());
  const dir = mkdtempSync(join(tmpdir(), "parley-refused-"));
  try {
    mkdirSync(join(dir, "participants"));
    const base = {...participant({}), experiment: experiment.id, condition: experiment.conditions[0].id};
    const files: [string, Record<string, unknown>][] = [
      ["D".repeat(22), {panel_refused: [{param: "PROLIFIC_PID", id: "x", at: "2026-01-01T10:00:00.000Z"}], panel_refused_count: 3}],
      ["E".repeat(22), {panel_refused: [{param: "PROLIFIC_PID"}]}],
      ["F".repeat(22), {panel_refused: "x"}],
      ["G".repeat(22), {panel_refused_count: "2"}],
    ];
    for (const [id, over] of files) writeFileSync(join(dir, "participants", `${id}.json`), JSON.stringify({...base, id, ...over}));
    const store = new ParticipantStore(dir, experiment);
    assert.deepEqual(store.all().map((p) => p.id), ["D".repeat(22)]);
    assert.equal(refusedPanelIds(store.all()[0]), "x (PROLIFIC_PID, 2026-01-01 10:00:00 UTC); and 2 more");
    assert.deepEqual(store.problems.map((l) => /\((panel_refused[^;]*)\)/.exec(l)?.[1]).sort(), [
      "panel_refused: expected a list of {param, id, at} (text)", "panel_refused: expected a list of {param, id, at} (text)", "panel_refused_count: expected a whole number",
    ]);
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
});
