// An LLM player's `prompts` option (loaders/llm/playerSpec.ts): another
// source of the authors' words than the published runs' (the default). It is
// validated with a one-line error naming the player, and a player sits only
// at games whose narrator offers that source (gamma-Bench's "code": the
// repository's latest format lines), so a config cannot ask for words a game
// does not have.
import {test} from "node:test";
import assert from "node:assert/strict";
import {parseLlmPlayerSpec} from "../../loaders/llm/playerSpec.js";
import {llmPlayerDef, offersPrompts, promptsRefusal} from "../../loaders/llm/llmPlayer.js";
import {narratedGames, narratorFor} from "../../loaders/registry/narrators.js";
import {PROMPT_SOURCES} from "../../loaders/llm/playerOptions.js";
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

test("a run config that asks a game for words it does not have is one clear error: why not, and what the game offers", () => {
  const player = {id: "m", provider: "openai", model: "x", base_url: "http://127.0.0.1:1/v1", prompts: "code"};
  const config = (game: string) => ({game, players: [player], lineups: [Array(10).fill("m")], games_per_lineup: 1});
  assert.doesNotThrow(() => parseRunConfig(config("gamabench/guessing")));
  assert.throws(() => parseRunConfig(config("gamabench/pirate")), {message: 'players: m asks for "prompts": "code", but gamabench/pirate does not offer "code": its latest code words it as the published runs read it: nothing would change; it offers no other words than its default'});
});

test("every narrated game says, for each prompt source, what it changes or why the game does not offer it", () => {
  for (const game of narratedGames) {
    const narrator = narratorFor(game)!;
    for (const source of PROMPT_SOURCES) {
      const note = narrator.promptNotes?.[source];
      assert.ok(note && note.length > 10 && !/\n/.test(note), `${game}: a one-line note for "${source}"`);
      if (!offersPrompts(game, source)) assert.equal(promptsRefusal(game, source).split("\n").length, 1);
    }
  }
  // GLEE's default is the authors' code; "paper" is what it offers. Deal or No Deal's "code" is what it offers; the paper prints no prompt of it.
  assert.match(promptsRefusal("glee/bargaining", "code"), /^glee\/bargaining does not offer "code": its default words already are the authors' code's .*; it offers "paper" \(bargaining's rules and turns as Appendix D\.2 prints them/);
  assert.match(promptsRefusal("dond/negotiation", "paper"), /^dond\/negotiation does not offer "paper": the paper prints none of Deal or No Deal's prompts .*; it offers "code" \(the system message the authors' script sends, the bare word "rational"\)$/);
  assert.match(promptsRefusal("econarena/beauty_contest", "code"), /does not offer "code": the authors' code could not be had, .*; it offers no other words than its default$/);
});
