/**
 * NegotiationArena buy/sell adapter (NegotiationArena (Bianchi et al. 2024) §2.1 "Seller and Buyer", §3;
 * vinid/NegotiationArena `example_logs/buysell/<run>/game_state.json`).
 *
 * A game_state.json holds the two players (model, name, social behaviour,
 * conversation), the settings (goals with valuations, initial resources) and
 * `game_state`: one entry per iteration with the public answer (message,
 * PROPOSAL/ACCEPT/REJECT, the proposed trade) kept apart from the private one
 * (reason, goals, resources, proposal count), and a final summary.
 *
 * The tables are the ones Parley's own runs of the three scenarios write
 * (games, players, turns; loaders/papers/negotiationarena/columns.ts), so one
 * SQL and one page read both. P1 is the first mover (RED, the seller, seat
 * 0) and P2 the buyer (BLUE, seat 1). Payoffs follow
 * §3 and Figure 4: the seller gets price − production cost, the buyer
 * willingness to pay − price; without a trade both get 0. The winner is the
 * player with the larger payoff ("one agent gets more resources than the
 * other"); equal payoffs or no trade are a tie, which §3 leaves out of win
 * rates. The summary's own player_outcome is kept as *_payoff_recorded.
 */
import {idProblem} from "../../io/ids.js";
import {existsSync, readdirSync, readFileSync, statSync} from "node:fs";
import {basename, dirname, join, relative, sep} from "node:path";
import type {Row, TableSchema} from "../../io/schema.js";
import type {IngestResult, Problem} from "../../ingest/types.js";
import {COMMON_GAME_COLUMNS, COMMON_PLAYER_COLUMNS, COMMON_TURN_COLUMNS} from "../../contract/tables.js";
import {NA_GAME, NA_PLAYER, NA_TURN} from "./columns.js";
import {SEAT_NAMES, winnerOf} from "./protocol.js";

/** games: the common columns, then NegotiationArena's (shared with Parley's runs of the three scenarios). */
export const NA_GAMES: TableSchema = {
  name: "games",
  key: ["game_id"],
  columns: [...COMMON_GAME_COLUMNS.slice(0, 2), NA_GAME.game, ...COMMON_GAME_COLUMNS.slice(2), ...Object.values(NA_GAME).filter((c) => c !== NA_GAME.game)],
};

export const NA_PLAYERS: TableSchema = {
  name: "players",
  key: ["game_id", "seat"],
  columns: [...COMMON_PLAYER_COLUMNS, ...Object.values(NA_PLAYER)],
};

export const NA_TURNS: TableSchema = {
  name: "turns",
  key: ["game_id", "turn"],
  columns: [...COMMON_TURN_COLUMNS, ...Object.values(NA_TURN)],
};

export const NA_SCHEMAS = [NA_GAMES, NA_PLAYERS, NA_TURNS];

type Json = Record<string, unknown>;

class FieldError extends Error {
  constructor(readonly field: string, message: string) {
    super(message);
  }
}

const isObj = (v: unknown): v is Json => !!v && typeof v === "object" && !Array.isArray(v);

/** `{_type, _value}` wrappers (resource, goal, valuation, trade) -> their plain value. */
export function unwrap(v: unknown): unknown {
  if (isObj(v) && "_type" in v && "_value" in v) return unwrap(v._value);
  if (isObj(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unwrap(x)]));
  if (Array.isArray(v)) return v.map(unwrap);
  return v;
}

function resources(v: unknown, field: string): Record<string, number> {
  const r = unwrap(v);
  if (!isObj(r) || !Object.values(r).every((x) => typeof x === "number")) throw new FieldError(field, `expected resources like {"X": 1}, got ${JSON.stringify(r)?.slice(0, 60)}`);
  return r as Record<string, number>;
}

function need<T>(obj: Json, key: string, field: string): T {
  if (obj[key] === undefined || obj[key] === null) throw new FieldError(field, "missing");
  return obj[key] as T;
}

/** Player "Player RED" -> "RED", the key trades use. */
const shortName = (name: string) => name.replace(/^Player\s+/i, "");

export function buySellRows(data: Json, gameId: string, file: string): {game: Row; players: Row[]; turns: Row[]} {
  const players = need<Json[]>(data, "players", "players");
  if (!Array.isArray(players) || players.length !== 2) throw new FieldError("players", "expected two players");
  const states = need<Json[]>(data, "game_state", "game_state");
  if (!Array.isArray(states) || !states.length) throw new FieldError("game_state", "expected a list of iterations");
  const settings = isObj(states[0].settings) ? (states[0].settings as Json) : data;
  const goals = (unwrap(need(settings, "player_goals", "game_state[0].settings.player_goals")) as unknown[]) ?? [];
  const rawGoals = need<Json[]>(settings, "player_goals", "game_state[0].settings.player_goals");
  const kinds = rawGoals.map((g) => (isObj(g) && isObj(g._value) ? String(g._value._type) : ""));
  const sellerIndex = kinds.indexOf("seller_goal");
  const buyerIndex = kinds.indexOf("buyer_goal");
  if (sellerIndex < 0 || buyerIndex < 0) throw new FieldError("game_state[0].settings.player_goals", `expected a seller_goal and a buyer_goal, got ${JSON.stringify(kinds)}`);
  const valuation = (i: number) => {
    const v = goals[i] as Record<string, number>;
    const x = isObj(v) ? Object.values(v)[0] : undefined;
    if (typeof x !== "number") throw new FieldError(`game_state[0].settings.player_goals[${i}]`, "expected a valuation");
    return x;
  };
  const initial = need<unknown[]>(settings, "player_initial_resources", "game_state[0].settings.player_initial_resources").map((r, i) => resources(r, `player_initial_resources[${i}]`));
  const behaviour = (settings.player_social_behaviour as unknown[]) ?? [];
  const names = players.map((p, i) => String(p.agent_name ?? `Player ${i}`));
  const role = (i: number) => (i === sellerIndex ? "seller" : i === buyerIndex ? "buyer" : null);
  const currency = Object.keys(initial[buyerIndex])[0] ?? "ZUP";
  const buyerKey = shortName(names[buyerIndex]);
  const priceOf = (trade: unknown): number | null => {
    const t = unwrap(trade);
    if (!isObj(t)) return null;
    const side = t[buyerKey] ?? t[names[buyerIndex]];
    return isObj(side) && typeof side[currency] === "number" ? (side[currency] as number) : null;
  };

  const turns: Row[] = [];
  let finalResponse: string | null = null;
  let summary = null as Json | null;
  for (let k = 0; k < states.length - 1; k++) {
    const s = states[k + 1];
    if (!isObj(s)) throw new FieldError(`game_state[${k + 1}]`, "expected an object");
    if (s.current_iteration === "END") {
      summary = isObj(s.summary) ? s.summary : null;
      continue;
    }
    const pub = isObj(s.player_public_info_dict) ? s.player_public_info_dict : null;
    if (!pub) throw new FieldError(`game_state[${k + 1}].player_public_info_dict`, "missing");
    const priv = isObj(s.player_private_info_dict) ? s.player_private_info_dict : {};
    const turn = Number(s.turn);
    if (turn !== 0 && turn !== 1) throw new FieldError(`game_state[${k + 1}].turn`, `expected 0 or 1, got ${JSON.stringify(s.turn)}`);
    const action = typeof pub["player answer"] === "string" ? (pub["player answer"] as string).toUpperCase() : null;
    if (action === "ACCEPT" || action === "REJECT") finalResponse = action;
    const trade = pub["newly proposed trade"];
    const count = Number(priv["proposal count"]);
    turns.push({
      game_id: gameId, turn: turns.length, round: Number.isInteger(s.current_iteration) ? s.current_iteration : null,
      seat: turn, role: role(turn), action, rule_break: false,
      price: priceOf(trade), trade: isObj(trade) ? JSON.stringify(unwrap(trade)) : null,
      message: typeof pub.message === "string" ? pub.message : null,
      reasoning: typeof priv.reason === "string" ? priv.reason : null,
      private_goals: typeof priv["my goals"] === "string" ? priv["my goals"] : null,
      private_resources: priv["my resources"] !== undefined ? JSON.stringify(unwrap(priv["my resources"])) : null,
      proposal_count: Number.isInteger(count) ? count : null,
      raw: typeof s.player_complete_answer === "string" ? s.player_complete_answer : null,
    });
  }

  const sum = (summary ?? {}) as Json;
  const agreement = finalResponse === "ACCEPT";
  // The accepted trade is the last proposal before the ACCEPT (the summary repeats it).
  const lastProposal = [...turns].reverse().find((t) => t.action === "PROPOSAL");
  const price = agreement ? priceOf(sum.proposed_trade) ?? (lastProposal?.price as number | null) ?? null : null;
  if (agreement && price === null) throw new FieldError("summary.proposed_trade", "an accepted game without a price");
  const cost = valuation(sellerIndex);
  const value = valuation(buyerIndex);
  const payoff = (i: number) => (!agreement ? 0 : i === sellerIndex ? price! - cost : value - price!);
  const recorded = Array.isArray(sum.player_outcome) ? (sum.player_outcome as unknown[]) : [];
  const finals = Array.isArray(sum.final_resources) ? (sum.final_resources as unknown[]).map((r) => JSON.stringify(unwrap(r))) : [];
  const payoffs: [number, number] = [payoff(0), payoff(1)];
  const winner = agreement ? winnerOf(payoffs) : "tie";
  const lastAction = turns.at(-1)?.action;
  const firstSellerPrice = turns.find((t) => t.role === "seller" && t.action === "PROPOSAL")?.price ?? null;
  const model = (i: number) => (typeof players[i].model === "string" ? (players[i].model as string) : null);
  const said = (i: number) => (typeof behaviour[i] === "string" && behaviour[i] !== "" ? (behaviour[i] as string) : null);
  const game: Row = {
    game_id: gameId, source: "negotiationarena", game: "negotiationarena/buy_sell",
    n_players: 2, rounds: turns.length,
    ended_by: finalResponse === "ACCEPT" ? "accepted" : finalResponse === "REJECT" ? "rejected" : lastAction === undefined ? "unfinished" : "turns",
    file,
    started_ms: Number.isFinite(Number(data.run_epoch_time_ms)) ? Number(data.run_epoch_time_ms) : null,
    iterations: Number.isInteger(data.iterations) ? data.iterations : null,
    p1_agent: model(0), p2_agent: model(1),
    p1_name: names[0], p2_name: names[1], p1_role: role(0), p2_role: role(1),
    p1_behaviour: said(0), p2_behaviour: said(1),
    p1_temperature: typeof players[0].temperature === "number" ? players[0].temperature : null,
    p2_temperature: typeof players[1].temperature === "number" ? players[1].temperature : null,
    p1_resources: JSON.stringify(initial[0]), p2_resources: JSON.stringify(initial[1]),
    seller_cost: cost, buyer_value: value, budget: initial[buyerIndex][currency] ?? null,
    final_response: finalResponse, agreement, price, first_price: firstSellerPrice,
    p1_final_resources: finals[0] ?? null, p2_final_resources: finals[1] ?? null,
    p1_payoff: payoffs[0], p2_payoff: payoffs[1],
    p1_payoff_recorded: typeof recorded[0] === "number" ? recorded[0] : null,
    p2_payoff_recorded: typeof recorded[1] === "number" ? recorded[1] : null,
    winner,
  };
  const seats: Row[] = [0, 1].map((i) => ({
    game_id: gameId, seat: i, seat_name: SEAT_NAMES[i], agent: model(i), return: payoffs[i],
    role: role(i), behaviour: said(i), final_resources: finals[i] ?? null, won: winner === "tie" ? null : winner === `p${i + 1}`,
  }));
  return {game, players: seats, turns};
}

/** game_state.json files: `dir` itself, `dir/game_state.json`, or `dir/<run>/game_state.json`. */
function stateFiles(dir: string): string[] {
  if (statSync(dir).isFile()) return [dir];
  const out: string[] = [];
  if (existsSync(join(dir, "game_state.json"))) out.push(join(dir, "game_state.json"));
  for (const entry of readdirSync(dir, {withFileTypes: true}).sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.isDirectory() && existsSync(join(dir, entry.name, "game_state.json"))) out.push(join(dir, entry.name, "game_state.json"));
  }
  return out;
}

/** Reads NegotiationArena buy/sell logs. Bad files are reported (file, field) and skipped. */
export function ingestNegotiationArena(dir: string): IngestResult {
  const problems: Problem[] = [];
  const games: Row[] = [];
  const seats: Row[] = [];
  const turns: Row[] = [];
  const files = stateFiles(dir);
  for (const path of files) {
    const file = relative(dir, path) || path;
    let data: Json;
    try {
      data = JSON.parse(readFileSync(path, "utf8"));
      if (!isObj(data)) throw new Error("expected a JSON object");
    } catch (error) {
      problems.push({file: path, message: `not valid JSON: ${(error as Error).message}`});
      continue;
    }
    if (data.class !== undefined && data.class !== "BuySellGame") {
      problems.push({file: path, field: "class", message: `unknown game "${String(data.class)}"; this adapter reads BuySellGame logs`});
      continue;
    }
    // The run folder's path below the input directory: unique, where time stamps of two runs may collide.
    const gameId = `negotiationarena/${relative(dir, dirname(path)).split(sep).join("/") || basename(dirname(path))}`;
    const badId = idProblem(gameId);
    if (badId) {
      problems.push({file: path, field: "game_id", message: `${badId} (the game id is made from the folder's path)`});
      continue;
    }
    try {
      const parsed = buySellRows(data, gameId, file);
      games.push(parsed.game);
      seats.push(...parsed.players);
      turns.push(...parsed.turns);
      const g = parsed.game;
      for (const who of ["p1", "p2"]) {
        const recorded = g[`${who}_payoff_recorded`];
        if (recorded !== null && recorded !== g[`${who}_payoff`]) problems.push({file: path, field: "summary.player_outcome", message: `${who}: file records ${recorded}, the rules give ${g[`${who}_payoff`]}; kept both`});
      }
    } catch (error) {
      if (error instanceof FieldError) problems.push({file: path, field: error.field, message: error.message});
      else problems.push({file: path, message: (error as Error).message});
    }
  }
  return {
    tables: [
      {schema: NA_GAMES, rows: games},
      {schema: NA_PLAYERS, rows: seats},
      {schema: NA_TURNS, rows: turns},
    ],
    summary: {files_read: files.length, games_written: games.length, files_skipped: files.length - games.length},
    problems,
  };
}
