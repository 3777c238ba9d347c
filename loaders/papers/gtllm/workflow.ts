/**
 * The game-theoretic workflow of an LLM player in the matrix and tree games
 * of data/games/ (Game-theoretic LLM workflows (Hua et al. 2024) §4.4), run
 * through the model once per game, at the seat's first decision: in a matrix
 * game, "what will the other do if I choose a?" for each of its actions and
 * "what do I choose if the other chooses b?" for each of theirs (§4.4.1); in
 * a tree, "what will the mover choose here?" at every decision node, deepest
 * first, each told what was inferred below it (§4.4.2); then a summariser
 * call turns the thinking chain into a strategy, which the narrator
 * prepends to every later negotiation and action prompt (`notes`).
 *
 * The questions, their order (Alice asks about Bob's replies first, Bob
 * about his own first, as workflow_design.py loops over Alice then Bob) and
 * the thinking-chain lines are the authors' repository's
 * (workflow_design.py); the prompts are the narrator's.
 *
 * Each sub-call goes through the player's `complete` (cached, counted,
 * retried) under the player's system prompt and is stored as its own turns
 * row (action "workflow", `workflow_step`), before the row of the decision
 * that triggered it. An unreadable sub-answer is a rule break of that row;
 * the workflow goes on (a tree node's unreadable answer counts as its first
 * action).
 */
import type {GameObservation} from "../../contract/game.js";
import type {SubCall} from "../../contract/agent.js";
import type {PlayerPrompt} from "../../contract/narrator.js";
import type {AskModel, Workflow} from "../../contract/workflow.js";
import type {DataGameView, MatrixView, TreeView} from "./views.js";
import {labelIndex} from "./views.js";
import {isLeaf, nodeAt} from "../../../src/lib/gameTree.js";
import {jsonPreview} from "../../../src/lib/untrustedJson.js";
import {
  decidedBelow, iReplyLine, mineGivenOtherPrompt, otherGivenMinePrompt, strategyText, summaryPrompt, systemPrompt, tagged, taggedRaw, theyReplyLine, treeChain, treeNodePrompt, type Decided,
} from "./narrator.js";

/** A fresh workflow for one seat; `player.personality` sets the system prompt of its sub-calls. */
export function gtllmWorkflow(player: PlayerPrompt): Workflow<DataGameView> {
  /** The derived strategy, once the workflow has run. */
  let strategy: string | null = null;
  return {
    subCallSample: "decision",
    async prepare(obs: GameObservation<DataGameView>, ask: AskModel) {
      const calls: SubCall[] = [];
      if (strategy === null) strategy = await derive(obs.view, new SubQuestions(player, ask, calls));
      return {calls, notes: strategy};
    },
  };
}

/** Asks sub-questions under the player's system prompt, recording each as a call row. */
class SubQuestions {
  constructor(
    private readonly player: PlayerPrompt,
    private readonly ask: AskModel,
    private readonly calls: SubCall[],
  ) {}

  /**
   * One sub-question: its call row, its <s> answer (trimmed; null when
   * unreadable or not one of `legal`), the answer as written (the
   * repository quotes it so in the thinking chain) and the <r> reason.
   */
  async answer(prompt: string, step: string, legal?: readonly string[]): Promise<{answer: string | null; written: string; reason: string}> {
    const {raw, usage} = await this.ask([{role: "system", content: systemPrompt(this.player.personality)}, {role: "user", content: prompt}]);
    const written = taggedRaw(raw, "s");
    const answer = written?.trim() ?? null;
    const reason = tagged(raw, "r") ?? "";
    let parse_error: string | undefined;
    if (answer === null) parse_error = "no answer between <s> and </s>";
    else if (legal && !legal.includes(answer)) parse_error = `answer ${jsonPreview(answer)} is not one of ${legal.join(", ")}`;
    this.calls.push({action: "workflow", raw, usage, record: {phase: "workflow", workflow_step: step}, ...(parse_error && {error: parse_error})});
    return {answer: parse_error ? null : answer, written: written ?? "", reason};
  }
}

/** The thinking chain through the model, then its summary as the strategy text. */
async function derive(v: DataGameView, q: SubQuestions): Promise<string> {
  const chains = v.kind === "matrix" ? await matrixChain(v, q) : await treeChainOf(v, q);
  const {answer} = await q.answer(summaryPrompt(v, chains), "summary");
  // The sequential workflow also prepends the thinking chain itself (workflow_design.py's strategy_thoughts).
  return strategyText(answer ?? "(no strategy could be read)", v.kind === "tree" ? chains : null);
}

/** §4.4.1 through the model; returns the thinking chain (Alice's questions first, then Bob's, whoever asks). */
async function matrixChain(v: MatrixView, q: SubQuestions): Promise<string[]> {
  const mine = v.labels[v.me];
  const theirs = v.labels[1 - v.me];
  const chains: string[] = [];
  const aboutThem = async () => {
    for (const a of mine) {
      const {answer, written, reason} = await q.answer(otherGivenMinePrompt(v, a), `other given ${a}`, theirs);
      if (answer) chains.push(theyReplyLine(v, a, written, reason));
    }
  };
  const aboutMe = async () => {
    for (const b of theirs) {
      const {answer, written, reason} = await q.answer(mineGivenOtherPrompt(v, b), `mine given ${b}`, mine);
      if (answer) chains.push(iReplyLine(v, b, written, reason));
    }
  };
  if (v.me === 0) await aboutThem(), await aboutMe();
  else await aboutMe(), await aboutThem();
  return chains;
}

/** §4.4.2 through the model, deepest nodes first; returns the thinking chain along the inferred path. */
async function treeChainOf(v: TreeView, q: SubQuestions): Promise<string[]> {
  const nodes: number[][] = [];
  const collect = (path: number[]) => {
    const node = nodeAt(v.tree, path);
    if (isLeaf(node)) return;
    nodes.push(path);
    node.children.forEach((_, k) => collect([...path, k]));
  };
  collect([]);
  nodes.sort((a, b) => b.length - a.length);
  const decided = new Map<string, Decided>();
  for (const path of nodes) {
    const node = nodeAt(v.tree, path) as {mover: 0 | 1; actions: string[]};
    const step = path.length ? `node ${path.map((k) => `choice_${k + 1}`).join(" ")}` : "root";
    const {answer, written, reason} = await q.answer(treeNodePrompt(v, path, decided), step, node.actions);
    decided.set(path.join(","), answer ? {mover: node.mover, choice: labelIndex(answer), answer: written, reason} : {mover: node.mover, choice: 0, answer: node.actions[0], reason: "(no readable answer)"});
  }
  return treeChain(v, decidedBelow(v.tree, [], decided));
}
