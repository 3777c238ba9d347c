// GLEE's prompts (bargaining, negotiation, persuasion), byte for byte against the authors' own rendering: each fixture in
// test/fixtures/authors-prompts/glee/ holds the requests eilamshapira/GLEE's code (commit and files in
// its "source") sent for a game played with scripted replies. Parley's game is played with the same
// replies and its narrator must send the same bytes, request by request, or differ only by the
// documented change below (the Guide's GLEE page, "Prompts").
import {test} from "node:test";
import assert from "node:assert/strict";
import {readdirSync, readFileSync} from "node:fs";
import {join} from "node:path";
import {bargaining} from "../../loaders/papers/glee/bargaining.js";
import {negotiation} from "../../loaders/papers/glee/negotiation.js";
import {persuasion} from "../../loaders/papers/glee/persuasion.js";
import {gleeNarrator} from "../../loaders/papers/glee/narrator.js";
import type {GleeState} from "../../loaders/papers/glee/gleeState.js";
import type {BargainingParams, GleeView, NegotiationParams, PersuasionParams, Player} from "../../loaders/papers/glee/types.js";
import {PLAYERS} from "../../loaders/papers/glee/types.js";
import type {Action} from "../../loaders/contract/game.js";
import type {PastTurn, PlayerPrompt} from "../../loaders/contract/narrator.js";
import type {ChatMessage} from "../../loaders/llm/types.js";
import type {Rng} from "../../src/lib/rng.js";
import {inSequence} from "../../loaders/runner/chance.js";

const DIR = join(import.meta.dirname, "../fixtures/authors-prompts/glee");

interface Fixture {
  source: {repository: string; commit: string; files: string[]; functions: string};
  scenario: string;
  params: BargainingParams | NegotiationParams | PersuasionParams;
  /** Persuasion: each round's quality, as the authors' game drew it (scripted). */
  qualities?: Array<"high" | "low">;
  replies: Record<Player, string[]>;
  requests: Array<{seat: Player; messages: ChatMessage[]}>;
}

const load = (family: string): Fixture[] =>
  readdirSync(DIR)
    .filter((f) => f.startsWith(`${family}-`) && f.endsWith(".json"))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(DIR, f), "utf8")) as Fixture);
const fixtures = load("bargaining");
const negotiationFixtures = load("negotiation");
const persuasionFixtures = load("persuasion");

/**
 * The one documented change (bargainingPrompts.ts, Guide "Prompts"): under incomplete information the
 * authors' code tells the responder the other player's inflation and says nothing when both δ are 1;
 * Parley names only the player's own loss and always says the other's is unknown. Exact strings, per scenario.
 */
const DOCUMENTED: Record<string, Array<[string, string]>> = {
  "incomplete-information": [
    ["Due to inflation, the money you gain is worth 10% less than in the first round. The money bob gains is worth 20% less than in the first round.\n", "Due to inflation, the money you gain is worth 10% less than in the first round.\n"],
    ["Due to inflation, the money you gain is worth 36% less than in the first round. The money alice gains is worth 19% less than in the first round.\n", "Due to inflation, the money you gain is worth 36% less than in the first round.\n"],
  ],
  "incomplete-information-own-delta-one": [["Due to inflation,  the money Bob gains is worth 10% less than in the first round. The money you gains is worth the same as in the first round.\n", ""]],
  "incomplete-information-no-inflation": [
    ["We will relay messages between you and Bob.\n\nYou have", "We will relay messages between you and Bob.\nBeware of inflation! With each passing round, the money is worth 0% less for you. You don't know how the inflation effect on Bob.\nYou have"],
    ["We will relay messages between you and Alice.\n\nYou have", "We will relay messages between you and Alice.\nBeware of inflation! With each passing round, the money is worth 0% less for you. You don't know how the inflation effect on Alice.\nYou have"],
  ],
};

const codeWords: PlayerPrompt = {personality: null, negotiation_suffix: null, prompts: null};

/** The fixture's game in Parley: its parameters, and in persuasion its scripted qualities as the chance draws. */
function start(fx: Fixture): GleeState {
  const qualities = [...(fx.qualities ?? [])];
  const rng: Rng = {next: () => 0, int: () => 0, bernoulli: () => qualities.shift() === "high", pick: (x) => x[0]!};
  if (fx.qualities) {
    const {prior, value_high, money, horizon, complete_information, message_type, buyer_type} = fx.params as PersuasionParams;
    return persuasion.start({prior, value_high, money, horizon, complete_information, message_type, buyer_type}, {gameId: fx.scenario, nSeats: 2, chance: inSequence(rng)}) as GleeState;
  }
  if ("factor_a" in fx.params) {
    const {factor_a, factor_b, money, horizon, complete_information, messages} = fx.params;
    return negotiation.start({factor_a, factor_b, money, horizon, complete_information, messages}, {gameId: fx.scenario, nSeats: 2, chance: inSequence(rng)}) as GleeState;
  }
  const {delta_a, delta_b, money, horizon, complete_information, messages} = fx.params as BargainingParams;
  return bargaining.start({delta_a, delta_b, money, horizon, complete_information, messages}, {gameId: fx.scenario, nSeats: 2, chance: inSequence(rng)}) as GleeState;
}

/** Plays the fixture's game in Parley with the fixture's replies; the messages of every request, in order. */
function parleyRequests(fx: Fixture, prompt: PlayerPrompt): Array<{seat: Player; messages: ChatMessage[]}> {
  const state = start(fx);
  const replies = {alice: [...fx.replies.alice], bob: [...fx.replies.bob]};
  const past: Record<Player, PastTurn<GleeView>[]> = {alice: [], bob: []};
  const sent: Array<{seat: Player; messages: ChatMessage[]}> = [];
  while (!state.isTerminal()) {
    const seat = state.currentPlayer() as Player;
    const obs = state.observe(PLAYERS.indexOf(seat));
    sent.push({seat, messages: gleeNarrator.messages(obs, past[seat], "", null, prompt)});
    const reply = replies[seat].shift();
    if (reply === undefined) break; // the authors' run stopped here too (its script ran out)
    const action = gleeNarrator.action(JSON.parse(reply) as Record<string, unknown>, obs) as Action;
    assert.equal(state.validate(PLAYERS.indexOf(seat), action), null, `${fx.scenario}: ${reply}`);
    state.apply([action]);
    past[seat].push({observation: obs, raw: reply});
  }
  return sent;
}

const withDocumented = (fx: Fixture, text: string): string => (DOCUMENTED[fx.scenario] ?? []).reduce((t, [from, to]) => t.split(from).join(to), text);

test("the fixtures record their origin and the authors' layout: the rules then the turn's format in the system message", () => {
  assert.equal(fixtures.length, 7);
  for (const fx of fixtures) {
    assert.equal(fx.source.repository, "eilamshapira/GLEE");
    assert.match(fx.source.commit, /^[0-9a-f]{40}$/);
    assert.ok(fx.source.files.includes("games/bargaining/bargaining.py"));
    for (const r of fx.requests) assert.match(r.messages[0]!.content, /^Let's play a game\.\n[^]*\n(Send your offer to divide [^]* in the JSON format:|Answer with \{"decision": "accept"\} or \{"decision": "reject"\}$)/);
  }
});

test("GLEE bargaining: Parley's narrator sends the authors' bytes for every request (incomplete information: the documented change only)", () => {
  const count = {complete: [0, 0], incomplete: [0, 0]}; // [byte-identical, requests]
  for (const fx of fixtures) {
    const ours = parleyRequests(fx, codeWords);
    assert.equal(ours.length, fx.requests.length, `${fx.scenario}: number of requests`);
    fx.requests.forEach((theirs, i) => {
      assert.equal(ours[i]!.seat, theirs.seat, `${fx.scenario} request ${i}: seat`);
      const expected = theirs.messages.map((m) => ({role: m.role, content: withDocumented(fx, m.content)}));
      assert.deepEqual(ours[i]!.messages, expected, `${fx.scenario} request ${i} (${theirs.seat})`);
      const tally = count[(fx.params as BargainingParams).complete_information ? "complete" : "incomplete"];
      tally[1]++;
      if (JSON.stringify(ours[i]!.messages) === JSON.stringify(theirs.messages)) tally[0]++;
    });
  }
  // Every request of the complete-information games is byte-identical; 7 of the 13 incomplete-information
  // requests carry the documented change (the first turns, before any inflation update, do not).
  assert.deepEqual(count, {complete: [22, 22], incomplete: [6, 13]});
});

test('prompts: "paper" prints the rules as Appendix D.2 does, one paragraph, and single spaces in the turns', () => {
  const d2 = fixtures.find((f) => f.scenario === "d2-transcript")!;
  const ours = parleyRequests(d2, {...codeWords, prompts: "paper"});
  assert.equal(
    ours[0]!.messages[0]!.content,
    "Let's play a game. In this game, there are two players. You are playing as Alice. You and Bob need to divide 1,000$ between you. In each round of the game, one of the players will make a proposal for division and can describe their proposal in a few words. The other player will decide whether to accept the offer and finish the game, or to proceed to the next round, in which they will be the one making the proposal. We will relay messages between you and Bob. Beware of inflation! With each passing round, the money is worth 0% less for you. For Bob, the money is worth 10% less. You have 10 rounds to divide the money, or both of you will get nothing!\n" +
      'Send your offer to divide 1,000$ and the message you attached in the JSON format:\n{"alice_gain": The part that you will receive in your offer,\n"bob_gain": The part that Bob will receive in your offer,\n"message": The message you pass to Bob}',
  );
  // D.2's last message to Alice, as printed.
  assert.equal(
    ours[3]!.messages.at(-1)!.content,
    "Bob rejected your offer from round 1.\n\nRound 2\nDue to inflation, the money Bob gains is worth 10% less than in the first round. The money you gains is worth the same as in the first round.\nBob's offer:\n# Bob's message: Let's split it evenly. It's the fairest way to start.\n# Alice gain: 500\n# Bob gain: 500\nDo you accept this offer?",
  );
});

/** Every request of `list`'s games is the authors' bytes; returns how many there were. */
function assertIdentical(list: Fixture[]): number {
  let total = 0;
  for (const fx of list) {
    assert.equal(fx.source.commit, "3c9efe031c4db60d8c6a03e17df01b9179b4f887");
    const ours = parleyRequests(fx, codeWords);
    assert.equal(ours.length, fx.requests.length, `${fx.scenario}: number of requests`);
    fx.requests.forEach((theirs, i) => {
      assert.equal(ours[i]!.seat, theirs.seat, `${fx.scenario} request ${i}: seat`);
      assert.deepEqual(ours[i]!.messages, theirs.messages, `${fx.scenario} request ${i} (${theirs.seat})`);
      total++;
    });
  }
  return total;
}

test("GLEE negotiation: Parley's narrator sends the authors' bytes for every request (1, 2, 10 and untold rounds, with and without messages, the outside option)", () => {
  assert.equal(negotiationFixtures.length, 5);
  assert.equal(assertIdentical(negotiationFixtures), 18);
});

test("GLEE persuasion: Parley's narrator sends the authors' bytes for every request (binary and text, long-living and myopic, v known or not)", () => {
  assert.equal(persuasionFixtures.length, 4);
  assert.equal(assertIdentical(persuasionFixtures), 28);
});
