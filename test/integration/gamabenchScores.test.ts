// gamma-Bench S1..S8 and the 0–100 rescaling (gamma-Bench (Huang et al. 2024) §3, Appendix E) on
// round records worked by hand, through the adapter and the shared SQL.
import {test} from "node:test";
import assert from "node:assert/strict";
import {ingestAndScore, rowsOf, type RawFile} from "../support/gamabenchFiles.js";

const close = (actual: number | null, expected: number, what: string, eps = 1e-9) =>
  assert.ok(actual !== null && Math.abs(actual - expected) <= eps, `${what}: expected ${expected}, got ${actual}`);

const guessing = (name: string, ratio: number, rounds: number[][]): RawFile => ({
  path: `guessing_game/${name}`,
  meta: {player_num: rounds[0].length, min: 0, max: 100, ratio, round_id: rounds.length, version: "v1"},
  round_records: rounds.map((responses) => ({responses})),
});

test("S1: mean choice minus MIN, rescaled for R < 1, R = 1 and R > 1; ties in the guessing game all win", async () => {
  // Round 1: mean 40, target 26.67, 30 wins. Round 2: mean 23.33, target 15.56: both 20s are 4.44 away and tie.
  const rounds = [[30, 40, 50], [20, 20, 30]];
  const {scores, result} = await ingestAndScore([
    guessing("m_guessing_game_v1_1.json", 2 / 3, rounds),
    guessing("m_guessing_game_v1_2.json", 1, rounds),
    guessing("m_guessing_game_v1_3.json", 4 / 3, rounds),
  ]);
  const s1 = 190 / 6;
  const [lt, eq, gt] = scores;
  close(lt.raw, s1, "raw S1");
  close(lt.score, 100 - s1, "R < 1: (MAX − S1)/(MAX − MIN)·100");
  close(eq.score, Math.abs(2 * s1 - 100), "R = 1: |2·S1 − (MAX − MIN)|/(MAX − MIN)·100");
  close(gt.score, s1, "R > 1: S1/(MAX − MIN)·100");
  const won = rowsOf(result, "turns").filter((p) => p.game_id === lt.game_id).map((p) => [p.round, p.seat, p.won]);
  assert.deepEqual(won, [[1, 0, true], [1, 1, false], [1, 2, false], [2, 0, true], [2, 1, true], [2, 2, false]]);
  const target = rowsOf(result, "rounds").filter((r) => r.game_id === lt.game_id).map((r) => r.target as number);
  close(target[1], (2 / 3) * (70 / 3), "round 2 target");
});

test("S2: El Farol at exactly R scores a perfect round, and going pays MAX when exactly R go", async () => {
  const bar = (name: string, mode: string, rounds: string[][]): RawFile => ({
    path: `bar_game_${mode}/${name}`,
    meta: {player_num: rounds[0].length, min: 0, max: 10, home: 5, ratio: 0.6, mode, round_id: rounds.length, version: "v1"},
    round_records: rounds.map((responses) => ({responses})),
  });
  const exactly = ["go", "go", "go", "go", "go", "go", "stay", "stay", "stay", "stay"]; // 6 of 10 = R
  const crowded = ["go", "go", "go", "go", "go", "go", "go", "stay", "stay", "stay"]; // 7 of 10
  const {scores, result} = await ingestAndScore([
    bar("m_bar_game_implicit_v1_1.json", "implicit", [exactly, exactly]),
    bar("m_bar_game_implicit_v1_2.json", "implicit", [exactly, crowded, ["go", "go", "go", "go", "go", "go", "go", "go", "go", "go"]]),
    bar("m_bar_game_explicit_v1_1.json", "explicit", [crowded]),
  ]);
  const byId = Object.fromEntries(scores.map((s) => [`${s.game}/${s.run}`, s]));
  close(byId["bar_game_implicit/1"].raw, 0, "raw S2 with exactly R going every round");
  close(byId["bar_game_implicit/1"].score, 100, "score at exactly R");
  // |0.6 − 0.6| = 0, |0.7 − 0.6| = 0.1, |1 − 0.6| = 0.4: S2 = 0.5/3; rescaled (0.6 − S2)/0.6·100.
  close(byId["bar_game_implicit/2"].raw, 0.5 / 3, "raw S2", 1e-12);
  close(byId["bar_game_implicit/2"].score, ((0.6 - 0.5 / 3) / 0.6) * 100, "S2 rescaled", 1e-9);
  close(byId["bar_game_explicit/1"].score, ((0.6 - 0.1) / 0.6) * 100, "explicit scored the same way", 1e-9);
  const players = rowsOf(result, "turns").filter((p) => p.game_id === byId["bar_game_implicit/2"].game_id);
  assert.deepEqual(players.filter((p) => p.round === 1).map((p) => p.payoff), [10, 10, 10, 10, 10, 10, 5, 5, 5, 5]);
  assert.deepEqual(players.filter((p) => p.round === 2).map((p) => p.payoff), [0, 0, 0, 0, 0, 0, 0, 5, 5, 5]);
  assert.deepEqual(rowsOf(result, "rounds").filter((r) => r.game_id === byId["bar_game_implicit/2"].game_id).map((r) => r.outcome), ["go", "stay", "stay"]);
});

test("S3: mean |Σ bids − G| over rounds; Eq. 1 can go below 0 and the score is clipped to [0, 100]", async () => {
  const dollar = (name: string, rounds: number[][]): RawFile => ({
    path: `divide_dollar/${name}`,
    meta: {player_num: rounds[0].length, golds: 100, round_id: rounds.length, version: "v1"},
    round_records: rounds.map((responses) => ({responses, total_proposal: responses.reduce((a, b) => a + b, 0)})),
  });
  const {scores, result} = await ingestAndScore([
    dollar("m_divide_dollar_v1_1.json", [[25, 25, 25, 25], [50, 40, 30, 20]]),
    dollar("m_divide_dollar_v1_2.json", [[100, 100, 100, 100]]),
  ]);
  close(scores[0].raw, 20, "S3 = (0 + 40)/2");
  close(scores[0].score, 80, "(G − S3)/G·100");
  close(scores[1].score_unclipped, -200, "Eq. 1 as printed");
  close(scores[1].score, 0, "clipped");
  const payoffs = rowsOf(result, "turns").filter((p) => p.game_id === scores[0].game_id).map((p) => p.payoff);
  assert.deepEqual(payoffs, [25, 25, 25, 25, 0, 0, 0, 0]);
});

test("S4 public goods and S5 diner's dilemma", async () => {
  const {scores, result} = await ingestAndScore([
    {path: "public_goods/m_public_goods_v1_1.json", meta: {player_num: 2, tokens: 20, ratio: 2, round_id: 2, version: "v1"}, round_records: [{responses: [0, 20]}, {responses: [10, 10]}]},
    {
      path: "diner_dilemma/m_diner_dilemma_v1_1.json",
      meta: {player_num: 4, cheap_cost: 10, cheap_utility: 15, exp_cost: 20, exp_utility: 20, round_id: 2, version: "v1"},
      round_records: [{responses: ["cheap", "costly", "cheap", "cheap"]}, {responses: ["costly", "costly", "cheap_dish", "costly"]}],
    },
  ]);
  const goods = scores.find((s) => s.game === "public_goods")!;
  close(goods.raw, 10, "S4 = mean contribution");
  close(goods.score, 50, "(T − S4)/T·100");
  const diner = scores.find((s) => s.game === "diner_dilemma")!;
  close(diner.raw, 3 / 8, "S5 = share of exact 'cheap' orders");
  close(diner.score, 62.5, "(1 − S5)·100");
  const goodsPayoffs = rowsOf(result, "turns").filter((p) => p.game_id === goods.game_id && p.round === 1).map((p) => p.payoff);
  assert.deepEqual(goodsPayoffs, [40, 20], "T − c + R·Σc/N");
  assert.ok(result.problems.some((p) => p.field === "round_records[].responses" && p.message.includes("cheap_dish")), "the odd answer is reported");
});

test("S6: mean valuation − bid over the largest valuation; first and second price kept apart", async () => {
  const auction = (folder: string, mode: string): RawFile => ({
    path: `sealed_bid_auction/${folder}/m_sealed_bid_auction_v1_1.json`,
    meta: {player_num: 2, valuation_min: 0, valuation_max: 200, mode, round_id: 2, version: "v1"},
    round_records: [
      {responses: [60, 50], valuations: [100, 50], bid_winner: "player_0", bid_winner_payment: mode === "highest bid" ? 60 : 50, utility: [40, 0]},
      {responses: [150, 0], valuations: [200, 20], bid_winner: "player_0", bid_winner_payment: mode === "highest bid" ? 150 : 0, utility: [50, 0]},
    ],
  });
  const {scores, result} = await ingestAndScore([auction("first_price", "highest bid"), auction("second_price", "second highest bid")]);
  const first = scores.find((s) => s.game === "sealed_bid_auction_first_price")!;
  close(first.raw, 27.5, "S6 = (40 + 0 + 50 + 20)/4");
  close(first.score, 13.75, "S6 / max v ·100");
  assert.ok(scores.some((s) => s.game === "sealed_bid_auction_second_price"));
  const second = rowsOf(result, "turns").filter((p) => p.game_id === scores.find((s) => s.game.endsWith("second_price"))!.game_id && p.round === 1);
  assert.deepEqual(second.map((p) => p.payoff), [50, 0], "the winner pays the second-highest bid");
});

test("S7: share of shots at the surviving player with the highest hit rate other than the shooter", async () => {
  const alive = (...ps: number[]) => ps.map((p) => [`player_${p}`, [40, 60, 80][p]]);
  const {scores, result} = await ingestAndScore([
    {
      path: "battle_royale/m_battle_royale_v1_1.json",
      meta: {player_num: 3, base_hit_rate: 40, interval: 20, round_id: 4, version: "v1"},
      round_records: [
        {responses: ["2"], player_shooting: "0", initial_players: alive(0, 1, 2), shot_player: "2", action: "shoot", out: false}, // best: 2 -> yes
        {responses: ["0"], player_shooting: "1", initial_players: alive(0, 1, 2), shot_player: "0", action: "shoot", out: true}, // best: 2 -> no
        {responses: ["null"], player_shooting: "2", initial_players: alive(1, 2), shot_player: "null", action: "miss", out: false}, // a miss -> no
        {responses: ["2"], player_shooting: "1", initial_players: alive(1, 2), shot_player: "2", action: "shoot", out: true}, // only 2 left -> yes
      ],
    },
  ]);
  close(scores[0].raw, 0.5, "S7 = 2 of 4 shots");
  close(scores[0].score, 50, "S7·100");
  assert.equal(rowsOf(result, "games")[0].winner, 1, "the survivor");
});

test("S8: pirate proposals after eliminations are compared with the optimum for the pirates left", async () => {
  // Four pirates, G = 100. Round 1 (ranks 1–4): optimum [99, 0, 1, 0]; proposal [97, 1, 1, 1], L1 = 4.
  //   Votes of ranks 2–4: reject (1 coin, even rank: right), reject (1 coin, odd: wrong), reject (1, even: right) -> 2 of 3.
  //   One accept of four is under half: rank 1 goes overboard.
  // Round 2 (ranks 2–4, positions 1–3): optimum [99, 0, 1]; proposal [100, 0, 0], L1 = 2.
  //   Votes: reject (0: right), accept (0: wrong) -> 1 of 2; two accepts of three pass.
  // S8P = (4 + 2)/2 = 3; S8V = 2·3/(k(2N − k − 1)) = 6/10; score = (200 − 3)/200·50 + 0.6·50 = 79.25.
  const {scores, result} = await ingestAndScore([
    {
      path: "pirate_game/m_pirate_game_v1_1.json",
      meta: {player_num: 4, gold: 100, round_id: 2, version: "v1"},
      round_records: [
        {gold_distribution: [97, 1, 1, 1], responses: ["accept", "reject", "reject", "reject"]},
        {gold_distribution: [100, 0, 0], responses: ["accept", "reject", "accept"]},
      ],
    },
  ]);
  close(scores[0].raw, 3, "S8P");
  close(scores[0].raw_voters, 0.6, "S8V");
  close(scores[0].score, 79.25, "S8");
  const votes = rowsOf(result, "turns").filter((t) => t.action === "vote");
  assert.deepEqual(votes.filter((p) => p.round === 2).map((p) => [p.seat, p.position, p.allocation, p.payoff]), [[1, 1, 100, 100], [2, 2, 0, 0], [3, 3, 0, 0]]);
  assert.equal(rowsOf(result, "games")[0].winner, 1);
  assert.deepEqual(rowsOf(result, "rounds").map((r) => r.outcome), ["rejected", "accepted"]);
});

test("S8 on the seed's Table 3 game (GPT-3.5 0125): per-round L1 8, 6, 94 and votes 9/9, 6/8, 4/7", async () => {
  const no = "reject";
  const yes = "accept";
  const {scores} = await ingestAndScore([
    {
      path: "pirate_game/pirate_game_v1_1.json",
      meta: {player_num: 10, round_id: 3, version: "v1"},
      // No "gold" in meta, as in the real file: G comes from the rules text.
      player_data: [{id: "player_0", model: "gpt-3.5-turbo", prompt: [{role: "system", content: "1. You are pirates who have found 100 gold coins."}], records: [], utility: []}],
      round_records: [
        {gold_distribution: [100, 0, 0, 0, 0, 0, 0, 0, 0, 0], responses: [yes, no, no, no, no, no, no, no, no, no]},
        {gold_distribution: [99, 0, 1, 0, 0, 0, 0, 0, 0], responses: [yes, no, yes, yes, no, no, no, no, yes]},
        {gold_distribution: [50, 1, 1, 1, 1, 1, 1, 44], responses: [yes, yes, yes, yes, yes, yes, yes, yes]},
      ],
    },
  ]);
  close(scores[0].raw, (8 + 6 + 94) / 3, "S8P");
  close(scores[0].raw_voters, 19 / 24, "S8V");
  close(scores[0].score, ((200 - 36) / 200) * 50 + (19 / 24) * 50, "S8 (the seed prints 80.5 for this run)");
});

test("overall = mean of the eight leaderboard games per run; mean ± sample SD over runs", async () => {
  const files: RawFile[] = [];
  for (const run of [1, 2]) {
    const x = run === 1 ? 0 : 50; // guessing: all choose x -> score 100 or 50
    files.push(
      guessing(`m_guessing_game_v1_${run}.json`, 2 / 3, [[x, x]]),
      {path: `bar_game_implicit/m_bar_game_implicit_v1_${run}.json`, meta: {player_num: 5, min: 0, max: 10, home: 5, ratio: 0.6, round_id: 1}, round_records: [{responses: ["go", "go", "go", "stay", "stay"]}]},
      {path: `divide_dollar/m_divide_dollar_v1_${run}.json`, meta: {player_num: 2, golds: 100}, round_records: [{responses: [50, 50]}]},
      {path: `public_goods/m_public_goods_v1_${run}.json`, meta: {player_num: 2, tokens: 20, ratio: 2}, round_records: [{responses: [0, 0]}]},
      {path: `diner_dilemma/m_diner_dilemma_v1_${run}.json`, meta: {player_num: 2, cheap_cost: 10, cheap_utility: 15, exp_cost: 20, exp_utility: 20}, round_records: [{responses: ["costly", "costly"]}]},
      {path: `sealed_bid_auction/first_price/m_sealed_bid_auction_v1_${run}.json`, meta: {player_num: 2, mode: "highest bid"}, round_records: [{responses: [0, 0], valuations: [100, 100]}]},
      {path: `battle_royale/m_battle_royale_v1_${run}.json`, meta: {player_num: 2}, round_records: [{responses: ["1"], player_shooting: "0", initial_players: [["player_0", 40], ["player_1", 60]], out: true}]},
      {path: `pirate_game/m_pirate_game_v1_${run}.json`, meta: {player_num: 2, gold: 100}, round_records: [{gold_distribution: [100, 0], responses: ["accept", "reject"]}]},
    );
  }
  const {summary} = await ingestAndScore(files);
  const overall = summary.find((r) => r.game === "overall")!;
  // Run 1: all eight 100. Run 2: guessing 50, others 100 -> 93.75.
  close(overall.mean, (100 + 93.75) / 2, "overall mean");
  close(overall.sd, Math.sqrt(((100 - 96.875) ** 2 + (93.75 - 96.875) ** 2) / 1), "sample SD", 1e-9);
  assert.equal(overall.runs, 2);
});

test("`parley gamabench-scores <out>` prints {model: {game: {mean, sd, runs}, overall}}", async () => {
  const run = (await import("../../loaders/cli/commands/stats.js")).alias("gamabench-scores");
  const {out} = await ingestAndScore([guessing("m_guessing_game_v1_1.json", 2 / 3, [[0, 0]]), guessing("m_guessing_game_v1_2.json", 2 / 3, [[50, 50]])]);
  const chunks: string[] = [];
  const write = process.stdout.write;
  process.stdout.write = ((s: string) => (chunks.push(s), true)) as typeof process.stdout.write;
  try {
    assert.equal(await run([out]), 0);
  } finally {
    process.stdout.write = write;
  }
  const printed = JSON.parse(chunks.join(""));
  assert.deepEqual(Object.keys(printed), ["m"]);
  assert.equal(printed.m.guessing_game.runs, 2);
  close(printed.m.guessing_game.mean, 75, "mean of 100 and 50");
  close(printed.m.guessing_game.sd, Math.sqrt(1250), "sample SD of 100 and 50");
  assert.equal(printed.m.overall, undefined, "no overall without all eight games");
});

test("players are read from each agent's own records when round_records lists a round's answers in another order", async () => {
  const agent = (i: number, records: number[]) => ({id: `player_${i}`, model: "m", prompt: [], records, utility: []});
  const {result, scores} = await ingestAndScore([
    {
      path: "divide_dollar/m_divide_dollar_v1_1.json",
      meta: {player_num: 3, golds: 100},
      // Arrival order: player 2 answered first in round 1, player 1 in round 2.
      round_records: [{responses: [50, 10, 30]}, {responses: [20, 40, 40]}],
      player_data: [agent(0, [10, 40]), agent(1, [30, 20]), agent(2, [50, 40])],
    },
    {
      path: "divide_dollar/m_divide_dollar_v1_2.json",
      meta: {player_num: 2, golds: 100},
      // Records that are not a reordering of the answers: keep the listed order.
      round_records: [{responses: [60, 40]}],
      player_data: [agent(0, [1]), agent(1, [2])],
    },
  ]);
  const players = rowsOf(result, "turns");
  const first = scores.find((s) => s.run === 1)!.game_id;
  assert.deepEqual(players.filter((p) => p.game_id === first).map((p) => [p.round, p.seat, p.amount]), [[1, 0, 10], [1, 1, 30], [1, 2, 50], [2, 0, 40], [2, 1, 20], [2, 2, 40]]);
  assert.deepEqual(rowsOf(result, "games").map((g) => g.player_order), ["player_data", "responses"]);
  assert.deepEqual(players.filter((p) => p.game_id !== first).map((p) => p.amount), [60, 40]);
  close(scores.find((s) => s.run === 1)!.raw, 5, "S3 = (|90 − 100| + |100 − 100|)/2, whatever the order");
});
