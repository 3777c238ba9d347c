/**
 * NegotiationArena with LLM players, end to end: `parley run` as a child
 * process against a fake OpenAI-compatible server on 127.0.0.1. Replies use
 * the paper's tags; malformed tags, a missing answer, a proposal over budget
 * and an ACCEPT with nothing on the table are each recorded as a rule break
 * with its reason, the model is asked again, and the game goes on. The
 * private <reason> lands in turns.reasoning and never reaches the other
 * player's prompt.
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {writeFileSync} from "node:fs";
import {join} from "node:path";
import {parley as parleyCli, scratch} from "../support/cli.js";
import {startFakeLlm, type FakeRequest} from "../support/fakeLlm.js";
import {queryRun} from "../../loaders/io/parquet.js";

const {dir: tempDir, keep} = scratch("parley-na-llm-");
const parley = (args: string[]) => parleyCli(args, {PARLEY_FAKE_KEY: "sk-fake"});

const llm = (baseURL: string, extra: Record<string, unknown> = {}) => ({
  id: "fake", provider: "openai", model: "fake-model", base_url: baseURL, api_key_env: "PARLEY_FAKE_KEY",
  temperature: 0.7, max_tokens: 400, timeout_ms: 5000, max_retries: 2, ...extra,
});

/** A well-formed buy/sell reply of the seller. */
const sell = (price: number, reason: string, message: string) => `<proposal count> 1 </proposal count>
<my resources> X: 1 </my resources>
<my goals> sell high </my goals>
<reason> ${reason} </reason>
<player answer> PROPOSAL </player answer>
<newly proposed trade> Player RED Gives X: 1 | Player BLUE Gives ZUP: ${price} </newly proposed trade>
<message> ${message} </message>`;

async function run(config: Record<string, unknown>): Promise<string> {
  const dir = tempDir();
  const path = join(dir, "run.json");
  writeFileSync(path, JSON.stringify(config));
  const out = join(dir, "out");
  const r = await parley(["run", path, "--out", out, "--quiet"]);
  assert.equal(r.code, 0, r.stderr);
  return out;
}

test("buy/sell with an LLM seller: four kinds of rule break recorded with their reasons, the game goes on to a deal", async () => {
  const respond = (r: FakeRequest) => {
    const turn = r.turns.filter((t) => t.role === "assistant").length * 2 + 1; // the seller moves on odd turns
    if (turn === 1) {
      if (/malformed tags/.test(r.lastUser)) return {text: "<reason> try to accept </reason>\n<player answer> ACCEPT </player answer>\n<newly proposed trade> NONE </newly proposed trade>\n<message> deal! </message>"};
      if (/nothing on the table/.test(r.lastUser)) return {text: sell(70, "SECRET cost is 40, open at 70", "A fine object, 70 ZUP.")};
      return {text: "<reason> open high </reason>\n<player answer> PROPOSAL\n<newly proposed trade> Player RED Gives X: 1 | Player BLUE Gives ZUP: 80 </newly proposed trade>"};
    }
    if (/missing <player answer>/.test(r.lastUser)) return {text: sell(500, "ask for everything", "500 then")};
    if (/over budget/.test(r.lastUser)) return {text: sell(55, "SECRET meet in the middle", "55 and it is yours")};
    return {text: "<reason> forgot the answer </reason>\n<message> hmm </message>\n<newly proposed trade> Player RED Gives X: 1 | Player BLUE Gives ZUP: 65 </newly proposed trade>"};
  };
  const server = await startFakeLlm("openai", respond);
  keep(server);
  const out = await run({game: "negotiationarena/buy_sell", players: [llm(server.baseURL), "rational"], lineups: [["fake", "rational"]], seed: 1, max_attempts: 3});

  // Every first request is RED's: the buy/sell prompt, then its role.
  const first = server.requests[0];
  assert.match(first.system, /^You are playing game where you are buying or selling an object\./);
  assert.match(first.system, /It costed X: 40 ZUP to produce the resources/);
  assert.ok(!/willing to pay at most/.test(first.system), "the seller does not learn the buyer's valuation");
  assert.equal(first.lastUser, "You are Player RED.");

  const breaks = await queryRun(out, ["turns"], `SELECT round, attempt, rule_break_reason AS reason FROM turns WHERE rule_break ORDER BY turn`);
  assert.deepEqual(breaks, [
    {round: 1, attempt: 1, reason: "malformed tags: <player answer> is opened but never closed"},
    {round: 1, attempt: 2, reason: "ACCEPT with nothing on the table: Player BLUE has no proposal standing"},
    {round: 3, attempt: 1, reason: "missing <player answer>: every reply must answer ACCEPT, REJECT, NONE or PROPOSAL"},
    {round: 3, attempt: 2, reason: "proposal over budget: Player BLUE cannot give ZUP: 500, it holds 100"},
  ]);
  const turns = await queryRun(out, ["turns"], `SELECT round, seat, action, price, message, reasoning, role FROM turns WHERE NOT rule_break ORDER BY turn`);
  assert.deepEqual(turns.map((t) => [t.round, t.seat, t.action, t.price, t.role]), [
    [1, 0, "PROPOSAL", 70, "seller"],
    [2, 1, "PROPOSAL", 0, "buyer"],
    [3, 0, "PROPOSAL", 55, "seller"],
    [4, 1, "ACCEPT", null, "buyer"],
  ]);
  assert.equal(turns[0].reasoning, "SECRET cost is 40, open at 70");
  assert.equal(turns[0].message, "A fine object, 70 ZUP.");
  const [game] = await queryRun(out, ["games"], `SELECT ended_by, price, first_price, p1_payoff, p2_payoff, winner, p1_agent, p2_agent FROM games`);
  assert.deepEqual(game, {ended_by: "accepted", price: 55, first_price: 70, p1_payoff: 15, p2_payoff: 5, winner: "p1", p1_agent: "fake", p2_agent: "rational"});
  // The retry says what was wrong; the game went on after each rule break.
  assert.ok(server.requests.some((r) => /Your previous answer broke the rules: proposal over budget/.test(r.lastUser)));
});

test("ultimatum between two LLM players: BLUE reads RED's public message and trade, never its <reason>; personas are the paper's words", async () => {
  const respond = (r: FakeRequest) => {
    if (/You are Player BLUE\./.test(r.system)) return {text: "<my name> Player BLUE </my name>\n<move> 1 / 1 </move>\n<my resources> Dollars: 0 </my resources>\n<reason> anything beats nothing </reason>\n<player answer> ACCEPT </player answer>\n<message> Fine. </message>\n<newly proposed trade> NONE </newly proposed trade>"};
    return {text: "<my name> Player RED </my name>\n<move> 1 / 1 </move>\n<my resources> Dollars: 10 </my resources>\n<reason> SECRET-PLAN keep nine </reason>\n<player answer> NONE </player answer>\n<message> One for you. </message>\n<newly proposed trade> Player RED Gives Dollars: 1 | Player BLUE Gives Dollars: 0 </newly proposed trade>"};
  };
  const server = await startFakeLlm("openai", respond);
  keep(server);
  const out = await run({
    game: "negotiationarena/ultimatum", grid: {iterations: [2], stake: [10]},
    players: [llm(server.baseURL), llm(server.baseURL, {id: "fake-cunning", persona: "cunning"})], lineups: [["fake", "fake-cunning"]], seed: 2,
  });
  const blue = server.requests.find((r) => /You are Player BLUE\./.test(r.system))!;
  // The §4 runs' join: the behaviour on its own line after an empty one, then the role with no separator.
  assert.ok(blue.system.endsWith("Please be sure to include all.\n\n\nYou are cunning and sly in your plan to get more than your opponent. Humiliate your opponent as much as possible. Insult them.\nYou are Player BLUE."), blue.system.slice(-300));
  assert.match(blue.system, /Player BLUE cannot do \(C\) on MOVE 1\/1 and MUST ONLY answer with ACCEPT \(A\) or REJECT \(B\)/);
  assert.equal(blue.lastUser, "<other player message> One for you. </other player message>\n<other player answer> NONE </other player answer>\n<other player proposed trade> Player RED Gives Dollars: 1 | Player BLUE Gives Dollars: 0 </other player proposed trade>\n");
  for (const r of server.requests.filter((q) => /You are Player BLUE\./.test(q.system))) {
    assert.ok(!JSON.stringify(r.body).includes("SECRET-PLAN"), "RED's private reasoning never reaches BLUE");
  }
  const [game] = await queryRun(out, ["games"], `SELECT ended_by, p1_payoff, p2_payoff, p1_share, winner FROM games`);
  assert.deepEqual(game, {ended_by: "accepted", p1_payoff: 9, p2_payoff: 1, p1_share: 0.9, winner: "p1"});
  const [red] = await queryRun(out, ["turns"], `SELECT reasoning, offer FROM turns WHERE seat = 0`);
  assert.deepEqual(red, {reasoning: "SECRET-PLAN keep nine", offer: 1});
});
