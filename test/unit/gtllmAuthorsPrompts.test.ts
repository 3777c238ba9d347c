// What an LLM reads in Game-theoretic LLM workflows (Hua et al. 2024)'s games, byte for byte against the
// requests the authors' own code sends (test/fixtures/authors-prompts/gtllm/: each file names the
// repository, commit, file and function it was rendered from, the game, the players' settings, and every
// request with the reply the authors' code was given). Each game is played here with the same replies:
// every request Parley makes must be one the authors' code made, to the same seat, in the same order
// (a tree workflow's questions at one depth may come in any order: the repository keeps them in a set),
// and none may be left over.
import {test} from "node:test";
import assert from "node:assert/strict";
import {readFileSync, readdirSync} from "node:fs";
import {join} from "node:path";
import {gameDef} from "../../loaders/registry/games.js";
import {gtllmNarrator} from "../../loaders/papers/gtllm/narrator.js";
import {gtllmWorkflow} from "../../loaders/papers/gtllm/workflow.js";
import {dondNarrator} from "../../loaders/papers/gtllm/dond/narrator.js";
import {dond} from "../../loaders/papers/gtllm/dond/hardPoints.js";
import type {Narrator, PlayerPrompt} from "../../loaders/contract/narrator.js";
import type {Action, GameObservation, GameState} from "../../loaders/contract/game.js";
import type {ChatMessage} from "../../loaders/llm/types.js";
import type {Workflow} from "../../loaders/contract/workflow.js";
import {inSequence} from "../../loaders/runner/chance.js";

const DIR = join(import.meta.dirname, "../fixtures/authors-prompts/gtllm");

interface Call {
  seat: "alice" | "bob";
  system: string;
  user: string;
  reply: string;
  parley_sends?: boolean;
}
interface Fixture {
  source: {repository: string; commit: string; file: string; function: string};
  game: string;
  params: Record<string, number | string>;
  player: {personality?: string; negotiation_suffix?: number | null; workflow?: boolean; prompts: "paper" | "code" | null};
  calls: Call[];
}

const fixtures = readdirSync(DIR)
  .filter((f) => f.endsWith(".json"))
  .map((f) => ({name: f, fx: JSON.parse(readFileSync(join(DIR, f), "utf8")) as Fixture}));

const SEATS = ["alice", "bob"] as const;
const isTreeQuestion = (c: Call) => c.user.includes("Potential Action Given Previous Actions");

/** Takes the request `messages` of `seat` from the authors' queue, or fails showing the difference from the one expected next. */
function take(queue: Call[], messages: ChatMessage[], where: string): Call {
  const [system, user] = [messages[0].content, messages[1].content];
  const k = queue.findIndex((c) => c.system === system && c.user === user);
  if (k < 0 || (k > 0 && !(isTreeQuestion(queue[k]) && queue.slice(0, k).every(isTreeQuestion)))) {
    assert.ok(queue.length, `${where}: Parley sent a request the authors' code did not:\n${user}`);
    assert.equal(system, queue[0].system, `${where}: system prompt`);
    assert.equal(user, queue[0].user, `${where}: user prompt`);
  }
  return queue.splice(k, 1)[0];
}

/** Plays the fixture's game with its replies; returns how many requests matched. */
async function replay({name, fx}: {name: string; fx: Fixture}): Promise<number> {
  const isDond = fx.game === dond.id;
  const def = isDond ? dond : gameDef(fx.game);
  const state: GameState = def.start({...(isDond ? {} : {negotiation_rounds: 0, who_first: "alice"}), ...fx.params} as never, {gameId: "g", nSeats: 2, chance: inSequence({} as never)});
  const narrator = (isDond ? dondNarrator : gtllmNarrator) as Narrator;
  const player: PlayerPrompt = {personality: fx.player.personality ?? null, negotiation_suffix: fx.player.negotiation_suffix ?? null, prompts: fx.player.prompts, workflow: fx.player.workflow ?? false};
  const queues = SEATS.map((s) => fx.calls.filter((c) => c.seat === s && c.parley_sends !== false));
  const workflows = SEATS.map(() => (fx.player.workflow ? (gtllmWorkflow(player) as Workflow) : null));
  let matched = 0;
  for (let turn = 0; ; turn++) {
    const mover = state.next();
    if (mover.kind !== "seats") break;
    const actions: Action[] = [];
    for (const seat of mover.seats) {
      const where = `${name}, turn ${turn}, ${SEATS[seat]}`;
      const obs = state.observe(seat) as GameObservation;
      let notes: string | null = null;
      const wf = workflows[seat];
      if (wf) {
        const done = await wf.prepare(obs, async (messages) => {
          matched++;
          return {raw: take(queues[seat], messages, `${where} (workflow)`).reply, usage: {input_tokens: 0, output_tokens: 0, latency_ms: 0}};
        });
        notes = done.notes;
      }
      const call = take(queues[seat], narrator.messages(obs, [], "", notes, player), where);
      matched++;
      const read = narrator.read!(call.reply, obs, player);
      assert.equal(read.error, undefined, `${where}: the authors' reply ${JSON.stringify(call.reply)} is unreadable`);
      actions.push(read.action as Action);
    }
    state.apply(actions);
  }
  for (const [s, q] of queues.entries()) assert.equal(q.length, 0, `${name}: ${SEATS[s]}'s requests the authors' code made and Parley did not: ${q.map((c) => c.user.slice(-200)).join("\n---\n")}`);
  return matched;
}

test("the fixtures record their origin and cover every family: matrix and tree games with and without talk, each workflow, Deal or No Deal", () => {
  for (const {name, fx} of fixtures) {
    assert.equal(fx.source.repository, "Wenyueh/game_theory", name);
    assert.match(fx.source.commit, /^[0-9a-f]{40}$/, name);
    assert.ok(fx.source.file && fx.source.function, name);
    assert.ok(fx.calls.length > 0, name);
  }
  const all = fixtures.flatMap(({fx}) => fx.calls.map((c) => c.user));
  for (const heading of ["### Your Action", "### Negotiation\n", "### The Other Player's Action Given Your Action", "### Your Potential Action Given the Other Player's Action", "### Your Potential Action Given Previous Actions", "### The Other Player's Potential Action Given Previous Actions", "### Summary of Thinking Chains", "### Strategy You Have Derived", "### Game Description", "### Present Deal", "## The previous rounds of negotiation are presented below:", "### Previous Actions Done in the Game"]) {
    assert.ok(all.some((u) => u.includes(heading)), `no fixture request holds ${JSON.stringify(heading)}`);
  }
});

for (const f of fixtures) {
  test(`${f.name}: Parley sends the bytes ${f.fx.source.file} sends (${f.fx.game})`, async () => {
    const matched = await replay(f);
    assert.equal(matched, f.fx.calls.filter((c) => c.parley_sends !== false).length);
  });
}

test("the §6.5 suffix: the authors' words by default (the opponent named), the paper's with prompts: \"paper\", only after talk", async () => {
  const fx = fixtures.find((f) => f.name === "matrix-talk.json")!.fx;
  const last = fx.calls.at(-1)!;
  assert.match(last.user, /\n\n\nCarefully analyze and think about whether you can trust Alice message, and then make your own decision\.\n$/);
  const paper = fixtures.find((f) => f.name === "matrix-talk.json")!;
  const copy: Fixture = JSON.parse(JSON.stringify(paper.fx));
  copy.player.prompts = "paper";
  for (const c of copy.calls) c.user = c.user.replace("trust Alice message", "trust the other player's message").replace("trust Bob message", "trust the other player's message");
  assert.equal(await replay({name: "matrix-talk.json as paper", fx: copy}), copy.calls.length);
  const noTalk = fixtures.find((f) => f.name === "matrix-no-talk.json")!.fx;
  const withSuffix: Fixture = {...noTalk, player: {...noTalk.player, negotiation_suffix: 4}};
  assert.equal(await replay({name: "no talk, suffix 4", fx: withSuffix}), noTalk.calls.length);
});

test("a halt ends the talk by default (the paper's rule); with prompts: \"code\" it is a message and the talk goes on, as in the authors' code", async () => {
  const fx = fixtures.find((f) => f.name === "matrix-talk-halt-code.json")!.fx;
  assert.equal(fx.player.prompts, "code");
  assert.equal(fx.calls.filter((c) => c.user.includes("### Negotiation\n")).length, 4);
  const byDefault: Fixture = {...fx, player: {...fx.player, prompts: null}};
  await assert.rejects(replay({name: "halt by default", fx: byDefault}), /requests the authors' code made and Parley did not|user prompt/);
});

test("Deal or No Deal's system prompt: §6.3's sentence by default; the repository's bare \"rational\" with prompts: \"code\"", async () => {
  const fx = fixtures.find((f) => f.name === "dond.json")!.fx;
  assert.ok(fx.calls.every((c) => c.system === "rational"));
  const byDefault: Fixture = JSON.parse(JSON.stringify(fx));
  byDefault.player.prompts = null;
  for (const c of byDefault.calls) c.system = "You are a rational assistant that carefully answer the question.";
  assert.equal(await replay({name: "dond by default", fx: byDefault}), fx.calls.filter((c) => c.parley_sends !== false).length);
});
