// One test for every registered game, in the spirit of OpenSpiel's api_test: a game is tested by being registered.
// For each game of the registry (every paper's games in code and every matrix and tree game file):
// random legal play to the end, drawn from the legal actions the game publishes as data; the same seed gives
// the same rows; the rows fit the declared columns (contract/tables.ts); the narrator, where the game has one,
// narrates every observation a seat acts on; and an illegal answer is recorded as a rule break, not a crash.
import {test} from "node:test";
import assert from "node:assert/strict";
import type {Rng} from "../../src/lib/rng.js";
import type {ActionSpec, GameDef, GameObservation, GameState, NumberSpec, Params} from "../../loaders/contract/game.js";
import type {Agent} from "../../loaders/contract/agent.js";
import {checkAction} from "../../loaders/contract/legal.js";
import {resolveParams} from "../../loaders/contract/params.js";
import {gameTables} from "../../loaders/contract/tables.js";
import {games} from "../../loaders/registry/games.js";
import {narratorFor} from "../../loaders/registry/narrators.js";
import {playGame, type PlayedGame} from "../../loaders/runner/gameLoop.js";
import {gameRow, playerRows} from "../../loaders/runner/rows.js";
import {valueFits, type TableSchema} from "../../loaders/io/schema.js";

/** A number in `spec`'s range (whole when it says so); unbounded sides get a span of 100. */
function drawNumber(spec: NumberSpec, rng: Rng): number {
  const min = spec.min ?? (spec.max !== undefined ? spec.max - 100 : 0);
  const max = spec.max ?? min + 100;
  if (spec.integer) return Math.ceil(min) + Math.floor(rng.next() * (Math.floor(max) - Math.ceil(min) + 1));
  return min + rng.next() * (max - min);
}

/**
 * A random action matching `spec`. A `sum` constraint is met by putting every summed entry at its minimum and
 * handing out the rest, whole units at a time when the entries are whole, in random order up to each maximum.
 */
function drawAction(spec: ActionSpec, rng: Rng): Record<string, unknown> {
  const a: Record<string, unknown> = {type: spec.type};
  for (const [field, range] of Object.entries(spec.numbers ?? {})) a[field] = drawNumber(range, rng);
  for (const [field, {length, item}] of Object.entries(spec.lists ?? {})) a[field] = Array.from({length}, () => drawNumber(item, rng));
  for (const [field, values] of Object.entries(spec.choices ?? {})) a[field] = values[Math.floor(rng.next() * values.length)];
  if (spec.text?.required) a[spec.text.field] = "conformance test";
  if (spec.sum) {
    type Slot = {field: string; index: number | null; range: NumberSpec};
    const slots = spec.sum.fields.flatMap((field): Slot[] => {
      const list = spec.lists?.[field];
      if (list) return Array.from({length: list.length}, (_, index) => ({field, index, range: list.item}));
      return [{field, index: null, range: spec.numbers?.[field] ?? {}}];
    });
    const get = (s: Slot) => (s.index === null ? (a[s.field] as number) : (a[s.field] as number[])[s.index]);
    const set = (s: (typeof slots)[number], v: number) => (s.index === null ? (a[s.field] = v) : ((a[s.field] as number[])[s.index] = v));
    for (const s of slots) set(s, s.range.min ?? 0);
    let rest = spec.sum.equals - slots.reduce((t, s) => t + get(s), 0);
    const whole = slots.every((s) => s.range.integer);
    for (let guard = 0; rest > 1e-9 && guard < 100000; guard++) {
      const s = slots[Math.floor(rng.next() * slots.length)];
      const room = (s.range.max ?? Infinity) - get(s);
      const step = Math.min(room, whole ? 1 : rest);
      if (step > 0) {
        set(s, get(s) + step);
        rest -= step;
      }
    }
  }
  return a;
}

/**
 * A seat that answers with a random action drawn from the legal actions of each observation (`onObserve` sees
 * them all). Some games publish specs looser than their rules (gamma-Bench's battle royale offers every seat as a
 * target, its validate takes only those still in), so a draw the game's `validate` rejects is drawn again; `looser`
 * collects the reasons. Every draw must pass the specs themselves.
 */
function randomLegal(state: () => GameState, looser: Set<string>, onObserve?: (obs: GameObservation) => void): Agent {
  return {
    act(obs, rng) {
      onObserve?.(obs);
      for (let draw = 0; draw < 500; draw++) {
        const spec = obs.legal[Math.floor(rng.next() * obs.legal.length)];
        const action = drawAction(spec, rng);
        const error = checkAction(obs.legal, action);
        // An agent's error is recorded as a rule break, which the test then names.
        if (error) throw new Error(`the draw ${JSON.stringify(action)} from ${JSON.stringify(spec)} fails the specs: ${error}`);
        const rejected = state().validate(obs.seat, action);
        if (rejected === null) return {action};
        looser.add(rejected.replace(/[0-9]+/g, "N"));
      }
      throw new Error(`no legal draw in 500 from ${JSON.stringify(obs.legal)}`);
    },
  };
}

/** A seat whose every answer breaks the rules. */
const alwaysIllegal: Agent = {act: () => ({action: {type: "not a move of any game"}})};

/** The paper's default parameters of `def` for its default number of seats. */
function defaults(def: GameDef): Params {
  const resolved = resolveParams(def, {}, def.seats.default);
  if ("error" in resolved) throw new Error(`${def.id}: its default parameters do not resolve: ${resolved.error}`);
  return resolved.params;
}

/** Plays `def` with its defaults; `seats` gets the game's state (known once it starts) for seats that check their draws. */
function play(def: GameDef, seed: number, seats: (s: number, state: () => GameState) => Agent): Promise<PlayedGame> {
  let current: GameState | null = null;
  const state = () => current ?? assert.fail(`${def.id}: a seat was asked before the game started`);
  return playGame(def, defaults(def), `${def.id}#${seed}`, Array.from({length: def.seats.default}, (_, s) => seats(s, state)), {seed, onState: (st) => (current = st)});
}

/** Why `row` does not fit `schema` (a column it lacks, a value of another type), or null. */
function misfit(row: Record<string, unknown>, schema: TableSchema): string | null {
  for (const [k, v] of Object.entries(row)) {
    const column = schema.columns.find((c) => c.name === k);
    if (!column) return `${schema.name}: column "${k}" is not declared`;
    if (v !== null && v !== undefined && !valueFits(column.type, v)) return `${schema.name}.${k}: ${JSON.stringify(v)} does not fit ${column.type}`;
  }
  return null;
}

/** Games whose published legal actions admit moves their rules then reject, and the reasons (printed as a diagnostic). */
const specsLooserThanRules = new Map<string, string[]>();

test("every registered game plays to the end with random legal moves, replays from its seed, and fits its columns", async () => {
  assert.ok(games.length > 30, `the registry has ${games.length} games`);
  for (const def of games) {
    const tables = gameTables(def);
    const narrator = narratorFor(def.id);
    let narrated = 0;
    const looser = new Set<string>();
    const first = await play(def, 7, (_, state) =>
      randomLegal(state, looser, (obs) => {
        if (!narrator || !obs.legal.length) return;
        const messages = narrator.messages(obs, [], "");
        assert.ok(messages.length > 0 && messages.every((m) => typeof m.content === "string"), `${def.id}: the narrator told round ${obs.round}, seat ${obs.seat} nothing`);
        narrated++;
      }),
    );
    const again = await play(def, 7, (_, state) => randomLegal(state, new Set()));
    assert.deepEqual(again.turns, first.turns, `${def.id}: the same seed gave other turns`);
    assert.deepEqual(again.result, first.result, `${def.id}: the same seed gave another result`);
    assert.ok(first.turns.length > 0, `${def.id}: no turn was played`);
    // Legal actions are data: an action drawn from them is accepted by the game (and the narrator never threw: that too would be a rule break).
    const broken = first.turns.find((t) => t.rule_break);
    assert.equal(broken, undefined, `${def.id}: a random legal move was a rule break: ${broken?.rule_break_reason}`);
    assert.equal(first.result.returns.length, def.seats.default, `${def.id}: one return per seat`);
    if (narrator) assert.ok(narrated > 0, `${def.id}: the narrator was never asked`);
    if (looser.size) specsLooserThanRules.set(def.id, [...looser]);

    const planned = {def, params: defaults(def), config_id: 0, lineup: Array.from({length: def.seats.default}, () => "random-legal"), repetition: 0, game_id: `${def.id}#7`};
    const rows = {games: [gameRow(planned, {run_id: "conformance", seed: 7}, first.result)], players: playerRows(planned, first.result), turns: first.turns};
    for (const row of rows.games) assert.equal(misfit(row, tables.games), null, def.id);
    for (const row of rows.players) assert.equal(misfit(row, tables.players), null, def.id);
    for (const row of rows.turns) assert.equal(misfit(row, tables.turns), null, def.id);
  }
  for (const [game, reasons] of specsLooserThanRules) console.log(`${game}: legal specs admit moves its rules reject (${reasons.slice(0, 3).join("; ")})`);
});

test("an illegal answer is a rule break with its reason, and the game still ends", async () => {
  for (const def of games) {
    const played = await play(def, 3, (s, state) => (s === 0 ? alwaysIllegal : randomLegal(state, new Set())));
    const broken = played.turns.filter((t) => t.seat === 0 && t.rule_break);
    assert.ok(broken.length > 0, `${def.id}: seat 0's illegal answers left no rule-break row`);
    for (const t of broken) assert.ok(typeof t.rule_break_reason === "string" && t.rule_break_reason.length > 0, `${def.id}: a rule break without its reason`);
    assert.ok(typeof played.result.ended_by === "string", `${def.id}: no ended_by`);
  }
});
