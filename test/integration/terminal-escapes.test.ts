// Control characters inside data files never reach the terminal raw: `parley ingest` prints them escaped (\x1b, \u009b) in problems and summaries.
import {test} from "node:test";
import assert from "node:assert/strict";
import {spawnSync} from "node:child_process";
import {mkdirSync, mkdtempSync, readFileSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {projectRoot} from "../../loaders/projectConfig.js";
import {printable, printableJson} from "../../loaders/io/printable.js";

function parley(...args: string[]) {
  const r = spawnSync(process.execPath, [join(projectRoot, "bin/parley.js"), ...args], {encoding: "utf8", timeout: 120_000});
  return {code: r.status, stdout: r.stdout, stderr: r.stderr};
}

// Red text, a window-title change ended by BEL, and the one-byte C1 CSI.
const HOSTILE = "\x1b[31m\x1b]0;pwned\x07\u009b2J";
// Anything a terminal would act on: C0 other than the newline that ends each line, DEL, C1.
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

function assertNoRawControls(output: string, where: string): void {
  const at = output.search(RAW_CONTROL);
  assert.equal(at, -1, `${where} has a raw control character at ${at}: ${JSON.stringify(output.slice(Math.max(0, at - 40), at + 20))}`);
}

test("printable escapes C0, DEL, C1, the line separators and bidirectional formats, and nothing else", () => {
  assert.equal(printable("a\x1b[31mb\x07\tc\nd\x7f\u009b\u00a0é"), "a\\x1b[31mb\\x07\\x09c\\x0ad\\x7f\\u009b\u00a0é");
  assert.equal(printable("evil\u202egnp.exe \u2066x\u2069 \u200fא\u2028日本😀"), "evil\\u202egnp.exe \\u2066x\\u2069 \\u200fא\\u2028日本😀");
  const json = JSON.stringify({s: "\x1b\u0085\u009b\u202e"});
  assert.equal(printableJson(json), '{"s":"\\u001b\\u0085\\u009b\\u202e"}');
  assert.deepEqual(JSON.parse(printableJson(json)), {s: "\x1b\u0085\u009b\u202e"});
});

test("ingest: control characters in Deal-or-No-Deal, gamma-Bench, NegotiationArena and GLEE files are printed escaped", () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-escapes-"));

  // Deal or No Deal: a valid dialogue, then a line whose <input> holds the bytes (quoted by the problem).
  const good = readFileSync(join(projectRoot, "test/fixtures/dond/hand.txt"), "utf8").split("\n")[0];
  writeFileSync(join(dir, "dond.txt"), `${good}\n<input> 1 ${HOSTILE} 2 </input> <dialogue> YOU: hi <eos> </dialogue> <output> <disagree> </output> <partner_input> 1 2 2 2 2 2 </partner_input>\n`);

  // gamma-Bench: an auction whose meta.mode is the bytes.
  mkdirSync(join(dir, "gamabench/sealed_bid_auction"), {recursive: true});
  writeFileSync(join(dir, "gamabench/sealed_bid_auction/gpt-4_sealed_bid_auction_v1_1.json"), JSON.stringify({meta: {player_num: 2, mode: HOSTILE}, round_records: [{}]}));

  // NegotiationArena: a game_state.json whose class is the bytes.
  mkdirSync(join(dir, "negotiationarena/run1"), {recursive: true});
  writeFileSync(join(dir, "negotiationarena/run1/game_state.json"), JSON.stringify({class: HOSTILE}));

  // GLEE: a bargaining game whose CSV decision is the bytes.
  const game = join(dir, "glee/bargaining/G1");
  mkdirSync(game, {recursive: true});
  writeFileSync(join(game, "config.json"), JSON.stringify({
    game_type: "bargaining",
    player_1_type: "otree", player_1_args: {delta: 1, public_name: "Alice", model_name: "otree"},
    player_2_type: "otree_LLM", player_2_args: {delta: 1, public_name: "Bob", model_name: "otree_LLM"},
    game_args: {money_to_divide: 10000, max_rounds: 99, complete_information: true, messages_allowed: true},
  }));
  writeFileSync(join(game, "game.csv"), `alice_gain,bob_gain,message,player,round,decision\n7000.0,3000.0,hi,Alice,1,None\n,,None,Bob,1,${HOSTILE}\n`);

  const cases: [string, string, RegExp][] = [
    ["dond", join(dir, "dond.txt"), /line 2: <input>: expected 6 non-negative integers, got "1 \\x1b\[31m\\x1b\]0;pwned\\x07\\u009b2J 2"/],
    ["gamabench", join(dir, "gamabench"), /field meta\.mode: .*got "\\u001b\[31m\\u001b\]0;pwned\\u0007\\u009b2J"/],
    ["negotiationarena", join(dir, "negotiationarena"), /field class: unknown game "\\x1b\[31m\\x1b\]0;pwned\\x07\\u009b2J"/],
    ["glee", join(dir, "glee"), /field decision: expected accept or reject, got "\\u001b\[31m\\u001b\]0;pwned\\u0007\\u009b2J"/],
  ];
  for (const [adapter, input, escaped] of cases) {
    const r = parley("ingest", adapter, input, "--out", join(dir, `out-${adapter}`));
    assert.equal(r.code, 0, r.stderr);
    assertNoRawControls(r.stdout, `${adapter} stdout`);
    assertNoRawControls(r.stderr, `${adapter} stderr`);
    assert.match(r.stderr, escaped, adapter);
    assert.match(r.stderr, /problems: 1;/, adapter);
  }
});

test("errors quoting a file name with control characters are printed escaped", () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-escapes-"));
  const name = join(dir, `games\x1b]0;pwned\x07`);
  const r = parley("equilibria", name);
  assert.equal(r.code, 2);
  assertNoRawControls(r.stderr, "stderr");
  assert.match(r.stderr, /games\\x1b\]0;pwned\\x07 not found/);
});
