// Bad input for the gamma-Bench, NegotiationArena and GLEE adapters: corrupted
// JSON, truncated CSV, unknown game names, missing fields. Each bad file gives
// one problem naming the file (and field or line); the rest is ingested and
// the summary counts what was read and skipped.
import {test} from "node:test";
import assert from "node:assert/strict";
import {existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {ingestGamabench} from "../../loaders/papers/gamabench/ingest.js";
import {ingestNegotiationArena} from "../../loaders/papers/negotiationarena/ingest.js";
import {ingestGleeHuman} from "../../loaders/papers/glee/ingest.js";
import {parsePythonLiteral} from "../../loaders/ingest/pyrepr.js";
import {readCsv} from "../../loaders/ingest/csv.js";
import {run as ingestCommand} from "../../loaders/cli/commands/ingest.js";
import {datasetsConfig} from "../../loaders/projectConfig.js";
import {writeRawFiles, rowsOf} from "../support/gamabenchFiles.js";
import type {Problem} from "../../loaders/ingest/types.js";

const good = {path: "divide_dollar/m_divide_dollar_v1_1.json", meta: {player_num: 2, golds: 100}, round_records: [{responses: [50, 50]}]};
const problemFor = (problems: Problem[], name: string) => problems.filter((p) => p.file.endsWith(name));

test("gamma-Bench: corrupted JSON, an unknown game, missing and mistyped fields are reported per file; the good file is kept", () => {
  const dir = writeRawFiles([
    good,
    {path: "divide_dollar/m_divide_dollar_v1_2.json", text: '{"meta": {"player_num": 2, "golds": 100}, "round_records": [{"respo'},
    {path: "rock_paper/m_rock_paper_v1_1.json", meta: {player_num: 2}, round_records: []},
    {path: "guessing_game/m_guessing_game_v1_1.json", meta: {player_num: 2, min: 0, ratio: 0.5}, round_records: [{responses: [1, 2]}]},
    {path: "guessing_game/m_guessing_game_v1_2.json", meta: {player_num: 2, min: 0, max: 100, ratio: 0.5}, round_records: [{responses: [1, 2]}, {mean: 3}]},
    {path: "public_goods/m_public_goods_v1_1.json", meta: {player_num: 2, tokens: 20, ratio: 2}, round_records: [{responses: ["lots", 3]}]},
    {path: "sealed_bid_auction/m_sealed_bid_auction_v1_1.json", meta: {player_num: 2}, round_records: [{responses: [1, 2], valuations: [3, 4]}]},
    {path: "pirate_game/m_pirate_game_v1_1.json", meta: {player_num: 3, gold: 10}, round_records: [{gold_distribution: [10, 0], responses: ["accept", "reject"]}]},
  ]);
  const result = ingestGamabench(dir);
  assert.deepEqual(result.summary, {files_read: 8, games_written: 1, files_skipped: 7});
  assert.equal(rowsOf(result, "games")[0].variant, "divide_dollar");
  const one = (name: string) => {
    const ps = problemFor(result.problems, name);
    assert.equal(ps.length, 1, `one problem for ${name}: ${JSON.stringify(ps)}`);
    return ps[0];
  };
  assert.match(one("m_divide_dollar_v1_2.json").message, /not valid JSON/);
  assert.equal(one("m_rock_paper_v1_1.json").field, "file name");
  assert.equal(one("m_guessing_game_v1_1.json").field, "meta.max");
  assert.equal(one("m_guessing_game_v1_2.json").field, "round_records[1].responses");
  assert.equal(one("m_public_goods_v1_1.json").field, "round_records[0].responses[0]");
  assert.equal(one("m_sealed_bid_auction_v1_1.json").field, "meta.mode", "an auction outside first_price/ or second_price/ needs meta.mode");
  assert.equal(one("m_pirate_game_v1_1.json").field, "round_records[0].gold_distribution");
});

test("gamma-Bench: player_data as a Python repr string is parsed; unreadable text is kept and reported, never fatal", () => {
  const repr = "[{'model': 'gpt-3.5-turbo', 'id': 'player_1', 'prompt': [{'role': 'system', 'content': 'It\\'s a \"game\"\\nround 1'}, {'role': 'assistant', 'content': '{\"bid_amount\": \"50\"}'}], 'records': [50], 'utility': [50.0], 'ok': True, 'none': None}]";
  const dir = writeRawFiles([
    {...good, player_data: repr},
    {...good, path: "divide_dollar/m_divide_dollar_v1_2.json", player_data: "[{'model': 'x', 'prompt': [{'role': 'user', 'content': 'unterminated"},
  ]);
  const result = ingestGamabench(dir);
  assert.equal(result.summary.games_written, 2);
  const games = rowsOf(result, "games");
  assert.deepEqual(games.map((g) => g.transcript_format), ["python-repr", "text"]);
  const messages = rowsOf(result, "messages");
  const parsed = messages.filter((m) => m.game_id === games[0].game_id);
  assert.deepEqual(parsed.map((m) => [m.player, m.seq, m.role, m.content]), [
    [1, 0, "system", 'It\'s a "game"\nround 1'],
    [1, 1, "assistant", '{"bid_amount": "50"}'],
  ]);
  assert.equal(rowsOf(result, "turns").find((p) => p.game_id === games[0].game_id && p.seat === 1)?.utility_recorded, 50);
  const kept = messages.filter((m) => m.game_id === games[1].game_id);
  assert.equal(kept.length, 1);
  assert.equal(kept[0].player, null);
  assert.match(String(kept[0].content), /unterminated$/);
  const [p] = problemFor(result.problems, "m_divide_dollar_v1_2.json");
  assert.equal(p.field, "player_data");
  assert.match(p.message, /kept as text/);
});

test("Python literal reader: nesting, both quote styles, escapes, prefixes, constants; errors name the offset", () => {
  assert.deepEqual(parsePythonLiteral(`{'a': [1, -2.5, 3e2, (4, 5)], "b": {'c': None, 'd': True, 'e': False}, 'f': u'x\\u00e9', 'g': r'a\\n'}`), {
    a: [1, -2.5, 300, [4, 5]],
    b: {c: null, d: true, e: false},
    f: "xé",
    g: "a\\n",
  });
  assert.equal(parsePythonLiteral(`'''multi\nline'''`), "multi\nline");
  assert.deepEqual(parsePythonLiteral("[]"), []);
  assert.throws(() => parsePythonLiteral("[1, 2"), /offset 5/);
  assert.throws(() => parsePythonLiteral("{'a' 1}"), /":" after a dict key/);
  assert.throws(() => parsePythonLiteral("[1] extra"), /unexpected text after the literal/);
  assert.throws(() => parsePythonLiteral("__import__('os')"), /expected a Python literal/);
});

test("CSV reader: quoted fields with commas, quotes and newlines; a truncated last record names its first missing field", () => {
  const ok = readCsv('a,b,c\n1,"x, ""y""\nz",3\r\n4,5,6\n');
  assert.deepEqual(ok.problems, []);
  assert.deepEqual(ok.records.map((r) => [r.line, r.values.b]), [[2, 'x, "y"\nz'], [4, "5"]]);
  const cut = readCsv("a,b,c\n1,2,3\n4,5");
  assert.deepEqual(cut.problems, [{line: 3, field: "c", message: "record has 2 of 3 fields (truncated?)"}]);
  const open = readCsv('a,b\n1,"never closed\n');
  assert.equal(open.problems.at(-1)!.message, "a quoted field is never closed (truncated file?)");
});

function naFixture(dir: string, name: string, mutate: (d: Record<string, any>) => unknown): void {
  const source = datasetsConfig().dir ? join(datasetsConfig().dir!, "negotiationarena/1707348684961/game_state.json") : "";
  const base = existsSync(source)
    ? JSON.parse(readFileSync(source, "utf8"))
    : {
        class: "BuySellGame", run_epoch_time_ms: "1", iterations: 10,
        players: [{model: "m1", agent_name: "Player RED"}, {model: "m2", agent_name: "Player BLUE"}],
        game_state: [
          {current_iteration: "START", turn: "None", settings: {
            player_goals: [{_type: "goal", _value: {_type: "seller_goal", _value: {_type: "valuation", _value: {X: 40}}}}, {_type: "goal", _value: {_type: "buyer_goal", _value: {_type: "valuation", _value: {X: 60}}}}],
            player_initial_resources: [{_type: "resource", _value: {X: 1}}, {_type: "resource", _value: {ZUP: 100}}],
            player_social_behaviour: ["", ""],
          }},
          {current_iteration: 1, turn: 0, player_public_info_dict: {message: "47?", "player answer": "PROPOSAL", "newly proposed trade": {_type: "trade", _value: {RED: {_type: "resource", _value: {X: 1}}, BLUE: {_type: "resource", _value: {ZUP: 47}}}}}, player_private_info_dict: {reason: "start high"}},
          {current_iteration: 2, turn: 1, player_public_info_dict: {message: "fine", "player answer": "ACCEPT", "newly proposed trade": "NONE"}, player_private_info_dict: {reason: "cheap enough"}},
          {current_iteration: "END", turn: "None", summary: {}},
        ],
      };
  const data = mutate(base) ?? base;
  mkdirSync(join(dir, name), {recursive: true});
  writeFileSync(join(dir, name, "game_state.json"), typeof data === "string" ? data : JSON.stringify(data));
}

test("NegotiationArena: corrupted JSON, another game class and a missing field are reported per file; the good game is kept", () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-na-"));
  naFixture(dir, "good", () => undefined);
  naFixture(dir, "corrupt", (d) => JSON.stringify(d).slice(0, 200));
  naFixture(dir, "ultimatum", (d) => ({...d, class: "MultiTurnSplitGame"}));
  naFixture(dir, "nogoals", (d) => {
    delete d.game_state[0].settings.player_goals;
  });
  const result = ingestNegotiationArena(dir);
  assert.deepEqual(result.summary, {files_read: 4, games_written: 1, files_skipped: 3});
  const by = (name: string) => result.problems.filter((p) => p.file.includes(`/${name}/`));
  assert.match(by("corrupt")[0].message, /not valid JSON/);
  assert.equal(by("ultimatum")[0].field, "class");
  assert.equal(by("nogoals")[0].field, "game_state[0].settings.player_goals");
  const [game] = result.tables[0].rows;
  assert.equal(game.price, 47);
  assert.equal(game.winner, "p2", "price 47 is under the midpoint 50: the seller gets 7, the buyer 13");
});

test("GLEE: a truncated CSV, an unknown game type, a missing δ and a missing game.csv are reported; the good game is kept", () => {
  const root = mkdtempSync(join(tmpdir(), "parley-glee-bad-"));
  const config = (extra: Record<string, unknown> = {}, args: Record<string, unknown> = {}) => ({
    game_type: "bargaining", player_1_type: "otree", player_1_args: {public_name: "Alice"}, player_2_type: "otree_LLM", player_2_args: {public_name: "Bob"},
    game_args: {money_to_divide: 100, max_rounds: 12, complete_information: true, messages_allowed: false, delta_1: 1, delta_2: 1, ...args},
    ...extra,
  });
  const csv = "alice_gain,bob_gain,message,player,round,decision\n60.0,40.0,nan,Alice,1,None\n,,None,Bob,1,accept\n";
  const write = (id: string, cfg: unknown, text: string | null) => {
    const dir = join(root, "bargaining", id);
    mkdirSync(dir, {recursive: true});
    writeFileSync(join(dir, "config.json"), typeof cfg === "string" ? cfg : JSON.stringify(cfg));
    if (text !== null) writeFileSync(join(dir, "game.csv"), text);
  };
  write("GOOD", config(), csv);
  write("TRUNCATED", config(), csv.slice(0, csv.lastIndexOf(",Bob")));
  write("UNKNOWN", config({game_type: "auction"}), csv);
  write("NODELTA", config({}, {delta_1: undefined}), csv);
  write("NOCSV", config(), null);
  write("BADJSON", "{\"game_type\": ", csv);
  const result = ingestGleeHuman(root);
  assert.equal(result.summary.games_read, 6);
  assert.equal(result.summary.games_written, 1);
  assert.equal(result.summary.games_skipped, 5);
  const by = (id: string) => {
    const ps = result.problems.filter((p) => p.file.includes(`/${id}/`));
    assert.equal(ps.length, 1, `${id}: ${JSON.stringify(result.problems)}`);
    return ps[0];
  };
  const truncated = by("TRUNCATED");
  assert.ok(truncated.file.endsWith("game.csv"));
  assert.equal(truncated.line, 3);
  assert.equal(truncated.field, "player", "the cut record stops after alice_gain, bob_gain and message");
  assert.equal(by("UNKNOWN").field, "game_type");
  assert.equal(by("NODELTA").field, "game_args.delta_1");
  assert.equal(by("NOCSV").field, "game.csv");
  assert.match(by("BADJSON").message, /not valid JSON/);
});

test("`parley ingest --strict` fails on problems but still writes what it could read", async () => {
  const dir = writeRawFiles([good, {path: "divide_dollar/m_divide_dollar_v1_2.json", text: "{"}]);
  const out = join(dir, "out");
  const stderr = process.stderr.write;
  process.stderr.write = (() => true) as typeof process.stderr.write;
  try {
    assert.equal(await ingestCommand(["gamabench", dir, "--out", out]), 0);
    assert.equal(await ingestCommand(["gamabench", dir, "--out", out, "--strict"]), 1);
  } finally {
    process.stderr.write = stderr;
  }
  for (const table of ["games", "players", "turns", "rounds", "messages"]) assert.ok(existsSync(join(out, `${table}.parquet`)), table);
});
