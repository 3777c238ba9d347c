/**
 * The reproducibility manifest (loaders/runner/manifest.ts) of `parley run`
 * with an LLM player against a fake OpenAI server on 127.0.0.1, of a
 * scripted run, and of `parley ingest`: the config and its hash, the
 * commit, counts that match the tables, the model as requested and as the
 * API reported it, and system-prompt hashes that change when the prompt
 * does; never the key.
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {createHash} from "node:crypto";
import {readFileSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {execFileSync} from "node:child_process";
import {parley, root, scratch} from "../support/cli.js";
import {startFakeLlm} from "../support/fakeLlm.js";
import {gleeBot} from "../support/gleeBot.js";
import {queryRun} from "../../loaders/io/parquet.js";

const KEY = "sk-parley-" + "feedface00".repeat(4);
const {dir: tempDir, keep} = scratch("parley-manifest-");
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

test("parley run writes manifest.json: config hash, commit, counts, models requested and reported, prompt hashes that follow the prompt", async () => {
  const server = await startFakeLlm("openai", gleeBot());
  keep(server);
  const dir = tempDir();
  const manifests = [];
  for (const persona of [null, "cunning"]) {
    const config = join(dir, `llm-${persona ?? "plain"}.json`);
    const text = JSON.stringify({
      family: "bargaining",
      grid: {delta_a: [0.9], delta_b: [0.8], money: [1000], horizon: [4], complete_information: [true], messages: [false]},
      players: [{id: "oa", provider: "openai", model: "fake-openai", base_url: server.baseURL, api_key_env: "PARLEY_FAKE_KEY", max_tokens: 200, persona}, "fair"],
      pairs: [["oa", "fair"]],
      games_per_pair: 2,
      seed: 11,
    });
    writeFileSync(config, text);
    const out = join(dir, `out-${persona ?? "plain"}`);
    const r = await parley(["run", config, "--out", out, "--quiet"], {PARLEY_FAKE_KEY: KEY});
    assert.equal(r.code, 0, r.stderr);
    const raw = readFileSync(join(out, "manifest.json"), "utf8");
    assert.ok(!raw.includes(KEY), "no key in the manifest");
    const m = JSON.parse(raw);
    assert.equal(m.kind, "run");
    assert.equal(m.config_sha256, sha256(text));
    assert.deepEqual(m.config, JSON.parse(text));
    assert.equal(m.seed, 11);
    assert.equal(m.parley.commit, execFileSync("git", ["rev-parse", "HEAD"], {cwd: root, encoding: "utf8"}).trim());
    const [{n}] = await queryRun<{n: number}>(out, ["games"], "SELECT count(*)::INTEGER AS n FROM games");
    assert.equal(m.counts.games, n);
    assert.equal(m.counts.games, 2);
    const [player] = m.llm_players;
    assert.equal(player.model_requested, "fake-openai");
    assert.deepEqual(player.models_reported, ["fake-openai"], "the fake server reports the model it was asked for");
    assert.ok(player.system_prompts.length >= 1);
    assert.equal(player.system_prompts.reduce((t: number, p: {calls: number}) => t + p.calls, 0), m.counts.llm_calls);
    assert.ok(Date.parse(m.finished) >= Date.parse(m.started));
    manifests.push(m);
  }
  // The persona changes the system prompt, so its hashes differ; nothing else about the two runs' prompts does.
  const hashes = manifests.map((m) => new Set(m.llm_players[0].system_prompts.map((p: {sha256: string}) => p.sha256)));
  assert.ok([...hashes[1]].every((h) => !hashes[0].has(h)), "a changed prompt gives new hashes");
});

test("a scripted run and an ingest write their manifests too", async () => {
  const dir = tempDir();
  const config = join(dir, "scripted.json");
  writeFileSync(config, JSON.stringify({family: "negotiation", grid: {factor_a: [0.8], factor_b: [1.2], money: [100]}, players: ["fair", "greedy"], pairs: "all", seed: 2}));
  assert.equal((await parley(["run", config, "--out", join(dir, "run")])).code, 0);
  const run = JSON.parse(readFileSync(join(dir, "run/manifest.json"), "utf8"));
  assert.equal(run.counts.games, run.counts.planned);
  assert.deepEqual(run.llm_players, []);
  assert.equal((await parley(["ingest", "dond", join(root, "test/fixtures/dond/hand.txt"), "--out", join(dir, "dond")])).code, 0);
  const ingest = JSON.parse(readFileSync(join(dir, "dond/manifest.json"), "utf8"));
  assert.equal(ingest.kind, "ingest");
  assert.equal(ingest.config.adapter, "dond");
  assert.ok(ingest.counts.games > 0 && ingest.counts.turns > 0);
  assert.ok(ingest.packages["@duckdb/node-api"], "engine versions recorded");
});
