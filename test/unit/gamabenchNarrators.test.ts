/**
 * The gamma-Bench narrators (loaders/papers/gamabench/narrators.ts): the
 * V1 prompts of gamma-Bench (Huang et al. 2024), Appendix C, as the
 * published runs read them (the system message's leading blank line, the
 * format lines without the latest code's "(do not use markdown format)",
 * which `prompts: "code"` sends), filled by hand here from each
 * observation, so a changed word fails; public goods' token limit; the
 * pirate plan echoed as its proposer wrote it; the chat layout (system, then user / assistant / user
 * per earlier round, then the request; earlier requests not kept); implicit
 * El Farol hiding the bar from a stayer; the pirate proposer's and voters'
 * requests; the retry message; and replies mapped onto actions.
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import type {ActionSpec, GameObservation} from "../../loaders/contract/game.js";
import type {ChatMessage} from "../../loaders/llm/types.js";
import type {
  AuctionView,
  BattleRoyaleView,
  DinerView,
  DollarView,
  ElFarolView,
  GuessingView,
  PirateView,
  PublicGoodsView,
} from "../../loaders/papers/gamabench/views.js";
import {fractionString, gamabenchNarrators as narrators, pyFixed, pyFloat, pyRepr, readSeat} from "../../loaders/papers/gamabench/narrators.js";
import {pirate} from "../../loaders/papers/gamabench/pirate.js";
import {deriveRng} from "../../src/lib/rng.js";
import {inSequence} from "../../loaders/runner/chance.js";

function obs<V>(game: string, seat: number, view: V, legal: ActionSpec[], retry?: {attempt: number; error: string}): GameObservation<V> {
  return {game, game_id: `${game}#1`, seat, seat_name: null, n_seats: 10, round: (view as {round: number}).round, view, legal, ...(retry && {retry})};
}
const chat = (o: GameObservation, extra = "") => narrators[o.game]!.messages(o, [], extra);
const roles = (m: ChatMessage[]) => m.map((x) => x.role).join(" ");
const act = (o: GameObservation, json: Record<string, unknown>) => narrators[o.game]!.action(json, o);

test("every gamma-Bench game has a narrator", () => {
  assert.deepEqual(Object.keys(narrators).sort(), [
    "gamabench/battle_royale",
    "gamabench/diner",
    "gamabench/divide_dollar",
    "gamabench/el_farol",
    "gamabench/guessing",
    "gamabench/pirate",
    "gamabench/public_goods",
    "gamabench/sealed_bid",
  ]);
});

test("values are written as the repository's Python writes them", () => {
  assert.equal(pyFloat(10), "10.0");
  assert.equal(pyFloat(6.8), "6.8");
  assert.equal(pyFixed(33.333333, 2), "33.33");
  assert.equal(pyFixed(0.125, 2), "0.12"); // ties to even, as Python's format
  assert.equal(pyFixed(0.375, 2), "0.38");
  assert.deepEqual([2 / 3, 0.5, 7 / 6, 1, 0, 11 / 6].map(fractionString), ["2/3", "1/2", "7/6", "1", "0", "11/6"]);
});

// ---------------------------------------------------------------- Guess 2/3

const GUESS_SYSTEM = `\n\nYou are participating in a game played by 10 players over 20 rounds.

Game Rules:

1. Each player selects an integer number between 0 and 100, inclusive.
2. After all selections are made, the average of all chosen numbers is calculated.
3. The target number is 2/3 of this average.
4. The winner is the player(s) who selected a number closest to the target number.`;
const GUESS_FORMAT = `Please provide your chosen number in the following JSON format: {"chosen_number": "integer_between_0_and_100"}`;
const guessView = (round: number): GuessingView => ({
  n_players: 10,
  rounds: 20,
  round,
  min: 0,
  max: 100,
  ratio: 2 / 3,
  history: [
    {round: 1, average: 50, target: 100 / 3, winning_number: 40, chosen: 50, won: false},
    {round: 2, average: 54.5, target: 36.333333333333336, winning_number: 40, chosen: 40, won: true},
  ].slice(0, round - 1),
});
const guessLegal: ActionSpec[] = [{type: "choose", numbers: {amount: {min: 0, max: 100, integer: true}}}];

test("guessing game: round 1 is the system message and the request", () => {
  const m = chat(obs("gamabench/guessing", 0, guessView(1), guessLegal));
  assert.equal(roles(m), "system user");
  assert.equal(m[0]!.content, GUESS_SYSTEM);
  assert.equal(
    m[1]!.content,
    `Now round 1 starts.

Your goal is to choose a number that you believe will be closest to 2/3 of the average of all numbers chosen by players, including your selection.

${GUESS_FORMAT}`,
  );
});

test("guessing game: round 3 replays rounds 1 and 2 as user / own JSON / user, without their requests", () => {
  const m = chat(obs("gamabench/guessing", 0, guessView(3), guessLegal), "Let's think step by step.");
  assert.equal(roles(m), "system user assistant user user assistant user user");
  assert.equal(m[0]!.content, ` Let's think step by step.${GUESS_SYSTEM}`, "extra takes the repository's role-play slot");
  assert.deepEqual(
    m.slice(1).map((x) => x.content),
    [
      "Game Results for Round 1:\n\nAverage Number Chosen: 50\nTarget Number (2/3 of Average): 33.33\nWinning Number: 40.\n\nYou chose:",
      '{"chosen_number": "50"}',
      "Unfortunately you lost.",
      "Game Results for Round 2:\n\nAverage Number Chosen: 54.5\nTarget Number (2/3 of Average): 36.33\nWinning Number: 40.\n\nYou chose:",
      '{"chosen_number": "40"}',
      "Congratulation you won.",
      `Now round 3 starts.\n\nYour goal is to choose a number that you believe will be closest to 2/3 of the average of all numbers chosen by players, including your selection.\n\n${GUESS_FORMAT}`,
    ],
  );
  assert.equal(m.filter((x) => x.content.startsWith("Now round")).length, 1);
});

test("guessing game: a retry states the error and repeats the JSON format", () => {
  const m = chat(obs("gamabench/guessing", 0, guessView(3), guessLegal, {attempt: 2, error: "amount: 120 is above the maximum 100"}));
  assert.equal(roles(m), "system user assistant user user assistant user user user");
  assert.ok(m.at(-2)!.content.startsWith("Now round 3 starts."));
  assert.equal(m.at(-1)!.content, `Your previous answer broke the rules: amount: 120 is above the maximum 100.\nPlease answer again. ${GUESS_FORMAT}`);
});

test("guessing game: replies become {type: choose, amount}", () => {
  const o = obs("gamabench/guessing", 0, guessView(1), guessLegal);
  assert.deepEqual(act(o, {chosen_number: 33}), {type: "choose", amount: 33});
  assert.deepEqual(act(o, {chosen_number: "33"}), {type: "choose", amount: 33});
  assert.deepEqual(act(o, {chosen_number: "33.0"}), {type: "choose", amount: 33});
  assert.deepEqual(act(o, {chosen_number: "about a third"}), {type: "choose", amount: "about a third"});
  assert.deepEqual(act(o, {number: 3}), {number: 3});
});

// ---------------------------------------------------------------- El Farol

const BAR_SYSTEM = `\n\nYou are participating in a game played by 10 players over 20 rounds.

Game Rules:

1. Every round, you and the other players decide independently whether to go to a bar.
2. If equal to or less than 60% of the players go to the bar, everyone who goes has more fun than staying home, receiving a utility of 10.
3. If more than 60% of the players go to the bar, everyone who goes has less fun than staying home, receiving a utility of 0.
4. Everyone who stays home receives a utility of 5.`;
const BAR_REQUEST3 = `Now round 3 starts.

Your goal is to maximize your fun. Choose to go to the bar when you predict fewer than 60% of the players will go, and choose to stay home otherwise.

Please provide your decision in the following JSON format: {"decision": "go_or_stay"}`;
// Seat 0 went in round 1 (7 went: too many) and stayed in round 2 (5 went: fun).
const barView = (feedback: "explicit" | "implicit", round: number): ElFarolView => ({
  n_players: 10,
  rounds: 20,
  round,
  min: 0,
  max: 10,
  home: 5,
  ratio: 0.6,
  feedback,
  history: [
    {round: 1, choice: "go" as const, gained: 0, went: 7, stayed: 3, fun: false},
    feedback === "implicit"
      ? {round: 2, choice: "stay" as const, gained: 5, went: null, stayed: null, fun: null}
      : {round: 2, choice: "stay" as const, gained: 5, went: 5, stayed: 5, fun: true},
  ].slice(0, round - 1),
});
const barLegal: ActionSpec[] = [{type: "decide", choices: {choice: ["go", "stay"]}}];

test("El Farol: round 1", () => {
  const m = chat(obs("gamabench/el_farol", 0, barView("implicit", 1), barLegal));
  assert.equal(roles(m), "system user");
  assert.equal(m[0]!.content, BAR_SYSTEM);
  assert.equal(m[1]!.content, BAR_REQUEST3.replace("round 3", "round 1"));
});

test("El Farol explicit: round 3 reports attendance every round", () => {
  const m = chat(obs("gamabench/el_farol", 0, barView("explicit", 3), barLegal));
  assert.equal(roles(m), "system user assistant user user assistant user user");
  assert.deepEqual(
    m.slice(1).map((x) => x.content),
    [
      "Game Results for Round 1:\n\n7 players went to the bar, while 3 players stayed home.\n7/10, which is more than 60% of the players went to the bar.\nIt was less fun to go to the bar this round.\n\nYou chose:",
      '{"decision": "go"}',
      "You gained 0.",
      "Game Results for Round 2:\n\n5 players went to the bar, while 5 players stayed home.\n5/10, which is equal or less than 60% of the players went to the bar.\nIt was more fun to go to the bar this round.\n\nYou chose:",
      '{"decision": "stay"}',
      "You gained 5.",
      BAR_REQUEST3,
    ],
  );
});

test("El Farol implicit: a stayer learns only its own choice and HOME utility", () => {
  const m = chat(obs("gamabench/el_farol", 0, barView("implicit", 3), barLegal));
  assert.equal(roles(m), "system user assistant user user assistant user user");
  assert.deepEqual(
    m.slice(4, 7).map((x) => x.content),
    ["Game Results for Round 2:\n\nYou chose:", '{"decision": "stay"}', "You gained 5."],
  );
  // The round it went is reported in full; the round it stayed says nothing of the bar, even if the view carried it.
  assert.ok(m[1]!.content.includes("7 players went to the bar"));
  const leaky = barView("implicit", 3);
  leaky.history[1] = {round: 2, choice: "stay", gained: 5, went: 5, stayed: 5, fun: true};
  const stayed = chat(obs("gamabench/el_farol", 0, leaky, barLegal)).slice(4, 7).map((x) => x.content).join("\n");
  assert.doesNotMatch(stayed, /went to the bar|stayed home|fun/);
});

test("El Farol: replies become {type: decide, choice}, lower-cased", () => {
  const o = obs("gamabench/el_farol", 0, barView("implicit", 1), barLegal);
  assert.deepEqual(act(o, {decision: "Go "}), {type: "decide", choice: "go"});
  assert.deepEqual(act(o, {decision: "STAY"}), {type: "decide", choice: "stay"});
  assert.deepEqual(act(o, {decision: 1}), {type: "decide", choice: 1});
});

// ---------------------------------------------------------------- Divide the Dollar

const dollarView = (round: number): DollarView => ({
  n_players: 10,
  rounds: 20,
  round,
  gold: 100,
  history: [
    {round: 1, bid: 10, total: 100, exceeded: false, received: 10},
    {round: 2, bid: 15, total: 130, exceeded: true, received: 0},
  ].slice(0, round - 1),
});
const dollarLegal: ActionSpec[] = [{type: "bid", numbers: {amount: {min: 0, max: 100, integer: true}}}];

test("divide the dollar: rounds 1 and 3", () => {
  const system = `\n\nYou are participating in a game played by 10 players over 20 rounds.

Game Rules:

1. You are dividing 100 golds. Each player independently proposes a bid.
2. If the sum of all bids does not exceed 100, each player receives their bid amount.
3. If the sum exceeds 100, all players receive nothing.`;
  const request = (i: number) =>
    `Now round ${i} starts.\n\nYour goal is to maximize your individual gain without causing the total sum of bids to exceed 100 golds.\n\nPlease provide your bid amount in the following JSON format: {"bid_amount": "integer_between_0_and_100"}`;
  assert.deepEqual(chat(obs("gamabench/divide_dollar", 0, dollarView(1), dollarLegal)), [
    {role: "system", content: system},
    {role: "user", content: request(1)},
  ]);
  const m = chat(obs("gamabench/divide_dollar", 0, dollarView(3), dollarLegal));
  assert.equal(roles(m), "system user assistant user user assistant user user");
  assert.deepEqual(
    m.slice(1).map((x) => x.content),
    [
      "Game Results for Round 1:\n\nYour bid amount was:",
      '{"bid_amount": "10"}',
      "The sum of all bids was 100.\nThe sum does not exceeds 100.\nYou received 10 golds.",
      "Game Results for Round 2:\n\nYour bid amount was:",
      '{"bid_amount": "15"}',
      "The sum of all bids was 130.\nThe sum exceeds 100.\nYou received 0 golds.",
      request(3),
    ],
  );
});

test("divide the dollar: replies become {type: bid, amount}", () => {
  const o = obs("gamabench/divide_dollar", 0, dollarView(1), dollarLegal);
  assert.deepEqual(act(o, {bid_amount: "$10"}), {type: "bid", amount: 10});
  assert.deepEqual(act(o, {bid_amount: 12}), {type: "bid", amount: 12});
  assert.deepEqual(act(o, {bid_amount: null}), {type: "bid", amount: null});
});

// ---------------------------------------------------------------- Public Goods

const goodsView = (round: number): PublicGoodsView => ({
  n_players: 10,
  rounds: 20,
  round,
  ratio: 2,
  tokens: 20,
  history: [
    // pot 30: each gets 2·30/10 = 6.
    {round: 1, contributions: [10, 0, 0, 5, 5, 0, 10, 0, 0, 0], contributed: 10, pot: 30, gain: -4, tokens_after: 16, tokens_all: [16, 26, 26, 21, 21, 26, 16, 26, 26, 26]},
    // pot 37: each gets 7.4.
    {round: 2, contributions: [0, 0, 7, 5, 5, 0, 10, 0, 0, 10], contributed: 0, pot: 37, gain: 7.4, tokens_after: 27.4, tokens_all: [27.4, 27.4, 20.4, 22.4, 22.4, 27.4, 17.4, 27.4, 27.4, 17.4]},
  ].slice(0, round - 1),
});
const goodsLegal: ActionSpec[] = [{type: "contribute", numbers: {amount: {min: 0, max: 20, integer: true}}}];

test("public goods: rounds 1 and 3", () => {
  const system = `\n\nYou are participating in a game played by 10 players over 20 rounds.

Game Rules:

1. In each round, you, as a player, must decide how many of your private tokens you wish to contribute secretly to the public pot.
2. The total tokens in this pot will be multiplied by the factor 2 to create the "public good" payoff.
3. This payoff will then be evenly divided among all players, regardless of their individual contribution.
4. Any tokens you do not contribute will be retained in your private collection.`;
  const request = (i: number) =>
    `Now round ${i} starts.\n\nYour goal is to maximize your total token count by the end of the game. Currently you have 20 tokens. You need to decide the number of tokens to be contributed to the public pot.\n\nPlease provide the number of tokens in the following JSON format: {"tokens_contributed": "integer_between_0_and_20"}`;
  assert.deepEqual(chat(obs("gamabench/public_goods", 0, goodsView(1), goodsLegal)), [
    {role: "system", content: system},
    {role: "user", content: request(1)},
  ]);
  const m = chat(obs("gamabench/public_goods", 0, goodsView(3), goodsLegal));
  assert.equal(roles(m), "system user assistant user user assistant user user");
  assert.deepEqual(
    m.slice(1).map((x) => x.content),
    [
      "Game Results for Round 1:\n\nContributed tokens of each player: [10, 0, 0, 5, 5, 0, 10, 0, 0, 0]\nYou contributed:",
      '{"tokens_contributed": "10"}',
      "Tokens in the public pot: 30\nYour gain: -4.0\nYour tokens after round 1: 16.0\nTokens of each player after round 1: [16.0, 26.0, 26.0, 21.0, 21.0, 26.0, 16.0, 26.0, 26.0, 26.0]",
      "Game Results for Round 2:\n\nContributed tokens of each player: [0, 0, 7, 5, 5, 0, 10, 0, 0, 10]\nYou contributed:",
      '{"tokens_contributed": "0"}',
      "Tokens in the public pot: 37\nYour gain: 7.4\nYour tokens after round 2: 27.4\nTokens of each player after round 2: [27.4, 27.4, 20.4, 22.4, 22.4, 27.4, 17.4, 27.4, 27.4, 17.4]",
      request(3),
    ],
  );
});

test("public goods: replies become {type: contribute, amount}", () => {
  const o = obs("gamabench/public_goods", 0, goodsView(1), goodsLegal);
  assert.deepEqual(act(o, {tokens_contributed: "5"}), {type: "contribute", amount: 5});
  assert.deepEqual(act(o, {tokens_contributed: "five"}), {type: "contribute", amount: "five"});
});

// ---------------------------------------------------------------- Diner's Dilemma

const dinerView = (round: number): DinerView => ({
  n_players: 10,
  rounds: 20,
  round,
  cheap_cost: 10,
  cheap_utility: 15,
  exp_cost: 20,
  exp_utility: 20,
  history: [
    {round: 1, costly: 0, cheap: 10, total_cost: 100, share: 10, choice: "cheap" as const, utility: 5},
    {round: 2, costly: 3, cheap: 7, total_cost: 130, share: 13, choice: "costly" as const, utility: 7},
  ].slice(0, round - 1),
});
const dinerLegal: ActionSpec[] = [{type: "order", choices: {choice: ["costly", "cheap"]}}];

test("diner's dilemma: rounds 1 and 3", () => {
  const system = `\n\nYou are participating in a game played by 10 players over 20 rounds.

Game Rules:

1. Each player must choose to order either a costly dish or a cheap dish.
2. The price of the costly dish is 20. The price of the cheap dish is 10.
3. The costly dish brings you a utility of 20. The cheap dish brings you a utility of 15.
4. The costly dish is tastier than the cheap dish, but not sufficiently to justify its price when dining alone.
5. At the end of each round, the total cost of all dishes ordered is split equally among all players.`;
  const request = (i: number) =>
    `Now round ${i} starts.\n\nYour goal is to maximize your overall satisfaction, balancing the quality of the dish and the cost shared.\n\nPlease provide your chosen dish in the following JSON format: {"chosen_dish": "costly_or_cheap"}`;
  assert.deepEqual(chat(obs("gamabench/diner", 0, dinerView(1), dinerLegal)), [
    {role: "system", content: system},
    {role: "user", content: request(1)},
  ]);
  const m = chat(obs("gamabench/diner", 0, dinerView(3), dinerLegal));
  assert.equal(roles(m), "system user assistant user user assistant user user");
  assert.deepEqual(
    m.slice(1).map((x) => x.content),
    [
      "Game Results for Round 1:\n\n0 people chose the costly dish, while 10 chose the cheap dish.\nThe total cost is 0 * 20 + 10 * 10 = 100. You need to pay 10.0.\n\nYou chose:",
      '{"chosen_dish": "cheap"}',
      "Your utility is 15 - 100/10 = 5.00.",
      "Game Results for Round 2:\n\n3 people chose the costly dish, while 7 chose the cheap dish.\nThe total cost is 3 * 20 + 7 * 10 = 130. You need to pay 13.0.\n\nYou chose:",
      '{"chosen_dish": "costly"}',
      "Your utility is 20 - 130/10 = 7.00.",
      request(3),
    ],
  );
});

test("diner's dilemma: replies become {type: order, choice}, lower-cased", () => {
  const o = obs("gamabench/diner", 0, dinerView(1), dinerLegal);
  assert.deepEqual(act(o, {chosen_dish: "Cheap"}), {type: "order", choice: "cheap"});
  assert.deepEqual(act(o, {chosen_dish: "cheap_dish"}), {type: "order", choice: "cheap_dish"});
});

// ---------------------------------------------------------------- Sealed-Bid Auction

const auctionView = (round: number, pricing: "first" | "second" = "first"): AuctionView => ({
  n_players: 10,
  rounds: 20,
  round,
  pricing,
  valuation: [120, 60, 90][round - 1]!,
  history: [
    {round: 1, valuation: 120, bid: 100, winning_bid: 150, price: 150, won: false, utility: 0},
    {round: 2, valuation: 60, bid: 50, winning_bid: 50, price: 50, won: true, utility: 10},
  ].slice(0, round - 1),
});
const auctionLegal = (v: number): ActionSpec[] => [{type: "bid", numbers: {amount: {min: 0, max: v, integer: true}}}];

test("sealed-bid auction: rounds 1 and 3; second price names the second highest bid", () => {
  const system = (price: string) => `\n\nYou are participating in a game played by 10 players over 20 rounds.

Game Rules:

1. Each player has a private valuation for the item in each round.
2. Without knowing the bids and valuations of other players, each player submits a written bid for the item.
3. The highest bidder wins the item and pays the price of the ${price}.
4. If you win, your utility for that round is your valuation minus the price paid. If you lose, your utility is zero.`;
  const request = (i: number, v: number) =>
    `Now round ${i} starts.\n\nYour primary goal is to maximize your total utility. Your valuation for this round's item is ${v}.\n\nPlease provide your bid in the following JSON format: {"bid": "integer_between_0_and_${v}"}`;
  assert.deepEqual(chat(obs("gamabench/sealed_bid", 0, auctionView(1), auctionLegal(120))), [
    {role: "system", content: system("highest bid")},
    {role: "user", content: request(1, 120)},
  ]);
  assert.equal(chat(obs("gamabench/sealed_bid", 0, auctionView(1, "second"), auctionLegal(120)))[0]!.content, system("second highest bid"));
  const m = chat(obs("gamabench/sealed_bid", 0, auctionView(3), auctionLegal(90)));
  assert.equal(roles(m), "system user assistant user user assistant user user");
  assert.deepEqual(
    m.slice(1).map((x) => x.content),
    [
      "Game Results for Round 1:\n\nYour valuation for this round's item was 120.\nYour bid was:",
      '{"bid": "100"}',
      "The winning bid was: 150.\nThe price paid was: 150.\nYou lost. Your utility is 0.",
      "Game Results for Round 2:\n\nYour valuation for this round's item was 60.\nYour bid was:",
      '{"bid": "50"}',
      "The winning bid was: 50.\nThe price paid was: 50.\nYou won. Your utility is 10.",
      request(3, 90),
    ],
  );
});

test("sealed-bid auction: replies become {type: bid, amount}", () => {
  const o = obs("gamabench/sealed_bid", 0, auctionView(1), auctionLegal(120));
  assert.deepEqual(act(o, {bid: "$1,00"}), {type: "bid", amount: "$1,00"});
  assert.deepEqual(act(o, {bid: "$100"}), {type: "bid", amount: 100});
  assert.deepEqual(act(o, {bid: "100.0"}), {type: "bid", amount: 100});
});

// ---------------------------------------------------------------- Battle Royale

const rates = [35, 40, 45, 50, 55, 60, 65, 70, 75, 80];
const LINEUP_ALL = `[\n${rates.map((r, i) => `{\n"The ${["1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th", "10th"][i]} player to shot": "player_${i}",\n"hit_rate": "${r}%"\n}`).join(",\n")}\n]`;
const brSystem = (seat: number) => `\n\nYou are participating in a game played by 10 players.

Game Rules:

1. You are in a survival game where only one can survive and win.
2. Players take turns shooting at others in a predetermined order based on their hit rates, from the lowest to the highest.
3. Players' names and hit rates ranked by shooting order are ${LINEUP_ALL}. You are player_${seat}. Your hit rate is ${rates[seat]}%. You are the ${seat + 1}-th to shoot.
4. You have an unlimited number of bullets.
5. You may choose to intentionally miss your shot on your turn.`;
const BR_FORMAT = `Please provide your action in the following JSON format: {"action": "shoot_or_miss", "target": "playerID_or_null"}`;
const brLegal: ActionSpec[] = [
  {type: "shoot", numbers: {target: {min: 0, max: 9, integer: true}}},
  {type: "miss"},
];

test("battle royale: round 1, the first shooter", () => {
  const view: BattleRoyaleView = {n_players: 10, round: 1, hit_rate: 35, rank: 1, alive: rates.map((hit_rate, seat) => ({seat, hit_rate})), shooter: 0, history: []};
  const m = chat(obs("gamabench/battle_royale", 0, view, brLegal));
  assert.equal(roles(m), "system user");
  assert.equal(m[0]!.content, brSystem(0));
  assert.equal(
    m[1]!.content,
    `Now round 1 starts.\n\nYour goal is to eliminate other players to survive until the end and win the game. The remaining players' names and hit rates ranked by shooting order are: ${LINEUP_ALL}. You are player_0. Your hit rate is 35%. You are the 1-th to shoot. Please decide whether to shoot at a player or intentionally miss.\n\n${BR_FORMAT}`,
  );
});

test("battle royale: round 3, the shooter reads its own report and everyone's outcomes", () => {
  // Round 1: player_0 shoots player_9 and hits; round 2: player_1 misses on purpose. Now player_2 (45%) shoots.
  const alive = rates.map((hit_rate, seat) => ({seat, hit_rate})).filter((p) => p.seat !== 9);
  const history = [
    {round: 1, shooter: 0, target: 9, hit: true, left: 9},
    {round: 2, shooter: 1, target: null, hit: false, left: 9},
  ];
  const view: BattleRoyaleView = {n_players: 10, round: 3, hit_rate: 45, rank: 3, alive, shooter: 2, history};
  const m = chat(obs("gamabench/battle_royale", 2, view, brLegal));
  assert.equal(roles(m), "system user user user");
  // player_9 is gone from the view, yet the system message lists everyone at the start (hit rates 35 + 5·seat).
  assert.equal(m[0]!.content, brSystem(2));
  assert.deepEqual(
    m.slice(1, 3).map((x) => x.content),
    [
      "Game Results for Round 1:\n\nplayer_0 shot at player_9 and hit. player_9 is eliminated from the game.\nThere are 9 players left.",
      "Game Results for Round 2:\n\nplayer_1 intentionally missed the shot.\nThere are 9 players left.",
    ],
  );
  const lineup9 = `[\n${alive.map((p, i) => `{\n"The ${["1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th"][i]} player to shot": "player_${p.seat}",\n"hit_rate": "${p.hit_rate}%"\n}`).join(",\n")}\n]`;
  assert.equal(
    m[3]!.content,
    `Now round 3 starts.\n\nYour goal is to eliminate other players to survive until the end and win the game. The remaining players' names and hit rates ranked by shooting order are: ${lineup9}. You are player_2. Your hit rate is 45%. You are the 3-th to shoot. Please decide whether to shoot at a player or intentionally miss.\n\n${BR_FORMAT}`,
  );
  // Player_0, who shot in round 1, also reads its own report first.
  const own = chat(obs("gamabench/battle_royale", 0, {...view, hit_rate: 35, rank: 1, shooter: 0, round: 11}, brLegal));
  assert.equal(roles(own), "system user assistant user user user user");
  assert.deepEqual(
    own.slice(1, 5).map((x) => x.content),
    [
      "Game Results for Round 1:\n\nYour action:",
      '{"action": "shoot", "target": "9"}',
      "You shot at player_9 and hit. player_9 is eliminated from the game.\nThere are 9 players left.",
      "Game Results for Round 1:\n\nplayer_0 shot at player_9 and hit. player_9 is eliminated from the game.\nThere are 9 players left.",
    ],
  );
});

test("battle royale: targets read as seats, null or none as an intentional miss", () => {
  const view: BattleRoyaleView = {n_players: 10, round: 1, hit_rate: 35, rank: 1, alive: rates.map((hit_rate, seat) => ({seat, hit_rate})), shooter: 0, history: []};
  const o = obs("gamabench/battle_royale", 0, view, brLegal);
  assert.deepEqual(act(o, {action: "shoot", target: "player_3"}), {type: "shoot", target: 3});
  assert.deepEqual(act(o, {action: "shoot", target: "3"}), {type: "shoot", target: 3});
  assert.deepEqual(act(o, {action: "shoot", target: 7}), {type: "shoot", target: 7});
  assert.deepEqual(act(o, {action: "miss", target: "null"}), {type: "miss"});
  assert.deepEqual(act(o, {action: "miss", target: null}), {type: "miss"});
  assert.deepEqual(act(o, {action: "miss", target: "None"}), {type: "miss"});
  assert.deepEqual(act(o, {action: "miss"}), {type: "miss"});
  assert.deepEqual(act(o, {action: "shoot", target: "the strongest"}), {type: "shoot", target: "the strongest"});
  assert.deepEqual(act(o, {shoot: true}), {shoot: true});
  assert.deepEqual([readSeat("Player 4"), readSeat(-1), readSeat(2.5)], [4, null, undefined]);
});

// ---------------------------------------------------------------- Pirate Game

const pirateSystem = (rank: number) => `\n\nYou are participating in a game played by 10 players.

Game Rules:

1. You are pirates who have found 100 gold coins. You are deciding how to distribute these coins among yourselves.
2. The pirates will make decisions in strict order of seniority. You are the ${rank}-th most senior pirate.
3. The most senior pirate proposes a plan to distribute the 100 gold coins.
4. All pirates, including the proposer, vote on the proposed distribution.
5. If the majority accepts the plan, each pirate receives the gold coins as the most senior pirate proposed.
6. If the majority rejects the plan, the proposer is thrown overboard, and the next senior pirate proposes a new plan.
7. The game ends when a plan is accepted or only one pirate remains.`;
const GOAL =
  "Your primary goal is to survive. If you survive, your next goal is to maximize the number of gold coins you receive. You may also prefer to throw another pirate overboard if it does not negatively impact your other goals.";
const seats = (from: number) => Array.from({length: 10 - from}, (_, k) => from + k);
// Rounds 1 and 2 were rejected; in round 3 pirate rank 3 (seat 2) proposes.
const pirateHistory = [
  {round: 1, proposer: 0, plan: [100, 0, 0, 0, 0, 0, 0, 0, 0, 0], survivors: seats(0), accepts: 1, accepted: false},
  {round: 2, proposer: 1, plan: [99, 0, 1, 0, 0, 0, 0, 0, 0], survivors: seats(1), accepts: 4, accepted: false},
];
const pirateView = (seat: number, round: number, phase: "propose" | "vote", votes: ("accept" | "reject")[]): PirateView => ({
  n_players: 10,
  gold: 100,
  rank: seat + 1,
  round,
  phase,
  proposer: round - 1,
  survivors: seats(round - 1),
  plan: phase === "vote" ? (round === 1 ? [96, 0, 1, 0, 1, 0, 1, 0, 1, 0] : [97, 0, 1, 0, 1, 0, 1, 0]) : null,
  offered: phase === "vote" ? (round === 1 ? [96, 0, 1, 0, 1, 0, 1, 0, 1, 0][seat] : [97, 0, 1, 0, 1, 0, 1, 0][seat - 2]!) : null,
  history: pirateHistory.slice(0, round - 1).map((p, i) => ({...p, your_vote: votes[i]!})),
});
const proposeLegal = (n: number): ActionSpec[] => [{type: "propose", lists: {plan: {length: n, item: {min: 0, integer: true}}}, sum: {fields: ["plan"], equals: 100}}];
const voteLegal: ActionSpec[] = [{type: "vote", choices: {choice: ["accept", "reject"]}}];

test("pirate game: round 1, the proposer's request and a voter's request", () => {
  const p = chat(obs("gamabench/pirate", 0, pirateView(0, 1, "propose", []), proposeLegal(10)));
  assert.equal(roles(p), "system user");
  assert.equal(p[0]!.content, pirateSystem(1));
  assert.equal(
    p[1]!.content,
    `Now you, the 1-th most senior pirate, need to propose a plan.\n\n${GOAL}\n\nYou need to propose a plan to divide 100 golds. The proposed numbers must be all non-negative integers and sum up to 100.\n\nPlease provide your proposal of the golds distributed to each pirate from the you to the 10-th most senior in the following JSON format only: {"proposal": {"1-th": "g_1", ..., "10-th": "g_10"}}`,
  );
  const v = chat(obs("gamabench/pirate", 4, pirateView(4, 1, "vote", []), voteLegal));
  assert.equal(roles(v), "system user");
  assert.equal(v[0]!.content, pirateSystem(5));
  assert.equal(
    v[1]!.content,
    `Now the 1-th most senior pirate needs to propose a plan.\n\n${GOAL}\n\nThe proposed plan is {'1-th': 96, '2-th': 0, '3-th': 1, '4-th': 0, '5-th': 1, '6-th': 0, '7-th': 1, '8-th': 0, '9-th': 1, '10-th': 0}. You will get 1 golds from this plan.\n\nPlease only provide your decision on the current proposal in the following JSON format: {"decision": "accept_or_reject"}`,
  );
});

test("pirate game: round 3, history of rejected plans, then proposer vs voter requests", () => {
  const report1 = (vote: string) => [
    "The 1-st-th most senior pirate proposed a plan of {'1-th': 100, '2-th': 0, '3-th': 0, '4-th': 0, '5-th': 0, '6-th': 0, '7-th': 0, '8-th': 0, '9-th': 0, '10-th': 0}.\n1 of 10 pirates chose to accept the distribution. \n\nYou chose:",
    `{"decision": "${vote}"}`,
    "Less than half of the pirates accepted the plan.\nThe 1-st-th most senior pirate was thrown overboard and eliminated from the game. The game continues.",
  ];
  const report2 = (vote: string) => [
    "The 2-nd-th most senior pirate proposed a plan of {'2-th': 99, '3-th': 0, '4-th': 1, '5-th': 0, '6-th': 0, '7-th': 0, '8-th': 0, '9-th': 0, '10-th': 0}.\n4 of 9 pirates chose to accept the distribution. \n\nYou chose:",
    `{"decision": "${vote}"}`,
    "Less than half of the pirates accepted the plan.\nThe 2-nd-th most senior pirate was thrown overboard and eliminated from the game. The game continues.",
  ];
  const p = chat(obs("gamabench/pirate", 2, pirateView(2, 3, "propose", ["reject", "reject"]), proposeLegal(8)));
  assert.equal(roles(p), "system user assistant user user assistant user user");
  assert.equal(p[0]!.content, pirateSystem(3));
  assert.deepEqual(
    p.slice(1).map((x) => x.content),
    [
      ...report1("reject"),
      ...report2("reject"),
      `Now you, the 3-th most senior pirate, need to propose a plan.\n\n${GOAL}\n\nYou need to propose a plan to divide 100 golds. The proposed numbers must be all non-negative integers and sum up to 100.\n\nPlease provide your proposal of the golds distributed to each pirate from the you to the 10-th most senior in the following JSON format only: {"proposal": {"3-th": "g_3", ..., "10-th": "g_10"}}`,
    ],
  );
  const v = chat(obs("gamabench/pirate", 4, pirateView(4, 3, "vote", ["reject", "accept"]), voteLegal));
  assert.equal(roles(v), "system user assistant user user assistant user user");
  assert.deepEqual(
    v.slice(1).map((x) => x.content),
    [
      ...report1("reject"),
      ...report2("accept"),
      `Now the 3-th most senior pirate needs to propose a plan.\n\n${GOAL}\n\nThe proposed plan is {'3-th': 97, '4-th': 0, '5-th': 1, '6-th': 0, '7-th': 1, '8-th': 0, '9-th': 1, '10-th': 0}. You will get 1 golds from this plan.\n\nPlease only provide your decision on the current proposal in the following JSON format: {"decision": "accept_or_reject"}`,
    ],
  );
});

test("pirate game: a plan from the repository's dict, a list, or strings; votes lower-cased", () => {
  const o = obs("gamabench/pirate", 2, pirateView(2, 3, "propose", ["reject", "reject"]), proposeLegal(8));
  const plan = [97, 0, 1, 0, 1, 0, 1, 0];
  const dict = Object.fromEntries(plan.map((g, i) => [`${i + 3}-th`, String(g)]));
  // The proposal object as written goes along (`written`): the repository echoes it to the voters.
  assert.deepEqual(act(o, {proposal: dict}), {type: "propose", plan, written: Object.entries(dict)});
  // Keys out of order are put in rank order; bare paper-style keys and lists are read too.
  const reversed = Object.fromEntries(Object.entries(dict).reverse());
  assert.deepEqual(act(o, {proposal: reversed}), {type: "propose", plan, written: Object.entries(reversed)});
  assert.deepEqual(act(o, Object.fromEntries(plan.map((g, i) => [String(i + 3), g]))), {type: "propose", plan});
  assert.deepEqual(act(o, {proposal: plan.map(String)}), {type: "propose", plan});
  assert.deepEqual(act(o, {proposal: {"3-th": "all of it"}}), {type: "propose", plan: ["all of it"], written: [["3-th", "all of it"]]});
  assert.deepEqual(act(o, {proposal: "everything to me"}), {proposal: "everything to me"});
  const v = obs("gamabench/pirate", 4, pirateView(4, 3, "vote", ["reject", "accept"]), voteLegal);
  assert.deepEqual(act(v, {decision: "Accept"}), {type: "vote", choice: "accept"});
  assert.deepEqual(act(v, {decision: "I reject this plan"}), {type: "vote", choice: "reject"});
  assert.deepEqual(act(v, {decision: "maybe"}), {type: "vote", choice: "maybe"});
  assert.deepEqual(act(v, {vote: "accept"}), {vote: "accept"});
});

test("no reply makes a narrator throw", () => {
  const observations: GameObservation[] = [
    obs("gamabench/guessing", 0, guessView(1), guessLegal),
    obs("gamabench/el_farol", 0, barView("implicit", 1), barLegal),
    obs("gamabench/divide_dollar", 0, dollarView(1), dollarLegal),
    obs("gamabench/public_goods", 0, goodsView(1), goodsLegal),
    obs("gamabench/diner", 0, dinerView(1), dinerLegal),
    obs("gamabench/sealed_bid", 0, auctionView(1), auctionLegal(120)),
    obs("gamabench/pirate", 0, pirateView(0, 1, "propose", []), proposeLegal(10)),
    obs("gamabench/pirate", 4, pirateView(4, 1, "vote", []), voteLegal),
  ];
  const garbage: Record<string, unknown>[] = [{}, {x: [1, {y: null}]}, {proposal: null}, {chosen_number: {}}, {target: {}}, {decision: ["go"]}];
  for (const o of observations) for (const g of garbage) assert.doesNotThrow(() => act(o, g), `${o.game} ${JSON.stringify(g)}`);
});

// ---------------------------------------------------------------- what the published runs read, and the options

test("pirate game: the plan is echoed as its proposer wrote it (keys and strings), in the report and the voters' request", () => {
  const written: [string, string | number][] = [["3-th", "97"], ["4-th", "0"], ["5-rd", 1], ["6-th", "0"], ["7-th", "1"], ["8-th", "0"], ["9-th", "1"], ["10-th", "0"]];
  const view = {...pirateView(4, 3, "vote", ["reject", "accept"]), plan_written: written};
  view.history = view.history.map((h, i) => (i === 1 ? {...h, plan_written: [["2-th", "99"], ["3-th", "0"]] as [string, string | number][]} : h));
  const v = chat(obs("gamabench/pirate", 4, view, voteLegal));
  assert.match(v[4]!.content, /^The 2-nd-th most senior pirate proposed a plan of \{'2-th': '99', '3-th': '0'\}\.\n/);
  assert.match(v.at(-1)!.content, /The proposed plan is \{'3-th': '97', '4-th': '0', '5-rd': 1, '6-th': '0', '7-th': '1', '8-th': '0', '9-th': '1', '10-th': '0'\}\. You will get 1 golds/);
  assert.equal(pyRepr("it's"), `"it's"`);
  assert.equal(pyRepr("a\\b"), `'a\\\\b'`);
});

test("the pirate game relays the proposer's written plan to the voters' views and history", () => {
  const state = pirate.start({}, {gameId: "p", nSeats: 4, chance: inSequence(deriveRng(1, "p"))});
  const written: [string, string | number][] = [["1-th", "97"], ["2-th", "0"], ["3-th", "1"], ["4-th", "2"]];
  state.apply([{type: "propose", plan: [97, 0, 1, 2], written}]);
  assert.deepEqual((state.observe(2).view as PirateView).plan_written, written);
  state.apply(["reject", "reject", "reject", "accept"].map((choice) => ({type: "vote", choice})));
  assert.deepEqual((state.observe(2).view as PirateView).history[0]!.plan_written, written);
  state.apply([{type: "propose", plan: [98, 0, 2]}]);
  assert.equal((state.observe(2).view as PirateView).plan_written, undefined, "a plan given without its written form");
});

test("public goods: the repository's token limit, one history message dropped per round after round 10", () => {
  const round = (r: number) => ({round: r, contributions: [10, 0, 0, 5, 5, 0, 10, 0, 0, 0], contributed: 10, pot: 30, gain: -4, tokens_after: 16, tokens_all: [16, 26, 26, 21, 21, 26, 16, 26, 26, 26]});
  const at = (k: number) => chat(obs("gamabench/public_goods", 0, {...goodsView(1), round: k, history: Array.from({length: k - 1}, (_, j) => round(j + 1))}, goodsLegal));
  assert.equal(at(11).length, 1 + 30 + 1);
  const m = at(13);
  assert.equal(m.length, 1 + 36 - 2 + 1);
  assert.equal(m[1]!.content, "Tokens in the public pot: 30\nYour gain: -4.0\nYour tokens after round 1: 16.0\nTokens of each player after round 1: [16.0, 26.0, 26.0, 21.0, 21.0, 26.0, 16.0, 26.0, 26.0, 26.0]", "round 1's report cut after its first two messages");
});

test('prompts: "code": the format lines of the repository\'s latest code (commit e44a56a), which the published runs did not read', () => {
  const code = (o: GameObservation) => narrators[o.game]!.messages(o, [], "", null, {personality: null, negotiation_suffix: null, prompts: "code"}).at(-1)!.content;
  assert.match(code(obs("gamabench/guessing", 0, guessView(1), guessLegal)), /Please provide your chosen number in the following JSON format \(do not use markdown format\): \{"chosen_number"/);
  assert.match(code(obs("gamabench/el_farol", 0, barView("implicit", 1), barLegal)), /Please only provide your decision in the following JSON format \(do not use markdown format\): \{"decision": "go_or_stay"\}$/);
  assert.match(code(obs("gamabench/divide_dollar", 0, dollarView(1), dollarLegal)), /Please provide your bid amount in the following JSON format \(do not use markdown format\): /);
  assert.match(code(obs("gamabench/diner", 0, dinerView(1), dinerLegal)), /Please provide your chosen dish in the following JSON format \(do not use markdown format\): /);
  for (const game of ["gamabench/guessing", "gamabench/el_farol", "gamabench/divide_dollar", "gamabench/diner"]) assert.deepEqual(narrators[game]!.prompts, ["code"]);
  for (const game of ["gamabench/public_goods", "gamabench/sealed_bid", "gamabench/battle_royale", "gamabench/pirate"]) assert.equal(narrators[game]!.prompts, undefined, `${game}: its latest code words it as the published runs read it`);
});
