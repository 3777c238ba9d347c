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
 * Alice is the first mover (RED, the seller) and Bob the buyer. Payoffs follow
 * §3 and Figure 4: the seller gets price − production cost, the buyer
 * willingness to pay − price; without a trade both get 0. The winner is the
 * player with the larger payoff ("one agent gets more resources than the
 * other"); equal payoffs or no trade are a tie, which §3 leaves out of win
 * rates. The summary's own player_outcome is kept as *_payoff_recorded.
 */
import {existsSync, readdirSync, readFileSync, statSync} from "node:fs";
import {basename, dirname, join, relative, sep} from "node:path";
import type {Row, TableSchema} from "../io/schema.js";
import type {IngestResult, Problem} from "./types.js";

export const NA_GAMES: TableSchema = {
  name: "games",
  key: ["game_id"],
  columns: [
    {name: "game_id", type: "VARCHAR", nullable: false},
    {name: "source", type: "VARCHAR", nullable: false},
    {name: "family", type: "VARCHAR", nullable: false, doc: "buysell"},
    {name: "file", type: "VARCHAR"},
    {name: "started_ms", type: "BIGINT", doc: "run_epoch_time_ms"},
    {name: "alice_agent", type: "VARCHAR", doc: "model of the first mover (the seller)"},
    {name: "bob_agent", type: "VARCHAR", doc: "model of the buyer"},
    {name: "alice_name", type: "VARCHAR", doc: "e.g. Player RED"},
    {name: "bob_name", type: "VARCHAR"},
    {name: "alice_role", type: "VARCHAR", doc: "seller | buyer"},
    {name: "bob_role", type: "VARCHAR"},
    {name: "alice_behaviour", type: "VARCHAR", doc: "social behaviour prompt (persona), empty for none"},
    {name: "bob_behaviour", type: "VARCHAR"},
    {name: "alice_temperature", type: "DOUBLE"},
    {name: "bob_temperature", type: "DOUBLE"},
    {name: "alice_resources", type: "VARCHAR", doc: "initial resources as JSON, e.g. {\"X\":1}"},
    {name: "bob_resources", type: "VARCHAR"},
    {name: "seller_cost", type: "DOUBLE", doc: "seller's valuation (production cost) of the object"},
    {name: "buyer_value", type: "DOUBLE", doc: "buyer's willingness to pay"},
    {name: "max_iterations", type: "INTEGER"},
    {name: "turns", type: "INTEGER", doc: "answers given"},
    {name: "final_response", type: "VARCHAR", doc: "ACCEPT | REJECT | null when the turns ran out"},
    {name: "agreement", type: "BOOLEAN"},
    {name: "price", type: "DOUBLE", doc: "ZUP paid for the object in the accepted trade"},
    {name: "alice_final_resources", type: "VARCHAR"},
    {name: "bob_final_resources", type: "VARCHAR"},
    {name: "alice_payoff", type: "DOUBLE"},
    {name: "bob_payoff", type: "DOUBLE"},
    {name: "alice_payoff_recorded", type: "DOUBLE", doc: "summary.player_outcome as the file records it"},
    {name: "bob_payoff_recorded", type: "DOUBLE"},
    {name: "winner", type: "VARCHAR", doc: "alice | bob | tie (§3: more resources than the other; ties excluded from win rates)"},
  ],
};

export const NA_TURNS: TableSchema = {
  name: "turns",
  key: ["game_id", "turn"],
  columns: [
    {name: "game_id", type: "VARCHAR", nullable: false},
    {name: "turn", type: "INTEGER", nullable: false, doc: "0-based"},
    {name: "round", type: "INTEGER", doc: "current_iteration (1-based)"},
    {name: "player", type: "VARCHAR", doc: "alice | bob"},
    {name: "role", type: "VARCHAR", doc: "seller | buyer"},
    {name: "action", type: "VARCHAR", doc: "PROPOSAL | ACCEPT | REJECT | NONE (the 'player answer')"},
    {name: "price", type: "DOUBLE", doc: "ZUP in the newly proposed trade"},
    {name: "trade", type: "VARCHAR", doc: "the newly proposed trade as JSON ({player name: resources})"},
    {name: "message", type: "VARCHAR", doc: "public message, seen by the other player"},
    {name: "reasoning", type: "VARCHAR", doc: "hidden reasoning (<reason>), never shown to the other player"},
    {name: "private_goals", type: "VARCHAR", doc: "<my goals> as the player restated it"},
    {name: "private_resources", type: "VARCHAR", doc: "<my resources> as JSON"},
    {name: "proposal_count", type: "INTEGER"},
    {name: "raw", type: "VARCHAR", doc: "the complete answer"},
  ],
};

export const NA_SCHEMAS = [NA_GAMES, NA_TURNS];

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

export function buySellRows(data: Json, gameId: string, file: string): {game: Row; turns: Row[]} {
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
  const who = (i: number) => (i === 0 ? "alice" : "bob");
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
      player: who(turn), role: role(turn), action,
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
  const [pa, pb] = [payoff(0), payoff(1)];
  const game: Row = {
    game_id: gameId, source: "negotiationarena", family: "buysell", file,
    started_ms: Number.isFinite(Number(data.run_epoch_time_ms)) ? Number(data.run_epoch_time_ms) : null,
    alice_agent: typeof players[0].model === "string" ? players[0].model : null,
    bob_agent: typeof players[1].model === "string" ? players[1].model : null,
    alice_name: names[0], bob_name: names[1], alice_role: role(0), bob_role: role(1),
    alice_behaviour: typeof behaviour[0] === "string" ? behaviour[0] : null,
    bob_behaviour: typeof behaviour[1] === "string" ? behaviour[1] : null,
    alice_temperature: typeof players[0].temperature === "number" ? players[0].temperature : null,
    bob_temperature: typeof players[1].temperature === "number" ? players[1].temperature : null,
    alice_resources: JSON.stringify(initial[0]), bob_resources: JSON.stringify(initial[1]),
    seller_cost: cost, buyer_value: value,
    max_iterations: Number.isInteger(data.iterations) ? data.iterations : null,
    turns: turns.length, final_response: finalResponse, agreement, price,
    alice_final_resources: finals[0] ?? null, bob_final_resources: finals[1] ?? null,
    alice_payoff: pa, bob_payoff: pb,
    alice_payoff_recorded: typeof recorded[0] === "number" ? recorded[0] : null,
    bob_payoff_recorded: typeof recorded[1] === "number" ? recorded[1] : null,
    winner: !agreement || pa === pb ? "tie" : pa > pb ? "alice" : "bob",
  };
  return {game, turns};
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
    try {
      const parsed = buySellRows(data, gameId, file);
      games.push(parsed.game);
      turns.push(...parsed.turns);
      const g = parsed.game;
      for (const who of ["alice", "bob"]) {
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
      {schema: NA_TURNS, rows: turns},
    ],
    summary: {files_read: files.length, games_written: games.length, files_skipped: files.length - games.length},
    problems,
  };
}
