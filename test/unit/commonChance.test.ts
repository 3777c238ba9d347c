/**
 * The run config's chance schemes (loaders/runner/chance.ts): the per-game
 * streams are the ones every run drew before the scheme existed; under the
 * common scheme a game's chance depends on the seed, game, configuration and
 * repetition and never on who sits, each draw on its key (so games that take
 * different paths still draw the same numbers at the same place), and each
 * seat's own stream on the seat, not the lineup. Then, played through the
 * real runner, two lineups of one configuration draw the same private
 * values, costs, qualities, bounds and shots' luck; the built-in configs'
 * run fingerprints are those of earlier versions (so their directories
 * resume; test/integration/commonChance.test.ts checks that a directory
 * keeps its scheme), and the config key is checked.
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {readFileSync} from "node:fs";
import {join} from "node:path";
import {deriveRng, type Rng} from "../../src/lib/rng.js";
import {cellKey, commonStreams, gameStreams, inSequence, perGameStreams} from "../../loaders/runner/chance.js";
import {parseRunConfig, ConfigError} from "../../loaders/runner/runConfig.js";
import {runFingerprint} from "../../loaders/runner/resume.js";
import {runTournament, type GameRecord} from "../../loaders/runner/tournament.js";
import {gameDef} from "../../loaders/registry/games.js";
import {projectRoot} from "../../loaders/projectConfig.js";


const firsts = (rng: Rng, n = 4) => Array.from({length: n}, () => rng.next());

test("per-game streams are the ones runs drew before keys: (seed, game id)/chance for every key, /chance-nodes, /<seat name>", () => {
  const s = perGameStreams(9, "buy_sell-0-a-vs-b-3", ["red", "blue"]);
  assert.equal(s.chance("seller_cost"), s.chance("buyer_value"), "one stream, whatever the key");
  assert.deepEqual(firsts(s.chance("x")), firsts(deriveRng(9, "buy_sell-0-a-vs-b-3/chance")));
  assert.deepEqual(firsts(s.chanceNodes("y")), firsts(deriveRng(9, "buy_sell-0-a-vs-b-3/chance-nodes")));
  assert.deepEqual(firsts(s.seats[1]), firsts(deriveRng(9, "buy_sell-0-a-vs-b-3/blue")));
});

test("common streams: the game's configuration and repetition decide them, never the lineup; each key its own stream, continued when asked again", () => {
  const def = gameDef("negotiationarena/buy_sell");
  const params = {iterations: 10, seller_cost: 40, buyer_value: 60, budget: 100, valuation_spread: 20, denomination: 1};
  const planned = (lineup: string[], repetition: number, p = params) => ({def, params: p, lineup, repetition, game_id: `bs-0-${lineup.join("-vs-")}-${repetition}`});
  const a = gameStreams("common", 5, planned(["rational", "random"], 2));
  const b = gameStreams("common", 5, planned(["fixed-anchor", "random"], 2));
  assert.deepEqual(firsts(a.chance("seller_cost")), firsts(b.chance("seller_cost")), "same draws whoever sits");
  assert.deepEqual(firsts(a.seats[1]), firsts(b.seats[1]), "the opponent's own stream is the same whichever agent it faces");
  assert.notDeepEqual(firsts(a.seats[0]), firsts(a.seats[1]), "seats draw apart");
  assert.notDeepEqual(firsts(a.chance("buyer_value")), firsts(b.chance("seller_cost")), "keys draw apart");
  const again = gameStreams("common", 5, planned(["rational", "random"], 2));
  const first = again.chance("k").next();
  assert.notEqual(again.chance("k").next(), first, "asking for a key again continues its stream");
  assert.equal(first, commonStreams(5, {game: def.id, params, nSeats: 2, repetition: 2}, ["red", "blue"]).chance("k").next());
  // Another repetition, configuration or seed draws differently; the order parameters are listed in does not count.
  assert.notDeepEqual(firsts(gameStreams("common", 5, planned(["rational", "random"], 3)).chance("seller_cost")), firsts(a.chance("seller_cost")));
  assert.notDeepEqual(firsts(gameStreams("common", 5, planned(["rational", "random"], 2, {...params, valuation_spread: 10})).chance("seller_cost")), firsts(gameStreams("common", 5, planned(["rational", "random"], 2)).chance("seller_cost")));
  assert.notDeepEqual(firsts(gameStreams("common", 6, planned(["rational", "random"], 2)).chance("seller_cost")), firsts(gameStreams("common", 5, planned(["rational", "random"], 2)).chance("seller_cost")));
  const reordered = Object.fromEntries(Object.entries(params).reverse());
  assert.equal(cellKey({game: def.id, params: reordered, nSeats: 2, repetition: 2}), cellKey({game: def.id, params, nSeats: 2, repetition: 2}));
  const one = inSequence(deriveRng(1, "t"));
  assert.equal(one("a"), one("b"), "inSequence: one stream for every key");
});

/** Every game of `config` played in memory, by game id. */
async function play(raw: Record<string, unknown>): Promise<Map<string, GameRecord>> {
  const records = new Map<string, GameRecord>();
  await runTournament(parseRunConfig(raw, "t"), {onGame: (r) => void records.set(r.row.game_id, r)});
  return records;
}

/** Games of `records` by (configuration, repetition) and their lineup's first agent. */
function byCell(records: Map<string, GameRecord>): Map<string, Map<string, GameRecord>> {
  const cells = new Map<string, Map<string, GameRecord>>();
  for (const r of records.values()) {
    const key = `${r.row.config_id}/${r.row.repetition}`;
    if (!cells.has(key)) cells.set(key, new Map());
    cells.get(key)!.set(String(r.players[0].agent), r);
  }
  return cells;
}

/**
 * Two lineups of each configuration and repetition: `draws` of their games
 * are equal under the common scheme, and differ in most cells per game (the
 * check could fail).
 */
async function sameDraws(raw: Record<string, unknown>, draws: (r: GameRecord) => unknown): Promise<{common: number; perGame: number; cells: number}> {
  const count = async (chance: string) => {
    let same = 0;
    let cells = 0;
    for (const pair of byCell(await play({...raw, chance})).values()) {
      const [x, y] = [...pair.values()];
      cells++;
      if (JSON.stringify(draws(x)) === JSON.stringify(draws(y))) same++;
    }
    return {same, cells};
  };
  const [common, perGame] = [await count("common"), await count("per-game")];
  return {common: common.same, perGame: perGame.same, cells: common.cells};
}

test("two lineups of one configuration draw the same chance under the common scheme, and mostly not per game", async () => {
  const cases: [string, Record<string, unknown>, (r: GameRecord) => unknown][] = [
    ["NegotiationArena buy/sell: cost and value", {game: "negotiationarena/buy_sell", grid: {valuation_spread: [20]}, players: ["rational", "fixed-anchor", "split-difference"], lineups: [["rational", "split-difference"], ["fixed-anchor", "split-difference"]]}, (r) => [r.row.seller_cost, r.row.buyer_value]],
    ["GLEE persuasion: every round's quality", {family: "persuasion", grid: {prior: [0.5], value_high: [2], money: [100], horizon: [20], complete_information: [true], message_type: ["binary"], buyer_type: ["long_living"]}, players: ["truthful", "pushy", "bayesian"], pairs: [["truthful", "bayesian"], ["pushy", "bayesian"]]}, (r) => r.row.high_quality],
    ["Economics Arena auction: private values", {game: "econarena/auction", grid: {runs: [1]}, players: ["rational", "shade-25", "random"], lineups: [["rational", "random", "random", "random", "random"], ["shade-25", "random", "random", "random", "random"]]}, (r) => r.turns.filter((t) => t.value !== undefined).map((t) => [t.seat, t.value])],
    ["Economics Arena beauty contest: the drawn bound", {game: "econarena/beauty_contest", grid: {runs: [1], bound_group: ["M"]}, players: ["rational", "level-1", "level-2"], lineups: [["rational", "level-2", "level-2", "level-2", "level-2"], ["level-1", "level-2", "level-2", "level-2", "level-2"]]}, (r) => r.row.upper_bound],
    ["gamma-Bench sealed bid: every round's valuations", {game: "gamabench/sealed_bid", n_players: 4, grid: {rounds: [5]}, players: ["equilibrium", "shade-25", "random"], lineups: [["equilibrium", "random", "random", "random"], ["shade-25", "random", "random", "random"]]}, (r) => r.turns.filter((t) => t.action === "bid").map((t) => [t.round, t.seat, t.valuation])],
  ];
  for (const [what, raw, draws] of cases) {
    const n = await sameDraws({...raw, games_per_lineup: 6, seed: 11}, draws);
    assert.equal(n.common, n.cells, `${what}: every cell shares its draws under the common scheme`);
    assert.ok(n.perGame <= n.cells / 2, `${what}: per game, ${n.perGame} of ${n.cells} cells happen to share them`);
  }
});

test("battle royale: a shooter's luck on its k-th turn is the same whatever path the game took (common), not so per game", async () => {
  // Seat 0 shoots at random in one lineup and at the strongest in the other: the eliminations, and so
  // who shoots when and at whom, differ, but seat s's k-th turn draws from the key hit/s/k in both.
  const raw = {game: "gamabench/battle_royale", n_players: 4, players: ["random", "equilibrium"], lineups: [["random", "random", "random", "random"], ["equilibrium", "random", "random", "random"]], games_per_lineup: 8, seed: 3};
  /** Per (seat, its k-th turn) in a game: whether its shot hit (turns where it missed on purpose left out). */
  const shots = (r: GameRecord) => {
    const out = new Map<string, boolean>();
    const turns = new Map<number, number>();
    for (const t of r.turns.filter((x) => !x.rule_break && (x.action === "shoot" || x.action === "miss")).sort((x, y) => x.round - y.round)) {
      const k = (turns.get(t.seat) ?? 0) + 1;
      turns.set(t.seat, k);
      if (t.action === "shoot") out.set(`${t.seat}/${k}`, t.hit === true);
    }
    return out;
  };
  const compare = async (chance: string) => {
    let both = 0;
    let equal = 0;
    let pathsDiffer = 0;
    for (const pair of byCell(await play({...raw, chance})).values()) {
      const [x, y] = [pair.get("random")!, pair.get("equilibrium")!];
      const [sx, sy] = [shots(x), shots(y)];
      if (JSON.stringify(x.turns.map((t) => [t.seat, t.target])) !== JSON.stringify(y.turns.map((t) => [t.seat, t.target]))) pathsDiffer++;
      for (const [k, hit] of sx) {
        if (!sy.has(k)) continue;
        both++;
        if (sy.get(k) === hit) equal++;
      }
    }
    return {both, equal, pathsDiffer};
  };
  const common = await compare("common");
  assert.ok(common.pathsDiffer >= 6, `the games took different paths in ${common.pathsDiffer} of 8 cells`);
  assert.ok(common.both >= 20, `${common.both} shots taken at the same turn of the same seat in both games`);
  assert.equal(common.equal, common.both, "each hit or miss the same, whatever came before");
  const perGame = await compare("per-game");
  assert.ok(perGame.equal < perGame.both, `per game, ${perGame.equal} of ${perGame.both} shots agree (chance alone)`);
});

test("the built-in configs (which name per-game) keep their run fingerprints of earlier versions, so their directories resume; common changes it", () => {
  // Computed by Parley before the chance key existed, for data/runs/<name>.json as it was then.
  const before: Record<string, string> = {
    gtllm: "0d25384fca2a081f73d4ddb967810a5275c0348d3af38f768cc170bc109366b0",
    negotiationarena: "3c79ae4dfbef35858b4a111b1bc098cc6f5627678a8e64512ac28a68fbfc18fa",
    "llm-ollama": "6b212e85e66b4f3513e66738c54b7a52d28f412bf8ed859479d2127e45ebefad",
  };
  for (const [name, print] of Object.entries(before)) {
    const raw = JSON.parse(readFileSync(join(projectRoot, "data/runs", `${name}.json`), "utf8"));
    assert.equal(raw.chance, "per-game", `data/runs/${name}.json names its scheme`);
    const config = parseRunConfig(raw, name);
    assert.equal(runFingerprint(config), print, name);
    assert.notEqual(runFingerprint({...config, chance: "common"}), print);
    const {chance: _, ...unnamed} = raw;
    assert.equal(parseRunConfig(unnamed, name).chance, "common", "a config that names no scheme is common");
  }
});

test("the chance key: common by default, per-game when named, anything else one line naming the key", () => {
  const raw = {game: "negotiationarena/buy_sell", players: ["rational", "split-difference"], lineups: [["rational", "split-difference"]]};
  assert.equal(parseRunConfig(raw).chance, "common");
  assert.equal(parseRunConfig({...raw, chance: "per-game"}).chance, "per-game");
  assert.throws(() => parseRunConfig({...raw, chance: "shared"}), (e: Error) => e instanceof ConfigError && e.message === 'chance: expected "common" or "per-game", got "shared"');
});
