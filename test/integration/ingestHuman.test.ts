// `parley ingest human`: records of games a person played (loaders/play/)
// replayed into the tables of `parley run`, then read by `parley metrics`
// and native DuckDB. Bad files are one line each and do not stop the others.
import {test} from "node:test";
import assert from "node:assert/strict";
import {writeFileSync} from "node:fs";
import {join} from "node:path";
import {parley, scratch} from "../support/cli.js";
import {nodeEngine} from "../../loaders/study/engine.js";
import {startSession, type PlaySession, type PlaySpec} from "../../loaders/study/session.js";
import {runTableFiles, tableSql} from "../../loaders/io/runTables.js";
import {withDuckDB} from "../../loaders/io/duckdb.js";

const tmp = scratch("parley-human-");

/** Plays a session to the end with `choose`. */
async function played(spec: PlaySpec, choose: (legal: {type: string}[]) => Record<string, unknown>): Promise<PlaySession> {
  const s = await startSession(spec, nodeEngine);
  for (let p = s.pending(); p; p = s.pending()) assert.ok("ok" in (await s.submit(choose(p.legal))));
  return s;
}

test("records become run tables with agent human; bad records are named one per line", async () => {
  const dir = tmp.dir();
  const file = (name: string, content: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
    return path;
  };
  // Bob (the person) accepts Rubinstein's first offer: Alice's share is 1/(1+δ) = 1/1.9 with δ = 0.9.
  const bargaining = await played({game: "glee/bargaining", params: {money: 100}, seats: ["rubinstein", "human"], seed: 1, game_id: "h.bargaining"}, () => ({type: "decision", decision: "accept"}));
  const negotiation = await played({game: "glee/negotiation", params: {money: 100, horizon: 3}, seats: ["human", "fair"], seed: 2, game_id: "h.negotiation"}, (legal) =>
    legal[0].type === "offer" ? {type: "offer", price: 100} : {type: "decision", decision: "reject"},
  );
  const persuasion = await played({game: "glee/persuasion", params: {horizon: 3}, seats: ["human", "bayesian"], seed: 3, game_id: "h.persuasion"}, () => ({type: "message", claim: "high"}));
  const guessing = await played({game: "gamabench/guessing", params: {rounds: 2}, seats: ["human", "level-1", "level-2"], seed: 4, game_id: "h.guessing"}, () => ({type: "choose", amount: 30}));
  const good = [bargaining, negotiation, persuasion, guessing].map((s, i) => file(`good${i}.json`, s.record()));

  const tampered = bargaining.record();
  (tampered.rows!.players[1] as Record<string, unknown>).return = 100;
  const unfinished = await startSession({game: "glee/bargaining", params: {money: 100}, seats: ["human", "greedy"], seed: 5, game_id: "h.unfinished"}, nodeEngine);
  const illegal = {...bargaining.record(), spec: {...bargaining.spec, game_id: "h.illegal"}, moves: [{type: "decision", decision: "maybe"}], rows: null};
  const bad = [
    file("notjson.json", "{not json"),
    file("tampered.json", tampered),
    file("illegal.json", illegal),
    file("unknown-agent.json", {...illegal, spec: {...illegal.spec, seats: ["gpt-9", "human"]}}),
    file("unfinished.json", unfinished.record()),
    file("again.json", bargaining.record()),
  ];
  const out = join(dir, "out");
  const r = await parley(["ingest", "human", ...good, ...bad, "--out", out]);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stderr.trim().split("\n");
  const line = (name: string) => lines.find((l) => l.startsWith(join(dir, name) + ":"));
  assert.match(line("notjson.json")!, /: not valid JSON \(/);
  assert.match(line("tampered.json")!, /its rows differ from the replay of its moves \(players\[1\]\.return: 100 in the file, 47\.36842105263\d* in the replay\)/);
  assert.equal(line("illegal.json"), `${join(dir, "illegal.json")}: move 1 ({"type":"decision","decision":"maybe"}): decision: expected one of "accept", "reject", got "maybe"`);
  assert.match(line("unknown-agent.json")!, /: unknown agent "gpt-9" for seat 0; available: /);
  assert.equal(line("unfinished.json"), `${join(dir, "unfinished.json")}: the game is not over after its 0 moves`);
  assert.equal(line("again.json"), `${join(dir, "again.json")}: game_id "h.bargaining" was already read from ${good[0]}; kept that one`);
  assert.match(lines.at(-1)!, /^human: records read: 10, games written: 4, turns: \d+; problems: 6;/);

  // parley metrics reads the GLEE games; Bob's self-gain is δ/(1+δ) = 0.9/1.9, fairness 1 − (1/1.9 − 0.9/1.9)².
  const m = await parley(["metrics", out]);
  assert.equal(m.code, 0, m.stderr);
  const metrics = m.stdout.trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(metrics.map((x) => x.game_id), ["h.bargaining", "h.negotiation", "h.persuasion"]);
  const b = metrics[0];
  assert.equal(b.bob_agent, "human");
  assert.ok(Math.abs(b.bob_self_gain - 0.9 / 1.9) < 1e-12);
  assert.ok(Math.abs(b.fairness - (1 - (0.1 / 1.9) ** 2)) < 1e-12);
  assert.equal(b.efficiency, 1);

  // Every table as `parley run` writes it, the person's seat as agent human, the turns the replay's.
  const rows = await withDuckDB(async (db) => ({
    players: await db.query<{game_id: string; seat: number; agent: string}>(`SELECT game_id, seat, agent FROM ${tableSql(runTableFiles(out, "players"))} WHERE agent = 'human' ORDER BY game_id`),
    turns: await db.query<{n: number}>(`SELECT count(*)::INTEGER AS n FROM ${tableSql(runTableFiles(out, "turns", (g) => g === "gamabench/guessing"))} WHERE seat = 0 AND amount = 30`),
    sources: await db.query<{source: string}>(`SELECT DISTINCT source FROM ${tableSql(runTableFiles(out, "games", (g) => g.startsWith("glee/")))}`),
  }));
  assert.deepEqual(rows.players.map((p) => [p.game_id, Number(p.seat)]), [["h.bargaining", 1], ["h.guessing", 0], ["h.negotiation", 0], ["h.persuasion", 0]]);
  assert.equal(Number(rows.turns[0].n), 2);
  assert.deepEqual(rows.sources.map((s) => s.source), ["human"]);
});

test("ingest human without a playable file writes nothing and says so", async () => {
  const dir = tmp.dir();
  const path = join(dir, "x.json");
  writeFileSync(path, JSON.stringify({format: "something else"}));
  const r = await parley(["ingest", "human", path, "--out", join(dir, "out")]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /x\.json: format: expected "parley-play\/1", got "something else"/);
  assert.match(r.stderr, /none of the 1 files is a playable record; nothing written/);
});
