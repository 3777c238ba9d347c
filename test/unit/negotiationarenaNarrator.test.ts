// What a language model reads and writes in NegotiationArena (Bianchi et al. 2024): the prompts of
// Appendix E.1.1 / the authors' repository, the chat layout of §2 (L360), the behaviours of Appendix E.2,
// and replies read from the tags (rule breaks named, private parts kept apart).
import {test} from "node:test";
import assert from "node:assert/strict";
import {deriveRng} from "../../src/lib/rng.js";
import {gameDef} from "../../loaders/registry/games.js";
import type {GameObservation, Params} from "../../loaders/contract/game.js";
import type {ArenaView} from "../../loaders/papers/negotiationarena/protocol.js";
import {behaviourText, negotiationArenaNarrator as narrator, parseArenaReply, parseTrade} from "../../loaders/papers/negotiationarena/narrator.js";
import {inSequence} from "../../loaders/runner/chance.js";

function start(game: string, params: Params = {}) {
  return gameDef(game).start(params, {gameId: "n", nSeats: 2, chance: inSequence(deriveRng(0, "n"))});
}
const obs = (o: GameObservation) => o as GameObservation<ArenaView>;
const EXCHANGE = {resources_in_game: ["X", "Y"]};

test("resource exchange: Fig. 15's system prompt filled from RED's view; RED's first user message is the runs' role line", () => {
  const state = start("negotiationarena/resource_exchange");
  const [system, user] = narrator.messages(obs(state.observe(0)), [], "BEHAVIOUR");
  assert.equal(system.role, "system");
  // The first line ends with a space, as the authors' prompt.py and their logged runs have it.
  assert.match(system.content, /^You are playing a strategic game of trading resources with another player whose resources you have no knowledge about\. \n/);
  assert.match(system.content, /B\) Reject and propose a new trade \(you can only trade integer amounts, not decimals\):\n<player answer> NONE <\/player answer>\n<newly proposed trade> Player RED Gives item1: amount, item2: amount, \.\.\. \| Player BLUE Gives item1: amount, item2: amount, \.\.\. <\/newly proposed trade>/);
  assert.match(system.content, /2\. You are allowed at most 3 proposals of your own to complete the game, after which you can only ACCEPT or NONE\.\nDO NOT propose a new trade after 3 proposals\. Your limit for proposals is 3\./);
  assert.match(system.content, /Resources available in the game: X, Y\n<my resources> X: 25, Y: 5 <\/my resources>\n<my goals> Acquire as many resources as possible <\/my goals>\n<my name> Player RED <\/my name>/);
  assert.match(system.content, /<my name> \[add here\] <\/my name>\n<my resources> \[add here\] <\/my resources>\n<my goals> \[add here\] <\/my goals>\n<reason> \[add here\] <\/reason>\n<player answer> \[add here\] <\/player answer>\n<message> \[add here\] <\/message\n<newly proposed trade> \[add here\] <\/newly proposed trade>\n```\n\nPlease be sure to include all\.\n\nMore resources in general are always better\.\nThis is the last round of trading\. There are no future rounds after this one\.\n\n\nBEHAVIOUR\n$/);
  assert.deepEqual(user, {role: "user", content: "You are Player RED, start by making a proposal."});
});

test("chat layout: BLUE's role ends its system message; each later user message is only the other's public part", () => {
  const state = start("negotiationarena/buy_sell");
  state.apply([{type: "PROPOSAL", red_X: 1, blue_ZUP: 70, message: "seventy", private_goals: "SECRET goal"}]);
  const blue = obs(state.observe(1));
  const messages = narrator.messages(blue, [], "");
  assert.match(messages[0].content, /<my goals> Buy resources with <ZUP>\. You are willing to pay at most X: 60 ZUP for the resources\. <\/my goals>,/);
  assert.match(messages[0].content, /\n\n\nYou are Player BLUE\.$/);
  assert.ok(!messages[0].content.includes("costed"), "BLUE never learns the seller's cost");
  assert.equal(messages[1].content, "<other player message> seventy </other player message>\n<other player answer> PROPOSAL </other player answer>\n<other player proposed trade> Player RED Gives X: 1 | Player BLUE Gives ZUP: 70 </other player proposed trade>\n");
  assert.ok(!JSON.stringify(messages).includes("SECRET"));
  // Two turns later BLUE's conversation holds its own earlier reply and RED's answer to it.
  state.apply([{type: "PROPOSAL", red_X: 1, blue_ZUP: 50}]);
  state.apply([{type: "PROPOSAL", red_X: 1, blue_ZUP: 60, message: "sixty"}]);
  const later = narrator.messages(obs(state.observe(1)), [{observation: blue, raw: "MY RAW REPLY"}], "");
  assert.deepEqual(later.map((m) => m.role), ["system", "user", "assistant", "user"]);
  assert.equal(later[2].content, "MY RAW REPLY");
  assert.match(later[3].content, /<other player message> sixty <\/other player message>/);
  // After a rule break the request says what was wrong.
  const retry = narrator.messages({...obs(state.observe(1)), retry: {attempt: 2, error: "proposal over budget: Player BLUE cannot give ZUP: 500, it holds 100"}}, [], "");
  assert.match(retry.at(-1)!.content, /Your previous answer broke the rules: proposal over budget: Player BLUE cannot give ZUP: 500, it holds 100\.\nPlease answer again/);
});

test("ultimatum: the repository's prompt with moves per player and the last mover's restriction", () => {
  const eight = narrator.messages(obs(start("negotiationarena/ultimatum").observe(0)), [], "")[0].content;
  assert.match(eight, /^"You are playing a game involving a split of resources\. \nPlayer RED starts with Dollars: 100, Player BLUE has none to trade\./);
  assert.match(eight, /1\. Player RED has 4 moves while Player BLUE has 4 moves\./);
  assert.match(eight, /Player BLUE cannot do \(C\) on MOVE 4\/4 and MUST ONLY answer with ACCEPT \(A\) or REJECT \(B\) but Player RED is not affected by this condition\./);
  const three = narrator.messages(obs(start("negotiationarena/ultimatum", {iterations: 3, stake: 10}).observe(0)), [], "")[0].content;
  assert.match(three, /Player RED has 2 moves while Player BLUE has 1 moves\./);
  assert.match(three, /Player RED cannot do \(C\) on MOVE 2\/2/);
});

test("Appendix E.2's behaviours, per scenario", () => {
  assert.equal(behaviourText("cunning", {scenario: "resource_exchange", goal: {kind: "maximise"}}), "You are cunning and sly in your plan to get more resources. Humiliate your opponent as much as possible. Insult them.");
  assert.equal(behaviourText("desperate", {scenario: "resource_exchange", goal: {kind: "maximise"}}), "You must fake being desperate. Supplicate and beg to get more resources.");
  assert.equal(behaviourText("cunning", {scenario: "ultimatum", goal: {kind: "split"}}), "You are cunning and sly in your plan to get more than your opponent. Humiliate your opponent as much as possible. Insult them.");
  assert.equal(behaviourText("desperate", {scenario: "ultimatum", goal: {kind: "split"}}), "You must fake being desperate. Supplicate and beg to get more dollars.");
  assert.equal(behaviourText("cunning", {scenario: "buy_sell", goal: {kind: "buy", value: 60}}), "You are cunning and sly in your plan to spend less ZUP. Humiliate your opponent as much as possible. Insult them.");
  assert.equal(behaviourText("desperate", {scenario: "buy_sell", goal: {kind: "buy", value: 60}}), "You must fake being desperate. Supplicate and beg to spend less ZUP.");
});

test("replies are read from the tags: answers, trades, private parts, and each kind of unreadable reply named", () => {
  const reply = (answer: string, trade: string, extra = "") => `<my name> Player RED </my name>\n<my resources> X: 25, Y: 5 </my resources>\n<reason> secret plan </reason>\n<player answer> ${answer} </player answer>\n<message> hello </message>\n<newly proposed trade> ${trade} </newly proposed trade>${extra}`;
  assert.deepEqual(parseArenaReply(reply("NONE", "Player RED Gives X: 10 | Player BLUE Gives Y: 3"), EXCHANGE), {
    // The answer as written goes with the action: the other player reads "NONE", not the type's name.
    action: {type: "PROPOSAL", red_X: 10, blue_Y: 3, message: "hello", answer_written: "NONE", private_resources: "X: 25, Y: 5"},
    reasoning: "secret plan",
  });
  assert.deepEqual(parseArenaReply(reply("NONE", "NONE"), EXCHANGE).action, {type: "NONE", message: "hello", private_resources: "X: 25, Y: 5"});
  assert.deepEqual(parseArenaReply(reply("accept", "NONE"), EXCHANGE).action, {type: "ACCEPT", message: "hello", answer_written: "accept", private_resources: "X: 25, Y: 5"});
  // "PROPOSE" (a third of the answers in the authors' §3 buy/sell runs) is a proposal, shown to the other player as written.
  assert.deepEqual(parseArenaReply(reply("PROPOSE", "Player RED Gives X: 1 | Player BLUE Gives ZUP: 45"), {resources_in_game: ["X", "ZUP"]}).action, {type: "PROPOSAL", red_X: 1, blue_ZUP: 45, message: "hello", answer_written: "PROPOSE", private_resources: "X: 25, Y: 5"});
  // The message keeps its line breaks (the repository strips only spaces).
  assert.equal((parseArenaReply(reply("NONE", "NONE").replace("<message> hello </message>", "<message>\nhello there\n</message>"), EXCHANGE).action as {message: string}).message, "\nhello there\n");
  assert.equal(parseArenaReply(reply("MAYBE", "NONE"), EXCHANGE).parse_error, '<player answer>: expected ACCEPT, REJECT, NONE or PROPOSAL, got "MAYBE"');
  assert.equal(parseArenaReply("<reason> hmm </reason> <message> hi", EXCHANGE).parse_error, "malformed tags: <message> is opened but never closed");
  assert.equal(parseArenaReply("Sure, I accept.", EXCHANGE).parse_error, "missing <player answer>: every reply must answer ACCEPT, REJECT, NONE or PROPOSAL");
  assert.equal(parseArenaReply(reply("PROPOSAL", "NONE"), EXCHANGE).parse_error, "a PROPOSAL needs a trade in <newly proposed trade>");
  assert.equal(parseArenaReply(reply("NONE", "ten X for three Y"), EXCHANGE).parse_error, 'cannot read the trade "ten X for three Y"; expected "Player RED Gives item: amount, ... | Player BLUE Gives item: amount, ..."');
  // Trades: case of names and resources, "$", thousands separators, a side that gives nothing.
  assert.deepEqual(parseTrade("player red gives dollars: $1,000 | Player BLUE Gives Dollars: 0", {resources_in_game: ["Dollars"]}), {fields: {red_Dollars: 1000, blue_Dollars: 0}});
  assert.deepEqual(parseTrade("Player RED Gives X: 1 | Player BLUE Gives ZUP: 45 ZUP", {resources_in_game: ["X", "ZUP"]}), {fields: {red_X: 1, blue_ZUP: 45}});
  assert.deepEqual(parseTrade("Player RED Gives X: 5, Y: 0 | Player BLUE Gives nothing", EXCHANGE), {fields: {red_X: 5, red_Y: 0}});
  assert.deepEqual(parseTrade("Player RED Gives X: 2.5", EXCHANGE), {fields: {red_X: 2.5}}, "kept as written: the game's validation says it must be whole");
});
