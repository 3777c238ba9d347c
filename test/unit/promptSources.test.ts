// An LLM player's `prompts` option (loaders/llm/playerSpec.ts): another
// source of the authors' words than the published runs' (the default). It is
// validated with a one-line error naming the player, and a player sits only
// at games whose narrator offers that source (gamma-Bench's "code": the
// repository's latest format lines), so a config cannot ask for words a game
// does not have.
import {test} from "node:test";
import assert from "node:assert/strict";
import {parseLlmPlayerSpec} from "../../loaders/llm/playerSpec.js";
import {llmPlayerDef} from "../../loaders/llm/llmPlayer.js";
import {parseRunConfig} from "../../loaders/runner/runConfig.js";
import type {Complete} from "../../loaders/llm/complete.js";

const spec = (extra: object = {}) => parseLlmPlayerSpec({id: "m", provider: "openai", model: "x", base_url: "http://127.0.0.1:1/v1", ...extra}, "run.json players[0]");
const never: Complete = async () => {
  throw new Error("no model call in this test");
};

test("prompts: absent by default, \"paper\" or \"code\" when set, anything else a clear error", () => {
  assert.equal("prompts" in spec(), false, "absent, so older configs keep their fingerprints");
  assert.equal(spec({prompts: null}).prompts, undefined);
  assert.equal(spec({prompts: "code"}).prompts, "code");
  assert.equal(spec({prompts: "paper"}).prompts, "paper");
  assert.throws(() => spec({prompts: "latest"}), /^Error: run\.json players\[0\] \(m\): "prompts" must be null or one of paper, code, got "latest"$/);
});

test("a player with prompts sits only where the game's narrator offers that source", () => {
  const sits = (extra: object, game: string) => llmPlayerDef(spec(extra), never).canSit!(game, 0, 5);
  assert.equal(sits({}, "econarena/auction"), true);
  assert.equal(sits({prompts: "code"}, "gamabench/guessing"), true);
  assert.equal(sits({prompts: "code"}, "gamabench/pirate"), false);
  assert.equal(sits({prompts: "code"}, "econarena/beauty_contest"), false, "Economics Arena's words are the paper's only");
  assert.equal(sits({prompts: "paper"}, "gamabench/el_farol"), false);
});

test("a run config that asks a game for words it does not have is one clear error", () => {
  const player = {id: "m", provider: "openai", model: "x", base_url: "http://127.0.0.1:1/v1", prompts: "code"};
  const config = (game: string) => ({game, players: [player], lineups: [Array(10).fill("m")], games_per_lineup: 1});
  assert.doesNotThrow(() => parseRunConfig(config("gamabench/guessing")));
  assert.throws(() => parseRunConfig(config("gamabench/pirate")), /^Error: players: m asks for "prompts": "code", but gamabench\/pirate has only the words of the published runs/);
});
