/**
 * What a language model reads in the matrix and tree games of data/games/:
 * the prompts of Game-theoretic LLM workflows (Hua et al. 2024) §4, which the
 * paper does not print; their wording is that of the authors' repository
 * (Wenyueh/game_theory: simultaneous_game_agent.py, sequential_game_agent.py,
 * workflow_design.py), filled from the seat's structured view. Every call is
 * one system message, "You are a {personality} assistant that carefully
 * answer the question." (§6.3; "rational" by default), and one user prompt
 * rebuilt from scratch (the repository sends no chat history).
 *
 * Differences from the repository, each for a reason: "There are two
 * possible actions" states the real count; a matrix game where the players
 * have different numbers of actions says so; the root question of the tree
 * workflow says that no action was taken yet (the repository writes an
 * empty chain); after an unreadable answer the model is told what was wrong
 * (the repository silently asks again, forever).
 */
import type {Seat} from "../../contract/game.js";
import type {Narrator} from "../../contract/narrator.js";
import type {DataGameView, MatrixView, TalkLine, TreeView} from "./views.js";
import {isLeaf, leaves, nodeAt, type TreeNode} from "../../../src/lib/gameTree.js";
import {NEGOTIATION_SUFFIX_COUNT} from "../../llm/playerOptions.js";

export {PERSONALITIES, type Personality} from "../../llm/playerOptions.js";

/**
 * The six prompts of §6.5, numbered as the paper prints them (the repository
 * numbers 3 and 6 the other way round), appended at the end of the action prompt.
 */
export const NEGOTIATION_SUFFIXES = [
  "Please carefully analyze the negotiation messages, think about whether you can trust the other player's message, and make your own decision.",
  "Please carefully analyze the negotiation messages and make your own decision.",
  "Carefully analyze and think about whether you can trust the other player's message, and then make your own decision.",
  "You can choose your own choice regardless what the other player says.",
  "You should make your own choice regardless what the other player says.",
  "You must make your own choice regardless what the other player says.",
] as const;
// A run config's negotiation_suffix is checked against this count (llm/playerSpec.ts), so the two must agree.
if (NEGOTIATION_SUFFIXES.length !== NEGOTIATION_SUFFIX_COUNT) throw new Error(`papers/gtllm/narrator.ts: ${NEGOTIATION_SUFFIXES.length} negotiation suffixes, but llm/playerSpec.ts allows ${NEGOTIATION_SUFFIX_COUNT}`);

export const systemPrompt = (personality: string | null): string => `You are a ${personality ?? "rational"} assistant that carefully answer the question.`;

const NAMES = ["Alice", "Bob"];
const name = (seat: Seat) => NAMES[seat];
const other = (v: DataGameView) => name((1 - v.me) as Seat);
const ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"];
const ordinal = (n: number) => ORDINALS[n - 1] ?? `${n}th`;
const CHOICE_FORMAT = "Surround your choice with '<s>' and '</s>' to indicate the start and end of your choice. For example, '<s>choice_1</s>', '<s>choice_2</s>', '<s>choice_3</s>'.";
const REASON_FORMAT = (whose: string) => `Surround your reasoning with '<r>' and '</r>' to indicate the start and end of why ${whose}. For example, '<r>I choose choice_1 because ...</r>'.`;

// ---------------------------------------------------------------- the game

function matrixRules(v: MatrixView): string {
  const them = other(v);
  const [mine, theirs] = v.me === 0 ? v.labels : [v.labels[1], v.labels[0]];
  const groups = mine.map((a, k) =>
    theirs
      .map((b, l) => {
        const [i, j] = v.me === 0 ? [k, l] : [l, k];
        const cell = v.payoffs[i][j];
        const [me, you] = [cell[v.me], cell[1 - v.me]];
        return a === b
          ? `- If both you and ${them} choose ${a}, you will receive a reward of ${me} and ${them} will receive a reward of ${you}.`
          : `- If you choose ${a} while ${them} chooses ${b}, you will receive a reward of ${me} and ${them} will receive a reward of ${you}.`;
      })
      .join("\n"),
  );
  return groups.join("\n\n\n");
}

function treeRules(tree: TreeNode): string {
  // The repository lists outcomes by the number of moves, then in tree order.
  const ordered = leaves(tree).map((l, index) => ({...l, index})).sort((a, b) => a.path.length - b.path.length || a.index - b.index);
  return ordered
    .map((l) => {
      const steps = l.path.map((k, d) => `${d === 0 ? "" : "then "}${name((d % 2) as Seat)} chooses choice_${k + 1}, `).join("");
      return `If ${steps}Alice will receive a reward of ${l.payoff[0]} and Bob will receive a reward of ${l.payoff[1]}.`;
    })
    .join("\n");
}

/** "### Game Introduction" and "### Game Rules". */
export function gameSetting(v: DataGameView): string {
  if (v.kind === "matrix") {
    const mine = v.labels[v.me];
    const theirs = v.labels[1 - v.me];
    const same = mine.join() === theirs.join();
    return `
### Game Introduction

You are playing a one-round game with another player to maximize the reward you can obtain. This game involves two players, Alice and Bob.
You are playing as ${name(v.me)}. You have ${mine.length} choices: ${mine.join(", ")}.
The other player, ${other(v)}, ${same ? "also has" : "has"} ${theirs.length} choices: ${theirs.join(", ")}.

### Game Rules

${matrixRules(v)}
`;
  }
  return `
### Game Introduction

You are playing a sequential move game with another player to maximize the reward you can obtain. This game involves two players, Alice and Bob.
You are playing as ${name(v.me)}. You have different sets of actions to choose from for each round, same for the other player, ${other(v)}.

### Game Rules

${treeRules(v.tree)}
`;
}

/** The log as the repository writes it: "Alice said in round 1: ..." / "Bob replied in round 1 before the first action:\n...". */
export function talkLog(v: DataGameView): string[] {
  return v.talk.map((t: TalkLine) => {
    const verb = t.seat === v.who_first ? "said" : "replied";
    return v.kind === "matrix" ? `${name(t.seat)} ${verb} in round ${t.round}: ${t.message}` : `${name(t.seat)} ${verb} in round ${t.round} before the ${ordinal(t.move)} action:\n${t.message}`;
  });
}

function previousActions(v: TreeView): string {
  if (!v.moves.length) return "";
  const done = v.moves.map((k, d) => `${name((d % 2) as Seat)} chooses choice_${k + 1}`).join(". ");
  return `
### Previous Actions Done in the Game

The previous actions done in the game are presented below:
${done}
`;
}

// ---------------------------------------------------------------- talk and action

/** The negotiation prompt (a message, or '<s>halt negotiation</s>'). */
export function negotiatePrompt(v: DataGameView, strategy: string): string {
  const log = talkLog(v);
  return `${gameSetting(v)}${strategy ? `\n${strategy}\n` : ""}${v.kind === "tree" ? previousActions(v) : ""}
### Negotiation

You can discuss with ${other(v)} to maximize the reward you can obtain. You have a maximum of ${v.negotiation_rounds} rounds to negotiate.
Analyze the situation and decide on what to say to the other player.

Surround your message with '<s>' and '</s>' to indicate the start and end of your message. For example, '<s>Hi, how are you?</s>'.
You can also choose the halt the negotiation by saying '<s>halt negotiation</s>'.
${log.length ? `\n\nThe previous rounds of negotiation are presented below:\n${log.join("\n")}` : ""}`;
}

/** The action prompt, with the §6.5 suffix (1–6) at its very end when one is set. */
export function actionPrompt(v: DataGameView, strategy: string, suffix: number | null): string {
  const log = talkLog(v);
  const choices = v.kind === "matrix" ? v.labels[v.me] : (nodeAt(v.tree, v.moves) as {actions: string[]}).actions;
  return `${gameSetting(v)}${strategy ? `\n${strategy}\n` : ""}${log.length ? `\n### Negotiation Messages\n\nThe previous rounds of negotiation are presented below:\n${log.join("\n")}\n` : ""}${v.kind === "tree" ? previousActions(v) : ""}
### Your Action

Analyse the problem and the negotiation message if there is any.
Please choose one of the following actions to maximize your reward.
${CHOICE_FORMAT}

Action choices: ${choices.join(", ")}
${suffix ? `\n\n${NEGOTIATION_SUFFIXES[suffix - 1]}\n` : ""}`;
}

/** Said after an answer that broke the rules, at the end of the same prompt. */
export const retryNote = (error: string): string => `\n\nYour previous answer broke the rules: ${error}. Please answer again in the format asked for.`;

// ---------------------------------------------------------------- the workflow's sub-questions (§4.4)

const INFERENCE_FORMAT = "Surround your inference result with '<s>' and '</s>' to indicate the start and end. For example, '<s>choice_1</s>', '<s>choice_2</s>', '<s>choice_3</s>'.";

/** §4.4.1: "what will the other do if I play `mine`?" */
export function otherGivenMinePrompt(v: MatrixView, mine: string): string {
  const theirs = v.labels[1 - v.me];
  return `${gameSetting(v)}
### The Other Player's Action Given Your Action

Suppose you have chosen to take the action: ${mine}.
There are ${theirs.length} possible actions that ${other(v)} can take:
${theirs.join(", ")}

What action do you think ${other(v)} will take to maximize their reward and why?
Analyze the game rules based on your choice, and then infer their optimal choice that maximizes their reward conditionally.

${REASON_FORMAT(`you think they may make the choice`)}
${INFERENCE_FORMAT}
`;
}

/** §4.4.1: "what is my best reply if the other plays `theirs`?" */
export function mineGivenOtherPrompt(v: MatrixView, theirs: string): string {
  const mine = v.labels[v.me];
  return `${gameSetting(v)}
### Your Potential Action Given the Other Player's Action

Suppose ${other(v)} has chosen to take the action: ${theirs}.
What action would you then take to maximize your reward and why?
Analyze the game rules and the current situation of their choice and then infer your best choice.

There are ${mine.length} possible actions that you can take:
${mine.join(", ")}

${REASON_FORMAT("you make the choice")}
${CHOICE_FORMAT}
`;
}

/** One decided node of the tree workflow: who moves, what they were inferred to choose, and why. */
export interface Decided {
  mover: Seat;
  choice: number;
  reason: string;
}

const chainText = (path: readonly number[]) =>
  path.length ? path.map((k, d) => `${d === 0 ? "First, " : "\nThen "}${name((d % 2) as Seat)} chooses choice_${k + 1}.`).join("") : "no action has been taken yet.";

/** The decisions the workflow already inferred below `path`, along their choices. */
export function decidedBelow(tree: TreeNode, path: number[], decided: Map<string, Decided>): Decided[] {
  const out: Decided[] = [];
  for (let node = nodeAt(tree, path), p = [...path]; !isLeaf(node); node = nodeAt(tree, p)) {
    const d = decided.get(p.join(","));
    if (!d) break;
    out.push(d);
    p.push(d.choice);
  }
  return out;
}

/** §4.4.2: "given the previous actions, what will the mover choose?" at the node `path`, knowing what was inferred below it. */
export function treeNodePrompt(v: TreeView, path: number[], decided: Map<string, Decided>): string {
  const node = nodeAt(v.tree, path) as Extract<TreeNode, {mover: 0 | 1}>;
  const mine = node.mover === v.me;
  const who = mine ? "you" : name(node.mover);
  const notices = node.actions
    .map((a, k) => {
      const below = decidedBelow(v.tree, [...path, k], decided);
      const then = below.length
        ? below.map((d) => `${d.mover === v.me ? "you" : name(d.mover)} will choose choice_${d.choice + 1} because ${d.reason}.`).join("\n")
        : "the game will finish with rewards obtained defined by the game rules.";
      return `Notice that if ${who} choose ${a}, ${then}`;
    })
    .join("\n");
  const question = mine
    ? `### Your Potential Action Given Previous Actions

Suppose the previous actions are: ${chainText(path)}
There are ${node.actions.length} possible actions that you can take: ${node.actions.join(", ")}

${notices}

What action would you then take to maximize your reward and why?
Analyze the game rules and the current situation of their choice and then infer your best choice.

${REASON_FORMAT("you make the choice")}
${CHOICE_FORMAT}`
    : `### The Other Player's Potential Action Given Previous Actions

Suppose the previous actions are: ${chainText(path)}
There are ${node.actions.length} possible actions that ${who} can take: ${node.actions.join(", ")}

${notices}

What action do you think ${who} will take to maximize their reward and why?
Analyze the game rules based on your choice, and then infer their optimal choice that maximizes their reward conditionally.

${REASON_FORMAT("you think they may make the choice")}
${INFERENCE_FORMAT}`;
  return `${gameSetting(v)}\n${question}\n`;
}

/** The matrix workflow's thinking-chain lines (workflow_design.py's perspective-wise template). */
export const theyReplyLine = (v: DataGameView, mine: string, theirs: string, reason: string) => `If I choose ${mine}, then ${other(v)} will choose ${theirs} because ${reason}.`;
export const iReplyLine = (v: DataGameView, theirs: string, mine: string, reason: string) => `If ${other(v)} chooses ${theirs}, then I will choose ${mine} because ${reason}.`;

/** The tree workflow's thinking chain from the root: "First, I will choose choice_1 because ...". */
export const treeChain = (v: DataGameView, path: Decided[]): string[] =>
  path.map((d, i) => {
    const n = ordinal(i + 1);
    const who = d.mover === v.me ? "I" : name(d.mover);
    return `${n[0].toUpperCase()}${n.slice(1)}, ${who} will choose choice_${d.choice + 1} because ${d.reason}.`;
  });

/** The summariser call: the thinking chains in, one strategy out. */
export function summaryPrompt(v: DataGameView, chains: readonly string[]): string {
  return `${gameSetting(v)}
### Summary of Thinking Chains

Below are the thinking processes that you have gone through about: 
(1) your decisions conditioned on the other player's actions 
(2) guesses of others' decisions conditioned on your actions.

Carefully analyze the thinking chains step by step.
Then summarize the thinking chains into a strategy that you can take in the game without any conditional knowledge such as the other player's action.
The strategy can be one specific action or a probability distribution of actions.

${chains.join("\n")}

Surround the strategy you have derived from the thinking chains using '<s>' and '</s>' to indicate the start and end of your strategy. For example, '<s>always choose choice_1</s>' or '<s>always choose choice_2</s>'.
`;
}

/** What is prepended to every later negotiation and action prompt (workflow_design.py's beautify_strategy). */
export function strategyText(strategy: string, chains: readonly string[] | null): string {
  return `
### Strategy You Have Derived

You have thought about the game and derived the following strategy:
${strategy}

If you need to negotiate with the other player:
Keep this strategy in mind;
Think about what to tell the other player in order for you to obtain most reward based on your calculation in the strategy.

If you need to make decisions:
Follow this strategy to maximize your reward.
${chains ? `\n${chains.join("\n")}\n` : ""}`;
}

// ---------------------------------------------------------------- reading replies

/** The text between the first <tag> and the next </tag>, trimmed; null when absent. */
export function tagged(text: string, tag: "s" | "r"): string | null {
  const start = text.indexOf(`<${tag}>`);
  if (start < 0) return null;
  const end = text.indexOf(`</${tag}>`, start);
  if (end < 0) return null;
  return text.slice(start + tag.length + 2, end).trim();
}

/**
 * The narrator of every matrix and tree game (§4): one prompt per decision
 * under the system prompt with the player's personality (§6.3), the talk or
 * action request with the workflow's strategy (`notes`) and, for actions, the
 * player's §6.5 suffix; after a rule break the request says what was wrong.
 * Replies are read from '<s>…</s>': a message or "halt negotiation" while
 * talking, a choice_k when acting.
 */
export const gtllmNarrator: Narrator<DataGameView> = {
  messages(obs, _past, _extra, notes, player) {
    const v = obs.view;
    const strategy = notes ?? "";
    let prompt = v.phase === "talk" ? negotiatePrompt(v, strategy) : actionPrompt(v, strategy, player?.negotiation_suffix ?? null);
    if (obs.retry) prompt += retryNote(obs.retry.error);
    return [
      {role: "system", content: systemPrompt(player?.personality ?? null)},
      {role: "user", content: prompt},
    ];
  },
  /** Replies are read from tags (`read`); a JSON answer is taken as the action it spells. */
  action: (json) => json,
  read(raw, obs) {
    const said = tagged(raw, "s");
    if (said === null) return {error: "no answer between <s> and </s>"};
    if (obs.view.phase === "talk") return {action: /^halt negotiation\.?$/i.test(said) ? {type: "halt"} : {type: "message", message: said}};
    return {action: {type: "choose", choice: said}};
  },
};
