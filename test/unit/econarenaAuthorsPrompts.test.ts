// The Economics Arena narrators against the authors' printed prompts, byte for
// byte: Economics Arena (Guo et al. 2024), Appendix B.1–B.8, kept verbatim
// (placeholders, typos and the text version's blank lines) in
// test/fixtures/authors-prompts/econarena/ (SOURCE.md there gives section and
// lines). The authors' code is not available, so these are the only
// rendering to compare with. For each section the test fills the printed
// placeholders from a real game state, expands "...(same as the melle
// environment)" with the melee section's lines, and checks that the narrator
// sends exactly that text, first run and (B.4, B.8) a later run with history.
//
// Readings the paper leaves open, written out here:
// - "(same as the melle environment)" in a list stands for the melee list's
//   lines, less the melee line the section prints itself (B.6 and B.7 print
//   their own "your goal" line, which replaces the melee one).
// - A run after run 1 is one USER message (§3.1, "a single prompt"): the run-1
//   message's rules, then the "(runs after run 1)" text; the run-1 JSON
//   request is not repeated.
// - B.7 prints its one-item key list with "•"; every list with more than one
//   item prints "-", and the narrator writes "-" (documented on the Guide page).
// - The history's JSON layout is not printed ("{historical information (in
//   JSON format)}"): it is filled with the narrator's own (beautyHistory,
//   auctionHistory).
import {test} from "node:test";
import assert from "node:assert/strict";
import {readFileSync} from "node:fs";
import {auction, beautyContest} from "../../loaders/papers/econarena/games.js";
import {auctionHistory, beautyHistory, num} from "../../loaders/papers/econarena/narrators.js";
import type {AuctionView, BeautyView} from "../../loaders/papers/econarena/views.js";
import {narratorFor} from "../../loaders/registry/narrators.js";
import type {GameDef, GameObservation, Params} from "../../loaders/contract/game.js";
import type {ChatMessage} from "../../loaders/llm/types.js";
import {deriveRng} from "../../src/lib/rng.js";
import {inSequence} from "../../loaders/runner/chance.js";

const FIXTURES = new URL("../fixtures/authors-prompts/econarena/", import.meta.url);

/** A section's messages as printed: label ("SYSTEM", "USER", "USER (run 1)", ...) and text. */
function printed(section: string): {label: string; text: string}[] {
  const text = readFileSync(new URL(`${section}.txt`, FIXTURES), "utf8");
  const parts = text.split(/^\[([A-Z][^\]]*)\]$/m).slice(1);
  const out = [];
  for (let i = 0; i < parts.length; i += 2) out.push({label: parts[i]!, text: parts[i + 1]!.replace(/^\n+|\n+$/g, "")});
  return out;
}

/** The bullet lines of the melee section's rules list and key list. */
function meleeLists(section: string): {rules: string[]; keys: string[]} {
  const user = printed(section).find((m) => m.label === "USER")!.text.split("\n");
  const request = user.findIndex((l) => /^(Please|Let's)/.test(l));
  const bullets = (ls: string[]) => ls.filter((l) => l.startsWith("- "));
  return {rules: bullets(user.slice(0, request)), keys: bullets(user.slice(request))};
}

/** Expands "...(same as the melle environment)" and B.7's "•" the way the header says. */
function expand(text: string, melee: {rules: string[]; keys: string[]}): string {
  const lines = text.split("\n");
  const request = lines.findIndex((l) => /^(Please|Let's)/.test(l));
  return lines
    .flatMap((l, i) => {
      if (!/^[-•] \.\.\.\(same as the melle environment\)$/.test(l)) return [l.replace(/^• /, "- ")];
      const list = i < request || request < 0 ? melee.rules : melee.keys;
      const own = lines.filter((x) => x.startsWith("- ")).map((x) => x.split(" ").slice(0, 3).join(" "));
      return list.filter((m) => !own.includes(m.split(" ").slice(0, 3).join(" ")));
    })
    .join("\n");
}

/** Fills the printed placeholders. */
const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{\*([^}]*?)\*?\}/g, (all, name: string) => {
    const key = name.replace(/\*/g, "");
    assert.ok(key in values, `no value for the placeholder ${all}`);
    return values[key]!;
  });

/** What the paper prints for this state: SYSTEM and USER, or SYSTEM and the run-1 rules plus the later-run text. */
function authors(section: string, melee: string, values: Record<string, string>, laterRun: boolean): ChatMessage[] {
  const ms = printed(section);
  const lists = meleeLists(melee);
  const system = ms.find((m) => m.label === "SYSTEM")!.text;
  const first = expand(ms.find((m) => m.label === "USER" || m.label === "USER (run 1)")!.text, lists);
  let user = first;
  if (laterRun) {
    const rules = first.split("\n").slice(0, first.split("\n").findIndex((l) => /^Please/.test(l))).join("\n").replace(/\n+$/, "");
    user = `${rules}\n\n${ms.find((m) => m.label === "USER (runs after run 1)")!.text}`;
  }
  return [{role: "system", content: system}, {role: "user", content: fill(user, values)}];
}

const start = (def: GameDef, params: Params, seed = 7) => def.start(params, {gameId: "a", nSeats: 5, chance: inSequence(deriveRng(seed, "a"))});
const sent = (def: GameDef, o: GameObservation) => narratorFor(def.id)!.messages(o, [], "");

// ---------------------------------------------------------------- beauty contest (B.1–B.4)

const beautyValues = (v: BeautyView) => ({"number of players": String(v.n_players), "upper bound": num(v.upper_bound)});

const SECTIONS_BEAUTY: [string, Params][] = [["B1", {}], ["B2", {environment: "rational"}], ["B3", {environment: "cot"}], ["B4", {runs: 6, history_window: 3}]];
for (const [section, params] of SECTIONS_BEAUTY) {
  test(`beauty contest: the narrator sends Appendix ${section.replace("B", "B.")} byte for byte (first run)`, () => {
    for (const p of [params, {...params, scale: "H"}]) {
      const o = start(beautyContest, p).observe(2) as GameObservation<BeautyView>;
      assert.deepEqual(sent(beautyContest, o), authors(section, "B1", beautyValues(o.view), false));
    }
  });
}

test("beauty contest with history (B.4): a later run is the rules and the history text, one USER message, byte for byte", () => {
  const state = start(beautyContest, {runs: 6, history_window: 3});
  const answers = [[10, 20, 30, 40, 50], [5, 15, 25, 35, 45.5], [0, 1, 2, 3, 4], [7, 7, 7, 7, 7]];
  for (const run of answers) state.apply(run.map((amount) => ({type: "choose", amount})));
  const o = state.observe(3) as GameObservation<BeautyView>;
  assert.equal(o.view.run, 5);
  assert.equal(o.view.history.length, 3);
  const values = {...beautyValues(o.view), "number of runs": "4", "ID of the player": "3", "historical information (in JSON format)": beautyHistory(o.view)};
  assert.deepEqual(sent(beautyContest, o), authors("B4", "B1", values, true));
});

// ---------------------------------------------------------------- second-price auction (B.5–B.8)

const auctionValues = (v: AuctionView) => ({
  "number of bidders": String(v.n_players), "private value of the bidder": num(v.value), "assets of the bidder": num(v.assets),
});

const SECTIONS_AUCTION: [string, Params][] = [["B5", {}], ["B6", {environment: "rational"}], ["B7", {environment: "cot"}], ["B8", {runs: 6, history_window: 3}]];
for (const [section, params] of SECTIONS_AUCTION) {
  test(`second-price auction: the narrator sends Appendix ${section.replace("B", "B.")} byte for byte (first run)`, () => {
    for (const p of [params, {...params, scale: "H"}]) {
      const o = start(auction, p).observe(1) as GameObservation<AuctionView>;
      assert.deepEqual(sent(auction, o), authors(section, "B5", auctionValues(o.view), false));
    }
  });
}

test("second-price auction with history (B.8): a later run is the rules and the history text, one USER message, byte for byte", () => {
  const state = start(auction, {runs: 6, history_window: 3});
  for (const run of [[40, 50, 60, 70, 30], [45, 55, 65, 20, 35]]) state.apply(run.map((amount) => ({type: "bid", amount})));
  const o = state.observe(0) as GameObservation<AuctionView>;
  assert.equal(o.view.run, 3);
  const values = {...auctionValues(o.view), "number of runs": "2", "ID of the bidder": "0", "historical information (in JSON format)": auctionHistory(o.view)};
  assert.deepEqual(sent(auction, o), authors("B8", "B5", values, true));
});

test("the printed sections differ where the paper's words do: B.3 'palyers', B.8's first run 'Please output'", () => {
  assert.match(printed("B3")[1]!.text, /perfectly rational palyers\./);
  assert.match(printed("B2")[1]!.text, /perfectly rational players\./);
  assert.match(printed("B8").find((m) => m.label === "USER (run 1)")!.text, /^Please output a JSON string, which has following keys:$/m);
  assert.match(printed("B4").find((m) => m.label === "USER (run 1)")!.text, /^Please just strictly output a JSON string, which has following keys:$/m);
});
