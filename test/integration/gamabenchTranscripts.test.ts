/**
 * The gamma-Bench narrators against the prompts the authors' published runs
 * recorded (gamma-Bench (Huang et al. 2024) raw results, CUHK-ARISE/GAMABench
 * `raw_results/`, in the datasets directory): every V1 run file of the eight
 * games, every player, byte for byte.
 *
 * The files store each player's conversation as sent at the end of the game.
 * Runs of the chat models (GPT, Llama, Mixtral, Qwen) keep the system
 * message and each round's user / assistant / user report, but not the
 * requests ("Now round I starts ..."), which were sent and dropped. Runs of
 * Gemini keep everything, requests included, in Gemini's own layout (the
 * system text is the first user part; every request stays in the history).
 * So the test checks, per player: the system message and every report
 * against the chat files and the Gemini files, and every request of every
 * round against the Gemini files. A request Parley sends at round k is its
 * system message, the reports of the rounds before k and the request of
 * round k, so with all three identical the whole request is.
 *
 * The differences that remain are listed in KNOWN (file, and why) and
 * counted: the test fails if one more or one fewer turns up. The shares are
 * printed as a diagnostic.
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {existsSync, readdirSync, readFileSync} from "node:fs";
import {join} from "node:path";
import {datasetsConfig} from "../../loaders/projectConfig.js";
import {gamabenchNarrators, PUBLIC_GOODS_KEPT_ROUNDS} from "../../loaders/papers/gamabench/narrators.js";
import type {ChatMessage} from "../../loaders/llm/types.js";

const dir = datasetsConfig().dir ? join(datasetsConfig().dir!, "gamabench") : null;
const skip = !dir || !existsSync(dir) ? `gamma-Bench raw results not found (${dir ?? "no datasets directory configured"}); set PARLEY_DATASETS` : false;

/* eslint-disable @typescript-eslint/no-explicit-any */
type Raw = any;
/** The view of player p when asked at round k (1-based; the history holds the rounds before k). */
type Build = (d: Raw, p: number, k: number) => unknown;

const told = (d: Raw, k: number) => ({n_players: d.meta.player_num, rounds: d.meta.round_id, round: k});
const mine = (d: Raw, p: number, j: number) => d.player_data[p].records[j];
const before = (d: Raw, k: number): Raw[] => d.round_records.slice(0, k - 1);

const guessing: Build = (d, p, k) => ({
  ...told(d, k), min: d.meta.min, max: d.meta.max, ratio: d.meta.ratio,
  history: before(d, k).map((r, j) => ({round: j + 1, average: r.mean, target: r.mean_ratio, winning_number: r.winner, chosen: mine(d, p, j), won: mine(d, p, j) === r.winner})),
});
const elFarol: Build = (d, p, k) => ({
  ...told(d, k), min: d.meta.min, max: d.meta.max, home: d.meta.home, ratio: d.meta.ratio, feedback: d.meta.mode,
  history: before(d, k).map((r, j) => ({round: j + 1, choice: mine(d, p, j), gained: d.player_data[p].utility[j], went: r.go_num, stayed: d.meta.player_num - r.go_num, fun: r.winner === "go"})),
});
const dollar: Build = (d, p, k) => ({
  ...told(d, k), gold: d.meta.golds,
  history: before(d, k).map((r, j) => ({round: j + 1, bid: mine(d, p, j), total: r.total_proposal, exceeded: r.total_proposal > d.meta.golds, received: r.total_proposal > d.meta.golds ? 0 : mine(d, p, j)})),
});
const publicGoods: Build = (d, p, k) => ({
  ...told(d, k), ratio: d.meta.ratio, tokens: d.meta.tokens,
  history: before(d, k).map((r, j) => {
    const share = (r.total_tokens * d.meta.ratio) / d.meta.player_num;
    return {round: j + 1, contributions: r.responses, contributed: r.responses[p], pot: r.total_tokens, gain: share - r.responses[p], tokens_after: d.meta.tokens - r.responses[p] + share, tokens_all: r.responses.map((c: number) => d.meta.tokens - c + share)};
  }),
});
const diner: Build = (d, p, k) => ({
  ...told(d, k), cheap_cost: d.meta.cheap_cost, cheap_utility: d.meta.cheap_utility, exp_cost: d.meta.exp_cost, exp_utility: d.meta.exp_utility,
  history: before(d, k).map((r, j) => ({round: j + 1, costly: d.meta.player_num - r.cheap_player, cheap: r.cheap_player, total_cost: r.total_cost, share: r.avg_cost, choice: mine(d, p, j), utility: (mine(d, p, j) === "cheap" ? d.meta.cheap_utility : d.meta.exp_utility) - r.avg_cost})),
});
const auction = (pricing: string): Build => (d, p, k) => ({
  ...told(d, k), pricing, valuation: d.round_records[k - 1]?.valuations[p] ?? null,
  history: before(d, k).map((r, j) => ({round: j + 1, valuation: r.valuations[p], bid: r.responses[p], winning_bid: r.bid_winner_proposed, price: r.bid_winner_payment, won: r.bid_winner === `player_${p}`, utility: r.utility[p]})),
});
const battleRoyale: Build = (d, p, k) => {
  const players = d.round_records[0].initial_players.map(([id, hit_rate]: Raw) => ({seat: Number(id.split("_")[1]), hit_rate}));
  let alive: number[] = players.map((x: Raw) => x.seat);
  let standing = alive;
  const history = [];
  for (const [j, r] of d.round_records.slice(0, k - 1).entries()) {
    const target = r.action === "miss" ? null : Number(r.shot_player);
    standing = alive;
    if (r.out) alive = alive.filter((s) => s !== target);
    if (!alive.includes(p)) break; // an eliminated player reads no more
    history.push({round: j + 1, shooter: Number(r.player_shooting), target, hit: r.out, left: alive.length});
  }
  // Asked now: the survivors before this round's shot. The final conversation (k past the end): the
  // survivors before the last shot this player read (at least two); the narrator rebuilds the starting lineup from them.
  const asked = k <= d.round_records.length;
  const shown = players.filter((x: Raw) => (asked ? alive : standing).includes(x.seat));
  const rank = shown.findIndex((x: Raw) => x.seat === p) + 1;
  return {n_players: d.meta.player_num, round: asked ? k : history.length + 1, hit_rate: players.find((x: Raw) => x.seat === p).hit_rate, rank, alive: shown, shooter: asked ? p : null, history};
};
const pirate: Build = (d, p, k) => {
  const n = d.meta.player_num;
  const history = before(d, k)
    .map((r, j) => {
      const survivors = Array.from({length: n - j}, (_, i) => j + i);
      const accepts = r.responses.filter((x: string) => x === "accept").length;
      return {round: j + 1, proposer: j, plan: r.gold_distribution, survivors, accepts, accepted: accepts / (n - j) >= 0.5, your_vote: r.responses[p - j] ?? null};
    })
    .filter((h: Raw) => h.survivors.includes(p));
  const now = d.round_records[k - 1];
  const base = {n_players: n, gold: d.meta.gold ?? 100, rank: p + 1, round: history.length + 1, history};
  if (!now) return {...base, phase: "over", proposer: null, survivors: [], plan: null, offered: null};
  const survivors = Array.from({length: n - (k - 1)}, (_, i) => k - 1 + i);
  if (p === k - 1) return {...base, phase: "propose", proposer: p, survivors, plan: null, offered: null};
  return {...base, phase: "vote", proposer: k - 1, survivors, plan: now.gold_distribution, offered: now.gold_distribution[p - (k - 1)]};
};

/** Each game: its narrator, its folders, and the view builder. */
const GAMES: [game: string, folders: string[], build: (folder: string) => Build][] = [
  ["gamabench/guessing", ["guessing_game"], () => guessing],
  ["gamabench/el_farol", ["bar_game_implicit", "bar_game_explicit"], () => elFarol],
  ["gamabench/divide_dollar", ["divide_dollar"], () => dollar],
  ["gamabench/public_goods", ["public_goods"], () => publicGoods],
  ["gamabench/diner", ["diner_dilemma"], () => diner],
  ["gamabench/sealed_bid", ["sealed_bid_auction/first_price", "sealed_bid_auction/second_price"], (f) => auction(f.endsWith("second_price") ? "second" : "first")],
  ["gamabench/battle_royale", ["battle_royale"], () => battleRoyale],
  ["gamabench/pirate", ["pirate_game"], () => pirate],
];

/**
 * The differences that remain, by file pattern (their counts are in
 * EXPECTED_DIFFERENCES below); both are in the system message.
 */
const KNOWN: Record<string, string> = {
  "guessing_game/gpt-3.5-turbo-0613_guessing_game_v1_*.json": "an earlier description template, without the role-play slot: no leading blank line",
  "pirate_game/pirate_game_v1_[145].json": "role-play runs (the repository's role1–3.txt), not the default; Parley's personas are NegotiationArena's",
};

interface Tally {
  /** Requests of the chat runs: system and history as logged (the request text itself is not logged). */
  chat: [same: number, all: number];
  /** Requests of the Gemini runs: system, history and request text, each as logged (Gemini's layout aside). */
  gemini: [same: number, all: number];
  /** Chat-run requests some of whose messages the log no longer holds (the repository's token limit): the rest matched. */
  partlyLogged: number;
  differing: Map<string, number>;
}

const obs = (game: string, file: string, d: Raw, p: number, view: unknown) => ({game, game_id: file, seat: p, seat_name: null, n_seats: d.meta.player_num, round: 0, view, legal: []});
const texts = (ms: readonly ChatMessage[]) => ms.map((m) => m.content);
const isRequest = (t: string) => /^Now (round \d+ starts|you, the \d+-th|the \d+-th most senior)/.test(t);
const roundOf = (t: string) => Number(/^Now (?:round (\d+)|you, the (\d+)-th|the (\d+)-th)/.exec(t)!.slice(1).find((x) => x !== undefined));
const glob = (pattern: string) => new RegExp(`^${pattern.replace(/[.]/g, "\\.").replace(/\*/g, "[^/]*")}$`);

/** Counts one request; a difference must be a known one (else the test fails naming it). */
function count(t: Tally, tally: [number, number], same: boolean, file: string, where: string, what: string) {
  tally[1]++;
  if (same) return void tally[0]++;
  const known = Object.keys(KNOWN).find((pattern) => glob(pattern).test(file));
  assert.ok(known, `${file} ${where}: ${what} differs from the recorded prompt`);
  t.differing.set(known, (t.differing.get(known) ?? 0) + 1);
}

/** The rounds at which player p was asked to decide. */
function askedRounds(game: string, d: Raw, p: number): number[] {
  const rounds = d.round_records.map((_: Raw, j: number) => j + 1);
  if (game === "gamabench/battle_royale") return rounds.filter((k: number) => Number(d.round_records[k - 1].player_shooting) === p);
  if (game === "gamabench/pirate") return rounds.filter((k: number) => p >= k - 1);
  return rounds;
}

/** History messages the repository had dropped before round k's request (public goods' token limit; chat runs only). */
const droppedBefore = (game: string, k: number) => (game === "gamabench/public_goods" ? Math.max(0, k - 1 - PUBLIC_GOODS_KEPT_ROUNDS) : 0);

/**
 * History messages missing from a chat run's log: public goods' limit, and
 * the repository's general one (`GameServer.save`: past round 20, drop the
 * oldest), which Battle Royale's 20-shot runs reach at their last save only,
 * after every request was sent.
 */
const droppedFromLog = (game: string, rounds: number) => droppedBefore(game, rounds + 1) + (game === "gamabench/battle_royale" && rounds >= 20 ? 1 : 0);

/** Pirate runs: each round's plan as its proposer wrote it, read from the logs' echo of it (the only record of it). */
function plansWritten(d: Raw): ([string, string | number][] | null)[] {
  const all = d.player_data.flatMap((pl: Raw) => pl.prompt.flatMap((m: Raw) => (m.parts ?? [m.content]) as string[])).join("\n");
  return d.round_records.map((_: Raw, j: number) => {
    const label = `${j + 1}${j === 0 ? "-st" : j === 1 ? "-nd" : j === 2 ? "-rd" : "-th"}-th`;
    const m = new RegExp(`The ${label} most senior pirate proposed a plan of (\\{[^}]*\\})`).exec(all) ?? new RegExp(`Now the ${j + 1}-th most senior pirate needs[^]*?The proposed plan is (\\{[^}]*\\})`).exec(all);
    if (!m) return null;
    return [...m[1]!.matchAll(/'([^']*)': (?:'([^']*)'|(-?[\d.]+))/g)].map((e): [string, string | number] => [e[1]!, e[2] ?? Number(e[3])]);
  });
}

function compareFile(game: string, file: string, build: Build, t: Tally) {
  const d: Raw = JSON.parse(readFileSync(join(dir!, file), "utf8"));
  const narrator = gamabenchNarrators[game]!;
  const rounds = d.round_records.length;
  const written = game === "gamabench/pirate" ? plansWritten(d) : [];
  const view = (p: number, k: number) => {
    const v = build(d, p, k) as Raw;
    if (game !== "gamabench/pirate") return v;
    for (const h of v.history) if (written[h.round - 1]) h.plan_written = written[h.round - 1];
    if (v.plan && written[k - 1]) v.plan_written = written[k - 1];
    return v;
  };
  const ask = (p: number, k: number) => texts(narrator.messages(obs(game, file, d, p, view(p, k)), [], ""));
  d.player_data.forEach((player: Raw, p: number) => {
    if (!("content" in player.prompt[0])) {
      // Gemini: every request is logged, in the order sent; the history is the parts before it, less the earlier requests.
      const parts: string[] = player.prompt.flatMap((m: Raw) => m.parts as string[]);
      parts.forEach((part, i) => {
        if (!isRequest(part) || (i > 0 && parts[i - 1] === part)) return; // asked again after an unreadable answer: the same request
        const sent = ask(p, roundOf(part));
        const history = parts.slice(1, i).filter((x) => !isRequest(x));
        // Parley applies public goods' token limit to every provider; the repository did not to Gemini.
        const kept = history.slice(droppedBefore(game, roundOf(part)));
        const same = sent[0] === parts[0] && sent.at(-1) === part && sent.length - 2 === kept.length && sent.slice(1, -1).every((x, j) => x === kept[j]);
        count(t, t.gemini, same, file, `player_${p} round ${roundOf(part)}`, "the request");
      });
      return;
    }
    const logged: string[] = player.prompt.map((m: Raw) => m.content);
    const logDropped = droppedFromLog(game, rounds);
    for (const k of askedRounds(game, d, p)) {
      const sent = ask(p, k).slice(0, -1);
      const dropped = droppedBefore(game, k);
      let same = sent[0] === logged[0];
      let partly = false;
      for (let j = 1; j < sent.length; j++) {
        const at = dropped + j - 1 - logDropped; // its index among the logged history messages
        if (at < 0) partly = true;
        else same &&= sent[j] === logged[1 + at];
      }
      if (game !== "gamabench/battle_royale" && game !== "gamabench/pirate") same &&= sent.length - 1 === 3 * (k - 1) - dropped;
      if (same && partly) t.partlyLogged++;
      count(t, t.chat, same, file, `player_${p} round ${k}`, "the system message or history");
    }
  });
}

const share = ([same, all]: [number, number]) => `${same}/${all}${all ? ` (${((100 * same) / all).toFixed(1)} %)` : ""}`;

for (const [game, folders, builder] of GAMES) {
  test(`${game}: every published V1 run's recorded prompts, byte for byte`, {skip}, () => {
    const t: Tally = {chat: [0, 0], gemini: [0, 0], partlyLogged: 0, differing: new Map()};
    for (const folder of folders) {
      const files = readdirSync(join(dir!, folder)).filter((f) => /_v1_\d+\.json$/.test(f)).sort();
      for (const f of files) compareFile(game, `${folder}/${f}`, builder(folder), t);
    }
    assert.ok(t.chat[1] > 0 && t.gemini[1] > 0, "no run files read");
    const expected = EXPECTED_DIFFERENCES[game] ?? {};
    assert.deepEqual(Object.fromEntries(t.differing), expected, `${game}: the known differences and their counts`);
    console.log(`# ${game}: requests identical: chat runs ${share(t.chat)}${t.partlyLogged ? ` (${t.partlyLogged} of them partly logged)` : ""}, Gemini runs ${share(t.gemini)}`);
  });
}

/** How many requests differ, per known difference (a narrator change that fixes or breaks one changes these). */
const EXPECTED_DIFFERENCES: Record<string, Record<string, number>> = {
  // 5 runs × 10 players × 20 rounds.
  "gamabench/guessing": {"guessing_game/gpt-3.5-turbo-0613_guessing_game_v1_*.json": 1000},
  // Every request of the three role-play runs.
  "gamabench/pirate": {"pirate_game/pirate_game_v1_[145].json": 65},
};
