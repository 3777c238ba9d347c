// compareManifests (src/lib/manifestDiff.ts): two runs' manifests that
// differ in one thing at a time. A difference in the players is the compared
// factor and never warned about; anything else gives exactly one warning
// naming the field.
import {test} from "node:test";
import assert from "node:assert/strict";
import {compareManifests, manifestWarnings, type RunManifest} from "../../src/lib/manifestDiff.js";

const llm = (id: string, model: string, extra: Record<string, unknown> = {}) => ({id, provider: "openai", model, api_key_env: "OPENAI_API_KEY", temperature: 1, ...extra});

function base(): RunManifest {
  return {
    kind: "run",
    parley: {version: "0.1.0", commit: "a".repeat(40)},
    config: {
      run_id: "study",
      description: "mini against fair",
      family: "bargaining",
      grid: {delta_a: [0.9, 1], money: [100]},
      players: [llm("mini", "gpt-4o-mini"), "fair"],
      pairs: [["mini", "fair"], ["fair", "mini"]],
      games_per_pair: 5,
      seed: 1,
    },
    seed: 1,
    node: "v20.20.2",
    packages: {openai: "4.1.0", "@duckdb/node-api": "1.5.0"},
    llm_players: [{id: "mini", models_reported: ["gpt-4o-mini-2024-07-18"], system_prompts: [{sha256: "p1"}, {sha256: "p2"}]}],
  };
}

/** A copy of the base manifest with `change` applied. */
function changed(change: (m: RunManifest & {config: Record<string, unknown>}) => void): RunManifest {
  const m = structuredClone(base()) as RunManifest & {config: Record<string, unknown>};
  change(m);
  return m;
}

test("identical manifests: no warning, nothing compared", () => {
  const r = compareManifests(base(), base());
  assert.deepEqual(r, {compared: [], differences: []});
  assert.deepEqual(manifestWarnings(r), []);
});

test("the compared factor alone gives no warning: a swapped agent, another model, a persona, with its reported model and prompts", () => {
  // The LLM player's model and everything that follows from it.
  const model = changed((m) => {
    m.config.players = [llm("mini", "gpt-4o"), "fair"];
    m.llm_players = [{id: "mini", models_reported: ["gpt-4o-2024-08-06"], system_prompts: [{sha256: "p9"}]}];
  });
  assert.deepEqual(compareManifests(base(), model), {compared: [{a: "mini", b: "mini"}], differences: []});
  // A persona (a prompt setting) of the same player.
  const persona = changed((m) => {
    m.config.players = [llm("mini", "gpt-4o-mini", {persona: "cunning"}), "fair"];
    m.llm_players![0].system_prompts = [{sha256: "p3"}];
  });
  assert.deepEqual(compareManifests(base(), persona).differences, []);
  // The scripted opponent swapped: fair → rubinstein, in the players and the pairs naming it.
  const swapped = changed((m) => {
    m.config.players = [llm("mini", "gpt-4o-mini"), "rubinstein"];
    m.config.pairs = [["mini", "rubinstein"], ["rubinstein", "mini"]];
  });
  const r = compareManifests(base(), swapped);
  assert.deepEqual(r.compared, [{a: "fair", b: "rubinstein"}]);
  assert.deepEqual(r.differences, []);
  // Names of the run are not causes.
  assert.deepEqual(compareManifests(base(), changed((m) => ((m.config.run_id = "other"), (m.config.description = "another text")))).differences, []);
});

test("anything else differing is one warning naming the field", () => {
  const cases: [string, (m: RunManifest & {config: Record<string, unknown>}) => void, unknown, unknown][] = [
    ["config.grid.delta_a", (m) => ((m.config.grid as Record<string, unknown>).delta_a = [0.9]), [0.9, 1], [0.9]],
    ["config.games_per_pair", (m) => (m.config.games_per_pair = 3), 5, 3],
    ["config.family", (m) => (m.config.family = "negotiation"), "bargaining", "negotiation"],
    ["parley.version", (m) => (m.parley!.version = "0.2.0"), "0.1.0", "0.2.0"],
    ["parley.commit", (m) => (m.parley!.commit = "b".repeat(40)), "a".repeat(40), "b".repeat(40)],
    ["packages.openai", (m) => (m.packages!.openai = "4.2.0"), "4.1.0", "4.2.0"],
    ["node", (m) => (m.node = "v22.1.0"), "v20.20.2", "v22.1.0"],
    ["seed", (m) => ((m.seed = 2), (m.config.seed = 2)), 1, 2],
    ["config.pairs", (m) => (m.config.pairs = [["mini", "fair"]]), [["mini", "fair"], ["fair", "mini"]], [["mini", "fair"]]],
    // The scheme each run drew chance by: the base recorded none (a run before the key: per-game).
    ["chance", (m) => ((m.chance = "common"), (m.config.chance = "common")), "per-game", "common"],
  ];
  for (const [field, change, a, b] of cases) {
    const r = compareManifests(base(), changed(change));
    assert.deepEqual(r.differences, [{field, a, b}], field);
    assert.deepEqual(r.compared, [], field);
    const lines = manifestWarnings(r);
    assert.equal(lines.length, 1, field);
    assert.match(lines[0], new RegExp(`^warning: the runs differ in ${field.replaceAll(".", "\\.")} \\(A `), field);
  }
});

test("a generalisation protocol given or changed is no warning: it says how games are read, not which are played", () => {
  const withProtocol = changed((m) => (m.config.generalisation = {focal: ["mini"], seen: ["fair"]}));
  assert.deepEqual(compareManifests(base(), withProtocol).differences, []);
  assert.deepEqual(compareManifests(withProtocol, changed((m) => (m.config.generalisation = {focal: ["fair"]}))).differences, []);
});

test("a run that names the per-game scheme differs in nothing from one made before the key existed", () => {
  assert.deepEqual(compareManifests(base(), changed((m) => ((m.chance = "per-game"), (m.config.chance = "per-game")))).differences, []);
});

test("a shared LLM player's reported model or prompt hashes differing is a warning; the compared player's is not", () => {
  // Two LLM players; only the opponent "big" changes its model, so "mini" is shared unchanged.
  const two = (m: RunManifest & {config: Record<string, unknown>}) => {
    m.config.players = [llm("mini", "gpt-4o-mini"), llm("big", "gpt-4o")];
    m.config.pairs = [["mini", "big"]];
    m.llm_players = [m.llm_players![0], {id: "big", models_reported: ["gpt-4o-2024-05-13"], system_prompts: [{sha256: "q1"}]}];
  };
  const a = changed(two);
  const snapshot = changed((m) => (two(m), (m.llm_players![0].models_reported = ["gpt-4o-mini-2024-09-01"])));
  const r1 = compareManifests(a, snapshot);
  assert.deepEqual(r1.differences, [{field: "llm_players.mini.models_reported", a: ["gpt-4o-mini-2024-07-18"], b: ["gpt-4o-mini-2024-09-01"]}]);
  const prompts = changed((m) => (two(m), (m.llm_players![0].system_prompts = [{sha256: "p1"}, {sha256: "p7"}])));
  assert.deepEqual(compareManifests(a, prompts).differences.map((d) => d.field), ["llm_players.mini.system_prompts"]);
  // The compared player (big: gpt-4o → o3) changing its prompts and model: no warning.
  const factor = changed((m) => {
    two(m);
    m.config.players = [llm("mini", "gpt-4o-mini"), llm("big", "o3")];
    m.llm_players![1] = {id: "big", models_reported: ["o3-2025-04-16"], system_prompts: [{sha256: "q2"}]};
  });
  const r2 = compareManifests(a, factor);
  assert.deepEqual(r2.compared, [{a: "big", b: "big"}]);
  assert.deepEqual(r2.differences, []);
});

test("--rename names the factor when the players differ in more than one id; key order never counts", () => {
  const b = changed((m) => {
    m.config.players = [llm("mini2", "gpt-4o-mini"), "rubinstein"];
    m.config.pairs = [["mini2", "rubinstein"], ["rubinstein", "mini2"]];
  });
  const rename = new Map([["mini", "mini2"], ["fair", "rubinstein"]]);
  const r = compareManifests(base(), b, rename);
  assert.deepEqual(r.compared, [{a: "mini", b: "mini2"}, {a: "fair", b: "rubinstein"}]);
  assert.deepEqual(r.differences, []);
  const reordered = changed((m) => (m.config = Object.fromEntries(Object.entries(m.config).reverse())));
  assert.deepEqual(compareManifests(base(), reordered).differences, []);
});
