/**
 * Every way an LLM player reads a reply, on replies no model should send:
 * the game's narrator (JSON, NegotiationArena's tags, the matrix games' and
 * Deal or No Deal's tags), structured output and the workflows' sub-calls,
 * after complete.ts has taken the thinking out. Each pathological reply of
 * a quarter of a megabyte is an action or a rule break with its raw text, never a
 * throw; a reader that backtracks or rescans (time quadratic in the reply)
 * takes hours on these and fails by the test's timeout, not by a timing.
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {narratedGames, narratorFor} from "../../loaders/registry/narrators.js";
import {gameDef} from "../../loaders/registry/games.js";
import {hasWorkflow} from "../../loaders/registry/workflows.js";
import {llmPlayerDef} from "../../loaders/llm/llmPlayer.js";
import {parseLlmPlayerSpec} from "../../loaders/llm/playerSpec.js";
import {thinkingApart, type Complete} from "../../loaders/llm/complete.js";
import {deriveRng} from "../../src/lib/rng.js";
import type {Narrator} from "../../loaders/contract/narrator.js";
import type {Params} from "../../loaders/contract/game.js";
import {inSequence} from "../../loaders/runner/chance.js";

const SIZE = 256 * 1024;
const fill = (unit: string, before = "", after = "") => before + unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE) + after;
const nested = (open: string, close: string, core = "") => open.repeat(SIZE / (2 * open.length)) + core + close.repeat(SIZE / (2 * open.length));

/** Replies that made a reader throw or take time quadratic in their length. */
const replies: Record<string, string> = {
  "back-ticks": fill("`"),
  "a fence and blanks": fill(" \t", "```json"),
  "nested objects": nested('{"a":', "}", "1"),
  "nested arrays": nested("[", "]"),
  "an answer with a nested message": `{"decision": "accept", "alice_gain": 1, "message": ${nested('{"a":', "}", "1")}}`,
  "a structured answer nested": `{"action": ${nested("[", "]")}}`,
  "open braces": fill("{"),
  "quotes and braces": fill('{"'),
  backslashes: fill("\\"),
  "think tags": fill("<think>"),
  "blanks then a closing think tag": fill(" ", "", "</think>x"),
  "think blocks": fill("<think></think>"),
  "reasoning tags": fill("<reasoning>"),
  "angle brackets and blanks": fill("< "),
  "matrix-game tags": fill("<s>"),
  "deal tags": fill("<deal>"),
  "shares": fill("book=1 "),
  "a trade item of digits": fill("1", "<player answer>PROPOSAL</player answer><newly proposed trade>Player RED Gives X: ", "x</newly proposed trade>"),
  "a trade item of blanks": fill(" ", "<player answer>PROPOSAL</player answer><newly proposed trade>Player RED Gives a", "</newly proposed trade>"),
  "a message of blanks": fill(" ", "<message>a", "b</message><player answer>NONE</player answer>"),
  "thousands separators": fill("1,"),
  "pipes": fill("|"),
};

/** One game per narrator (the first that has it), and one with each workflow. */
function readers(): {game: string; flags: Record<string, unknown>}[] {
  const seen = new Set<Narrator>();
  const out: {game: string; flags: Record<string, unknown>}[] = [];
  for (const game of narratedGames) {
    const narrator = narratorFor(game)!;
    if (!seen.has(narrator)) {
      seen.add(narrator);
      out.push({game, flags: {}});
      if (hasWorkflow(game)) out.push({game, flags: {workflow: true}});
    }
  }
  out.push({game: "glee/bargaining", flags: {structured_output: true}});
  return out;
}

test("every reader of replies, on a quarter of a megabyte of pathological text: an action or a rule break with the raw reply, never a throw, in time linear in the reply", {timeout: 600_000}, async () => {
  for (const {game, flags} of readers()) {
    const def = gameDef(game);
    const params = Object.fromEntries(def.params.map((p) => [p.name, p.default])) as Params;
    const nSeats = def.seats.default ?? def.seats.min;
    const state = def.start(params, {gameId: "g", nSeats, chance: inSequence(deriveRng(1, "g"))});
    let mover = state.next();
    if (mover.kind === "chance") {
      state.chance!(inSequence(deriveRng(1, "c")));
      mover = state.next();
    }
    assert.equal(mover.kind, "seats", game);
    const seat = mover.kind === "seats" ? mover.seats[0] : 0;
    const spec = parseLlmPlayerSpec({id: "m", provider: "openai", model: "x", base_url: "http://127.0.0.1:1/v1", ...flags}, "t");
    for (const [name, text] of Object.entries(replies)) {
      // What complete.ts returns: the reply with its <think> blocks taken out.
      const complete: Complete = async () => ({...thinkingApart({text, usage: {input_tokens: 3, output_tokens: 5}, finish_reason: "stop"}), latency_ms: 1, cached: false, attempts: 1});
      const player = llmPlayerDef(spec, complete).create({game, gameId: "g", seat, seatName: def.seats.names?.[seat] ?? null, nSeats, params});
      const what = `${game} ${JSON.stringify(flags)}: ${name}`;
      const reply = await player.act(state.observe(seat), deriveRng(1, "r"));
      assert.equal(typeof reply.raw, "string", what);
      assert.deepEqual([reply.usage?.input_tokens, reply.usage?.output_tokens], [3, 5], what);
      if (reply.parse_error !== undefined) {
        assert.equal(reply.action, null, what);
        assert.ok(reply.parse_error.length <= 400, `${what}: a reason of ${reply.parse_error.length} characters`);
      } else {
        // Read as an action: the game checks it, without throwing, and names what is wrong in a line.
        const error = state.validate(seat, reply.action);
        assert.ok(error === null || error.length <= 400, `${what}: ${error?.slice(0, 100)}`);
      }
    }
  }
});
