// NegotiationArena (Bianchi et al. 2024): Parley's narrator sends the authors' bytes. Each fixture in
// test/fixtures/authors-prompts/negotiationarena/ holds a game the authors' code played (the requests their
// published runs logged, or their latest code renders with scripted replies; its `source` names repository,
// commit and file), the replies that were given, and each seat's conversation. The game is replayed in
// Parley with the same replies, and every request Parley's narrator builds must equal, byte for byte, the
// authors' request at that point (their ChatGPTAgent's conversation up to that user message).
import {test} from "node:test";
import assert from "node:assert/strict";
import {readdirSync, readFileSync} from "node:fs";
import {deriveRng} from "../../src/lib/rng.js";
import {gameDef} from "../../loaders/registry/games.js";
import type {GameObservation, Params} from "../../loaders/contract/game.js";
import type {PastTurn, PlayerPrompt} from "../../loaders/contract/narrator.js";
import type {ChatMessage} from "../../loaders/llm/types.js";
import type {ArenaView} from "../../loaders/papers/negotiationarena/protocol.js";
import type {PersonaName} from "../../loaders/papers/negotiationarena/personas.js";
import {behaviourText, negotiationArenaNarrator as narrator, systemPrompt} from "../../loaders/papers/negotiationarena/narrator.js";
import {inSequence} from "../../loaders/runner/chance.js";

const DIR = new URL("../fixtures/authors-prompts/negotiationarena/", import.meta.url);

interface Fixture {
  source: {repository: string; commit: string; file: string; kind: string; note: string};
  game: string;
  params: Params;
  prompts: "code" | null;
  personas: (PersonaName | null)[];
  behaviours: string[];
  replies: string[][];
  conversations: ChatMessage[][];
}

const fixtures = readdirSync(DIR)
  .filter((f) => f.endsWith(".json"))
  .sort()
  .map((f) => ({name: f.replace(/\.json$/, ""), fx: JSON.parse(readFileSync(new URL(f, DIR), "utf8")) as Fixture}));

/** Replays a fixture's game in Parley; returns each request next to the authors' (seat, its k-th request). */
function replay(fx: Fixture, prompts: PlayerPrompt["prompts"] = fx.prompts) {
  const state = gameDef(fx.game).start(fx.params, {gameId: "authors", nSeats: 2, chance: inSequence(deriveRng(0, "authors"))});
  const player: PlayerPrompt = {personality: null, negotiation_suffix: null, prompts};
  const past: PastTurn<ArenaView>[][] = [[], []];
  const pairs: {seat: number; k: number; parley: ChatMessage[]; authors: ChatMessage[]}[] = [];
  for (let turn = 0; state.next().kind !== "terminal"; turn++) {
    const seat = turn % 2;
    const k = past[seat].length;
    const raw = fx.replies[seat][k];
    if (raw === undefined) break;
    const o = state.observe(seat) as GameObservation<ArenaView>;
    const persona = fx.personas[seat];
    // A persona's words are Parley's (Appendix E.2) and must be the runs'; the example logs' own behaviours are passed as written.
    const extra = persona ? behaviourText(persona, o.view) : fx.behaviours[seat];
    assert.equal(extra, fx.behaviours[seat], `${fx.game}: ${persona} persona's words`);
    pairs.push({seat, k, parley: narrator.messages(o, past[seat], extra, null, player), authors: fx.conversations[seat].slice(0, 2 + 2 * k)});
    const read = narrator.read!(raw, o);
    assert.equal(read.error, undefined, `turn ${turn + 1}: the authors' reply reads`);
    assert.equal(state.validate(seat, read.action), null, `turn ${turn + 1}: the authors' move is legal`);
    state.apply([read.action as never]);
    past[seat].push({observation: o, raw});
  }
  return pairs;
}

for (const {name, fx} of fixtures) {
  test(`${name}: every request is the authors' (${fx.source.kind}, ${fx.source.repository}@${fx.source.commit.slice(0, 8)} ${fx.source.file})`, () => {
    const pairs = replay(fx);
    assert.equal(pairs.length, fx.replies[0].length + fx.replies[1].length, "every reply of the game was asked for");
    for (const {seat, k, parley, authors} of pairs) assert.deepEqual(parley, authors, `seat ${seat}, request ${k + 1}`);
  });
}

test("the fixtures cover each game with the runs' words and with the latest code's, and personas", () => {
  const covered = new Set(fixtures.map(({fx}) => `${fx.game} ${fx.prompts ?? "runs"}`));
  for (const game of ["resource_exchange", "ultimatum", "buy_sell"]) for (const words of ["runs", "code"]) assert.ok(covered.has(`negotiationarena/${game} ${words}`), `${game} ${words}`);
  assert.ok(fixtures.some(({fx}) => fx.personas.includes("cunning")) && fixtures.some(({fx}) => fx.personas.includes("desperate")));
});

test('prompts "code" differs from the runs exactly where the Guide says: the ultimatum\'s move tag, buy/sell\'s swapped tags, the behaviour\'s leading newline', () => {
  const byName = Object.fromEntries(fixtures.map(({name, fx}) => [name, fx]));
  // Ultimatum: "MOVE" in the runs (ratbench/constants.py at 65410a01), "move" in the latest code; nothing else.
  const ult = replay(byName["runs-ultimatum-s5-stake27"], "code");
  assert.equal(ult[0].parley[0].content, ult[0].authors[0].content.replaceAll("MOVE", "move"));
  assert.notEqual(ult[0].parley[0].content, ult[0].authors[0].content);
  // Buy/sell: the other player's parts with tag and content swapped, no trailing newline.
  const bs = replay(byName["runs-buysell-s4-desperate"], "code");
  assert.match(bs[1].parley[1].content, /^<[^>]*> message <\/[^>]*>\n<PROPOSAL> player answer <\/PROPOSAL>\n<Player RED Gives X: 1 \| Player BLUE Gives ZUP: \d+> newly proposed trade <\/Player RED Gives X: 1 \| Player BLUE Gives ZUP: \d+>$/);
  assert.match(bs[1].authors[1].content, /^<other player message> /);
  // The §4 runs passed the behaviour with a leading newline; the latest code's runner as is.
  const blue = bs[1];
  assert.equal(blue.parley[0].content, blue.authors[0].content.replace("\n\n\nYou must fake being desperate", "\n\nYou must fake being desperate"));
  // "paper": the paper prints only Fig. 15's template, the runs' text.
  const paper = replay(byName["runs-exchange-s4-cunning"], "paper");
  for (const {parley, authors} of paper) assert.deepEqual(parley, authors);
});

test("the system prompts' whitespace: RED's ends with the behaviour line and a newline, BLUE's role follows with no separator", () => {
  const state = gameDef("negotiationarena/ultimatum").start({}, {gameId: "w", nSeats: 2, chance: inSequence(deriveRng(0, "w"))});
  const red = (state.observe(0) as GameObservation<ArenaView>).view;
  const blue = (state.observe(1) as GameObservation<ArenaView>).view;
  assert.ok(systemPrompt(red, "").startsWith('"You are playing a game involving a split of resources. \n'), "the prompt's f-string opens with four quotes");
  assert.ok(systemPrompt(red, "").endsWith("Please be sure to include all.\n\n\n"));
  assert.ok(systemPrompt(blue, "").endsWith("Please be sure to include all.\n\n\nYou are Player BLUE."));
  assert.ok(systemPrompt(blue, "B.").endsWith("Please be sure to include all.\n\n\nB.\nYou are Player BLUE."));
  assert.ok(systemPrompt(blue, "B.", "code").endsWith("Please be sure to include all.\n\nB.\nYou are Player BLUE."));
});
