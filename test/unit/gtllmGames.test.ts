// The matrix and tree games of Game-theoretic LLM workflows (Hua et al. 2024) §4.1 and §6, from their data files:
// equilibria, Pareto-optimal cells, dominance and backward induction against the values worked out by hand
// (the spec's tables, derived from the matrices), then played by the built-in agents through the one runner.
import {test} from "node:test";
import assert from "node:assert/strict";
import {mkdtempSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {dataGame, gameDef} from "../../loaders/registry/games.js";
import {agentDef} from "../../loaders/registry/agents.js";
import {loadGameFiles} from "../../loaders/papers/gtllm/files.js";
import {dominantStrategies, nashCells, paretoCells, paretoNashCells, type MatrixGame} from "../../src/lib/matrixGame.js";
import {parseTree, pathVerdict, spOutcomes, spPath, paretoLeaves, type TreeNode} from "../../src/lib/gameTree.js";
import {findEquilibria} from "../../src/lib/equilibria.js";
import {toBimatrix} from "../../src/lib/matrixGame.js";
import {playGame} from "../../loaders/runner/gameLoop.js";
import {analyseMetaGame, PAPER_META_GAMES} from "../../src/lib/metaGame.js";
import {columnMeans, PAPER_TABLES} from "../../src/lib/gtllm.js";

const matrix = (id: string): MatrixGame => {
  const g = dataGame(id);
  assert.ok(g && g.kind === "matrix", id);
  return g.matrix;
};
const tree = (id: string): TreeNode => {
  const g = dataGame(id);
  assert.ok(g && g.kind === "tree", id);
  return g.tree;
};
/** Cells as "i,j" with 1-based actions (a1 = first row/column), as the spec writes them. */
const cells = (list: {i: number; j: number}[]) => list.map((c) => `${c.i + 1},${c.j + 1}`).sort();

// [id, pure NE, Pareto-optimal NE, Pareto-optimal cells], from the spec's tables (§2.1, §2.4) and by hand.
const MATRICES: [string, string[], string[], string[]][] = [
  ["gtllm/prisoners_dilemma", ["2,2"], ["2,2"], ["1,1", "1,2", "2,1"]],
  ["gtllm/stag_hunt", ["1,1", "2,2"], ["1,1"], ["1,1"]],
  ["gtllm/battle_of_sexes", ["1,1", "2,2"], ["1,1", "2,2"], ["1,1", "2,2"]],
  ["gtllm/wait_go", ["1,2", "2,1"], ["1,2", "2,1"], ["1,2", "2,1"]],
  ["gtllm/duopoly", ["3,3"], ["3,3"], ["1,4", "2,2", "2,3", "3,2", "4,1"]],
  ["gtllm-probes/pd_variant_1", ["2,2"], ["2,2"], ["1,1", "1,2", "2,1"]],
  ["gtllm-probes/pd_variant_2", ["2,2"], ["2,2"], ["1,1", "1,2", "2,1"]],
  ["gtllm-probes/sh_variant_1", ["1,1", "2,2"], ["1,1"], ["1,1"]],
  ["gtllm-probes/sh_variant_2", ["1,1", "2,2"], ["1,1"], ["1,1"]],
  // Chicken (dare, swerve): one dares, the other swerves; every cell but (dare, dare) is Pareto-optimal.
  ["gtllm-probes/chicken", ["1,2", "2,1"], ["1,2", "2,1"], ["1,2", "2,1", "2,2"]],
  // Golden Balls (split, steal): steal is weakly dominant; NE (split,steal), (steal,split), (steal,steal); only (steal,steal) is Pareto-dominated.
  ["gtllm-probes/golden_balls", ["1,2", "2,1", "2,2"], ["1,2", "2,1"], ["1,1", "1,2", "2,1"]],
  ["gtllm-probes/rock_paper_scissors", [], [], ["1,1", "1,2", "1,3", "2,1", "2,2", "2,3", "3,1", "3,2", "3,3"]],
];

test("pure equilibria, Pareto-optimal equilibria and Pareto-optimal cells of every matrix game and probe", () => {
  for (const [id, ne, poNe, po] of MATRICES) {
    const g = matrix(id);
    assert.deepEqual(cells(nashCells(g)), ne, `${id} NE`);
    assert.deepEqual(cells(paretoNashCells(g)), poNe, `${id} PO-NE`);
    assert.deepEqual(cells(paretoCells(g)), po, `${id} PO cells`);
    // The general solver agrees on the pure equilibria.
    assert.deepEqual(cells(findEquilibria(toBimatrix(g)).pure), ne, `${id} findEquilibria`);
  }
  // RPS: the unique equilibrium is uniform (§2.4).
  const rps = findEquilibria(toBimatrix(matrix("gtllm-probes/rock_paper_scissors")));
  assert.equal(rps.mixed.length, 1);
  for (const p of [...rps.mixed[0].x, ...rps.mixed[0].y]) assert.ok(Math.abs(p - 1 / 3) < 1e-9);
});

test("dominant strategies: defect strictly dominant in the Prisoner's Dilemma, steal weakly in Golden Balls, none in Stag Hunt", () => {
  assert.deepEqual(dominantStrategies(matrix("gtllm/prisoners_dilemma")), {alice: {strict: 1, weak: [1]}, bob: {strict: 1, weak: [1]}});
  assert.deepEqual(dominantStrategies(matrix("gtllm-probes/golden_balls")), {alice: {strict: null, weak: [1]}, bob: {strict: null, weak: [1]}});
  assert.deepEqual(dominantStrategies(matrix("gtllm/stag_hunt")), {alice: {strict: null, weak: []}, bob: {strict: null, weak: []}});
  // The duopoly's quantity 3 is the unique equilibrium but not dominant (against quantity 1, quantity 4 pays 15 > 14).
  assert.deepEqual(dominantStrategies(matrix("gtllm/duopoly")).alice, {strict: null, weak: []});
});

// [id, SPE path (1-based actions), payoffs, Pareto-optimal leaves], spec §2.1.
const TREES: [string, number[], [number, number], [number, number][]][] = [
  ["gtllm/escalation", [1], [0, 0], [[0, 0], [1, -2], [-2, 1]]],
  ["gtllm/monopoly", [2, 1], [2, 1], [[0, 2], [2, 1]]],
  ["gtllm/hot_cold", [1, 2], [2, 3], [[3, 2], [2, 3], [1, 4], [4, 1]]],
  ["gtllm/draco", [1, 1], [5, 5], [[5, 5]]],
  ["gtllm/trigame", [2, 1, 2], [4, 10], [[20, 3], [4, 10]]],
];

test("backward induction: the subgame-perfect paths and payoffs of the five trees, unique, and their Pareto-optimal leaves", () => {
  for (const [id, path, payoff, po] of TREES) {
    const t = tree(id);
    const all = spOutcomes(t);
    assert.deepEqual(all, [{path: path.map((k) => k - 1), payoff}], `${id} SPE`);
    assert.deepEqual(spPath(t), {path: path.map((k) => k - 1), payoff});
    assert.deepEqual(paretoLeaves(t).map((l) => l.payoff), po, `${id} PO leaves`);
    assert.deepEqual(pathVerdict(t, path.map((k) => k - 1)), {is_ne: true, is_po_ne: true, is_any_ne: true});
  }
  // A2, B1 (1, −2): Bob leaving for B2 secures −1 > −2 whatever Alice then does: no equilibrium of any kind.
  assert.deepEqual(pathVerdict(tree("gtllm/escalation"), [1, 0]), {is_ne: false, is_po_ne: false, is_any_ne: false});
});

test("ties: every subgame-perfect outcome is listed, not only the first maximiser's", () => {
  // Bob is indifferent after A1 (both give him 1); Alice then prefers A1 if Bob picks B1 (3 > 2), but A2 if Bob picks B2 (2 > 0).
  const t = parseTree({A1: {B1: [3, 1], B2: [0, 1]}, A2: [2, 0]});
  assert.deepEqual(spOutcomes(t).map((o) => o.path), [[0, 0], [1]]);
  assert.deepEqual(spPath(t).path, [0, 0]);
  assert.equal(pathVerdict(t, [0, 1]).is_ne, false);
  // (3,1) Pareto-dominates (2,0): of the two SPE outcomes only the first is Pareto-optimal.
  assert.deepEqual(pathVerdict(t, [1]), {is_ne: true, is_po_ne: false, is_any_ne: true});
});

async function selfPlayRate(game: string, agent: string, rounds: number, n = 6): Promise<number> {
  const def = gameDef(game);
  let hits = 0;
  for (let r = 0; r < n; r++) {
    const seats = [0, 1].map((seat) => agentDef(agent).create({game, gameId: `g${r}`, seat, seatName: ["alice", "bob"][seat], nSeats: 2, params: {}}));
    const {result} = await playGame(def, {negotiation_rounds: rounds, who_first: "alice"}, `${game}-${r}`, seats, {seed: r});
    assert.equal(result.ended_by, "completed");
    if (result.game.is_ne) hits++;
  }
  return hits / n;
}

test("equilibrium and backward-induction self-play reach an equilibrium in every game, with and without talk", async () => {
  const ten = ["prisoners_dilemma", "stag_hunt", "battle_of_sexes", "wait_go", "duopoly", "escalation", "monopoly", "hot_cold", "draco", "trigame"].map((g) => `gtllm/${g}`);
  for (const game of ten) {
    for (const rounds of [0, 4]) {
      assert.equal(await selfPlayRate(game, "equilibrium", rounds), 1, `${game} equilibrium, ${rounds} rounds`);
      if (dataGame(game)!.kind === "tree") {
        assert.equal(await selfPlayRate(game, "backward-induction", rounds), 1, `${game} backward-induction`);
        assert.equal(await selfPlayRate(game, "workflow-bi", rounds), 1, `${game} workflow-bi`);
      } else assert.equal(await selfPlayRate(game, "workflow-ne", rounds), 1, `${game} workflow-ne`);
    }
  }
  // Stag Hunt: the Pareto-optimal equilibrium (stag, stag), so both columns of Table 5 are 1.
  const def = gameDef("gtllm/stag_hunt");
  const seats = [0, 1].map((seat) => agentDef("equilibrium").create({game: def.id, gameId: "sh", seat, seatName: null, nSeats: 2, params: {}}));
  const {result} = await playGame(def, {negotiation_rounds: 0, who_first: "alice"}, "sh", seats, {seed: 1});
  assert.deepEqual([result.game.path_names, result.game.is_po_ne, result.returns], ["stag / stag", true, [3, 3]]);
});

test("talk: rounds alternate from who_first, a halt ends the talk, tree games talk before every move, choices are neutral labels", async () => {
  const def = gameDef("gtllm/monopoly");
  const seats = [0, 1].map((seat) => agentDef("backward-induction").create({game: def.id, gameId: "m", seat, seatName: null, nSeats: 2, params: {}}));
  const {result, turns} = await playGame(def, {negotiation_rounds: 2, who_first: "bob"}, "m", seats, {seed: 1});
  assert.deepEqual([result.game.path, result.game.path_names, result.returns], ["choice_2 choice_1", "enter / accommodate", [2, 1]]);
  // Move 1: Bob opens each round; move 2: only Bob has a move left to announce, so Alice halts the talk... when she speaks.
  assert.deepEqual(turns.map((t) => [t.round, t.seat, t.phase, t.action, t.talk_round ?? null]), [
    [1, 1, "talk", "message", 1], [1, 0, "talk", "message", 1], [1, 1, "talk", "message", 2], [1, 0, "talk", "message", 2],
    [1, 0, "act", "choose", null],
    [2, 1, "talk", "message", 1], [2, 0, "talk", "halt", 1],
    [2, 1, "act", "choose", null],
  ]);
  assert.deepEqual(turns.filter((t) => t.action === "choose").map((t) => [t.choice, t.choice_name]), [["choice_2", "enter"], ["choice_1", "accommodate"]]);
  assert.equal(result.game.talk_messages, 5);
  assert.equal(result.game.talk_ended_by, "halt");
});

test("best-response answers the other's announcement: against equilibrium in Battle of the Sexes it meets at Alice's opera", async () => {
  const def = gameDef("gtllm/battle_of_sexes");
  const seats = ["equilibrium", "best-response"].map((id, seat) => agentDef(id).create({game: def.id, gameId: "b", seat, seatName: null, nSeats: 2, params: {}}));
  const talk = await playGame(def, {negotiation_rounds: 1, who_first: "alice"}, "b", seats, {seed: 2});
  assert.deepEqual([talk.result.game.path_names, talk.result.game.is_ne], ["opera / opera", true]);
});

test("a game file that is not a valid game is left out with one line naming the file and key; the others load", () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-games-"));
  try {
    writeFileSync(join(dir, "a_good.json"), JSON.stringify({id: "mine/good", title: "Good", description: "d", citation: {short: "s", title: "t", authors: "a", year: 2024, section: ""}, kind: "matrix", rows: ["x", "y"], cols: ["x"], payoffs: [[[1, 2]], [[3, 4]]]}));
    writeFileSync(join(dir, "b_cell.json"), JSON.stringify({id: "mine/cell", title: "C", description: "d", citation: {short: "s", title: "t", authors: "a", year: 2024, section: ""}, kind: "matrix", rows: ["x"], cols: ["x"], payoffs: [[[1, "2"]]]}));
    writeFileSync(join(dir, "c_syntax.json"), '{\n  "id": "mine/x",\n  "kind": "tree",,\n}');
    writeFileSync(join(dir, "d_tree.json"), JSON.stringify({id: "mine/tree", title: "T", description: "d", citation: {short: "s", title: "t", authors: "a", year: 2024, section: ""}, kind: "tree", tree: {A1: [0, 0], A2: {B1: [1]}}}));
    writeFileSync(join(dir, "e_dup.json"), JSON.stringify({id: "gtllm/stag_hunt", title: "T", description: "d", citation: {short: "s", title: "t", authors: "a", year: 2024, section: ""}, kind: "matrix", rows: ["x"], cols: ["x"], payoffs: [[[0, 0]]]}));
    const {games, problems} = loadGameFiles(dir, ["gtllm/stag_hunt"]);
    assert.deepEqual(games.map((g) => g.id), ["mine/good"]);
    assert.equal(problems.length, 4);
    assert.match(problems[0], /b_cell\.json: payoffs\[0\]\[0\]: expected \[u_Alice, u_Bob\], two finite numbers, got \[1,"2"\]; the game is left out$/);
    assert.match(problems[1], /c_syntax\.json: line 3: /);
    assert.match(problems[2], /d_tree\.json: tree\.A2\.B1: a leaf must be \[u_Alice, u_Bob\]/);
    assert.match(problems[3], /e_dup\.json: id: "gtllm\/stag_hunt" is already the id of a built-in game/);
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
});

test("Table 19 as printed: (not use, not use) for Claude-3.5 Sonnet, (use, use) for GPT-4o and Claude-3 Opus; from the source tables Sonnet's becomes (not use, use)", () => {
  const byModel = Object.fromEntries(PAPER_META_GAMES.map((m) => [m.model, m]));
  const printed = (model: string) => analyseMetaGame(byModel[model].printed);
  const sources = (model: string) => analyseMetaGame(byModel[model].sources);
  assert.deepEqual(printed("Claude-3.5 Sonnet").nash, [["not use", "not use"]]);
  assert.deepEqual(printed("GPT-4o").nash, [["use", "use"]]);
  assert.deepEqual(printed("Claude-3 Opus").nash, [["use", "use"]]);
  // Sonnet as printed is a prisoner's dilemma: N strictly dominant for both, (U,U) Pareto-dominates (N,N).
  assert.deepEqual(printed("Claude-3.5 Sonnet").dominant, {alice: {strict: 1, weak: [1]}, bob: {strict: 1, weak: [1]}});
  assert.ok(!printed("Claude-3.5 Sonnet").pareto.some(([a, b]) => a === "not use" && b === "not use"));
  // From Tables 12, 17, 18, 10: Bob's 5.70 > 5.57 makes U his best reply to N; N stays dominant for Alice only.
  assert.deepEqual(sources("Claude-3.5 Sonnet").nash, [["not use", "use"]]);
  assert.deepEqual(sources("Claude-3.5 Sonnet").dominant, {alice: {strict: 1, weak: [1]}, bob: {strict: null, weak: []}});
  // GPT-4o: U dominant for Alice, Bob has none; Opus: U strictly dominant for both (either (N,N) cell).
  assert.deepEqual(printed("GPT-4o").dominant, {alice: {strict: 0, weak: [0]}, bob: {strict: null, weak: []}});
  for (const t of [byModel["Claude-3 Opus"].printed, byModel["Claude-3 Opus"].sources]) assert.deepEqual(analyseMetaGame(t).dominant, {alice: {strict: 0, weak: [0]}, bob: {strict: 0, weak: [0]}});
  assert.deepEqual(sources("Claude-3 Opus").nash, [["use", "use"]]);
});

test("the printed averages of Tables 5 and 7 that are not the mean of their rows", () => {
  const t5 = columnMeans(PAPER_TABLES["5"].ne).map((x) => Math.round(x * 100) / 100);
  assert.deepEqual(t5, [0.48, 0.33, 0.59, 0.78]);
  assert.deepEqual(PAPER_TABLES["5"].average, [0.45, 0.32, 0.59, 0.78]);
  assert.equal(Math.round(columnMeans(PAPER_TABLES["7"].ne)[1] * 100) / 100, 0.75);
  assert.equal(PAPER_TABLES["7"].average[1], 0.69);
});
