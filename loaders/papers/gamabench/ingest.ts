/**
 * gamma-Bench raw results adapter (gamma-Bench (Huang et al. 2024);
 * CUHK-ARISE/GAMABench raw_results).
 *
 * Every `<model>_<game>_v1_<run>.json` under the directory (no model prefix
 * means gpt-3.5-turbo-0125) holds `meta` (the game's parameters),
 * `round_records` (per-round actions and outcomes) and `player_data` (each
 * agent's transcript and records; a JSON list, or in some exports a Python
 * repr string, which is parsed by loaders/ingest/pyrepr.ts or kept as text).
 * The sealed-bid auction lives in first_price/ and second_price/ folders with
 * the same file names; `meta.mode` tells them apart.
 *
 * Output tables, in the common data model (DESIGN.md; loaders/contract/tables.ts
 * and loaders/papers/gamabench/columns.ts), so the one score SQL of
 * src/lib/gamabench.ts reads these and Parley's own runs alike:
 * - games: one row per file (`game` = gamabench/guessing, ...; the raw game
 *   name in `variant`, El Farol feedback and auction pricing in `mode`);
 * - players: one row per seat, `return` = the seat's total payoff by the
 *   rules (battle royale: 1 for the last one standing, 0 for the others;
 *   pirate game: the gold of the plan that passed, 0 overboard);
 * - turns: one row per recorded decision (see `seatsAndTurns`);
 * - rounds: per-round totals and outcomes, a convenience for the page's
 *   charts (derived from the same decisions; the scores do not read it);
 * - messages: the transcripts.
 * A file that cannot be read, names an unknown game, or lacks a field the
 * scores need is reported (file, field) and skipped. Payoffs follow the rules
 * in the paper's Appendix C, computed by the games' own payoff functions
 * (loaders/games/gamabench/); the values a file itself records per player
 * are kept apart in `utility_recorded`.
 */
import {idProblem} from "../../io/ids.js";
import {readdirSync, readFileSync, statSync} from "node:fs";
import {join, relative, sep} from "node:path";
import type {Column, Row, TableSchema} from "../../io/schema.js";
import {COMMON_GAME_COLUMNS, COMMON_PLAYER_COLUMNS, COMMON_TURN_COLUMNS} from "../../contract/tables.js";
import {GB_GAME, GB_PLAYER, GB_TURN} from "./columns.js";
import {GAMABENCH_GAMES} from "../../../src/lib/gamabench.js";
import type {IngestResult, Problem} from "../../ingest/types.js";
import {parsePythonLiteral} from "../../ingest/pyrepr.js";
import {guessingRound} from "./guessing.js";
import {elFarolRound} from "./elFarol.js";
import {dollarRound} from "./divideDollar.js";
import {publicGoodsRound} from "./publicGoods.js";
import {dinerRound} from "./diner.js";
import {auctionPayoffs, auctionPrice} from "./sealedBid.js";
import {pirateAccepted} from "./pirate.js";

const GAME_COLUMN: Column = {name: "game", type: "VARCHAR", nullable: false, doc: "game id (gamabench/guessing, ...); a run directory carries it as its partition instead"};

/** games: one row per raw-results file; the common columns, `game`, then the gamma-Bench parameters and outcome. */
export const GAMABENCH_GAMES_TABLE: TableSchema = {
  name: "games",
  key: ["game_id"],
  columns: [
    ...COMMON_GAME_COLUMNS.slice(0, 2),
    GAME_COLUMN,
    ...COMMON_GAME_COLUMNS.slice(2),
    ...Object.values(GB_GAME),
  ],
};

/** rounds: a derived convenience (per-round totals and outcomes for the page's charts); the scores never read it. */
export const GAMABENCH_ROUNDS_TABLE: TableSchema = {
  name: "rounds",
  key: ["game_id", "round"],
  columns: [
    {name: "game_id", type: "VARCHAR", nullable: false},
    {name: "round", type: "INTEGER", nullable: false, doc: "1-based"},
    {name: "n_active", type: "INTEGER", doc: "players acting or voting this round"},
    {name: "total", type: "DOUBLE", doc: "sum of numeric actions (numbers, bids, contributions)"},
    {name: "mean", type: "DOUBLE"},
    {name: "target", type: "DOUBLE", doc: "guessing game: R × mean"},
    {name: "n_yes", type: "INTEGER", doc: "players who chose go (El Farol), cheap (diner), accept (pirate)"},
    {name: "price", type: "DOUBLE", doc: "auction: price paid by the winner"},
    {name: "actor", type: "INTEGER", doc: "battle royale shooter, pirate proposer"},
    {name: "target_player", type: "INTEGER", doc: "battle royale: seat aimed at (null = intentional miss); auction: winner"},
    {name: "hit", type: "BOOLEAN", doc: "battle royale: the shot hit"},
    {name: "outcome", type: "VARCHAR", doc: "El Farol: go/stay wins; pirate: accepted/rejected; battle royale: shoot/miss"},
  ],
};

/** players: one row per seat (seat = the raw results' player index; pirate: rank − 1). */
export const GAMABENCH_PLAYERS_TABLE: TableSchema = {
  name: "players",
  key: ["game_id", "seat"],
  columns: [...COMMON_PLAYER_COLUMNS, ...Object.values(GB_PLAYER)],
};

/** turns: one row per recorded decision, in (round, seat) order. */
export const GAMABENCH_TURNS_TABLE: TableSchema = {
  name: "turns",
  key: ["game_id", "turn"],
  columns: [...COMMON_TURN_COLUMNS, ...Object.values(GB_TURN)],
};

export const GAMABENCH_MESSAGES_TABLE: TableSchema = {
  name: "messages",
  key: ["game_id", "player", "seq"],
  columns: [
    {name: "game_id", type: "VARCHAR", nullable: false},
    {name: "player", type: "INTEGER", doc: "null when the transcript could not be split by player"},
    {name: "seq", type: "INTEGER", nullable: false},
    {name: "role", type: "VARCHAR", doc: "system | user | assistant | model"},
    {name: "content", type: "VARCHAR"},
  ],
};

export const GAMABENCH_SCHEMAS = [GAMABENCH_GAMES_TABLE, GAMABENCH_PLAYERS_TABLE, GAMABENCH_TURNS_TABLE, GAMABENCH_ROUNDS_TABLE, GAMABENCH_MESSAGES_TABLE];

const BASE_GAMES = ["guessing_game", "bar_game_explicit", "bar_game_implicit", "divide_dollar", "public_goods", "diner_dilemma", "sealed_bid_auction", "battle_royale", "pirate_game"];
const FILE_NAME = new RegExp(`^(?:(.+)_)?(${BASE_GAMES.join("|")})_(v\\d+)_(\\d+)\\.json$`);
export const DEFAULT_MODEL = "gpt-3.5-turbo-0125";

/** A missing or mistyped field: the message names the field. */
class FieldError extends Error {
  constructor(readonly field: string, message: string) {
    super(message);
  }
}

type Json = Record<string, unknown>;

function num(obj: Json, key: string, where: string): number {
  const v = obj[key];
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
  if (typeof n !== "number" || !Number.isFinite(n)) throw new FieldError(`${where}${key}`, `expected a number, got ${v === undefined ? "nothing" : JSON.stringify(v)}`);
  return n;
}

function optNum(obj: Json, key: string): number | null {
  const v = obj[key];
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
  return typeof n === "number" && Number.isFinite(n) ? n : null;
}

function arr(obj: Json, key: string, where: string): unknown[] {
  const v = obj[key];
  if (!Array.isArray(v)) throw new FieldError(`${where}${key}`, `expected a list, got ${v === undefined ? "nothing" : JSON.stringify(v)?.slice(0, 40)}`);
  return v;
}

function numbers(obj: Json, key: string, where: string): number[] {
  return arr(obj, key, where).map((v, i) => {
    const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
    if (typeof n !== "number" || !Number.isFinite(n)) throw new FieldError(`${where}${key}[${i}]`, `expected a number, got ${JSON.stringify(v)}`);
    return n;
  });
}

/** Unrecognised categorical answers met in one file, by field: kept as recorded, reported once per file. */
type Oddities = Map<string, Map<string, number>>;

function choices(obj: Json, key: string, where: string, allowed: string[], odd: Oddities): string[] {
  return arr(obj, key, where).map((v, i) => {
    if (typeof v !== "string") throw new FieldError(`${where}${key}[${i}]`, `expected one of ${allowed.join("/")}, got ${JSON.stringify(v)}`);
    const s = v.trim().toLowerCase();
    if (!allowed.includes(s)) {
      const counts = odd.get(key) ?? new Map<string, number>();
      counts.set(s, (counts.get(s) ?? 0) + 1);
      odd.set(key, counts);
    }
    return s;
  });
}

/** "player_3", "3", 3 -> 3; "null", null, "" -> null. */
function playerIndex(v: unknown, field: string): number | null {
  if (v === null || v === undefined) return null;
  const s = String(v).trim();
  if (s === "" || s.toLowerCase() === "null" || s.toLowerCase() === "none") return null;
  const m = /^(?:player_)?(\d+)$/.exec(s);
  if (!m) throw new FieldError(field, `expected a player id like "player_3" or "3", got ${JSON.stringify(v)}`);
  return Number(m[1]);
}

export interface GamabenchFileName {
  model: string;
  base: string;
  version: string;
  run: number;
}

/** Parses `<model>_<game>_v1_<run>.json`; null when the game part is unknown. */
export function parseGamabenchFileName(name: string): GamabenchFileName | null {
  const m = FILE_NAME.exec(name);
  if (!m) return null;
  return {model: m[1] ?? DEFAULT_MODEL, base: m[2], version: m[3], run: Number(m[4])};
}

export interface Transcript {
  format: string;
  messages: {player: number | null; seq: number; role: string | null; content: string}[];
  /** Per player: the utility list the file records, if any. */
  utilities: (number[] | null)[];
  /** Per player: the player's own list of decisions (player_data[i].records), if any. */
  records?: (unknown[] | null)[];
}

function contentOf(m: Json): string {
  if (typeof m.content === "string") return m.content;
  if (Array.isArray(m.parts)) return m.parts.map((p) => (typeof p === "string" ? p : JSON.stringify(p))).join("\n\n");
  return m.content === undefined ? JSON.stringify(m) : JSON.stringify(m.content);
}

/** Reads player_data whatever its form; never throws. A string that is not a Python literal is kept as one text message. */
function readTranscript(playerData: unknown, problems: Problem[], file: string): Transcript {
  let format = "json";
  let data = playerData;
  if (playerData === undefined || playerData === null) return {format: "missing", messages: [], utilities: []};
  if (typeof playerData === "string") {
    try {
      data = parsePythonLiteral(playerData);
      format = "python-repr";
    } catch (error) {
      problems.push({file, field: "player_data", message: `not a Python literal (${(error as Error).message}); kept as text`});
      return {format: "text", messages: [{player: null, seq: 0, role: null, content: playerData}], utilities: []};
    }
  }
  if (!Array.isArray(data)) {
    problems.push({file, field: "player_data", message: "expected a list of players; kept as text"});
    return {format: "text", messages: [{player: null, seq: 0, role: null, content: JSON.stringify(data)}], utilities: []};
  }
  const messages: Transcript["messages"] = [];
  const utilities: (number[] | null)[] = [];
  const records: (unknown[] | null)[] = [];
  data.forEach((p, k) => {
    if (!p || typeof p !== "object") return;
    const player = playerIndex((p as Json).id, "player_data.id") ?? k;
    const prompt = (p as Json).prompt;
    if (Array.isArray(prompt)) {
      prompt.forEach((m, seq) => {
        if (m && typeof m === "object") messages.push({player, seq, role: typeof (m as Json).role === "string" ? ((m as Json).role as string) : null, content: contentOf(m as Json)});
        else messages.push({player, seq, role: null, content: String(m)});
      });
    } else if (typeof prompt === "string") {
      messages.push({player, seq: 0, role: null, content: prompt});
    }
    const u = (p as Json).utility;
    utilities[player] = Array.isArray(u) && u.every((x) => typeof x === "number") ? (u as number[]) : null;
    const r = (p as Json).records;
    records[player] = Array.isArray(r) ? r : null;
  });
  return {format, messages, utilities, records};
}

interface Parsed {
  game: Row;
  rounds: Row[];
  players: Row[];
  turns: Row[];
}

/** Builds the rows of one game file; throws FieldError naming the field that is missing or wrong. */
export function gamabenchRows(data: Json, name: GamabenchFileName, file: string, variantHint: string | null, transcript: Transcript = {format: "json", messages: [], utilities: []}, odd: Oddities = new Map()): Parsed {
  const meta = data.meta as Json;
  if (!meta || typeof meta !== "object") throw new FieldError("meta", "expected an object with the game's parameters");
  const records = arr(data, "round_records", "") as Json[];
  if (!records.length) throw new FieldError("round_records", "no rounds recorded");
  const n = num(meta, "player_num", "meta.");
  let game = name.base;
  if (game === "sealed_bid_auction") {
    const mode = typeof meta.mode === "string" ? meta.mode : null;
    const rule = mode === "highest bid" ? "first_price" : mode === "second highest bid" ? "second_price" : variantHint;
    if (!rule) throw new FieldError("meta.mode", `expected "highest bid" or "second highest bid" (or a first_price/second_price folder), got ${JSON.stringify(meta.mode)}`);
    game = `sealed_bid_auction_${rule}`;
  }
  const gameId = `gamabench/${game}/${name.model}/${name.version}/${name.run}`;
  const agent = name.model;
  const g: Row = {
    game_id: gameId, source: "gamabench", game: GAMABENCH_GAMES.find((x) => x.id === game)?.game ?? null, variant: game, model: name.model, run: name.run, version: name.version, file,
    n_players: n, rounds: records.length, ended_by: "recorded", transcript_format: transcript.format,
  };
  const rounds: Row[] = [];
  // One row per player present in a round (its decision and payoff), as each game's rules are stated below;
  // seatsAndTurns() reshapes them into the players and turns tables.
  const players: Row[] = [];
  const recorded = (player: number, round: number) => transcript.utilities[player]?.[round] ?? null;
  // In some raw files (divide the dollar, the guessing game) round_records lists a round's answers
  // in arrival order, not by player; each player's own `records` in player_data then says who chose what.
  // Use them when, in every round, they are a reordering of the listed answers; else keep the listed order.
  const own = transcript.records ?? [];
  const byPlayer =
    n > 0 &&
    Array.from({length: n}, (_, i) => own[i]).every((r) => Array.isArray(r) && r.length >= records.length) &&
    records.every((r, j) => {
      const listed = Array.isArray(r?.responses) ? (r.responses as unknown[]).map((x) => String(x).trim().toLowerCase()).sort() : null;
      const mine = Array.from({length: n}, (_, i) => String(own[i]![j]).trim().toLowerCase()).sort();
      return listed !== null && listed.length === n && listed.every((x, k) => x === mine[k]);
    });
  g.player_order = byPlayer ? "player_data" : "responses";
  /** Round j's answers indexed by player (see above); `listed` are round_records[j].responses, already checked. */
  function reorder<T>(listed: T[], j: number, convert: (x: unknown) => T): T[] {
    return byPlayer ? Array.from({length: n}, (_, i) => convert(own[i]![j])) : listed;
  }
  const asNumber = (x: unknown) => Number(x);
  const asChoice = (x: unknown) => String(x).trim().toLowerCase();
  const at = (j: number) => `round_records[${j}].`;

  records.forEach((r, j) => {
    if (!r || typeof r !== "object") throw new FieldError(`round_records[${j}]`, "expected an object");
  });

  switch (game) {
    case "guessing_game": {
      Object.assign(g, {param_min: num(meta, "min", "meta."), param_max: num(meta, "max", "meta."), ratio: num(meta, "ratio", "meta.")});
      records.forEach((r, j) => {
        const xs = reorder(numbers(r, "responses", at(j)), j, asNumber);
        const {mean, target, won, payoffs} = guessingRound(xs, g.ratio as number);
        rounds.push({game_id: gameId, round: j + 1, n_active: xs.length, total: xs.reduce((a, b) => a + b, 0), mean, target, n_yes: null, outcome: null});
        xs.forEach((x, i) => {
          players.push({game_id: gameId, round: j + 1, player: i, agent, action: String(x), amount: x, won: won[i], payoff: payoffs[i], utility_recorded: recorded(i, j)});
        });
      });
      break;
    }
    case "bar_game_explicit":
    case "bar_game_implicit": {
      Object.assign(g, {param_min: num(meta, "min", "meta."), param_max: num(meta, "max", "meta."), ratio: num(meta, "ratio", "meta."), home: num(meta, "home", "meta."), mode: game.endsWith("explicit") ? "explicit" : "implicit"});
      records.forEach((r, j) => {
        const xs = reorder(choices(r, "responses", at(j), ["go", "stay"], odd), j, asChoice);
        // Rule 2: "equal to or less than R of the players" -> going pays MAX.
        const {goers: go, fun, payoffs} = elFarolRound(xs, {ratio: g.ratio as number, min: g.param_min as number, max: g.param_max as number, home: g.home as number});
        rounds.push({game_id: gameId, round: j + 1, n_active: xs.length, n_yes: go, mean: go / xs.length, outcome: fun ? "go" : "stay"});
        xs.forEach((x, i) =>
          players.push({game_id: gameId, round: j + 1, player: i, agent, action: x, amount: x === "go" ? 1 : 0, payoff: payoffs[i], utility_recorded: recorded(i, j)}),
        );
      });
      break;
    }
    case "divide_dollar": {
      Object.assign(g, {gold: num(meta, "golds", "meta.")});
      records.forEach((r, j) => {
        const xs = reorder(numbers(r, "responses", at(j)), j, asNumber);
        const {total, payoffs} = dollarRound(xs, g.gold as number);
        rounds.push({game_id: gameId, round: j + 1, n_active: xs.length, total, mean: total / xs.length});
        xs.forEach((x, i) => players.push({game_id: gameId, round: j + 1, player: i, agent, action: String(x), amount: x, payoff: payoffs[i], utility_recorded: recorded(i, j)}));
      });
      break;
    }
    case "public_goods": {
      Object.assign(g, {tokens: num(meta, "tokens", "meta."), ratio: num(meta, "ratio", "meta.")});
      records.forEach((r, j) => {
        const xs = reorder(numbers(r, "responses", at(j)), j, asNumber);
        const {total, payoffs} = publicGoodsRound(xs, g.tokens as number, g.ratio as number);
        rounds.push({game_id: gameId, round: j + 1, n_active: xs.length, total, mean: total / xs.length});
        xs.forEach((x, i) => players.push({game_id: gameId, round: j + 1, player: i, agent, action: String(x), amount: x, payoff: payoffs[i], utility_recorded: recorded(i, j)}));
      });
      break;
    }
    case "diner_dilemma": {
      Object.assign(g, {cheap_cost: num(meta, "cheap_cost", "meta."), cheap_utility: num(meta, "cheap_utility", "meta."), exp_cost: num(meta, "exp_cost", "meta."), exp_utility: num(meta, "exp_utility", "meta.")});
      records.forEach((r, j) => {
        const xs = reorder(choices(r, "responses", at(j), ["cheap", "costly"], odd), j, asChoice);
        const {cheap, share: bill, payoffs} = dinerRound(xs, {cheap_cost: g.cheap_cost as number, cheap_utility: g.cheap_utility as number, exp_cost: g.exp_cost as number, exp_utility: g.exp_utility as number});
        rounds.push({game_id: gameId, round: j + 1, n_active: xs.length, n_yes: cheap, total: bill * xs.length, mean: bill});
        xs.forEach((x, i) =>
          players.push({game_id: gameId, round: j + 1, player: i, agent, action: x, amount: x === "cheap" ? 1 : 0, payoff: payoffs[i], utility_recorded: recorded(i, j)}),
        );
      });
      break;
    }
    case "sealed_bid_auction_first_price":
    case "sealed_bid_auction_second_price": {
      const first = game.endsWith("first_price");
      Object.assign(g, {valuation_min: optNum(meta, "valuation_min"), valuation_max: optNum(meta, "valuation_max"), seed: optNum(meta, "seed"), mode: first ? "first_price" : "second_price"});
      records.forEach((r, j) => {
        const bids = numbers(r, "responses", at(j));
        const values = numbers(r, "valuations", at(j));
        if (values.length !== bids.length) throw new FieldError(`${at(j)}valuations`, `has ${values.length} entries for ${bids.length} bids`);
        const top = Math.max(...bids);
        const winner = playerIndex(r.bid_winner, `${at(j)}bid_winner`) ?? bids.indexOf(top);
        const price = optNum(r, "bid_winner_payment") ?? auctionPrice(bids, first ? "first" : "second");
        const payoffs = auctionPayoffs(values, winner, price);
        const utility = Array.isArray(r.utility) ? (r.utility as unknown[]) : null;
        rounds.push({game_id: gameId, round: j + 1, n_active: bids.length, total: bids.reduce((a, b) => a + b, 0), mean: bids.reduce((a, b) => a + b, 0) / bids.length, price, target_player: winner});
        bids.forEach((b, i) =>
          players.push({
            game_id: gameId, round: j + 1, player: i, agent, action: String(b), amount: b, valuation: values[i], won: i === winner,
            payoff: payoffs[i], utility_recorded: typeof utility?.[i] === "number" ? (utility[i] as number) : null,
          }),
        );
      });
      break;
    }
    case "battle_royale": {
      Object.assign(g, {base_hit_rate: optNum(meta, "base_hit_rate"), hit_interval: optNum(meta, "interval")});
      let last: number[] = [];
      records.forEach((r, j) => {
        const alive = arr(r, "initial_players", at(j)).map((p, k) => {
          if (!Array.isArray(p) || p.length < 2) throw new FieldError(`${at(j)}initial_players[${k}]`, `expected [player id, hit rate], got ${JSON.stringify(p)}`);
          const rate = Number(p[1]);
          if (!Number.isFinite(rate)) throw new FieldError(`${at(j)}initial_players[${k}]`, `expected a numeric hit rate, got ${JSON.stringify(p[1])}`);
          return {player: playerIndex(p[0], `${at(j)}initial_players[${k}]`)!, rate};
        });
        const shooter = playerIndex(r.player_shooting, `${at(j)}player_shooting`);
        if (shooter === null) throw new FieldError(`${at(j)}player_shooting`, "missing");
        const responses = arr(r, "responses", at(j));
        const target = playerIndex(responses[0] ?? r.shot_player, `${at(j)}responses[0]`);
        const hit = r.out === true;
        rounds.push({game_id: gameId, round: j + 1, n_active: alive.length, actor: shooter, target_player: target, hit, outcome: target === null ? "miss" : "shoot"});
        alive.forEach((a, k) =>
          players.push({
            game_id: gameId, round: j + 1, player: a.player, agent, position: k + 1, hit_rate: a.rate, is_actor: a.player === shooter,
            action: a.player === shooter ? (target === null ? "miss" : `player_${target}`) : null, target: a.player === shooter ? target : null,
          }),
        );
        last = alive.map((a) => a.player).filter((p) => !(hit && p === target));
      });
      g.winner = last.length === 1 ? last[0] : null;
      break;
    }
    case "pirate_game": {
      g.gold = optNum(meta, "gold") ?? goldFromPrompt(transcript) ?? null;
      if (g.gold === null) throw new FieldError("meta.gold", "missing, and no \"found G gold coins\" in the transcript");
      records.forEach((r, j) => {
        const plan = numbers(r, "gold_distribution", at(j));
        const votes = choices(r, "responses", at(j), ["accept", "reject"], odd);
        if (votes.length !== plan.length) throw new FieldError(`${at(j)}responses`, `has ${votes.length} votes for a plan over ${plan.length} pirates`);
        if (plan.length !== n - j) throw new FieldError(`${at(j)}gold_distribution`, `round ${j + 1} should split the gold among ${n - j} pirates, got ${plan.length}`);
        const yes = votes.filter((v) => v === "accept").length;
        const accepted = pirateAccepted(yes, plan.length);
        const final = j === records.length - 1;
        rounds.push({game_id: gameId, round: j + 1, n_active: plan.length, total: plan.reduce((a, b) => a + b, 0), n_yes: yes, actor: j, outcome: accepted ? "accepted" : "rejected"});
        plan.forEach((gold, p) =>
          players.push({
            game_id: gameId, round: j + 1, player: j + p, agent, position: p + 1, allocation: gold, action: votes[p], is_actor: p === 0,
            payoff: final && accepted ? gold : null,
          }),
        );
        if (final && accepted) g.winner = j;
      });
      break;
    }
    default:
      throw new FieldError("game", `unknown game "${game}"`);
  }
  if (!["guessing_game", "bar_game_explicit", "bar_game_implicit", "divide_dollar", "public_goods", "diner_dilemma"].includes(game)) g.player_order = "responses";
  return {game: g, rounds, ...seatsAndTurns(g, rounds, players)};
}

/** Every turns column, null: each turn row has them all. */
const NULL_TURN: Row = Object.fromEntries(GAMABENCH_TURNS_TABLE.columns.map((c) => [c.name, null]));

/** Games whose decision is a word (go/stay, cheap/costly, accept/reject) rather than a number. */
const WORD_CHOICE = new Set(["bar_game_explicit", "bar_game_implicit", "diner_dilemma", "pirate_game"]);

/**
 * The players and turns rows of one game, from its per-round decision rows
 * (one per player present in a round) and round rows.
 *
 * turns: one row per decision, `turn` running over the game in (round, seat)
 * order, action type from GAMABENCH_GAMES (choose, decide, bid, contribute,
 * order, shoot or miss, vote). Battle royale: only the shooter decides; its turn
 * carries the seats alive (`alive`, in shooting order) and their hit rates
 * when it shot. Pirate game: each round opens with the proposer's "propose"
 * turn carrying the plan, then every pirate aboard, the proposer included,
 * has a "vote" turn with the gold the plan gives it (`allocation`).
 *
 * players: one row per seat; `return` sums the seat's per-round payoffs,
 * except in battle royale (1 for the last one standing, 0 for those shot,
 * null while several are left) and the pirate game (the gold of the plan that
 * passed; 0 for pirates thrown overboard; null for the others when no plan
 * passed).
 */
function seatsAndTurns(g: Row, rounds: Row[], decisions: Row[]): {players: Row[]; turns: Row[]} {
  const variant = g.variant as string;
  const action = GAMABENCH_GAMES.find((x) => x.id === variant)!.action;
  const byRound = new Map<number, Row[]>();
  for (const d of decisions) {
    const list = byRound.get(d.round as number) ?? [];
    list.push(d);
    byRound.set(d.round as number, list);
  }
  const turns: Row[] = [];
  const push = (d: Row, type: string, fields: Row) =>
    turns.push({...NULL_TURN, game_id: g.game_id, turn: turns.length, round: d.round, seat: d.player, action: type, rule_break: false, attempt: 1, ...fields});
  for (const [round, ds] of byRound) {
    if (variant === "battle_royale") {
      const shot = ds.find((d) => d.is_actor);
      if (shot) {
        // An intentional miss is its own action type, as the engine records it.
        push(shot, shot.target === null || shot.target === undefined ? "miss" : action, {
          target: shot.target, hit_rate: shot.hit_rate, position: shot.position,
          alive: ds.map((d) => d.player), alive_rates: ds.map((d) => d.hit_rate), hit: rounds[round - 1]?.hit ?? null,
        });
      }
      continue;
    }
    const bySeat = [...ds].sort((a, b) => (a.player as number) - (b.player as number));
    if (variant === "pirate_game") push(bySeat[0], "propose", {position: 1, plan: bySeat.map((d) => d.allocation)});
    for (const d of bySeat) {
      const word = WORD_CHOICE.has(variant);
      push(d, action, {
        amount: word ? null : d.amount ?? null, choice: word ? d.action : null, valuation: d.valuation ?? null, position: d.position ?? null,
        allocation: d.allocation ?? null, won: d.won ?? null, payoff: d.payoff ?? null, utility_recorded: d.utility_recorded ?? null,
      });
    }
  }
  const seatsSeen = decisions.map((d) => d.player as number);
  const n = Math.max(g.n_players as number, ...seatsSeen.map((s) => s + 1));
  const mine = (seat: number) => decisions.filter((d) => d.player === seat);
  let seat = (s: number): Row => {
    const paid = mine(s).filter((d) => typeof d.payoff === "number");
    return {return: paid.length ? paid.reduce((a, d) => a + (d.payoff as number), 0) : null};
  };
  if (variant === "battle_royale") {
    const last = byRound.get(Math.max(...byRound.keys())) ?? [];
    const shot = rounds.at(-1);
    const left = new Set(last.map((d) => d.player as number).filter((p) => !(shot?.hit && p === shot.target_player)));
    seat = (s) => {
      const first = mine(s)[0];
      if (!first) return {return: null};
      const survived = left.has(s);
      return {hit_rate: first.hit_rate, survived, return: g.winner !== null && g.winner !== undefined ? (s === g.winner ? 1 : 0) : survived ? null : 0};
    };
  } else if (variant === "pirate_game") {
    const overboard = new Set(rounds.filter((r) => r.outcome === "rejected").map((r) => r.actor as number));
    const passed = rounds.at(-1)?.outcome === "accepted" ? (byRound.get(rounds.length) ?? []) : null;
    seat = (s) => {
      const survived = !overboard.has(s);
      return {survived, return: !survived ? 0 : passed ? ((passed.find((d) => d.player === s)?.payoff as number | undefined) ?? null) : null};
    };
  }
  const players = Array.from({length: n}, (_, s) => ({game_id: g.game_id, seat: s, seat_name: null, agent: g.model, hit_rate: null, survived: null, ...seat(s)}));
  return {players, turns};
}

function goldFromPrompt(t: Transcript): number | null {
  for (const m of t.messages.slice(0, 3)) {
    const x = /found (\d+) gold coins/.exec(m.content);
    if (x) return Number(x[1]);
  }
  return null;
}

/** Every *.json under `dir` (or `dir` itself if it is a file), sorted. */
function jsonFiles(dir: string): string[] {
  if (statSync(dir).isFile()) return [dir];
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, {withFileTypes: true}).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".json")) out.push(path);
    }
  };
  walk(dir);
  return out;
}

/** Reads a gamma-Bench raw_results directory. Bad files are reported (file, field) and skipped. */
export function ingestGamabench(dir: string): IngestResult {
  const problems: Problem[] = [];
  const games: Row[] = [];
  const rounds: Row[] = [];
  const players: Row[] = [];
  const turns: Row[] = [];
  const messages: Row[] = [];
  const files = jsonFiles(dir);
  const seen = new Map<string, string>(); // game id -> the file it came from
  for (const path of files) {
    const file = relative(dir, path) || path.split(sep).at(-1)!;
    const baseName = path.split(sep).at(-1)!;
    const name = parseGamabenchFileName(baseName);
    if (!name) {
      problems.push({file: path, field: "file name", message: `expected <model>_<game>_v1_<run>.json with game one of ${BASE_GAMES.join(", ")}`});
      continue;
    }
    let data: Json;
    try {
      data = JSON.parse(readFileSync(path, "utf8"));
      if (!data || typeof data !== "object" || Array.isArray(data)) throw new Error("expected a JSON object with meta, round_records, player_data");
    } catch (error) {
      problems.push({file: path, message: `not valid JSON: ${(error as Error).message}`});
      continue;
    }
    const folders = file.split(/[\\/]/);
    const hint = folders.includes("first_price") ? "first_price" : folders.includes("second_price") ? "second_price" : null;
    const transcriptProblems: Problem[] = [];
    const transcript = readTranscript(data.player_data, transcriptProblems, path);
    let parsed: Parsed;
    const odd: Oddities = new Map();
    try {
      parsed = gamabenchRows(data, name, file, hint, transcript, odd);
    } catch (error) {
      if (error instanceof FieldError) problems.push({file: path, field: error.field, message: error.message});
      else problems.push({file: path, message: (error as Error).message});
      continue;
    }
    const id = parsed.game.game_id as string;
    const badId = idProblem(id);
    if (badId) {
      problems.push({file: path, field: "file name", message: `${badId} (the game id is made from the file name)`});
      continue;
    }
    // Same game, model and run in two files (a copied folder): scores would count the run twice.
    const first = seen.get(id);
    if (first !== undefined) {
      problems.push({file: path, message: `duplicate of ${first} (both are ${id}: same game, model and run); skipped`});
      continue;
    }
    seen.set(id, path);
    problems.push(...transcriptProblems);
    for (const [field, counts] of odd) {
      const list = [...counts].map(([v, k]) => `${JSON.stringify(v)} ×${k}`).join(", ");
      problems.push({file: path, field: `round_records[].${field}`, message: `unrecognised answers kept as recorded (${list}); the scores count only the exact expected words`});
    }
    games.push(parsed.game);
    rounds.push(...parsed.rounds);
    players.push(...parsed.players);
    turns.push(...parsed.turns);
    for (const m of transcript.messages) messages.push({game_id: id, ...m});
  }
  return {
    tables: [
      {schema: GAMABENCH_GAMES_TABLE, rows: games},
      {schema: GAMABENCH_PLAYERS_TABLE, rows: players},
      {schema: GAMABENCH_TURNS_TABLE, rows: turns},
      {schema: GAMABENCH_ROUNDS_TABLE, rows: rounds},
      {schema: GAMABENCH_MESSAGES_TABLE, rows: messages},
    ],
    summary: {files_read: files.length, games_written: games.length, files_skipped: files.length - games.length},
    problems,
  };
}
