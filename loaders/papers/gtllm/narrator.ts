/**
 * What a language model reads in the matrix and tree games of data/games/:
 * the prompts of Game-theoretic LLM workflows (Hua et al. 2024) §4, which the
 * paper does not print. They are the authors' repository's bytes
 * (Wenyueh/game_theory at b05314e: simultaneous_game_agent.py and
 * sequential_game_agent.py without the workflow, workflow_design.py with
 * it), filled from the seat's structured view; test/unit/gtllmAuthorsPrompts
 * checks them against the requests the authors' code sends
 * (test/fixtures/authors-prompts/gtllm/). Every call is one system message,
 * "You are a {personality} assistant that carefully answer the question."
 * (§6.3; "rational" by default), and one user prompt rebuilt from scratch
 * (the repository sends no chat history).
 *
 * What differs from the repository, each for a reason (the Guide's
 * "Prompts" section lists them): after an unreadable answer the model is
 * told what was wrong (the repository silently asks again, forever); a
 * matrix game whose players have different actions lists the other's own
 * actions (the repository's code cannot describe one); with
 * `prompts: "paper"` the §6.5 suffix is worded as the paper prints it.
 */
import type {Seat} from "../../contract/game.js";
import type {Narrator, PlayerPrompt} from "../../contract/narrator.js";
import type {DataGameView, MatrixView, TalkLine, TreeView} from "./views.js";
import {isLeaf, leaves, nodeAt, type TreeNode} from "../../../src/lib/gameTree.js";
import {NEGOTIATION_SUFFIX_COUNT} from "../../llm/playerOptions.js";

export {PERSONALITIES, type Personality} from "../../llm/playerOptions.js";

/**
 * The six prompts of §6.5 as the paper prints them, numbered as it numbers
 * them (a run config's `negotiation_suffix` counts so); sent with
 * `prompts: "paper"`.
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

/**
 * The same six as the repository words them (`prompt_for_negotiate`, the
 * opponent's name in place of "the other player"), in the paper's order:
 * the repository's numbers are 1, 2, 6, 3, 4, 5.
 */
const CODE_SUFFIXES = [
  (o: string) => `Please carefully analyze the negotiation messages, think about whether you can trust ${o} message, and make your own decision.\n`,
  () => "Please carefully analyze the negotiation messages and make your own decision.\n",
  (o: string) => `Carefully analyze and think about whether you can trust ${o} message, and then make your own decision.\n`,
  (o: string) => `You can choose your own choice regardless what ${o} says.\n`,
  (o: string) => `You should make your own choice regardless what ${o} says.\n`,
  (o: string) => `You must make your own choice regardless what ${o} says.\n`,
];

/** The §6.5 suffix `n` (the paper's numbering) as sent to the seat playing against `opponent`. */
export function negotiationSuffix(n: number, opponent: string, prompts: PlayerPrompt["prompts"] = null): string {
  return prompts === "paper" ? `${NEGOTIATION_SUFFIXES[n - 1]}\n` : CODE_SUFFIXES[n - 1](opponent);
}

export const systemPrompt = (personality: string | null): string => `You are a ${personality ?? "rational"} assistant that carefully answer the question.`;

const NAMES = ["Alice", "Bob"];
const name = (seat: Seat) => NAMES[seat];
const other = (v: DataGameView) => name((1 - v.me) as Seat);
const ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"];
const ordinal = (n: number) => ORDINALS[n - 1] ?? `${n}th`;
const CHOICE_FORMAT = "Surround your choice with '<s>' and '</s>' to indicate the start and end of your choice. For example, '<s>choice_1</s>', '<s>choice_2</s>', '<s>choice_3</s>'.";
const INFERENCE_FORMAT = "Surround your inference result with '<s>' and '</s>' to indicate the start and end. For example, '<s>choice_1</s>', '<s>choice_2</s>', '<s>choice_3</s>'.";
/** The reasoning format; `example` is the repository's example reason, which differs by question. */
const REASON_FORMAT = (whose: string, example: string) => `Surround your reasoning with '<r>' and '</r>' to indicate the start and end of why ${whose}. For example, '<r>${example} because ...</r>'.`;

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
  // The repository joins the sentences and a "\n" after each of my actions with "\n".
  return `${groups.join("\n\n\n")}\n\n`;
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

/** "### Game Introduction" and "### Game Rules" (the repository's `game_setting`). */
export function gameSetting(v: DataGameView): string {
  if (v.kind === "matrix") {
    const mine = v.labels[v.me];
    const theirs = v.labels[1 - v.me];
    // The repository states the other's choices as its own ("also has"); only a game with different actions needs its own line.
    const otherLine = mine.join() === theirs.join() ? `also has ${mine.length} choices: ${mine.join(", ")}` : `has ${theirs.length} choices: ${theirs.join(", ")}`;
    return `
### Game Introduction

You are playing a one-round game with another player to maximize the reward you can obtain. This game involves two players, Alice and Bob.
You are playing as ${name(v.me)}. You have ${mine.length} choices: ${mine.join(", ")}.
The other player, ${other(v)}, ${otherLine}.

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

/**
 * "### Previous Actions Done in the Game" before the negotiation or action
 * block of a tree game (empty at the root). The repository's workflow
 * (workflow_design.py) names the moves "_choice_k", its plain agent
 * (sequential_game_agent.py) "choice_k"; the line after them holds 12 spaces.
 */
function previousActions(v: TreeView, workflow: boolean): string {
  if (!v.moves.length) return "";
  const done = v.moves.map((k, d) => `${name((d % 2) as Seat)} chooses ${workflow ? "_" : ""}choice_${k + 1}`).join(". ");
  return `
### Previous Actions Done in the Game

The previous actions done in the game are presented below:
${done}
            `;
}

/** What the workflow puts between the game and the request: "\n" + the strategy (and thinking chain) + "\n", or nothing. */
const strategyPart = (strategy: string) => (strategy ? `\n${strategy}\n` : "");

// ---------------------------------------------------------------- talk and action

const NEGOTIATION = (v: DataGameView) => `
### Negotiation

You can discuss with ${other(v)} to maximize the reward you can obtain. You have a maximum of ${v.negotiation_rounds} rounds to negotiate.
Analyze the situation and decide on what to say to the other player.

Surround your message with '<s>' and '</s>' to indicate the start and end of your message. For example, '<s>Hi, how are you?</s>'.
You can also choose the halt the negotiation by saying '<s>halt negotiation</s>'.
`;

/**
 * The negotiation prompt (a message, or '<s>halt negotiation</s>'); `strategy`
 * is the workflow's (empty without it). The talk so far follows under
 * "The previous rounds of negotiation are presented below:", which
 * sequential_game_agent.py alone writes as a "## " heading between blank lines.
 */
export function negotiatePrompt(v: DataGameView, strategy: string): string {
  const log = talkLog(v);
  const workflow = strategy !== "";
  const previous = v.kind === "tree" ? previousActions(v, workflow) : "";
  const header = v.kind === "tree" && !workflow ? "\n\n## The previous rounds of negotiation are presented below:\n\n" : "\n\nThe previous rounds of negotiation are presented below:\n";
  return `${gameSetting(v)}${strategyPart(strategy)}${previous}${NEGOTIATION(v)}${log.length ? `${header}${log.join("\n")}` : ""}`;
}

/**
 * The action prompt. After talk (only then, as in the repository) it ends
 * with a blank line and the player's §6.5 suffix (1–6, the paper's
 * numbering; none when unset), naming the opponent unless `prompts` is "paper".
 */
export function actionPrompt(v: DataGameView, strategy: string, suffix: number | null, prompts: PlayerPrompt["prompts"] = null): string {
  const log = talkLog(v);
  const workflow = strategy !== "";
  const choices = v.kind === "matrix" ? v.labels[v.me] : (nodeAt(v.tree, v.moves) as {actions: string[]}).actions.map((a) => `_${a}`);
  const action = `${v.kind === "tree" ? previousActions(v, workflow) : ""}
### Your Action

Analyse the problem and the negotiation message if there is any.
Please choose one of the following actions to maximize your reward.
${CHOICE_FORMAT}

Action choices: ${choices.join(", ")}
`;
  const talk = log.length ? `\n### Negotiation Messages\n\nThe previous rounds of negotiation are presented below:\n${log.join("\n")}\n${action}\n\n${suffix ? negotiationSuffix(suffix, other(v), prompts) : ""}` : action;
  return `${gameSetting(v)}${strategyPart(strategy) || "\n"}${talk}`;
}

/** Said after an answer that broke the rules, at the end of the same prompt. */
export const retryNote = (error: string): string => `\n\nYour previous answer broke the rules: ${error}. Please answer again in the format asked for.`;

// ---------------------------------------------------------------- the workflow's sub-questions (§4.4)

/** §4.4.1: "what will the other do if I play `mine`?" (the repository lists the seat's own actions as the other's). */
export function otherGivenMinePrompt(v: MatrixView, mine: string): string {
  return `${gameSetting(v)}

### The Other Player's Action Given Your Action

Suppose you have chosen to take the action: ${mine}.
There are two possible actions that ${other(v)} can take:
${v.labels[v.me].join(", ")}

What action do you think ${other(v)} will take to maximize their reward and why?
Analyze the game rules based on your choice, and then infer their optimal choice that maximizes their reward conditionally.

${REASON_FORMAT("you think they may make the choice", `I choose ${other(v)} would choose choice_1`)}
${INFERENCE_FORMAT}
`;
}

/** §4.4.1: "what is my best reply if the other plays `theirs`?" */
export function mineGivenOtherPrompt(v: MatrixView, theirs: string): string {
  return `${gameSetting(v)}

### Your Potential Action Given the Other Player's Action

Suppose ${other(v)} has chosen to take the action: ${theirs}.
What action would you then take to maximize your reward and why?
Analyze the game rules and the current situation of their choice and then infer your best choice.

There are two possible actions that you can take:
${v.labels[v.me].join(", ")}

${REASON_FORMAT("you make the choice", "I choose choice_1")}
${CHOICE_FORMAT}
`;
}

/** One decided node of the tree workflow: who moves, what they were inferred to choose (as answered), and why. */
export interface Decided {
  mover: Seat;
  choice: number;
  /** The answer as written between the tags (the repository keeps its spaces). */
  answer: string;
  reason: string;
}

/** "First, Alice chooses choice_2.\nThen Bob chooses choice_1." (empty at the root). */
const chainText = (path: readonly number[]) => path.map((k, d) => `${d === 0 ? "First, " : "\nThen "}${name((d % 2) as Seat)} chooses choice_${k + 1}.`).join("");

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

/**
 * §4.4.2: "given the previous actions, what will the mover choose?" at the
 * node `path`, knowing what was inferred below it. As in the repository, a
 * node with a decided subtree lists what follows each action ("Notice
 * that ..."), and its whole prompt then has "I " turned into "you " and
 * "my " into "your " (workflow_design.py's
 * chain_conditioned_actions_with_decisions_made).
 */
export function treeNodePrompt(v: TreeView, path: number[], decided: Map<string, Decided>): string {
  const node = nodeAt(v.tree, path) as Extract<TreeNode, {mover: 0 | 1}>;
  const mine = node.mover === v.me;
  const who = mine ? "you" : name(node.mover);
  const withDecisions = node.children.some((c) => !isLeaf(c));
  const notices = node.actions
    .map((a, k) => {
      const below = decidedBelow(v.tree, [...path, k], decided);
      const then = below.length
        ? below.map((d) => `${d.mover === v.me ? "you" : name(d.mover)} will choose ${d.answer} because ${d.reason}.\n`).join("")
        : "the game will finish with rewards obtained defined by the game rules.";
      return `Notice that if ${who} choose ${a}, ${then}`;
    })
    .join("");
  const context = `Suppose the previous actions are: ${chainText(path)}.
There are two possible actions that ${who} can take: ${node.actions.join(", ")}
${withDecisions ? `\n${notices}\n` : ""}`;
  const question = mine
    ? `### Your Potential Action Given Previous Actions

${context}
What action would you then take to maximize your reward and why?
Analyze the game rules and the current situation of their choice and then infer your best choice.

${REASON_FORMAT("you make the choice", "I choose choice_1")}
${CHOICE_FORMAT}`
    : `### The Other Player's Potential Action Given Previous Actions

${context}
What action do you think ${who} will take to maximize their reward and why?
Analyze the game rules based on your choice, and then infer their optimal choice that maximizes their reward conditionally.

${REASON_FORMAT("you think they may make the choice", `I think ${who} would choose choice_1`)}
${INFERENCE_FORMAT}`;
  const prompt = `${gameSetting(v)}\n\n${question}\n`;
  return withDecisions ? prompt.replaceAll("I ", "you ").replaceAll("my ", "your ") : prompt;
}

/** The matrix workflow's thinking-chain lines (workflow_design.py's perspective_wise_reasoning_template, typo kept). */
export const theyReplyLine = (v: DataGameView, mine: string, theirs: string, reason: string) => `\nIf I chooses ${mine}, then ${other(v)} will choose ${theirs} because ${reason}.\n`;
export const iReplyLine = (v: DataGameView, theirs: string, mine: string, reason: string) => `\nIf ${other(v)} chooses ${theirs}, then I will choose ${mine} because ${reason}.\n`;

/** The tree workflow's thinking chain from the root: "First, I will choose choice_1 because ...". */
export const treeChain = (v: DataGameView, path: Decided[]): string[] =>
  path.map((d, i) => {
    const n = ordinal(i + 1);
    const who = d.mover === v.me ? "I" : name(d.mover);
    return `${n[0].toUpperCase()}${n.slice(1)}, ${who} will choose ${d.answer} because ${d.reason}.`;
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

/**
 * What is placed before every later negotiation and action prompt
 * (workflow_design.py's beautify_strategy; in a tree game followed by the
 * thinking chain, its strategy_thoughts).
 */
export function strategyText(strategy: string, chains: readonly string[] | null): string {
  const summary = `
### Strategy You Have Derived

You have thought about the game and derived the following strategy:
${strategy}

If you need to negotiate with the other player:
Keep this strategy in mind;
Think about what to tell the other player in order for you to obtain most reward based on your calculation in the strategy.

If you need to make decisions:
Follow this strategy to maximize your reward.
`;
  return chains ? `${summary}\n${chains.join("\n")}` : summary;
}

// ---------------------------------------------------------------- reading replies

/** The text between the first <tag> and the next </tag>, as written (the repository's `parse`); null when absent. */
export function taggedRaw(text: string, tag: "s" | "r"): string | null {
  const start = text.indexOf(`<${tag}>`);
  if (start < 0) return null;
  const end = text.indexOf(`</${tag}>`, start);
  if (end < 0) return null;
  return text.slice(start + tag.length + 2, end);
}

/** The text between the first <tag> and the next </tag>, trimmed; null when absent. */
export const tagged = (text: string, tag: "s" | "r"): string | null => taggedRaw(text, tag)?.trim() ?? null;

/**
 * The narrator of every matrix and tree game (§4): one prompt per decision
 * under the system prompt with the player's personality (§6.3), the talk or
 * action request with the workflow's strategy (`notes`) and, after talk, the
 * player's §6.5 suffix; after a rule break the request says what was wrong.
 * Replies are read from '<s>…</s>': a message (kept as written, as the
 * repository keeps it) or "halt negotiation" while talking, a choice_k (or
 * a tree game's listed "_choice_k") when acting.
 *
 * A halt ends the talk, as the prompt says it does. With `prompts: "code"`
 * it does not, as in the repository, whose test compares the text between
 * the tags with the tagged text (the talk then runs its rounds with
 * "halt negotiation" as a message); its workflow's matrix games alone
 * compare it right, so there a halt still ends the talk.
 */
export const gtllmNarrator: Narrator<DataGameView> = {
  /** "paper": §6.5's suffixes as printed; "code": a halt that does not end the talk, as in the authors' code. */
  prompts: ["paper", "code"],
  promptNotes: {
    paper: "§6.5's negotiation suffixes as the paper prints them, \"the other player's message\" for the code's \"Bob message\"",
    code: "a halt that does not end the talk, as the authors' code plays it, but in a matrix game with the workflow",
  },
  messages(obs, _past, _extra, notes, player) {
    const v = obs.view;
    const strategy = notes ?? "";
    let prompt = v.phase === "talk" ? negotiatePrompt(v, strategy) : actionPrompt(v, strategy, player?.negotiation_suffix ?? null, player?.prompts ?? null);
    if (obs.retry) prompt += retryNote(obs.retry.error);
    return [
      {role: "system", content: systemPrompt(player?.personality ?? null)},
      {role: "user", content: prompt},
    ];
  },
  /** Replies are read from tags (`read`); a JSON answer is taken as the action it spells. */
  action: (json) => json,
  read(raw, obs, player) {
    const said = taggedRaw(raw, "s");
    if (said === null) return {error: "no answer between <s> and </s>"};
    if (obs.view.phase === "talk") {
      const halt = /^halt negotiation\.?$/i.test(said.trim());
      const haltIgnored = player?.prompts === "code" && !(player.workflow && obs.view.kind === "matrix" && said === "halt negotiation");
      return {action: halt && !haltIgnored ? {type: "halt"} : {type: "message", message: said}};
    }
    const choice = said.trim();
    return {action: {type: "choose", choice: obs.view.kind === "tree" ? choice.replace(/^_(?=choice_\d+$)/, "") : choice}};
  },
};
