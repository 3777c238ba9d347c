// The Economics Arena narrators against Appendix B of Economics Arena (Guo et
// al. 2024): the beauty contest's melee prompt word for word (B.1), the
// rational line (B.2), chain of thought (B.3), the auction's rules (B.5, B.6),
// the English clock's request, and how replies map onto actions or name a
// missing key.
import {test} from "node:test";
import assert from "node:assert/strict";
import {auction, beautyContest} from "../../loaders/papers/econarena/games.js";
import {narratorFor} from "../../loaders/registry/narrators.js";
import type {Params} from "../../loaders/contract/game.js";
import {deriveRng} from "../../src/lib/rng.js";
import {inSequence} from "../../loaders/runner/chance.js";

const observe = (def: typeof auction, params: Params, seat = 0) => def.start(params, {gameId: "n", nSeats: 5, chance: inSequence(deriveRng(7, "n"))}).observe(seat);

test("beauty contest, melee: Appendix B.1 word for word", () => {
  const o = observe(beautyContest, {});
  const messages = narratorFor(beautyContest.id)!.messages(o, [], "");
  assert.deepEqual(messages, [
    {role: "system", content: "I want you to act as a clever game player and perform as rationally as possible."},
    {role: "user", content: `You are playing a game and the rules are as follows:

- it consists of 5 players, including you.
- this is a one-round game.
- you need to choose a real number between 0 and 100, 0 and 100 inclusive.
- everyone does not know how others would make choices beforehand.
- the winner is the person whose number is the closest to the two thirds of the average of all chosen numbers.
- the winner gets a fixed prize, in case of a tie the prize is split amongst those who tie.
- your goal is primarily to maximize the possibility of getting the prize and secondly to maximize the your prize.

Please just strictly output a JSON string, which has following keys:

- understanding: str, your brief understanding of the game
- popular answer: float, the number which you think other players are most likely to choose
- answer: float, the number which you would like to choose
- reason: str, the brief reason why you give the popular answer and the answer that way`},
  ]);
});

test("beauty contest, rational and cot: told the others are rational (cot: B.3's 'palyers'); cot thinks step by step and asks two keys", () => {
  const rational = narratorFor(beautyContest.id)!.messages(observe(beautyContest, {environment: "rational"}), [], "")[1].content;
  assert.match(rational, /your prize\.\n- you can assume that other are all perfectly rational players\.\n\nPlease just strictly output/);
  const cot = narratorFor(beautyContest.id)!.messages(observe(beautyContest, {environment: "cot"}), [], "")[1].content;
  assert.match(cot, /rational palyers\.\n\nLet's think step by step\.\n\nAfter that, please output a JSON string, which has following keys:\n\n- popular answer: float, [^\n]+\n- answer: float, the number which you would like to choose$/);
});

test("replies: numbers from strings, a missing key or a non-number named, out-of-range left to the game", () => {
  const n = narratorFor(beautyContest.id)!;
  const o = observe(beautyContest, {});
  assert.deepEqual(n.action({"popular answer": "33", answer: "22.5"}, o), {type: "choose", amount: 22.5, popular_answer: 33});
  assert.equal(n.check!({understanding: "u", "popular answer": 30, answer: 20}, o), null);
  assert.equal(n.check!({understanding: "u", answer: 20}, o), `missing key "popular answer"`);
  assert.equal(n.check!({understanding: "u", "popular answer": 30, answer: "twenty"}, o), `"answer": expected a number, got "twenty"`);
  const state = beautyContest.start({}, {gameId: "n", nSeats: 5, chance: inSequence(deriveRng(7, "n"))});
  assert.match(state.validate(0, n.action({answer: 101}, o))!, /amount: 101 is above the maximum 100/);
});

test("second-price auction, rational: B.5's rules with B.6's goal and rational line", () => {
  const o = observe(auction, {environment: "rational"});
  const v = o.view as {value: number};
  const [system, user] = narratorFor(auction.id)!.messages(o, [], "");
  assert.equal(system.content, "I want you to act as a smart auction bidder and perform as rationally as possible.");
  assert.equal(user.content, `You are participating in an auction and the rules are as follows:

- it consists of 5 bidders, included you.
- this is a one-round auction.
- there is only 1 item, and your private value of the item is ${v.value} units(private values may vary among bidders).
- you have 100 units of assets, and you need to place a bid which is not higher than your assets.
- everyone does not know either private value of others or how others would make choices beforehand.
- the bidder who places the highest bid among all the bids will get the item(others will not), and only need to pay an amount of assets equalling to the second-highest bid among all the bids.
- if there are multiple highest bid, only the bidder with the minimal id will get the item.
- if you get the item, your payoff equals to your remaining assets(=assets deducting payment) plus your private value, otherwise your payoff equals to your original assets.
- your goal is to maximize your overall payoffs(notice that getting the item is not necessary)
- you can assume that others are all perfectly rational bidders.

Please just strictly output a JSON string, which has following keys:

- understanding: str, your brief understanding of the auction
- bid: float, the bid which you would like to place
- reason: str, the brief reason why you place the bid that way`);
});

test("English auction: the clock's price and the bidders still in, a stay-or-drop answer", () => {
  const o = observe(auction, {pricing: "english", scale: "M"}, 2);
  const n = narratorFor(auction.id)!;
  const messages = n.messages(o, [], "");
  assert.match(messages[1].content, /ascending clock: the price starts at 10 units and rises by 10 units at each step/);
  assert.equal(messages.length, 2, "one USER message (§3.1's single prompt)");
  assert.match(messages[1].content, /\n\nThe clock price is now 10 units, and the bidders still in are \(ids\) \[0,1,2,3,4\] \(your id is 2\)\.\n\nPlease just strictly output a JSON string, which has following keys:\n\n- decision: /);
  assert.deepEqual(n.action({decision: " Stay "}, o), {type: "clock", choice: "stay"});
  assert.equal(n.check!({reason: "x"}, o), `missing key "decision"`);
});
