/**
 * GLEE human-vs-LLM adapter (GLEE (Shapira et al. 2024); eilamshapira/GLEE Data/human_vs_llm,
 * see SOURCE.md in the dataset folder).
 *
 * Each game folder holds config.json (game_type, player_N_type/args,
 * game_args) and game.csv (rows in play order). Games are written into the
 * common GLEE `games` and `turns` tables of loaders/papers/glee/tables.ts, the same
 * ones simulated tournaments write, so src/lib's GLEE metrics read them
 * unchanged. Conventions:
 * - Alice is player 1 and moves first (the seller in negotiation and
 *   persuasion). Type `otree` is a person -> agent "human"; `otree_LLM` is the
 *   model, gemini-1.5-flash per GLEE (Shapira et al. 2024) Appendix E (the configs do not name it).
 * - Bargaining discount factors come in two layouts: `delta` inside
 *   player_N_args (older configs) or `delta_1`/`delta_2` in game_args.
 * - max_rounds 99 (bargaining) and 30 (negotiation) are GLEE's stand-ins for
 *   T = ∞: horizon is null and horizon_cap keeps the number, as the engine does.
 * - Outcomes use the engine's definitions (loaders/papers/glee/bargaining.ts,
 *   negotiation.ts; persuasionOutcome): bargaining utilities discounted by
 *   δ^(t−1), negotiation p − V_A and V_B − p, persuasion sales and M·(k(v−1) − low
 *   bought). A negotiation a player ends with SellToJhon or BuyFromJhon (the
 *   outside option, the game's decision "outside") is no deal (both 0) and
 *   ended_by = "outside_option".
 * A game whose config or CSV is unreadable or lacks a field is reported (file,
 * line, field) and skipped; the other games are kept.
 */
import {idProblem} from "../../io/ids.js";
import {existsSync, readdirSync, readFileSync, statSync} from "node:fs";
import {basename, join, relative, sep} from "node:path";
import {GLEE_GAMES, GLEE_TURNS, type GameRow, type TurnRow} from "./tables.js";
import {persuasionOutcome} from "./persuasion.js";
import {BARGAINING_INFINITE_CAP} from "./bargaining.js";
import {NEGOTIATION_INFINITE_CAP} from "./negotiation.js";
import type {EndReason, Quality} from "./types.js";
import {readCsv, type CsvRecord} from "../../ingest/csv.js";
import type {IngestResult, Problem} from "../../ingest/types.js";

/** The LLM in GLEE's human-vs-LLM games (GLEE (Shapira et al. 2024), Appendix E). */
export const GLEE_HUMAN_LLM = "gemini-1.5-flash";

type Json = Record<string, unknown>;
type Family = "bargaining" | "negotiation" | "persuasion";

class FieldError extends Error {
  constructor(readonly file: string, readonly field: string, message: string, readonly line?: number) {
    super(message);
  }
}

const isObj = (v: unknown): v is Json => !!v && typeof v === "object" && !Array.isArray(v);

/** `otree` -> human, `otree_LLM` -> the model; anything else keeps its model name. */
export function gleeAgent(type: unknown, args: unknown): string {
  if (type === "otree") return "human";
  if (type === "otree_LLM") return GLEE_HUMAN_LLM;
  const model = isObj(args) ? args.model_name : undefined;
  return typeof model === "string" ? model : String(type ?? "unknown");
}

function number(obj: Json, key: string, file: string, prefix: string): number {
  const v = obj[key];
  if (typeof v !== "number" || !Number.isFinite(v)) throw new FieldError(file, `${prefix}${key}`, `expected a number, got ${v === undefined ? "nothing" : JSON.stringify(v)}`);
  return v;
}

function bool(obj: Json, key: string, file: string, prefix: string): boolean {
  const v = obj[key];
  if (typeof v !== "boolean") throw new FieldError(file, `${prefix}${key}`, `expected true or false, got ${v === undefined ? "nothing" : JSON.stringify(v)}`);
  return v;
}

/** δ for player n (1 = Alice): game_args.delta_n (newer configs) or player_n_args.delta (older). */
function delta(config: Json, n: 1 | 2, file: string): number {
  const args = config.game_args as Json;
  const inGame = args[`delta_${n}`];
  const player = config[`player_${n}_args`];
  const inPlayer = isObj(player) ? player.delta : undefined;
  if (typeof inGame === "number" && typeof inPlayer === "number" && inGame !== inPlayer) {
    throw new FieldError(file, `game_args.delta_${n}`, `disagrees with player_${n}_args.delta (${inGame} vs ${inPlayer})`);
  }
  const d = typeof inGame === "number" ? inGame : inPlayer;
  if (typeof d !== "number") throw new FieldError(file, `game_args.delta_${n}`, `missing (nor player_${n}_args.delta)`);
  return d;
}

const num = (s: string | undefined) => (s === undefined || s.trim() === "" || s === "None" || s === "nan" ? null : Number(s));
const text = (s: string | undefined) => (s === undefined || s === "" || s === "None" || s === "nan" ? null : s);

function who(record: CsvRecord, file: string): "alice" | "bob" {
  const p = record.values.player;
  if (p === "Alice") return "alice";
  if (p === "Bob") return "bob";
  throw new FieldError(file, "player", `expected Alice or Bob, got ${JSON.stringify(p)}`, record.line);
}

function roundOf(record: CsvRecord, file: string): number {
  const r = Number(record.values.round);
  if (!Number.isInteger(r) || r < 1) throw new FieldError(file, "round", `expected a round number, got ${JSON.stringify(record.values.round)}`, record.line);
  return r;
}

interface Built {
  game: GameRow;
  turns: TurnRow[];
}

function bargaining(config: Json, records: CsvRecord[], base: GameRow, csv: string, cfg: string): Built {
  const args = config.game_args as Json;
  const M = number(args, "money_to_divide", cfg, "game_args.");
  const cap = number(args, "max_rounds", cfg, "game_args.");
  const [da, db] = [delta(config, 1, cfg), delta(config, 2, cfg)];
  const game: GameRow = {
    ...base, money: M, horizon: cap === BARGAINING_INFINITE_CAP ? null : cap, horizon_cap: cap,
    complete_information: bool(args, "complete_information", cfg, "game_args."), messages: bool(args, "messages_allowed", cfg, "game_args."),
    delta_a: da, delta_b: db,
  };
  const turns: TurnRow[] = [];
  type Split = {alice: number; bob: number; round: number};
  let offer: Split | null = null;
  let accepted = null as Split | null;
  let last = 0;
  for (const r of records) {
    const player = who(r, csv);
    const round = roundOf(r, csv);
    last = Math.max(last, round);
    const decision = text(r.values.decision);
    if (decision === null) {
      const a = num(r.values.alice_gain);
      const b = num(r.values.bob_gain);
      if (a === null || Number.isNaN(a)) throw new FieldError(csv, "alice_gain", `expected the offer's amount, got ${JSON.stringify(r.values.alice_gain)}`, r.line);
      if (b === null || Number.isNaN(b)) throw new FieldError(csv, "bob_gain", `expected the offer's amount, got ${JSON.stringify(r.values.bob_gain)}`, r.line);
      offer = {alice: a, bob: b, round};
      turns.push({game_id: base.game_id, turn: turns.length, round, player, role: "proposer", action: "offer", alice_gain: a, bob_gain: b, message: text(r.values.message), rule_break: false, attempt: 1});
    } else {
      if (decision !== "accept" && decision !== "reject") throw new FieldError(csv, "decision", `expected accept or reject, got ${JSON.stringify(decision)}`, r.line);
      turns.push({game_id: base.game_id, turn: turns.length, round, player, role: "responder", action: "decision", decision, rule_break: false, attempt: 1});
      if (decision === "accept") {
        if (!offer) throw new FieldError(csv, "decision", "accept before any offer", r.line);
        accepted = offer;
        break;
      }
    }
  }
  if (accepted) {
    const t = accepted.round;
    const share = accepted.alice / M;
    Object.assign(game, {
      rounds: t, ended_by: "agreement", agreement: true, alice_share: share, alice_gain: accepted.alice, bob_gain: accepted.bob,
      alice_utility: M * da ** (t - 1) * share, bob_utility: M * db ** (t - 1) * (1 - share),
    });
  } else {
    Object.assign(game, {rounds: last, ended_by: last >= cap ? "horizon" : "incomplete", agreement: false, alice_utility: 0, bob_utility: 0});
  }
  return {game, turns};
}

function negotiation(config: Json, records: CsvRecord[], base: GameRow, csv: string, cfg: string): Built {
  const args = config.game_args as Json;
  const M = number(args, "product_price_order", cfg, "game_args.");
  const [fa, fb] = [number(args, "seller_value", cfg, "game_args."), number(args, "buyer_value", cfg, "game_args.")];
  const cap = number(args, "max_rounds", cfg, "game_args.");
  const [va, vb] = [M * fa, M * fb];
  const game: GameRow = {
    ...base, money: M, horizon: cap === NEGOTIATION_INFINITE_CAP ? null : cap, horizon_cap: cap,
    complete_information: bool(args, "complete_information", cfg, "game_args."), messages: bool(args, "messages_allowed", cfg, "game_args."),
    factor_a: fa, factor_b: fb, value_a: va, value_b: vb,
  };
  const turns: TurnRow[] = [];
  // The outside option is the decision "outside", as Parley's negotiation game has it (negotiation.ts).
  const decisions: Record<string, "accept" | "reject" | "outside"> = {AcceptOffer: "accept", RejectOffer: "reject", SellToJhon: "outside", BuyFromJhon: "outside"};
  let offer: {price: number; round: number} | null = null;
  let end = null as {by: EndReason; price: number | null; round: number} | null;
  let last = 0;
  for (const r of records) {
    const player = who(r, csv);
    const round = roundOf(r, csv);
    last = Math.max(last, round);
    const role = player === "alice" ? "seller" : "buyer";
    const raw = text(r.values.decision);
    if (raw === null) {
      const price = num(r.values.product_price);
      if (price === null || Number.isNaN(price)) throw new FieldError(csv, "product_price", `expected the offered price, got ${JSON.stringify(r.values.product_price)}`, r.line);
      offer = {price, round};
      turns.push({game_id: base.game_id, turn: turns.length, round, player, role, action: "offer", price, message: text(r.values.message), rule_break: false, attempt: 1});
      continue;
    }
    const decision = decisions[raw];
    if (!decision) throw new FieldError(csv, "decision", `expected AcceptOffer, RejectOffer, SellToJhon or BuyFromJhon, got ${JSON.stringify(raw)}`, r.line);
    turns.push({game_id: base.game_id, turn: turns.length, round, player, role, action: "decision", decision, raw, rule_break: false, attempt: 1});
    if (raw === "AcceptOffer") {
      if (!offer) throw new FieldError(csv, "decision", "AcceptOffer before any offer", r.line);
      end = {by: "agreement", price: offer.price, round: offer.round};
      break;
    }
    if (decision === "outside") {
      end = {by: "outside_option", price: null, round};
      break;
    }
  }
  if (end?.by === "agreement") {
    Object.assign(game, {rounds: end.round, ended_by: "agreement", agreement: true, price: end.price, alice_utility: end.price! - va, bob_utility: vb - end.price!});
  } else {
    Object.assign(game, {rounds: end?.round ?? last, ended_by: end?.by ?? (last >= cap ? "horizon" : "incomplete"), agreement: false, alice_utility: 0, bob_utility: 0});
  }
  return {game, turns};
}

function persuasion(config: Json, records: CsvRecord[], base: GameRow, csv: string, cfg: string): Built {
  const args = config.game_args as Json;
  const M = number(args, "product_price", cfg, "game_args.");
  const v = number(args, "v", cfg, "game_args.");
  const T = number(args, "total_rounds", cfg, "game_args.");
  const type = args.seller_message_type;
  if (type !== "text" && type !== "binary") throw new FieldError(cfg, "game_args.seller_message_type", `expected text or binary, got ${JSON.stringify(type)}`);
  const game: GameRow = {
    ...base, money: M, horizon: T, horizon_cap: T, prior: number(args, "p", cfg, "game_args."), value_high: v,
    complete_information: bool(args, "is_seller_know_cv", cfg, "game_args."), messages: type === "text", message_type: type,
    buyer_type: bool(args, "is_myopic", cfg, "game_args.") ? "myopic" : "long_living",
  };
  const turns: TurnRow[] = [];
  const quality = new Map<number, Quality>();
  const bought = new Map<number, boolean>();
  for (const r of records) {
    const round = roundOf(r, csv);
    if (r.values.player === "Nature") {
      const q = r.values.round_quality;
      if (q !== "high-quality" && q !== "low-quality") throw new FieldError(csv, "round_quality", `expected high-quality or low-quality, got ${JSON.stringify(q)}`, r.line);
      quality.set(round, q === "high-quality" ? "high" : "low");
      continue;
    }
    const player = who(r, csv);
    const answer = text(r.values.decision);
    if (player === "alice") {
      const claim = type === "binary" ? (answer === "yes" ? "high" : answer === "no" ? "low" : null) : null;
      if (type === "binary" && claim === null) throw new FieldError(csv, "decision", `expected yes or no (binary message), got ${JSON.stringify(answer)}`, r.line);
      turns.push({game_id: base.game_id, turn: turns.length, round, player, role: "seller", action: "message", claim, quality: quality.get(round) ?? null, message: text(r.values.message), raw: answer, rule_break: false, attempt: 1});
    } else {
      if (answer !== "yes" && answer !== "no") throw new FieldError(csv, "decision", `expected yes or no (buy or not), got ${JSON.stringify(answer)}`, r.line);
      bought.set(round, answer === "yes");
      turns.push({game_id: base.game_id, turn: turns.length, round, player, role: "buyer", action: "decision", decision: answer === "yes" ? "accept" : "reject", raw: answer, rule_break: false, attempt: 1});
    }
  }
  const rounds = [...bought.keys()].sort((a, b) => a - b);
  for (const round of rounds) if (!quality.has(round)) throw new FieldError(csv, "round_quality", `no Nature row for round ${round}`);
  const outcome = persuasionOutcome({money: M, value_high: v}, rounds.map((r) => quality.get(r)!), rounds.map((r) => bought.get(r)!), rounds.length >= T ? "completed" : ("incomplete" as EndReason));
  Object.assign(game, outcome);
  return {game, turns};
}

/** Folders holding config.json or game.csv, at any depth under `dir`. */
function gameFolders(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    const entries = readdirSync(d, {withFileTypes: true});
    if (entries.some((e) => e.isFile() && (e.name === "config.json" || e.name === "game.csv"))) out.push(d);
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) if (e.isDirectory()) walk(join(d, e.name));
  };
  walk(dir);
  return out;
}

/** Reads one game folder into common-schema rows; throws FieldError naming file, line and field. */
export function gleeGame(folder: string, root: string): Built {
  const cfg = join(folder, "config.json");
  const csv = join(folder, "game.csv");
  if (!existsSync(cfg)) throw new FieldError(cfg, "config.json", "missing (every game folder needs config.json and game.csv)");
  if (!existsSync(csv)) throw new FieldError(csv, "game.csv", "missing (every game folder needs config.json and game.csv)");
  let config: Json;
  try {
    config = JSON.parse(readFileSync(cfg, "utf8"));
  } catch (error) {
    throw new FieldError(cfg, "", `not valid JSON: ${(error as Error).message}`);
  }
  if (!isObj(config)) throw new FieldError(cfg, "", "expected a JSON object");
  if (!isObj(config.game_args)) throw new FieldError(cfg, "game_args", "missing");
  const family = config.game_type;
  if (family !== "bargaining" && family !== "negotiation" && family !== "persuasion") {
    throw new FieldError(cfg, "game_type", `unknown game ${JSON.stringify(family)}; expected bargaining, negotiation or persuasion`);
  }
  const parsed = readCsv(readFileSync(csv, "utf8"));
  if (parsed.problems.length) {
    const p = parsed.problems[0];
    throw new FieldError(csv, p.field ?? "", p.message + (parsed.problems.length > 1 ? ` (and ${parsed.problems.length - 1} more)` : ""), p.line);
  }
  const needed: Record<Family, string[]> = {
    bargaining: ["alice_gain", "bob_gain", "message", "player", "round", "decision"],
    negotiation: ["message", "product_price", "player", "round", "decision"],
    persuasion: ["round_quality", "product_worth", "player", "round", "message", "decision"],
  };
  for (const column of needed[family]) if (!parsed.header.includes(column)) throw new FieldError(csv, column, `missing column (header: ${parsed.header.join(",")})`, 1);
  if (!parsed.records.length) throw new FieldError(csv, "", "no rows after the header", 1);
  // The folder's path below the input directory, not its base name: two batches may both hold bargaining/<id>.
  const id = relative(root, folder).split(sep).join("/") || basename(folder);
  const badId = idProblem(`glee-human/${id}`);
  if (badId) throw new FieldError(folder, "game_id", `${badId} (the game id is made from the folder's path)`);
  const alice = config.player_1_args;
  if (isObj(alice) && alice.public_name !== undefined && alice.public_name !== "Alice") throw new FieldError(cfg, "player_1_args.public_name", `expected Alice, got ${JSON.stringify(alice.public_name)}`);
  const base: GameRow = {
    game_id: `glee-human/${id}`, source: "glee-human", family,
    run_id: typeof config.name === "string" ? config.name : relative(root, folder),
    alice_agent: gleeAgent(config.player_1_type, config.player_1_args),
    bob_agent: gleeAgent(config.player_2_type, config.player_2_args),
  };
  const build = {bargaining, negotiation, persuasion}[family];
  return build(config, parsed.records, base, csv, cfg);
}

/** Reads a GLEE human-vs-LLM directory. Bad games are reported (file, line, field) and skipped. */
export function ingestGleeHuman(dir: string): IngestResult {
  const problems: Problem[] = [];
  const games: GameRow[] = [];
  const turns: TurnRow[] = [];
  const folders = statSync(dir).isFile() ? [] : gameFolders(dir);
  if (statSync(dir).isFile()) problems.push({file: dir, message: "expected a directory of game folders (<family>/<id>/{config.json, game.csv})"});
  for (const folder of folders) {
    try {
      const built = gleeGame(folder, dir);
      games.push(built.game);
      turns.push(...built.turns);
      if (built.game.ended_by === "incomplete") problems.push({file: join(folder, "game.csv"), message: `the log stops at round ${built.game.rounds} without an end (kept, ended_by = incomplete)`});
    } catch (error) {
      if (error instanceof FieldError) problems.push({file: error.file, line: error.line, field: error.field || undefined, message: error.message});
      else problems.push({file: folder, message: (error as Error).message});
    }
  }
  const by = (f: string) => games.filter((g) => g.family === f).length;
  return {
    tables: [
      {schema: GLEE_GAMES, rows: games},
      {schema: GLEE_TURNS, rows: turns},
    ],
    summary: {games_read: folders.length, games_written: games.length, games_skipped: folders.length - games.length, bargaining: by("bargaining"), negotiation: by("negotiation"), persuasion: by("persuasion")},
    problems,
  };
}
