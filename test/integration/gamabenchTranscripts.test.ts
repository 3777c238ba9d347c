/**
 * The gamma-Bench narrators against the paper's own transcripts: for one
 * published V1 run of each game (gamma-Bench (Huang et al. 2024) raw
 * results, in the datasets directory), rebuild every player's view from the
 * file's round records and check that the narrator writes exactly the
 * messages the file stores for that player (system message, and each round's
 * user / assistant / user report). Two allowances: the stored system message
 * opens with the empty persona's "\n\n" (dropped by the narrator), and some
 * files keep only the latest messages (the repository trims long histories),
 * so the narrator's history is compared from the end.
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {existsSync, readFileSync} from "node:fs";
import {join} from "node:path";
import {datasetsConfig} from "../../loaders/projectConfig.js";
import {gamabenchNarrators} from "../../loaders/papers/gamabench/narrators.js";

const dir = datasetsConfig().dir ? join(datasetsConfig().dir!, "gamabench") : null;
const skip = !dir || !existsSync(dir) ? `gamma-Bench raw results not found (${dir ?? "no datasets directory configured"}); set PARLEY_DATASETS` : false;

/* eslint-disable @typescript-eslint/no-explicit-any */
type Raw = any;
type Build = (d: Raw, p: number) => unknown;

function compare(game: string, file: string, build: Build) {
  const d: Raw = JSON.parse(readFileSync(join(dir!, file), "utf8"));
  d.player_data.forEach((player: Raw, p: number) => {
    const view = build(d, p);
    const o = {game, game_id: file, seat: p, seat_name: null, n_seats: d.meta.player_num, round: 0, view, legal: []};
    const made = gamabenchNarrators[game]!.messages(o, [], "").slice(0, -1); // without this round's request
    const stored = player.prompt.map((m: Raw) => ({role: m.role, content: m.content}));
    stored[0].content = stored[0].content.replace(/^\n\n/, "");
    const tail = stored.length - 1;
    assert.ok(made.length - 1 >= tail, `${file} player_${p}: the file holds more history than the narrator wrote`);
    assert.deepEqual([made[0], ...made.slice(made.length - tail)], stored, `${file} player_${p}`);
  });
}

const told = (d: Raw) => ({n_players: d.meta.player_num, rounds: d.meta.round_id, round: d.round_records.length + 1});
const mine = (d: Raw, p: number, j: number) => d.player_data[p].records[j];

const builders: [string, string, Build][] = [
  ["gamabench/guessing", "guessing_game/guessing_game_v1_1.json", (d, p) => ({
    ...told(d), min: d.meta.min, max: d.meta.max, ratio: d.meta.ratio,
    history: d.round_records.map((r: Raw, j: number) => ({round: j + 1, average: r.mean, target: r.mean_ratio, winning_number: r.winner, chosen: mine(d, p, j), won: mine(d, p, j) === r.winner})),
  })],
  ...["implicit", "explicit"].map((mode): [string, string, Build] => ["gamabench/el_farol", `bar_game_${mode}/bar_game_${mode}_v1_1.json`, (d, p) => ({
    ...told(d), min: d.meta.min, max: d.meta.max, home: d.meta.home, ratio: d.meta.ratio, feedback: d.meta.mode,
    history: d.round_records.map((r: Raw, j: number) => ({round: j + 1, choice: mine(d, p, j), gained: d.player_data[p].utility[j], went: r.go_num, stayed: d.meta.player_num - r.go_num, fun: r.winner === "go"})),
  })]),
  ["gamabench/divide_dollar", "divide_dollar/divide_dollar_v1_1.json", (d, p) => ({
    ...told(d), gold: d.meta.golds,
    history: d.round_records.map((r: Raw, j: number) => ({round: j + 1, bid: mine(d, p, j), total: r.total_proposal, exceeded: r.total_proposal > d.meta.golds, received: r.total_proposal > d.meta.golds ? 0 : mine(d, p, j)})),
  })],
  ["gamabench/public_goods", "public_goods/public_goods_v1_2.json", (d, p) => ({
    ...told(d), ratio: d.meta.ratio, tokens: d.meta.tokens,
    history: d.round_records.map((r: Raw, j: number) => {
      const share = (r.total_tokens * d.meta.ratio) / d.meta.player_num;
      return {round: j + 1, contributions: r.responses, contributed: r.responses[p], pot: r.total_tokens, gain: share - r.responses[p], tokens_after: d.meta.tokens - r.responses[p] + share, tokens_all: r.responses.map((c: number) => d.meta.tokens - c + share)};
    }),
  })],
  ["gamabench/diner", "diner_dilemma/diner_dilemma_v1_1.json", (d, p) => ({
    ...told(d), cheap_cost: d.meta.cheap_cost, cheap_utility: d.meta.cheap_utility, exp_cost: d.meta.exp_cost, exp_utility: d.meta.exp_utility,
    history: d.round_records.map((r: Raw, j: number) => ({round: j + 1, costly: d.meta.player_num - r.cheap_player, cheap: r.cheap_player, total_cost: r.total_cost, share: r.avg_cost, choice: mine(d, p, j), utility: (mine(d, p, j) === "cheap" ? d.meta.cheap_utility : d.meta.exp_utility) - r.avg_cost})),
  })],
  ["gamabench/sealed_bid", "sealed_bid_auction/first_price/sealed_bid_auction_v1_1.json", (d, p) => ({
    ...told(d), pricing: "first", valuation: null,
    history: d.round_records.map((r: Raw, j: number) => ({round: j + 1, valuation: r.valuations[p], bid: r.responses[p], winning_bid: r.bid_winner_proposed, price: r.bid_winner_payment, won: r.bid_winner === `player_${p}`, utility: r.utility[p]})),
  })],
  ...["battle_royale_v1_1", "gpt-4-0125-preview_battle_royale_v1_2"].map((f): [string, string, Build] => ["gamabench/battle_royale", `battle_royale/${f}.json`, (d, p) => {
    const players = d.round_records[0].initial_players.map(([id, hit_rate]: Raw) => ({seat: Number(id.split("_")[1]), hit_rate}));
    let alive: number[] = players.map((x: Raw) => x.seat);
    const history = [];
    let before = alive;
    for (const [j, r] of d.round_records.entries()) {
      const target = r.action === "miss" ? null : Number(r.shot_player);
      before = alive;
      if (r.out) alive = alive.filter((s) => s !== target);
      if (!alive.includes(p)) break; // an eliminated player reads no more
      history.push({round: j + 1, shooter: Number(r.player_shooting), target, hit: r.out, left: alive.length});
    }
    // The survivors before the last shot this player read (at least two, as on any turn it is asked to play);
    // the narrator rebuilds the starting lineup from them.
    const standing = players.filter((x: Raw) => before.includes(x.seat));
    return {n_players: d.meta.player_num, round: history.length + 1, hit_rate: players[p].hit_rate, rank: 1, alive: standing, shooter: null, history};
  }]),
  ...["pirate_game_v1_2", "pirate_game_v1_3", "gpt-4-0125-preview_pirate_game_v1_2"].map((f): [string, string, Build] => ["gamabench/pirate", `pirate_game/${f}.json`, (d, p) => {
    const n = d.meta.player_num;
    const history = d.round_records
      .map((r: Raw, j: number) => {
        const survivors = Array.from({length: n - j}, (_, k) => j + k);
        const accepts = r.responses.filter((x: string) => x === "accept").length;
        return {round: j + 1, proposer: j, plan: r.gold_distribution, survivors, accepts, accepted: accepts / (n - j) >= 0.5, your_vote: r.responses[p - j] ?? null};
      })
      .filter((h: Raw) => h.survivors.includes(p));
    return {n_players: n, gold: d.meta.gold ?? 100, rank: p + 1, round: history.length + 1, phase: "over", proposer: null, survivors: [], plan: null, offered: null, history};
  }]),
];

for (const [game, file, build] of builders) {
  test(`${game}: the narrator writes the messages of ${file}`, {skip}, () => compare(game, file, build));
}
