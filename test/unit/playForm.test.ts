// The play form (src/lib/playForm.ts): built from a game's legal actions and
// reading what a person typed, with the refusals the issue names (a negative
// offer, text where a number is due, an offer above M) each as one sentence.
import {test} from "node:test";
import assert from "node:assert/strict";
import {actionForms, parseEntry, readNumber, rangeText} from "../../src/lib/playForm.js";
import type {ActionSpec} from "../../loaders/contract/game.js";

const offer: ActionSpec = {type: "offer", numbers: {alice_gain: {min: 0, max: 100}, bob_gain: {min: 0, max: 100}}, sum: {fields: ["alice_gain", "bob_gain"], equals: 100}, text: {field: "message", required: false}};
const bid: ActionSpec = {type: "bid", numbers: {amount: {min: 0, max: 100, integer: true}}};
const decision: ActionSpec = {type: "decision", choices: {decision: ["accept", "reject"]}, text: null};
const claim: ActionSpec = {type: "message", choices: {claim: ["high", "low"]}, optional: ["claim"], text: {field: "text", required: true}};
const shares: ActionSpec = {type: "split", lists: {shares: {length: 3, item: {min: 0, integer: true}}}, sum: {fields: ["shares"], equals: 10}};

const form = (spec: ActionSpec) => actionForms([spec])[0];

test("forms follow the legal actions: numbers with their ranges, choices, lists, the optional message", () => {
  const f = form(offer);
  assert.equal(f.type, "offer");
  assert.deepEqual(f.fields.map((x) => [x.kind, x.name, x.label]), [["number", "alice_gain", "Alice gain"], ["number", "bob_gain", "Bob gain"], ["text", "message", "Message"]]);
  assert.deepEqual(form(decision).fields[0], {kind: "choice", name: "decision", label: "Decision", options: [{value: "accept", label: "accept"}, {value: "reject", label: "reject"}], optional: false});
  assert.deepEqual(actionForms([decision, offer]).map((f) => f.type), ["decision", "offer"]);
  assert.equal(rangeText({min: 0, max: 100, integer: true}), "a whole number between 0 and 100");
  assert.equal(rangeText({min: 0}), "a number of at least 0");
});

test("a legal entry becomes the action (amounts may be typed with $ and thousands commas)", () => {
  assert.deepEqual(parseEntry(form(offer), {alice_gain: "60", bob_gain: " 40 ", message: "fair?"}), {action: {type: "offer", alice_gain: 60, bob_gain: 40, message: "fair?"}});
  assert.deepEqual(parseEntry(form(offer), {alice_gain: "$60", bob_gain: "40", message: ""}), {action: {type: "offer", alice_gain: 60, bob_gain: 40}});
  assert.equal(readNumber("$1,000.50"), 1000.5);
  assert.equal(readNumber("1,5"), null);
  assert.deepEqual(parseEntry(form(decision), {decision: "reject"}), {action: {type: "decision", decision: "reject"}});
  assert.deepEqual(parseEntry(form(shares), {shares: ["3", "3", "4"]}), {action: {type: "split", shares: [3, 3, 4]}});
  assert.deepEqual(parseEntry(form(claim), {claim: "", text: "It is great"}), {action: {type: "message", text: "It is great"}});
});

test("a negative offer is refused with the range", () => {
  assert.deepEqual(parseEntry(form(bid), {amount: "-5"}), {error: "Amount must be a whole number between 0 and 100; -5 is not"});
  assert.deepEqual(parseEntry(form(offer), {alice_gain: "-1", bob_gain: "101"}), {error: "Alice gain must be a number between 0 and 100; -1 is not"});
});

test("text where a number is due is refused", () => {
  assert.deepEqual(parseEntry(form(bid), {amount: "ten"}), {error: 'Amount must be a whole number between 0 and 100, not "ten" (text where a number is due)'});
  assert.deepEqual(parseEntry(form(bid), {amount: "12abc"}), {error: 'Amount must be a whole number between 0 and 100, not "12abc" (text where a number is due)'});
});

test("an offer above M is refused, and so is a split that does not add up to M", () => {
  assert.deepEqual(parseEntry(form(offer), {alice_gain: "150", bob_gain: "0"}), {error: "Alice gain must be a number between 0 and 100; 150 is not"});
  assert.deepEqual(parseEntry(form(offer), {alice_gain: "50", bob_gain: "40"}), {error: "Alice gain + Bob gain must add up to 100; they add up to 90"});
  assert.deepEqual(parseEntry(form(bid), {amount: "7.5"}), {error: "Amount must be a whole number between 0 and 100; 7.5 is not"});
});

test("missing entries, wrong list lengths and unknown choices are named", () => {
  assert.deepEqual(parseEntry(form(bid), {amount: " "}), {error: "Amount is required: enter a whole number between 0 and 100"});
  assert.deepEqual(parseEntry(form(claim), {claim: "high", text: ""}), {error: "Text is required"});
  assert.deepEqual(parseEntry(form(shares), {shares: "3 3"}), {error: "Shares needs 3 numbers, got 2"});
  assert.deepEqual(parseEntry(form(decision), {decision: "maybe"}), {error: "Decision must be one of accept, reject"});
});
