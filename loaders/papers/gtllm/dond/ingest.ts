/**
 * Deal-or-No-Deal adapter (facebookresearch end-to-end-negotiator format).
 *
 * One dialogue per line, seen from one side:
 *   <input> c0 v0 c1 v1 c2 v2 </input> <dialogue> YOU: ... <eos> THEM: ... <eos> ... <selection> </dialogue>
 *   <output> item0=a item1=b item2=c item0=d item1=e item2=f </output> <partner_input> c0 w0 c1 w1 c2 w2 </partner_input>
 * The output is the speaker's selection then the partner's, or six copies of
 * <disagree>, <no_agreement> or <disconnect>. Every dialogue appears twice,
 * once from each side; the two lines are merged into one game in which Alice
 * is the player who spoke first.
 */
import {readFileSync} from "node:fs";
import type {Row} from "../../../io/schema.js";
import type {IngestResult, Problem} from "../../../ingest/types.js";
import {DOND_GAMES, DOND_TURNS} from "./tables.js";

export {DOND_GAMES, DOND_TURNS};

type Side = "YOU" | "THEM";
interface Utterance {
  side: Side;
  text: string;
}
export interface DondLine {
  line: number;
  counts: number[];
  values: number[];
  partnerValues: number[];
  utterances: Utterance[];
  outcome: "agreement" | "disagree" | "no_agreement" | "disconnect";
  /** Own and partner allocation when agreed. */
  mine: number[] | null;
  theirs: number[] | null;
}

const LINE = /^<input>(.*?)<\/input>\s*<dialogue>(.*?)<\/dialogue>\s*<output>(.*?)<\/output>\s*<partner_input>(.*?)<\/partner_input>\s*$/;

function ints(text: string, what: string, n: number): number[] {
  const parts = text.trim().split(/\s+/);
  if (parts.length !== n || parts.some((p) => !/^\d+$/.test(p))) throw new Error(`${what}: expected ${n} non-negative integers, got "${text.trim()}"`);
  return parts.map(Number);
}

/** Parses one line; throws an Error saying what was expected. */
export function parseDondLine(text: string, line: number): DondLine {
  const m = LINE.exec(text.trim());
  if (!m) throw new Error("expected <input> … </input> <dialogue> … </dialogue> <output> … </output> <partner_input> … </partner_input>");
  const input = ints(m[1], "<input>", 6);
  const partner = ints(m[4], "<partner_input>", 6);
  const counts = [input[0], input[2], input[4]];
  if (partner[0] !== counts[0] || partner[2] !== counts[1] || partner[4] !== counts[2]) {
    throw new Error(`<partner_input> item counts ${[partner[0], partner[2], partner[4]]} differ from <input> counts ${counts}`);
  }
  const utterances: Utterance[] = [];
  for (const raw of m[2].split("<eos>")) {
    const u = raw.trim();
    if (!u) continue;
    const s = /^(YOU|THEM):\s*(.*)$/s.exec(u);
    if (!s) throw new Error(`<dialogue>: expected "YOU:" or "THEM:" before "${u.slice(0, 40)}"`);
    utterances.push({side: s[1] as Side, text: s[2].trim()});
  }
  if (!utterances.length) throw new Error("<dialogue>: no utterance");
  const out = m[3].trim().split(/\s+/);
  let outcome: DondLine["outcome"] = "agreement";
  let mine: number[] | null = null;
  let theirs: number[] | null = null;
  const marker = /^<(disagree|no_agreement|disconnect)>$/.exec(out[0]);
  if (marker) {
    outcome = marker[1] as DondLine["outcome"];
  } else {
    if (out.length !== 6) throw new Error(`<output>: expected six "itemK=N" fields or a <disagree>/<no_agreement>/<disconnect> marker, got "${m[3].trim()}"`);
    const alloc = out.map((field, i) => {
      const f = /^item(\d)=(\d+)$/.exec(field);
      if (!f || Number(f[1]) !== i % 3) throw new Error(`<output>: expected item${i % 3}=N, got "${field}"`);
      return Number(f[2]);
    });
    mine = alloc.slice(0, 3);
    theirs = alloc.slice(3);
    for (let k = 0; k < 3; k++) {
      if (mine[k] + theirs[k] !== counts[k]) throw new Error(`<output>: item${k} shares ${mine[k]} + ${theirs[k]} do not add up to the count ${counts[k]}`);
    }
  }
  return {line, counts, values: [input[1], input[3], input[5]], partnerValues: [partner[1], partner[3], partner[5]], utterances, outcome, mine, theirs};
}

/** The line rewritten from Alice's point of view (Alice = first speaker), as a key shared by both perspectives. */
function aliceView(d: DondLine) {
  const youAreAlice = d.utterances[0].side === "YOU";
  const who = (side: Side) => ((side === "YOU") === youAreAlice ? "alice" : "bob");
  return {
    youAreAlice,
    valuesA: youAreAlice ? d.values : d.partnerValues,
    valuesB: youAreAlice ? d.partnerValues : d.values,
    allocA: youAreAlice ? d.mine : d.theirs,
    allocB: youAreAlice ? d.theirs : d.mine,
    turns: d.utterances.map((u) => ({player: who(u.side), text: u.text})),
  };
}

/** Merges parsed lines into games (both perspectives of a dialogue become one game) and turns. */
export function mergeDond(lines: DondLine[], file: string, problems: Problem[] = []): {games: Row[]; turns: Row[]} {
  const games: Row[] = [];
  const turns: Row[] = [];
  const open = new Map<string, Row>();
  for (const d of lines) {
    const v = aliceView(d);
    const key = JSON.stringify([d.counts, v.valuesA, v.valuesB, v.turns]);
    const twin = open.get(key);
    if (twin && twin[v.youAreAlice ? "line_a" : "line_b"] === null) {
      twin[v.youAreAlice ? "line_a" : "line_b"] = d.line;
      const agreedTwin = twin.outcome === d.outcome && JSON.stringify(twin.alloc_a) === JSON.stringify(v.allocA);
      if (!agreedTwin) problems.push({file, line: d.line, message: `outcome differs from its other side (line ${twin.line_a ?? twin.line_b}); kept the first`});
      open.delete(key);
      continue;
    }
    const gameId = `dond-${d.line}`;
    const selection = v.turns.at(-1)!;
    const messages = v.turns.filter((t) => t.text !== "<selection>");
    const game: Row = {
      game_id: gameId,
      source: "dealornodeal",
      family: "dond",
      file,
      line_a: v.youAreAlice ? d.line : null,
      line_b: v.youAreAlice ? null : d.line,
      alice_agent: "human",
      bob_agent: "human",
      counts: d.counts,
      values_a: v.valuesA,
      values_b: v.valuesB,
      outcome: d.outcome,
      agreement: d.outcome === "agreement",
      alloc_a: v.allocA,
      alloc_b: v.allocB,
      messages: messages.length,
      selection_by: selection.text === "<selection>" ? selection.player : null,
    };
    games.push(game);
    open.set(key, game);
    v.turns.forEach((t, i) =>
      turns.push({game_id: gameId, turn: i, player: t.player, action: t.text === "<selection>" ? "selection" : "message", text: t.text}),
    );
  }
  return {games, turns};
}

/** Reads a Deal-or-No-Deal file. Malformed lines are reported (file, line, reason) and skipped. */
export function ingestDond(path: string): IngestResult {
  const file = path.split("/").at(-1)!;
  const problems: Problem[] = [];
  const parsed: DondLine[] = [];
  const lines = readFileSync(path, "utf8").split(/\r?\n/);
  if (lines.at(-1) === "") lines.pop();
  lines.forEach((text, i) => {
    if (!text.trim()) return;
    try {
      parsed.push(parseDondLine(text, i + 1));
    } catch (error) {
      problems.push({file: path, line: i + 1, message: (error as Error).message});
    }
  });
  const {games, turns} = mergeDond(parsed, file, problems);
  return {
    tables: [
      {schema: DOND_GAMES, rows: games},
      {schema: DOND_TURNS, rows: turns},
    ],
    summary: {lines_read: lines.filter((l) => l.trim()).length, dialogues_written: games.length, lines_skipped: lines.filter((l) => l.trim()).length - parsed.length},
    problems,
  };
}

/**
 * Played Deal-or-No-Deal games (rows of a dond/negotiation run) in the tables of
 * the human dialogues, so the same SQL and pages read both.
 */
export function playedDondRows(run: {games: Row[]; turns: Row[]}): {games: Row[]; turns: Row[]} {
  const names = DOND_GAMES.columns.map((c) => c.name);
  const games = run.games.filter((g) => g.game === "dond/negotiation").map((g) => Object.fromEntries(names.map((n) => [n, g[n] ?? null])));
  const ids = new Set<unknown>(games.map((g) => g.game_id));
  const turns = run.turns
    .filter((t) => ids.has(t.game_id))
    .map((t) => {
      const share = typeof t.book === "number" ? [t.book, t.hat, t.ball] : null;
      return {
        game_id: t.game_id, turn: t.turn, player: t.seat === 0 ? "alice" : "bob", action: t.action ?? null,
        text: t.message ?? (t.action === "deal" && share ? `<deal>book=${share[0]} hat=${share[1]} ball=${share[2]}</deal>` : t.action === "halt" ? "halt negotiation" : t.raw ?? null),
        round: t.round, rule_break: t.rule_break ?? false, rule_break_reason: t.rule_break_reason ?? null, proposal: share, belief: t.belief ?? null,
      };
    });
  return {games, turns};
}

/**
 * The human outcomes recorded with the 50 hard points (the authors' data),
 * one games row each without turns: the paper's Table 10 "Human" row is
 * computed from these.
 */
export function hardPointHumanRows(points: readonly {id: number; counts: number[]; values_a: number[]; values_b: number[]; human_alloc_a: number[] | null}[], efFeasible: (p: {counts: number[]; values_a: number[]; values_b: number[]}) => boolean): Row[] {
  return points.map((p) => ({
    game_id: `dond-hard50-${p.id}`, source: "dond-hard50", family: "dond", alice_agent: "human", bob_agent: "human",
    point: p.id, counts: p.counts, values_a: p.values_a, values_b: p.values_b, ef_feasible: efFeasible(p),
    outcome: p.human_alloc_a ? "agreement" : "no_agreement", agreement: !!p.human_alloc_a,
    alloc_a: p.human_alloc_a, alloc_b: p.human_alloc_a && p.counts.map((c, k) => c - p.human_alloc_a![k]),
  }));
}

/**
 * The 50 hard points with the human outcomes recorded with them (the
 * authors' data, data/dond/hard50.json, or a file of the same shape), as
 * games rows of source "dond-hard50": `parley ingest dond-hard50` writes
 * what the site adds beside the dialogues, so Table 10's Human and Best rows
 * come from the command line too.
 */
export async function ingestHardPoints(path: string): Promise<IngestResult> {
  const {loadPoints} = await import("./hardPoints.js");
  const {hasEnvyFree} = await import("../../../../src/lib/dondAllocation.js");
  let points;
  try {
    points = loadPoints(path);
  } catch (error) {
    return {tables: [{schema: DOND_GAMES, rows: []}, {schema: DOND_TURNS, rows: []}], summary: {points_read: 0, games_written: 0}, problems: [{file: path, message: (error as Error).message}]};
  }
  const games = hardPointHumanRows(points, (p) => hasEnvyFree(p.counts, p.values_a, p.values_b));
  return {tables: [{schema: DOND_GAMES, rows: games}, {schema: DOND_TURNS, rows: []}], summary: {points_read: points.length, games_written: games.length}, problems: []};
}

