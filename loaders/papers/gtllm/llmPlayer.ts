/**
 * An LLM player in the matrix and tree games of data/games/, as Game-theoretic
 * LLM workflows (Hua et al. 2024) §4 plays them: one prompt per decision
 * (narrators/gtllm.ts), answers between '<s>' and '</s>' (a message, "halt
 * negotiation", or a choice_k), the personality line of §6.3 and a §6.5
 * suffix as player options.
 *
 * With `workflow: true` the player first runs the paper's workflow (§4.4)
 * through the model: in a matrix game, "what will the other do if I choose
 * a?" for each of its actions and "what do I choose if the other chooses b?"
 * for each of theirs (§4.4.1); in a tree, "what will the mover choose here?"
 * at every decision node, deepest first, each told what was inferred below it
 * (§4.4.2); then a summariser call turns the thinking chain into a strategy,
 * which is prepended to every later negotiation and action prompt. Each
 * sub-call goes through the same `complete` (cached, counted, retried) and is
 * stored as its own turns row (action "workflow", `workflow_step`), before
 * the row of the decision that triggered it. An unreadable sub-answer is a
 * rule break of that row; the workflow goes on (a tree node's unreadable
 * answer counts as its first action).
 */
import type {Agent, AgentReply, SeatContext, SubCall} from "../../contract/agent.js";
import type {GameObservation} from "../../contract/game.js";
import type {DataGameView, MatrixView, TreeView} from "./views.js";
import {labelIndex} from "./views.js";
import {isLeaf, nodeAt} from "../../../src/lib/gameTree.js";
import type {Complete} from "../../llm/complete.js";
import {samplingOf, type LlmPlayerSpec} from "../../llm/playerSpec.js";
import {
  actionPrompt, decidedBelow, iReplyLine, mineGivenOtherPrompt, negotiatePrompt, otherGivenMinePrompt, retryNote, strategyText, summaryPrompt,
  systemPrompt, tagged, theyReplyLine, treeChain, treeNodePrompt, type Decided,
} from "./narrator.js";

export class GtLlmAgent implements Agent {
  readonly traits: Record<string, unknown>;
  /** The derived strategy, once the workflow has run (empty without a workflow). */
  private strategy: string | null = null;

  constructor(
    readonly spec: LlmPlayerSpec,
    readonly context: SeatContext,
    private readonly complete: Complete,
    private readonly samplePrefix = "",
  ) {
    this.traits = {model: spec.model, workflow: spec.workflow ?? false};
  }

  private async ask(prompt: string): Promise<{raw: string; usage: SubCall["usage"]}> {
    const messages = [{role: "system" as const, content: systemPrompt(this.spec.personality ?? null)}, {role: "user" as const, content: prompt}];
    const seat = this.context.seatName ?? `seat${this.context.seat}`;
    const c = await this.complete(messages, samplingOf(this.spec), `${this.samplePrefix}${this.context.gameId}/${seat}`);
    return {raw: c.text, usage: {input_tokens: c.usage.input_tokens, output_tokens: c.usage.output_tokens, latency_ms: c.latency_ms}};
  }

  /** One workflow sub-question: its call row, and its <s> answer and <r> reason (null when unreadable). */
  private async subQuestion(prompt: string, step: string, calls: SubCall[], legal?: readonly string[]): Promise<{answer: string | null; reason: string}> {
    const {raw, usage} = await this.ask(prompt);
    const answer = tagged(raw, "s");
    const reason = tagged(raw, "r") ?? "";
    let parse_error: string | undefined;
    if (answer === null) parse_error = "no answer between <s> and </s>";
    else if (legal && !legal.includes(answer)) parse_error = `answer ${JSON.stringify(answer)} is not one of ${legal.join(", ")}`;
    calls.push({action: "workflow", raw, usage, record: {phase: "workflow", workflow_step: step}, ...(parse_error && {error: parse_error})});
    return {answer: parse_error ? null : answer, reason};
  }

  /** §4.4.1 through the model; returns the thinking chain. */
  private async matrixWorkflow(v: MatrixView, calls: SubCall[]): Promise<string[]> {
    const mine = v.labels[v.me];
    const theirs = v.labels[1 - v.me];
    const chains: string[] = [];
    for (const a of mine) {
      const {answer, reason} = await this.subQuestion(otherGivenMinePrompt(v, a), `other given ${a}`, calls, theirs);
      if (answer) chains.push(theyReplyLine(v, a, answer, reason));
    }
    for (const b of theirs) {
      const {answer, reason} = await this.subQuestion(mineGivenOtherPrompt(v, b), `mine given ${b}`, calls, mine);
      if (answer) chains.push(iReplyLine(v, b, answer, reason));
    }
    return chains;
  }

  /** §4.4.2 through the model, deepest nodes first; returns the thinking chain along the inferred path. */
  private async treeWorkflow(v: TreeView, calls: SubCall[]): Promise<string[]> {
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
      const {answer, reason} = await this.subQuestion(treeNodePrompt(v, path, decided), step, calls, node.actions);
      decided.set(path.join(","), {mover: node.mover, choice: answer ? labelIndex(answer) : 0, reason: answer ? reason : "(no readable answer)"});
    }
    return treeChain(v, decidedBelow(v.tree, [], decided));
  }

  /** Runs the workflow once per game (at the seat's first decision); the summary is kept for every later prompt. */
  private async workflow(v: DataGameView, calls: SubCall[]): Promise<void> {
    const chains = v.kind === "matrix" ? await this.matrixWorkflow(v, calls) : await this.treeWorkflow(v, calls);
    const {answer} = await this.subQuestion(summaryPrompt(v, chains), "summary", calls);
    // The sequential workflow also prepends the thinking chain itself (workflow_design.py's strategy_thoughts).
    this.strategy = strategyText(answer ?? "(no strategy could be read)", v.kind === "tree" ? chains : null);
  }

  async act(observation: GameObservation): Promise<AgentReply> {
    const v = observation.view as DataGameView;
    const calls: SubCall[] = [];
    if (this.spec.workflow && this.strategy === null && !observation.retry) await this.workflow(v, calls);
    const strategy = this.strategy ?? "";
    let prompt = v.phase === "talk" ? negotiatePrompt(v, strategy) : actionPrompt(v, strategy, this.spec.negotiation_suffix ?? null);
    if (observation.retry) prompt += retryNote(observation.retry.error);
    const {raw, usage} = await this.ask(prompt);
    const said = tagged(raw, "s");
    const base = {raw, usage, ...(calls.length && {calls})};
    if (said === null) return {...base, action: null, parse_error: "no answer between <s> and </s>"};
    if (v.phase === "talk") return {...base, action: /^halt negotiation\.?$/i.test(said) ? {type: "halt"} : {type: "message", message: said}};
    return {...base, action: {type: "choose", choice: said}};
  }
}
