// The eight gamma-Bench games (gamma-Bench (Huang et al. 2024) §3) as Parley
// games: payoff rules on hand-worked rounds and on the actions the paper's raw
// files record, legal actions and rule-break messages, seeded determinism, and
// the ground-truth populations of §3.4 of the games spec, played through a
// small local loop and scored with S1..S8 written out here by hand.
import {test} from "node:test";
import assert from "node:assert/strict";
import {existsSync, readdirSync, readFileSync} from "node:fs";
import {join} from "node:path";
import {datasetsConfig} from "../../loaders/projectConfig.js";
import {parsePythonLiteral} from "../../loaders/ingest/pyrepr.js";
import type {Action, GameDef, GameResult, GameState, Params, Seat} from "../../loaders/contract/game.js";
import type {Agent, AgentDef} from "../../loaders/contract/agent.js";
import {gamabenchAgents, levelKAgent} from "../../loaders/papers/gamabench/agents.js";
import {gamabenchGames, battleRoyale, diner, divideDollar, elFarol, guessing, pirate, publicGoods, sealedBid} from "../../loaders/papers/gamabench/games.js";
import {guessingRound} from "../../loaders/papers/gamabench/guessing.js";
import {elFarolRound} from "../../loaders/papers/gamabench/elFarol.js";
import {dollarRound} from "../../loaders/papers/gamabench/divideDollar.js";
import {publicGoodsRound} from "../../loaders/papers/gamabench/publicGoods.js";
import {dinerRound} from "../../loaders/papers/gamabench/diner.js";
import {auctionRound} from "../../loaders/papers/gamabench/sealedBid.js";
import {strongestOther} from "../../loaders/papers/gamabench/battleRoyale.js";
import {pirateAccepted, pirateOptimalPlan, pirateOptimalVote} from "../../loaders/papers/gamabench/pirate.js";
import type {SettledResult} from "../../loaders/papers/gamabench/views.js";
import {deriveRng} from "../../src/lib/rng.js";
import {inSequence} from "../../loaders/runner/chance.js";

const close = (actual: number, expected: number, what: string, eps = 1e-9) => assert.ok(Math.abs(actual - expected) <= eps, `${what}: expected ${expected}, got ${actual}`);
const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
const mean = (xs: readonly number[]) => sum(xs) / xs.length;

// ---------------------------------------------------------------- a tiny local loop

interface Turn {
  round: number;
  seat: Seat;
  action: Action;
  info: Record<string, unknown>;
}

interface Played {
  state: GameState & {settled(): SettledResult[]};
  turns: Turn[];
  result: GameResult;
}

type Policy = (obs: ReturnType<GameState["observe"]>) => Action;
const scripted = (policy: Policy): AgentDef => ({id: "scripted", games: ["gamabench/*"], description: "test", source: "test", create: () => ({act: (obs) => ({action: policy(obs)})})});
const agent = (id: string) => gamabenchAgents.find((a) => a.id === id)!;

/** next → ask every seat named → validate (must be legal) → apply, until terminal. */
function play(def: GameDef, lineup: AgentDef | ((seat: Seat) => AgentDef), opts: {params?: Params; seed?: number; nSeats?: number} = {}): Played {
  const nSeats = opts.nSeats ?? 10;
  const seed = opts.seed ?? 1;
  const params = opts.params ?? {};
  const gameId = `${def.id}/test`;
  assert.equal(def.checkParams?.(params, nSeats) ?? null, null);
  const state = def.start(params, {gameId, nSeats, chance: inSequence(deriveRng(seed, `${gameId}/chance`))}) as Played["state"];
  const agents: Agent[] = Array.from({length: nSeats}, (_, seat) => (typeof lineup === "function" ? lineup(seat) : lineup).create({game: def.id, gameId, seat, seatName: null, nSeats, params}));
  const rngs = agents.map((_, seat) => deriveRng(seed, `${gameId}/seat${seat}`));
  const turns: Turn[] = [];
  for (let step = 0; step < 10000; step++) {
    const mover = state.next();
    if (mover.kind === "terminal") break;
    assert.equal(mover.kind, "seats");
    if (mover.kind !== "seats") break;
    const actions = mover.seats.map((seat) => {
      const obs = state.observe(seat);
      const action = (agents[seat].act(obs, rngs[seat]) as {action: unknown}).action as Action;
      const error = state.validate(seat, action);
      assert.equal(error, null, `${def.id} seat ${seat} round ${obs.round}: ${JSON.stringify(action)}: ${error}`);
      turns.push({round: obs.round, seat, action, info: state.turnInfo?.(seat) ?? {}});
      return action;
    });
    state.apply(actions);
  }
  return {state, turns, result: state.result()};
}

// ---------------------------------------------------------------- S1..S8, by hand (games spec §3.2)

const byRound = (turns: Turn[]) => {
  const out = new Map<number, Turn[]>();
  for (const t of turns) out.set(t.round, [...(out.get(t.round) ?? []), t]);
  return [...out.values()];
};

function s1(turns: Turn[], min: number, max: number, ratio: number): number {
  const raw = mean(turns.map((t) => (t.action.amount as number) - min));
  if (ratio < 1) return ((max - raw) / (max - min)) * 100;
  if (ratio === 1) return (Math.abs(2 * raw - (max - min)) / (max - min)) * 100;
  return (raw / (max - min)) * 100;
}
function s2(turns: Turn[], ratio: number): number {
  const raw = mean(byRound(turns).map((r) => Math.abs(r.filter((t) => t.action.choice === "go").length / r.length - ratio)));
  const m = Math.max(ratio, 1 - ratio);
  return ((m - raw) / m) * 100;
}
const s3 = (turns: Turn[], gold: number) => ((gold - mean(byRound(turns).map((r) => Math.abs(sum(r.map((t) => t.action.amount as number)) - gold)))) / gold) * 100;
const s4 = (turns: Turn[], tokens: number) => ((tokens - mean(turns.map((t) => t.action.amount as number))) / tokens) * 100;
const s5 = (turns: Turn[]) => (1 - mean(turns.map((t) => (t.action.choice === "cheap" ? 1 : 0)))) * 100;
function s7(turns: Turn[]): number {
  const hits = turns.map((t) => {
    const alive = t.info.alive as number[];
    const rates: number[] = [];
    alive.forEach((s, k) => (rates[s] = (t.info.alive_rates as number[])[k]));
    return t.action.type === "shoot" && t.action.target === strongestOther(alive, rates, t.seat) ? 1 : 0;
  });
  return mean(hits) * 100;
}
/** S8 = (2G − S8P)/(2G)·50 + S8V·50, S8P = mean L1 to the optimal plan, S8V = 2/(k(2N−k−1)) Σ correct votes. */
const s8 = (l1: number[], correct: number, n: number, gold: number) => {
  const k = l1.length;
  return ((2 * gold - mean(l1)) / (2 * gold)) * 50 + ((2 * correct) / (k * (2 * n - k - 1))) * 50;
};
function s8Of(turns: Turn[], n: number, gold: number): number {
  const l1: number[] = [];
  let correct = 0;
  for (const r of byRound(turns)) {
    const plan = r.find((t) => t.action.type === "propose")!.action.plan as number[];
    const optimal = pirateOptimalPlan(plan.length, gold);
    l1.push(sum(plan.map((g, i) => Math.abs(g - optimal[i]))));
    for (const t of r) {
      if (t.action.type !== "vote" || t.info.position === 1) continue;
      const a = t.info.allocation as number;
      const pos = t.info.position as number;
      const right = a >= 2 ? "accept" : a === 1 ? (pos % 2 === 1 ? "accept" : "reject") : "reject";
      if (t.action.choice === right) correct++;
    }
  }
  return s8(l1, correct, n, gold);
}

// ---------------------------------------------------------------- payoff rules on hand-worked rounds

test("guessing: target = R × mean; the closest number wins, ties all win", () => {
  const a = guessingRound([30, 40, 50], 2 / 3); // mean 40, target 26.67: 30 is closest
  close(a.mean, 40, "mean");
  close(a.target, 80 / 3, "target");
  assert.deepEqual(a.won, [true, false, false]);
  assert.deepEqual(a.payoffs, [1, 0, 0]);
  const b = guessingRound([20, 20, 30], 2 / 3); // target 15.56: both 20s tie
  assert.deepEqual(b.won, [true, true, false]);
  const c = guessingRound([10, 20, 15, 15], 1); // target 15: the two 15s win
  assert.deepEqual(c.won, [false, false, true, true]);
  const d = guessingRound([0, 30], 1); // target 15: 0 and 30 equally close, both win; the lower is reported
  assert.deepEqual(d.won, [true, true]);
  assert.equal(d.winning_number, 0);
});

test("El Farol: goers get MAX when at most R·N go (6 of 10), MIN when more; stayers HOME", () => {
  const rules = {ratio: 0.6, min: 0, max: 10, home: 5};
  const six = [..."gggggg"].map(() => "go").concat(["stay", "stay", "stay", "stay"]);
  assert.deepEqual(elFarolRound(six, rules), {goers: 6, fun: true, payoffs: [10, 10, 10, 10, 10, 10, 5, 5, 5, 5]});
  const seven = ["go", ...six.slice(0, 9)];
  assert.deepEqual(elFarolRound(seven, rules).payoffs, [0, 0, 0, 0, 0, 0, 0, 5, 5, 5]);
});

test("divide the dollar: bids are paid when they sum to at most G", () => {
  assert.deepEqual(dollarRound([25, 25, 25, 25], 100), {total: 100, exceeded: false, payoffs: [25, 25, 25, 25]});
  assert.deepEqual(dollarRound([50, 40, 30, 20], 100), {total: 140, exceeded: true, payoffs: [0, 0, 0, 0]});
});

test("public goods: T − c + R·Σc/N", () => {
  // Σc = 40, share = 2·40/4 = 20.
  assert.deepEqual(publicGoodsRound([0, 10, 20, 10], 20, 2), {total: 40, share: 20, payoffs: [40, 30, 20, 30]});
  assert.deepEqual(publicGoodsRound(new Array(10).fill(20), 20, 2).payoffs, new Array(10).fill(40));
  assert.deepEqual(publicGoodsRound(new Array(10).fill(0), 20, 2).payoffs, new Array(10).fill(20));
});

test("diner: U(dish) − Σ prices / N", () => {
  const prices = {cheap_cost: 10, cheap_utility: 15, exp_cost: 20, exp_utility: 20};
  // 9 cheap + 1 costly: bill 110, share 11: cheap 15 − 11 = 4, costly 20 − 11 = 9.
  const r = dinerRound(["costly", ...new Array(9).fill("cheap")], prices);
  assert.equal(r.share, 11);
  assert.equal(r.total, 110);
  assert.deepEqual(r.payoffs, [9, 4, 4, 4, 4, 4, 4, 4, 4, 4]);
  assert.deepEqual(dinerRound(new Array(10).fill("costly"), prices).payoffs, new Array(10).fill(0));
  assert.deepEqual(dinerRound(new Array(10).fill("cheap"), prices).payoffs, new Array(10).fill(5));
});

test("sealed-bid auction: highest bid wins, pays its bid (first) or the second-highest (second)", () => {
  const values = [100, 90, 120, 20];
  const last = (tied: number[]) => tied[tied.length - 1];
  const first = auctionRound([50, 80, 80, 10], values, "first", last);
  assert.deepEqual(first, {winner: 2, winning_bid: 80, price: 80, won: [false, false, true, false], payoffs: [0, 0, 40, 0]});
  const tied = auctionRound([50, 80, 80, 10], values, "second", (t) => t[0]);
  assert.deepEqual([tied.winner, tied.price, tied.payoffs[1]], [1, 80, 10]);
  const second = auctionRound([50, 80, 70, 10], values, "second", last);
  assert.deepEqual([second.winner, second.price, second.payoffs], [1, 70, [0, 20, 0, 0]]);
});

test("battle royale: the strongest other survivor; pirate: Stewart's plan, vote rule and the ≥ 50% majority", () => {
  const rates = [35, 40, 45, 50, 55, 60, 65, 70, 75, 80];
  assert.equal(strongestOther([0, 3, 9], rates, 0), 9);
  assert.equal(strongestOther([0, 3, 9], rates, 9), 3);
  assert.equal(strongestOther([4], rates, 4), null);
  assert.deepEqual(pirateOptimalPlan(10, 100), [96, 0, 1, 0, 1, 0, 1, 0, 1, 0]);
  assert.deepEqual(pirateOptimalPlan(9, 100), [96, 0, 1, 0, 1, 0, 1, 0, 1]);
  assert.deepEqual(pirateOptimalPlan(8, 100), [97, 0, 1, 0, 1, 0, 1, 0]);
  assert.deepEqual(pirateOptimalPlan(10, 4), [0, 0, 1, 0, 1, 0, 1, 0, 1, 0]);
  assert.deepEqual(pirateOptimalPlan(10, 2), [0, 0, 1, 0, 1, 0, 0, 0, 0, 0]);
  assert.deepEqual([pirateOptimalVote(2, 2), pirateOptimalVote(0, 3), pirateOptimalVote(1, 3), pirateOptimalVote(1, 4), pirateOptimalVote(0, 1)], ["accept", "reject", "accept", "reject", "accept"]);
  assert.deepEqual([pirateAccepted(5, 10), pirateAccepted(4, 9), pirateAccepted(5, 9), pirateAccepted(1, 2)], [true, false, true, true]);
});

// ---------------------------------------------------------------- the paper's raw files

const datasets = datasetsConfig().dir;
const rawDir = datasets ? join(datasets, "gamabench") : null;
const skipRaw = !rawDir || !existsSync(rawDir) ? `gamma-Bench raw results not found (${rawDir ?? "no datasets directory"}); set PARLEY_DATASETS` : false;

type Json = Record<string, any>;
function rawFiles(sub: string): {file: string; data: Json; players: Json[]}[] {
  const dir = join(rawDir!, sub);
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => {
      const data = JSON.parse(readFileSync(join(dir, f), "utf8"));
      const pd = typeof data.player_data === "string" ? parsePythonLiteral(data.player_data) : data.player_data;
      return {file: `${sub}/${f}`, data, players: Array.isArray(pd) ? (pd as Json[]) : []};
    });
}

/**
 * Each round's actions by player. round_records lists some games' answers in
 * arrival order, so (as the ingest does) each player's own `records` are used
 * when, in every round, they are a reordering of the listed answers.
 */
function actionsByPlayer(data: Json, players: Json[], norm: (x: unknown) => string | number): (string | number)[][] {
  const rounds = data.round_records as Json[];
  const n = data.meta.player_num as number;
  const key = (x: unknown) => String(x).trim().toLowerCase();
  const own = players.map((p) => p.records as unknown[] | undefined);
  const byPlayer =
    own.length >= n &&
    own.slice(0, n).every((r) => Array.isArray(r) && r.length >= rounds.length) &&
    rounds.every((r, j) => {
      const listed = (r.responses as unknown[]).map(key).sort();
      const mine = own.slice(0, n).map((o) => key(o![j])).sort();
      return listed.length === n && listed.every((x, k) => x === mine[k]);
    });
  return rounds.map((r, j) => (byPlayer ? own.slice(0, n).map((o) => norm(o![j])) : (r.responses as unknown[]).map(norm)));
}

const asChoice = (x: unknown) => String(x).trim().toLowerCase();
const asNumber = (x: unknown) => Number(x);

/** Compares the rule's payoffs with each player's recorded utility list; returns how many were compared. */
function compareUtilities(files: ReturnType<typeof rawFiles>, norm: (x: unknown) => string | number, payoffs: (actions: any[], meta: Json) => number[], recorded: (u: number) => number = (u) => u): number {
  let compared = 0;
  for (const {file, data, players} of files) {
    const rounds = actionsByPlayer(data, players, norm);
    rounds.forEach((actions, j) => {
      const ours = payoffs(actions, data.meta);
      players.forEach((p, i) => {
        const u = Array.isArray(p.utility) ? p.utility[j] : undefined;
        if (typeof u !== "number") return;
        close(ours[i], recorded(u), `${file} round ${j + 1} player ${i}`, 1e-6);
        compared++;
      });
    });
  }
  return compared;
}

test("raw files: El Farol, divide the dollar and diner payoffs by the rules equal the utilities the files record", {skip: skipRaw}, () => {
  const bar = (a: string[], m: Json) => elFarolRound(a, {ratio: m.ratio, min: m.min, max: m.max, home: m.home}).payoffs;
  const n1 = compareUtilities([...rawFiles("bar_game_explicit"), ...rawFiles("bar_game_implicit")], asChoice, bar);
  const n2 = compareUtilities(rawFiles("divide_dollar"), asNumber, (a: number[], m) => dollarRound(a, m.golds).payoffs);
  const n3 = compareUtilities(rawFiles("diner_dilemma"), asChoice, (a: string[], m) => dinerRound(a, m as any).payoffs);
  assert.ok(n1 > 10000 && n2 > 10000 && n3 > 10000, `compared ${n1}, ${n2}, ${n3}`);
});

test("raw files: public goods records the tokens kept, our payoff minus the public share (T − c)", {skip: skipRaw}, () => {
  const n = compareUtilities(rawFiles("public_goods"), asNumber, (a: number[], m) => {
    const r = publicGoodsRound(a, m.tokens, m.ratio);
    return r.payoffs.map((p) => p - r.share);
  });
  assert.ok(n > 10000, `compared ${n}`);
});

test("raw files: both auctions' winners, prices and utilities follow the rules", {skip: skipRaw}, () => {
  let compared = 0;
  for (const pricing of ["first", "second"] as const) {
    for (const {file, data} of rawFiles(`sealed_bid_auction/${pricing}_price`)) {
      (data.round_records as Json[]).forEach((r, j) => {
        const recordedWinner = Number(String(r.bid_winner).split("_").at(-1));
        const ours = auctionRound(r.responses, r.valuations, pricing, (tied) => (tied.includes(recordedWinner) ? recordedWinner : -1));
        assert.equal(ours.winner, recordedWinner, `${file} round ${j + 1}: winner`);
        assert.equal(ours.price, r.bid_winner_payment, `${file} round ${j + 1}: price`);
        assert.deepEqual(ours.payoffs, r.utility, `${file} round ${j + 1}: utilities`);
        compared++;
      });
    }
  }
  assert.ok(compared > 2000, `compared ${compared}`);
});

test("raw files: the guessing game's winning number and the pirate game's accept/reject follow the rules", {skip: skipRaw}, () => {
  let rounds = 0;
  for (const {file, data, players} of rawFiles("guessing_game")) {
    actionsByPlayer(data, players, asNumber).forEach((xs, j) => {
      const r = guessingRound(xs as number[], data.meta.ratio);
      const rec = data.round_records[j];
      close(r.mean, rec.mean, `${file} round ${j + 1}: mean`, 1e-6);
      // The file names one winning number; with two numbers equally close it may be either.
      assert.ok(r.won[(xs as number[]).indexOf(rec.winner)], `${file} round ${j + 1}: ${rec.winner} should be a winning number (target ${r.target})`);
      rounds++;
    });
  }
  for (const {file, data} of rawFiles("pirate_game")) {
    const recs = data.round_records as Json[];
    recs.forEach((r, j) => {
      const accepted = pirateAccepted(r.responses.filter((v: string) => v === "accept").length, r.responses.length);
      // Every proposal but the last was rejected; the last passed unless only one pirate was left after it.
      if (j < recs.length - 1) assert.equal(accepted, false, `${file} round ${j + 1}`);
      else assert.ok(accepted || r.responses.length === 2, `${file} round ${j + 1}: the last proposal should pass`);
      rounds++;
    });
  }
  assert.ok(rounds > 1000, `rounds ${rounds}`);
});

// ---------------------------------------------------------------- legal actions and rule breaks

test("legal actions are data and validate names the field and what was expected", () => {
  const rng = deriveRng(1, "legal");
  const g = guessing.start({}, {gameId: "g", nSeats: 10, chance: inSequence(rng)});
  assert.deepEqual(g.legal(0), [{type: "choose", numbers: {amount: {min: 0, max: 100, integer: true}}}]);
  assert.equal(g.validate(0, {type: "choose", amount: 2.5}), "amount: expected a whole number, got 2.50000");
  assert.equal(g.validate(0, {type: "choose", amount: 101}), "amount: 101 is above the maximum 100");
  assert.equal(g.validate(0, {type: "choose", amount: -1}), "amount: -1 is below the minimum 0");
  assert.equal(g.validate(0, {type: "choose", amount: "50"}), 'amount: expected a number, got "50"');
  assert.match(g.validate(0, {type: "bid", amount: 5})!, /action type "bid" is not allowed now; expected "choose"/);
  for (const junk of [null, "50", [], 50, undefined]) assert.ok(g.validate(0, junk));
  assert.match(g.validate(10, {type: "choose", amount: 5})!, /seat 10 is not in this game/);
  assert.throws(() => g.apply(new Array(10).fill({type: "choose", amount: 500})), /seat 0, round 1: amount: 500 is above the maximum 100/);
  assert.throws(() => g.apply([{type: "choose", amount: 5}]), /one action per seat/);

  const bar = elFarol.start({}, {gameId: "b", nSeats: 10, chance: inSequence(rng)});
  assert.equal(bar.validate(0, {type: "decide", choice: "maybe"}), 'choice: expected one of "go", "stay", got "maybe"');

  const auction = sealedBid.start({}, {gameId: "a", nSeats: 10, chance: inSequence(rng)});
  const v = auction.observe(3).view as {valuation: number};
  assert.deepEqual(auction.turnInfo!(3), {valuation: v.valuation});
  assert.equal(auction.validate(3, {type: "bid", amount: v.valuation + 1}), `amount: ${v.valuation + 1} is above the maximum ${v.valuation}`);

  const goods = publicGoods.start({}, {gameId: "p", nSeats: 10, chance: inSequence(rng)});
  assert.equal(goods.validate(0, {type: "contribute", amount: 21}), "amount: 21 is above the maximum 20");

  const br = battleRoyale.start({}, {gameId: "br", nSeats: 10, chance: inSequence(rng)});
  assert.deepEqual(br.next(), {kind: "seats", seats: [0]});
  assert.deepEqual(br.legal(1), []);
  assert.match(br.validate(1, {type: "miss"})!, /it is seat 0's turn/);
  assert.equal(br.validate(0, {type: "shoot", target: 12}), "target: 12 is above the maximum 9");
  assert.equal(br.validate(0, {type: "shoot", target: "player_3"}), 'target: expected a number, got "player_3"');
  assert.match(br.validate(0, {type: "shoot", target: 0})!, /cannot shoot yourself/);
  assert.equal(br.validate(0, {type: "miss"}), null);
  assert.deepEqual(br.turnInfo!(0), {hit_rate: 35, position: 1, alive: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], alive_rates: [35, 40, 45, 50, 55, 60, 65, 70, 75, 80]});
  // Shoot until someone is out, then aim at the dead seat.
  let dead: number | null = null;
  for (let i = 0; i < 200 && dead === null; i++) {
    const shooter = (br.next() as unknown as {seats: number[]}).seats[0];
    const target = shooter === 9 ? 8 : 9;
    br.apply([{type: "shoot", target}]);
    if ((br.observe(0).view as {history: {hit: boolean; target: number}[]}).history.at(-1)!.hit) dead = target;
  }
  assert.notEqual(dead, null);
  const shooter = (br.next() as unknown as {seats: number[]}).seats[0];
  if (shooter !== dead) assert.match(br.validate(shooter, {type: "shoot", target: dead})!, new RegExp(`seat ${dead} is already out`));

  const pg = pirate.start({}, {gameId: "pg", nSeats: 10, chance: inSequence(rng)});
  assert.deepEqual(pg.legal(0), [{type: "propose", lists: {plan: {length: 10, item: {min: 0, max: 100, integer: true}}}, sum: {fields: ["plan"], equals: 100}}]);
  assert.equal(pg.validate(0, {type: "propose", plan: [100, 0, 0]}), "plan: expected 10 entries, got 3");
  assert.equal(pg.validate(0, {type: "propose", plan: [90, 0, 0, 0, 0, 0, 0, 0, 0, 0]}), "plan must equal 100, got 90");
  assert.equal(pg.validate(0, {type: "propose", plan: [99.5, 0.5, 0, 0, 0, 0, 0, 0, 0, 0]}), "plan[0]: expected a whole number, got 99.5000");
  assert.equal(pg.validate(0, {type: "propose", plan: [101, -1, 0, 0, 0, 0, 0, 0, 0, 0]}), "plan[0]: 101 is above the maximum 100");
  assert.match(pg.validate(1, {type: "propose", plan: pirateOptimalPlan(10, 100)})!, /seat 0 proposes now/);
  pg.apply([{type: "propose", plan: [100, 0, 0, 0, 0, 0, 0, 0, 0, 0]}]);
  assert.deepEqual(pg.next(), {kind: "seats", seats: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]});
  assert.deepEqual(pg.turnInfo!(4), {position: 5, allocation: 0});
  assert.equal(pg.validate(4, {type: "vote", choice: "yes"}), 'choice: expected one of "accept", "reject", got "yes"');
  pg.apply([{type: "vote", choice: "accept"}, ...new Array(9).fill({type: "vote", choice: "reject"})]);
  assert.deepEqual(pg.next(), {kind: "seats", seats: [1]});
  assert.deepEqual(pg.legal(1)[0].lists, {plan: {length: 9, item: {min: 0, max: 100, integer: true}}});
  pg.apply([{type: "propose", plan: pirateOptimalPlan(9, 100)}]);
  assert.match(pg.validate(0, {type: "vote", choice: "accept"})!, /thrown overboard/);
});

test("rule breaks: abort ends the game after the completed rounds with ended_by rule_break", () => {
  const rng = deriveRng(2, "abort");
  const d = divideDollar.start({}, {gameId: "d", nSeats: 4, chance: inSequence(rng)});
  for (let r = 0; r < 3; r++) d.apply([{type: "bid", amount: 10}, {type: "bid", amount: 20}, {type: "bid", amount: 30}, {type: "bid", amount: 40}]);
  d.abort(2, "amount: expected a whole number, got 2.50000");
  assert.deepEqual(d.next(), {kind: "terminal"});
  assert.deepEqual(d.legal(0), []);
  assert.equal(d.validate(0, {type: "bid", amount: 1}), "the game is over");
  const r = d.result();
  assert.equal(r.rounds, 3);
  assert.equal(r.ended_by, "rule_break");
  assert.deepEqual(r.returns, [30, 60, 90, 120]);

  const br = battleRoyale.start({}, {gameId: "br", nSeats: 3, chance: inSequence(rng)});
  br.apply([{type: "miss"}]);
  br.abort(1, "x");
  assert.deepEqual(br.next(), {kind: "terminal"});
  assert.deepEqual([br.result().ended_by, br.result().rounds, br.result().returns], ["rule_break", 1, [1 / 3, 1 / 3, 1 / 3]]);

  const pg = pirate.start({}, {gameId: "pg", nSeats: 3, chance: inSequence(rng)});
  pg.apply([{type: "propose", plan: [100, 0, 0]}]);
  pg.abort(2, "x");
  assert.deepEqual([pg.result().ended_by, pg.result().rounds, pg.result().returns], ["rule_break", 0, [0, 0, 0]]);
});

// ---------------------------------------------------------------- seeded randomness

test("same seed, same game; another seed draws other valuations and other hits", () => {
  const auction = (seed: number) => play(sealedBid, agent("equilibrium"), {seed});
  const a = auction(7);
  const b = auction(7);
  const c = auction(8);
  const valuations = (p: Played) => p.turns.map((t) => t.info.valuation);
  assert.deepEqual(valuations(a), valuations(b));
  assert.deepEqual(a.result, b.result);
  assert.deepEqual(a.state.settled(), b.state.settled());
  assert.notDeepEqual(valuations(a), valuations(c));
  // Valuations: distinct multiples of 10 in [0, 200] every round.
  for (const r of byRound(a.turns)) {
    const vs = r.map((t) => t.info.valuation as number);
    assert.equal(new Set(vs).size, 10);
    assert.ok(vs.every((v) => v % 10 === 0 && v >= 0 && v <= 200));
  }

  const battle = (seed: number) => play(battleRoyale, agent("equilibrium"), {seed});
  const hits = (p: Played) => p.state.settled().map((s) => s.hit);
  assert.deepEqual(hits(battle(3)), hits(battle(3)));
  assert.deepEqual(battle(3).result, battle(3).result);
  assert.notDeepEqual(hits(battle(3)), hits(battle(4)));
});

// ---------------------------------------------------------------- ground-truth populations (games spec §3.4)

test("all-equilibrium play scores 100 in Guess 2/3 (and R > 1), El Farol, Divide the Dollar, Public Goods and Diner", () => {
  const eq = agent("equilibrium");
  const g = play(guessing, eq);
  assert.equal(s1(g.turns, 0, 100, 2 / 3), 100);
  assert.deepEqual(g.result.returns, new Array(10).fill(20)); // everyone ties every round
  assert.equal(s1(play(guessing, eq, {params: {ratio: 4 / 3}}).turns, 0, 100, 4 / 3), 100);
  const bar = play(elFarol, eq);
  assert.equal(s2(bar.turns, 0.6), 100);
  assert.deepEqual(bar.result.returns, [200, 200, 200, 200, 200, 200, 100, 100, 100, 100]);
  assert.equal(s3(play(divideDollar, eq).turns, 100), 100);
  const d = play(divideDollar, eq, {params: {gold: 105}, nSeats: 10});
  assert.deepEqual(d.turns.slice(0, 10).map((t) => t.action.amount), [11, 11, 11, 11, 11, 10, 10, 10, 10, 10]);
  assert.equal(s3(d.turns, 105), 100);
  const goods = play(publicGoods, eq);
  assert.equal(s4(goods.turns, 20), 100);
  assert.deepEqual(goods.result.returns, new Array(10).fill(400)); // 20 per round
  assert.equal(s5(play(diner, eq).turns), 100);
});

test("scripted populations: all cheap 0, all go 33.3, all bid 11 → 90, all guess 50 → 50, all contribute 20 → 0", () => {
  close(s5(play(diner, scripted(() => ({type: "order", choice: "cheap"}))).turns), 0, "all cheap");
  close(s2(play(elFarol, scripted(() => ({type: "decide", choice: "go"}))).turns, 0.6), 100 / 3, "all go");
  close(s2(play(elFarol, scripted(() => ({type: "decide", choice: "stay"}))).turns, 0.6), 0, "all stay");
  close(s3(play(divideDollar, scripted(() => ({type: "bid", amount: 11}))).turns, 100), 90, "all bid 11");
  close(s1(play(guessing, scripted(() => ({type: "choose", amount: 50}))).turns, 0, 100, 2 / 3), 50, "all 50");
  const all20 = play(publicGoods, scripted(() => ({type: "contribute", amount: 20})));
  close(s4(all20.turns, 20), 0, "all contribute");
  assert.deepEqual(all20.result.returns, new Array(10).fill(800)); // 40 per round
});

test("battle royale: shooting the strongest other survivor scores 100 whatever the hits", () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    const p = play(battleRoyale, agent("equilibrium"), {seed});
    assert.equal(s7(p.turns), 100, `seed ${seed}`);
    assert.ok(["last_survivor", "round_cap"].includes(p.result.ended_by));
    assert.ok(p.result.rounds <= 20);
    close(sum(p.result.returns), 1, "returns share 1");
    const survived = p.result.seats.filter((s) => s.survived).length;
    assert.equal(p.result.game.winner, survived === 1 ? p.result.seats.findIndex((s) => s.survived) : null);
    // Turn order: ascending hit rate (seat order), cycling over the survivors.
    assert.equal(p.turns[0].seat, 0);
    for (let i = 0; i + 1 < p.turns.length; i++) {
      const before = p.turns[i].info.alive as number[];
      const after = p.turns[i + 1].info.alive as number[];
      const k = before.indexOf(p.turns[i].seat);
      const next = [...before.slice(k + 1), ...before.slice(0, k + 1)].find((s) => after.includes(s));
      assert.equal(p.turns[i + 1].seat, next, `seed ${seed}, turn ${i + 2}`);
    }
  }
});

test("pirate: the Stewart plan with the vote rule passes in round 1 with 5 of 10 and scores 100", () => {
  const p = play(pirate, agent("equilibrium"));
  assert.equal(p.result.ended_by, "accepted");
  assert.equal(p.result.rounds, 1);
  assert.deepEqual(p.result.returns, [96, 0, 1, 0, 1, 0, 1, 0, 1, 0]);
  assert.equal(p.turns.filter((t) => t.action.choice === "accept").length, 5);
  assert.equal(p.result.game.winner, 0);
  close(s8Of(p.turns, 10, 100), 100, "S8");
  assert.deepEqual(p.state.settled().map((s) => s.payoff), [96, 0, 1, 0, 1, 0, 1, 0, 1, 0]);
});

test("pirate: Table 3's game played out gives S8P 8, 6, 94, votes 9/9, 6/8, 4/7 and S8 = 80.58", () => {
  // Round 1: seat 0 keeps everything, everyone else rejects. Round 2: seat 1 proposes [99, 0, 1, 0, ...];
  // seats 1, 3, 4, 9 accept (4 of 9: rejected). Round 3: seat 2 proposes [50, 1, 44, 1, 1, 1, 1, 1];
  // all accept except seat 3.
  const plans: Record<number, number[]> = {1: [100, 0, 0, 0, 0, 0, 0, 0, 0, 0], 2: [99, 0, 1, 0, 0, 0, 0, 0, 0], 3: [50, 1, 44, 1, 1, 1, 1, 1]};
  const accepts: Record<number, number[]> = {1: [0], 2: [1, 3, 4, 9], 3: [2, 4, 5, 6, 7, 8, 9]};
  const table3 = scripted((obs) => (obs.legal[0].type === "propose" ? {type: "propose", plan: plans[obs.round]} : {type: "vote", choice: accepts[obs.round].includes(obs.seat) ? "accept" : "reject"}));
  const p = play(pirate, table3);
  assert.equal(p.result.rounds, 3);
  assert.equal(p.result.ended_by, "accepted");
  assert.deepEqual(p.result.returns, [0, 0, 50, 1, 44, 1, 1, 1, 1, 1]);
  const l1 = byRound(p.turns).map((r) => {
    const plan = r[0].action.plan as number[];
    return sum(plan.map((g, i) => Math.abs(g - pirateOptimalPlan(plan.length, 100)[i])));
  });
  assert.deepEqual(l1, [8, 6, 94]);
  close(s8(l1, 9 + 6 + 4, 10, 100), 80.58, "S8 from the printed parts", 0.01);
  close(s8Of(p.turns, 10, 100), 80.58, "S8 of the played game", 0.01);
});

// ---------------------------------------------------------------- views, settled(), columns, agents

test("views: implicit El Farol tells a stayer only its own HOME utility; explicit tells everyone", () => {
  const k6 = scripted((obs) => ({type: "decide", choice: obs.seat < 7 ? "go" : "stay"}));
  for (const feedback of ["implicit", "explicit"]) {
    const p = play(elFarol, k6, {params: {feedback, rounds: 2}});
    const stayer = p.state.observe(9).view as any;
    const goer = p.state.observe(0).view as any;
    assert.deepEqual(goer.history[0], {round: 1, choice: "go", gained: 0, went: 7, stayed: 3, fun: false});
    assert.deepEqual(stayer.history[0], feedback === "implicit" ? {round: 1, choice: "stay", gained: 5, went: null, stayed: null, fun: null} : {round: 1, choice: "stay", gained: 5, went: 7, stayed: 3, fun: false});
    assert.equal(p.result.game.variant, `bar_game_${feedback}`);
  }
  const g = play(guessing, scripted((obs) => ({type: "choose", amount: obs.seat * 10})), {params: {rounds: 1}});
  // Mean 45, target 30: seat 3 wins.
  assert.deepEqual((g.state.observe(3).view as any).history, [{round: 1, average: 45, target: 30, winning_number: 30, chosen: 30, won: true}]);
  const a = play(sealedBid, agent("equilibrium"), {params: {pricing: "second", rounds: 1}});
  const h = (a.state.observe(0).view as any).history[0];
  assert.deepEqual(Object.keys(h), ["round", "valuation", "bid", "winning_bid", "price", "won", "utility"]);
  assert.equal(h.bid, h.valuation);
});

test("settled() lists each resolved round's per-seat results for the turns rows", () => {
  const g = play(guessing, agent("equilibrium"), {params: {rounds: 2}, nSeats: 3});
  assert.deepEqual(g.state.settled(), [0, 1, 2, 0, 1, 2].map((seat, k) => ({round: k < 3 ? 1 : 2, seat, action: "choose", payoff: 1, won: true})));
  const a = play(sealedBid, agent("equilibrium"), {params: {rounds: 3}});
  const s = a.state.settled();
  assert.equal(s.length, 30);
  assert.ok(s.every((x) => x.action === "bid" && typeof x.won === "boolean" && typeof x.payoff === "number"));
  assert.equal(s.filter((x) => x.won).length, 3);
  const b = play(battleRoyale, agent("equilibrium"));
  assert.deepEqual(b.state.settled().map((x) => [x.round, x.seat]), b.turns.map((t) => [t.round, t.seat]));
});

test("every game declares its columns, params with their defaults in the grid, and 10 seats by default", () => {
  assert.deepEqual(gamabenchGames.map((d) => d.id), ["gamabench/guessing", "gamabench/el_farol", "gamabench/divide_dollar", "gamabench/public_goods", "gamabench/diner", "gamabench/sealed_bid", "gamabench/battle_royale", "gamabench/pirate"]);
  for (const def of gamabenchGames) {
    assert.equal(def.seats.default, 10);
    for (const p of def.params) assert.ok(p.grid.includes(p.default), `${def.id}.${p.name}: default ${p.default} not in the grid`);
    const names = (cols: readonly {name: string}[]) => new Set(cols.map((c) => c.name));
    const p = play(def, agent("random"), {seed: 11});
    for (const k of Object.keys(def.paramColumns!({}))) assert.ok(names(def.columns.games).has(k), `${def.id}: param column ${k}`);
    for (const k of Object.keys(p.result.game)) assert.ok(names(def.columns.games).has(k), `${def.id}: game column ${k}`);
    for (const s of p.result.seats) for (const k of Object.keys(s)) assert.ok(names(def.columns.players).has(k), `${def.id}: player column ${k}`);
    for (const t of p.turns) for (const k of [...Object.keys(t.info), ...Object.keys(t.action).filter((f) => f !== "type")]) assert.ok(names(def.columns.turns).has(k), `${def.id}: turns column ${k}`);
    for (const s of p.state.settled()) for (const k of ["payoff", "won", "hit"]) if (k in s) assert.ok(names(def.columns.turns).has(k), `${def.id}: settled ${k}`);
    assert.equal(p.result.returns.length, 10);
  }
  assert.equal(battleRoyale.checkParams!({base_hit_rate: 35, hit_interval: 10}, 10), "hit rates 35% + 9 × 10% reach 125%, above 100%");
  assert.match(sealedBid.checkParams!({valuation_max: 50}, 10)!, /6 values for 10 players/);
});

test("every built-in agent plays legally in every game it lists, over several seeds", () => {
  const agents = [...gamabenchAgents, levelKAgent(0), levelKAgent(5)];
  for (const a of agents) {
    for (const def of gamabenchGames.filter((d) => a.games.includes(d.id))) {
      for (const seed of [1, 2, 3]) {
        const p = play(def, (seat) => (seat % 2 === 0 ? a : agent("random")), {seed, params: def.id === "gamabench/sealed_bid" && seed === 2 ? {pricing: "second"} : {}});
        assert.notEqual(p.result.ended_by, "unfinished", `${a.id} in ${def.id}`);
      }
    }
  }
  // Level-k in the vanilla guessing game: 50, 33, 22, 15.
  const lk = (k: number) => play(guessing, levelKAgent(k), {params: {rounds: 1}}).turns[0].action.amount;
  assert.deepEqual([0, 1, 2, 3].map(lk), [50, 33, 22, 15]);
  // The first-price equilibrium bid is ⌊0.9 v⌋.
  const fp = play(sealedBid, agent("equilibrium"), {params: {rounds: 2}});
  assert.ok(fp.turns.every((t) => t.action.amount === Math.floor(0.9 * (t.info.valuation as number))));
});
