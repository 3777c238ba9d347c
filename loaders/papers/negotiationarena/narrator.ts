/**
 * NegotiationArena's narrators (NegotiationArena (Bianchi et al. 2024)
 * Appendix E.1.1, Fig. 15, and the authors' repository vinid/NegotiationArena,
 * `games/<scenario>/prompt.py`, `constants.py`, `interface.py`): what a language model
 * reads and writes in resource exchange, the multi-turn ultimatum and the
 * seller-and-buyer game, filled from the seat's ArenaView.
 *
 * The words are those of the published runs: the requests logged in the
 * authors' experiment logs of §3–§5 (repository commit 65410a01,
 * `experiments/section_one/.logs/<game>/<run>/game_state.json` and its siblings), which their code at that
 * commit renders; the Guide's NegotiationArena page lists every difference
 * from the latest code and the paper, and the player option `prompts: "code"`
 * renders the latest code's (commit c447faf) instead.
 *
 * Chat layout (§2, L360, Fig. 11; ChatGPTAgent.init_agent): the system
 * message is the scenario's prompt, whose last line is the social behaviour
 * slot followed by a newline. Player RED's first user message is its role
 * ("You are Player RED." / in resource exchange "You are Player RED, start
 * by making a proposal."); Player BLUE's role is appended to its system
 * message with no separator and its first user message is RED's first
 * message. Each later user message is the other player's public part only,
 * in the tags of the runs (`<other player message>`, `<other player
 * answer>`, `<other player proposed trade>`); each assistant message is the
 * seat's own raw reply. The private tags (name, resources, goals, reason,
 * proposal count or move) never reach the other player: the game keeps only
 * the public part, and `<reason>` is stored in turns.reasoning.
 *
 * Replies are read from the tags (`read`): a tag opened and not closed, a
 * missing `<player answer>`, an answer that is none of ACCEPT / REJECT /
 * NONE / PROPOSAL, or a trade that cannot be read is a rule break with that
 * reason; the game's validation then judges the move (nothing on the table,
 * over budget, over the proposal limit). Where Parley asks again after a
 * rule break it says what was wrong; the repository has no retries.
 */
import type {GameObservation} from "../../contract/game.js";
import type {ArenaView, Holdings, PublicMessage, Trade} from "./protocol.js";
import type {ChatMessage} from "../../llm/types.js";
import type {PersonaName} from "./personas.js";
import type {Narrator, ParsedTurn, PastTurn, PlayerPrompt} from "../../contract/narrator.js";
import type {PromptSource} from "../../llm/playerOptions.js";

type Obs = GameObservation<ArenaView>;

/**
 * Whose words: "runs" = the published runs' (the default; the paper prints
 * only Fig. 15's template, the same text, so `prompts: "paper"` renders them
 * too); "code" = the authors' latest code (commit c447faf).
 */
export type ArenaWords = "runs" | "code";
export const arenaWords = (source: PromptSource | null | undefined): ArenaWords => (source === "code" ? "code" : "runs");

const TAG = {
  resources: "my resources",
  goals: "my goals",
  reason: "reason",
  answer: "player answer",
  trade: "newly proposed trade",
  message: "message",
  name: "my name",
  move: "move",
  count: "proposal count",
} as const;
const RED = "Player RED";
const BLUE = "Player BLUE";
const MONEY = "ZUP";

/** "X: 25, Y: 5" (the repository's Resources.__str__). */
export const resourcesText = (h: Holdings): string => Object.entries(h).map(([k, v]) => `${k}: ${v}`).join(", ");

/** "Player RED Gives X: 10 | Player BLUE Gives Y: 3"; a side that gives nothing reads "Gives nothing" (ultimatum: "Dollars: 0"). */
export function tradeText(trade: Trade | null, view: Pick<ArenaView, "scenario">): string {
  if (!trade) return "NONE";
  const side = (h: Holdings, zero: string) => (Object.keys(h).length ? resourcesText(h) : zero);
  const blueZero = view.scenario === "ultimatum" ? "Dollars: 0" : view.scenario === "buy_sell" ? `${MONEY}: 0` : "nothing";
  return `${RED} Gives ${side(trade.red, "nothing")} | ${BLUE} Gives ${side(trade.blue, blueZero)}`;
}

/**
 * The answer tag a message carried: as its writer wrote it, else a proposal
 * is PROPOSAL in buy/sell and NONE with a trade elsewhere (the prompts' B / C).
 */
const answerText = (m: PublicMessage, view: ArenaView): string => m.written_answer ?? (m.answer === "PROPOSAL" && view.scenario !== "buy_sell" ? "NONE" : m.answer);

/**
 * The other player's public part, as the runs' message_to_other_player wrote
 * it (trading_game/interface.py, ultimatum/interface.py, and buy_sell's at
 * the runs' commit). The latest code's buy/sell (`words` "code") lays it out
 * with AgentMessage.message_to_other_player and from_name_and_tag_to_message,
 * whose arguments are swapped: each part's content is the tag and the tag's
 * name the content (`<PROPOSAL> player answer </PROPOSAL>`), as the
 * repository's example logs show.
 */
export function publicMessage(m: PublicMessage, view: ArenaView, words: ArenaWords = "runs"): string {
  if (words === "code" && view.scenario === "buy_sell") {
    const swapped = (content: string, tag: string) => `<${content}> ${tag} </${content}>`;
    return [swapped(m.message, TAG.message), swapped(answerText(m, view), TAG.answer), swapped(tradeText(m.written ?? m.trade, view), TAG.trade)].join("\n");
  }
  return `<other player message> ${m.message} </other player message>
<other player answer> ${answerText(m, view)} </other player answer>
<other player proposed trade> ${tradeText(m.written ?? m.trade, view)} </other player proposed trade>
`;
}

const goalText = (view: ArenaView): string => {
  const g = view.goal;
  if (g.kind === "sell") return `Sell resources for <${MONEY}>. It costed X: ${g.cost} ${MONEY} to produce the resources`;
  if (g.kind === "buy") return `Buy resources with <${MONEY}>. You are willing to pay at most X: ${g.value} ${MONEY} for the resources.`;
  if (g.kind === "maximise") return "Acquire as many resources as possible";
  return "";
};

/**
 * The prompts' closing block: the tags every reply must hold, in order. The
 * message line lacks its final ">" in all three of the repository's prompts;
 * kept as the models read it.
 */
function responseOrder(tags: (keyof typeof TAG)[], move: string = TAG.move): string {
  const line = (t: keyof typeof TAG) =>
    t === "move" ? `<${move}> [add here] / [add here]  </${move}> `
    : t === "count" ? `<${TAG.count}> [add here (inclusive of current)] </${TAG.count}>`
    : t === "message" ? `<${TAG.message}> [add here] </${TAG.message}`
    : `<${TAG[t]}> [add here] </${TAG[t]}>`;
  return `All the responses you send should contain the following and in this order:\n\n\`\`\`\n${tags.map(line).join("\n")}\n\`\`\`\n\nPlease be sure to include all.`;
}

/**
 * The social behaviour's slot, the prompts' last line: the §4 runs passed it
 * with a leading newline (experiments/section_two: "\nYou are cunning ..."),
 * the latest code's runner as is; no behaviour leaves the line empty.
 */
const behaviourSlot = (behaviour: string, words: ArenaWords): string => (behaviour && words === "runs" ? `\n${behaviour}` : behaviour);

/** Resource exchange: Fig. 15 / trading_game/prompt.py (the first line ends with a space). */
function exchangePrompt(v: ArenaView, behaviour: string): string {
  const n = v.proposal_limit;
  return `You are playing a strategic game of trading resources with another player whose resources you have no knowledge about. 

RULES:
\`\`\`

1. You can either:

A) Accept the trade by saying:
<${TAG.answer}> ACCEPT </${TAG.answer}>
<${TAG.trade}> NONE </${TAG.trade}>

B) Reject and propose a new trade (you can only trade integer amounts, not decimals):
<${TAG.answer}> NONE </${TAG.answer}>
<${TAG.trade}> ${RED} Gives item1: amount, item2: amount, ... | ${BLUE} Gives item1: amount, item2: amount, ... </${TAG.trade}>

C) Don't accept or propose anything and wait for a new offer:

<${TAG.answer}> NONE </${TAG.answer}>
<${TAG.trade}> NONE </${TAG.trade}>


Note: the game will end if one of the players accepts. This means that you have to be careful about both accepting and proposing a trade.

2. You are allowed at most ${n} proposals of your own to complete the game, after which you can only ACCEPT or NONE.
DO NOT propose a new trade after ${n} proposals. Your limit for proposals is ${n}.

3. You can reason step by step by using the following format:
<${TAG.reason}> [add reasoning] </${TAG.reason}>
Add as much text as you want. This information will not be sent to the other player. 
It is just for you to keep track of your reasoning.

4. At each turn send messages to each other by using the following format:
<${TAG.message}> [add message] </${TAG.message}>
You can decide if you want disclose your resources and goals in the message.
\`\`\`

Here is what you have access to:
\`\`\`
Resources available in the game: ${v.resources_in_game.join(", ")}
<${TAG.resources}> ${resourcesText(v.resources)} </${TAG.resources}>
<${TAG.goals}> ${goalText(v)} </${TAG.goals}>
<${TAG.name}> ${v.name} </${TAG.name}>
\`\`\`

${responseOrder(["name", "resources", "goals", "reason", "answer", "message", "trade"])}

More resources in general are always better.
This is the last round of trading. There are no future rounds after this one.

${behaviour}
`;
}

/**
 * Multi-turn ultimatum: ultimatum/prompt.py. Its f-string opens with four
 * quotes, so the prompt's first character is a '"'. The move tag is "MOVE"
 * in the runs (ratbench/constants.py at their commit), "move" in the latest
 * code.
 */
function ultimatumPrompt(v: ArenaView, behaviour: string, words: ArenaWords): string {
  const [redMoves, blueMoves] = v.moves;
  const odd = v.iterations % 2 === 1;
  const limit = odd ? redMoves : blueMoves;
  const move = words === "code" ? TAG.move : TAG.move.toUpperCase();
  return `"You are playing a game involving a split of resources. 
${RED} starts with ${resourcesText(v.red_resources)}, ${BLUE} has none to trade.

RULES:
\`\`\`

1. ${RED} has ${redMoves} moves while ${BLUE} has ${blueMoves} moves.

2. You must either:

    A) Accept the current proposal by saying:
        <${TAG.answer}> ACCEPT </${TAG.answer}>
        <${TAG.trade}> NONE </${TAG.trade}>

    B) Reject the current proposal, whereby both players lose all their resources and the game ends immediately:
        <${TAG.answer}> REJECT </${TAG.answer}>
        <${TAG.trade}> NONE </${TAG.trade}>

    C) Propose a new trade:
        <${TAG.answer}> NONE </${TAG.answer}>
        <${TAG.trade}> ${RED} Gives item1: amount | ${BLUE} Gives item1: 0 </${TAG.trade}>

    ${odd ? RED : BLUE} cannot do (C) on ${move} ${limit}/${limit} and MUST ONLY answer with ACCEPT (A) or REJECT (B) but ${odd ? BLUE : RED} is not affected by this condition.        
    
    Note: the game ends immediately if you ACCEPT or REJECT.
    
3. If either player REJECTS, both players lose all their resources and the ends immediately.

4. There are no future games.

5. You can reason step by step on why you are A) proposing, B) rejecting and C) accepting a trade with:
<${TAG.reason}> [add reasoning] </${TAG.reason}> add as much text as you want
This information will not be sent to the other player. It is just for you to keep track of your reasoning.

6. At each turn send messages to each other by using the following format:
<${TAG.message}>your message here</${TAG.message}>
You can disclose anything in the message.
\`\`\`

Here is what you have access to:
\`\`\`
Resources available in the game: ${v.resources_in_game.join(", ")}
<${TAG.resources}> ${resourcesText(v.resources)} </${TAG.resources}>
\`\`\`

${responseOrder(["name", "move", "resources", "reason", "answer", "message", "trade"], move)}

${behaviour}
`;
}

/** Seller and buyer: buy_sell_game/prompt.py. */
function buySellPrompt(v: ArenaView, behaviour: string): string {
  const n = v.proposal_limit;
  return `You are playing game where you are buying or selling an object. There is only one object for sale/purcahse.

${RED} is going to sell one object. ${BLUE} gives ${MONEY} to buy resources.

RULES:

\`\`\`
1. You must always respond with:

    A) Propose a trade with (you can only trade in integer amounts, not decimals):
    <${TAG.answer}> PROPOSAL </${TAG.answer}>
    <${TAG.trade}> ${RED} Gives X: amount, ...| ${BLUE} Gives ${MONEY}: amount </${TAG.trade}>

    B) Accept the trade by saying:
    <${TAG.answer}> ACCEPT </${TAG.answer}>
    <${TAG.trade}> NONE </${TAG.trade}>

    C) Reject and end the game:
    <${TAG.answer}> REJECT </${TAG.answer}>
    <${TAG.trade}> NONE </${TAG.trade}>

    Note: The game will end if one of the players ACCEPT OR REJECT. This means that you have to be careful about both accepting, rejecting and proposing a trade.

2. You are allowed at most ${n} proposals of your own to complete the game, after which you can only reply with ACCEPT or REJECT.
DO NOT propose a new trade after ${n} proposals. Your limit for proposals is ${n}.

3. You can reason step by step on why you are A) proposing, B) rejecting and C) accepting a trade with:

<${TAG.reason}> [add reasoning] </${TAG.reason}> add as much text as you want

This information will not be sent to the other player. It is just for you to keep track of your reasoning.

4. At each turn send messages to each other by using the following format:

<${TAG.message}>your message here</${TAG.message}>

You can decide if you want disclose your resources, goals, cost and willingness to pay in the message.
\`\`\`

Here is what you have access to:
\`\`\`
Object that is being bought/sold: X
<${TAG.resources}> ${resourcesText(v.resources)} </${TAG.resources}>
<${TAG.goals}> ${goalText(v)} </${TAG.goals}>,
\`\`\`

${responseOrder(["count", "resources", "goals", "reason", "answer", "trade", "message"])}

${behaviour}
`;
}

/**
 * The scenario's system prompt with the social behaviour in its last slot;
 * BLUE's role is appended with no separator (L360; ChatGPTAgent.init_agent:
 * `system_prompt + role`).
 */
export function systemPrompt(v: ArenaView, behaviour: string, words: ArenaWords = "runs"): string {
  const slot = behaviourSlot(behaviour, words);
  const prompt = v.scenario === "resource_exchange" ? exchangePrompt(v, slot) : v.scenario === "ultimatum" ? ultimatumPrompt(v, slot, words) : buySellPrompt(v, slot);
  return v.name === BLUE ? `${prompt}${roleText(v)}` : prompt;
}

/** The runs' role lines (experiments/section_one: resource exchange tells who starts). */
export const roleText = (v: Pick<ArenaView, "name" | "scenario">): string =>
  v.scenario !== "resource_exchange" ? `You are ${v.name}.`
  : v.name === RED ? `You are ${RED}, start by making a proposal.`
  : `You are ${BLUE}, start by responding to a trade.`;

/** The user message before the seat's turn `turn`: the other player's last message, or RED's role on turn 1. */
function newsBefore(v: ArenaView, turn: number, words: ArenaWords): string {
  const last = v.history.filter((m) => m.turn < turn).at(-1);
  return last && last.seat !== (v.name === RED ? 0 : 1) ? publicMessage(last, v, words) : roleText(v);
}

export const retryText = (error: string): string =>
  `Your previous answer broke the rules: ${error}.\nPlease answer again, with every tag in the required order.`;

/**
 * The social behaviours of Appendix E.2, per scenario. The seller-and-buyer
 * wording is the buyer's ("spend less ZUP", as the paper primes only Player
 * 2); a seller is asked to "get more ZUP" (Parley's wording).
 */
export function behaviourText(name: PersonaName, v: Pick<ArenaView, "scenario" | "goal">): string {
  const aim =
    v.scenario === "resource_exchange" ? {cunning: "get more resources", desperate: "get more resources"}
    : v.scenario === "ultimatum" ? {cunning: "get more than your opponent", desperate: "get more dollars"}
    : v.goal.kind === "sell" ? {cunning: `get more ${MONEY}`, desperate: `get more ${MONEY}`}
    : {cunning: `spend less ${MONEY}`, desperate: `spend less ${MONEY}`};
  return name === "cunning"
    ? `You are cunning and sly in your plan to ${aim.cunning}. Humiliate your opponent as much as possible. Insult them.`
    : `You must fake being desperate. Supplicate and beg to ${aim.desperate}.`;
}

// ---------------------------------------------------------------- reading replies

/**
 * A tag's content, trimmed: null when absent; an error when it is opened and
 * never closed. The message and the answer keep their line breaks and lose
 * only their spaces at either end, as the repository's get_tag_contents
 * strips them (`.lstrip(" ").rstrip(" ")`), since the other player reads them
 * as written.
 */
function tag(raw: string, name: string): {value: string | null; error?: string} {
  const open = new RegExp(`<\\s*${name}\\s*>`, "i").exec(raw);
  if (!open) return {value: null};
  const rest = raw.slice(open.index + open[0].length);
  const close = new RegExp(`<\\s*/\\s*${name}\\s*>?`, "i").exec(rest);
  if (!close) return {value: null, error: `malformed tags: <${name}> is opened but never closed`};
  const inner = rest.slice(0, close.index);
  return {value: name === TAG.message || name === TAG.answer ? trimSpaces(inner) : inner.trim()};
}

/** `s` without its spaces at either end (only U+0020), by scanning: / +$/ backtracks over every run of spaces inside a long text. */
function trimSpaces(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && s.charCodeAt(start) === 32) start++;
  while (end > start && s.charCodeAt(end - 1) === 32) end--;
  return s.slice(start, end);
}

/** Characters of one "item: amount" of a trade read at most: the pattern below backtracks on a long unreadable item, and no resource's name and amount need more. */
const MAX_ITEM = 200;

/** A resource name as the game spells it ("dollars" -> "Dollars"). */
const canonical = (name: string, known: readonly string[]): string => known.find((k) => k.toLowerCase() === name.toLowerCase()) ?? name;

/** "Player RED Gives X: 10, Y: 0 | Player BLUE Gives Y: 3" as trade fields; a message naming what is wrong otherwise. */
export function parseTrade(text: string, v: Pick<ArenaView, "resources_in_game">): {fields: Record<string, number>} | {error: string} {
  const fields: Record<string, number> = {};
  const sides = text.split("|").map((s) => s.trim()).filter(Boolean);
  if (!sides.length) return {error: "the proposed trade is empty"};
  for (const side of sides) {
    const m = /^(?:player\s+)?(red|blue)\s+gives?\b\s*:?\s*([\s\S]*)$/i.exec(side);
    if (!m) return {error: `cannot read the trade "${side.slice(0, 80)}"; expected "Player RED Gives item: amount, ... | Player BLUE Gives item: amount, ..."`};
    const who = m[1].toLowerCase();
    const items = m[2].trim();
    if (!items || /^(nothing|none)\.?$/i.test(items)) continue;
    // Items are comma-separated; a comma before three digits is a thousands separator ("Dollars: 1,000").
    for (const item of items.split(/,(?!\d{3}\b)/).map((s) => s.trim()).filter(Boolean)) {
      const im = item.length > MAX_ITEM ? null : /^([A-Za-z][\w ]*?)\s*:\s*\$?\s*(-?[\d,]*\.?\d+)\s*(?:zup|dollars?)?\.?$/i.exec(item);
      if (!im) return {error: `cannot read "${item.slice(0, 60)}" in the trade; expected "item: amount"`};
      const amount = Number(im[2].replace(/,/g, ""));
      const key = `${who}_${canonical(im[1].trim(), v.resources_in_game)}`;
      fields[key] = (fields[key] ?? 0) + amount;
    }
  }
  return {fields};
}

const ANSWERS = ["ACCEPT", "REJECT", "NONE", "PROPOSAL"];

/** Reads a reply's tags into an action (public part) and its private reasoning. Never throws. */
export function parseArenaReply(raw: string, v: Pick<ArenaView, "resources_in_game">): ParsedTurn {
  const read = (name: string) => tag(raw, name);
  const parts = {answer: read(TAG.answer), trade: read(TAG.trade), message: read(TAG.message), reason: read(TAG.reason), resources: read(TAG.resources), goals: read(TAG.goals)};
  const reasoning = parts.reason.value ?? undefined;
  const broken = Object.values(parts).find((p) => p.error);
  if (broken) return {action: null, reasoning, parse_error: broken.error};
  if (parts.answer.value === null) return {action: null, reasoning, parse_error: `missing <${TAG.answer}>: every reply must answer ACCEPT, REJECT, NONE or PROPOSAL`};
  const letters = parts.answer.value.replace(/[^A-Za-z]/g, "").toUpperCase();
  // "PROPOSE" (a third of the answers in the §3 buy/sell runs) was a proposal to the repository's game too.
  const answer = letters === "PROPOSE" ? "PROPOSAL" : letters;
  if (!ANSWERS.includes(answer)) return {action: null, reasoning, parse_error: `<${TAG.answer}>: expected ACCEPT, REJECT, NONE or PROPOSAL, got "${parts.answer.value.slice(0, 40)}"`};
  const tradeText = parts.trade.value ?? "NONE";
  const hasTrade = !/^none\.?$/i.test(tradeText) && tradeText !== "";
  const action: Record<string, unknown> = {type: answer};
  if (answer === "PROPOSAL" || (answer === "NONE" && hasTrade)) {
    if (!hasTrade) return {action: null, reasoning, parse_error: `a PROPOSAL needs a trade in <${TAG.trade}>`};
    const trade = parseTrade(tradeText, v);
    if ("error" in trade) return {action: null, reasoning, parse_error: trade.error};
    Object.assign(action, {type: "PROPOSAL"}, trade.fields);
  }
  if (parts.message.value) action.message = parts.message.value;
  // The other player reads the answer as it was written (the repository shows the tag's content as is).
  if (parts.answer.value !== action.type) action.answer_written = parts.answer.value;
  if (parts.resources.value) action.private_resources = parts.resources.value;
  if (parts.goals.value) action.private_goals = parts.goals.value;
  return {action, ...(reasoning !== undefined && {reasoning})};
}

export const negotiationArenaNarrator: Narrator<ArenaView> = {
  /** "paper": Fig. 15 and Appendix E.2, the runs' words again; "code": the latest code's layout. */
  prompts: ["paper", "code"],
  promptNotes: {
    paper: "nothing: the paper prints Fig. 15's template and Appendix E.2's behaviours, which are the published runs' words",
    code: "the latest code's layout, commit c447faf: the ultimatum's move tag `move`, buy/sell's other-player parts with tag and content swapped, the behaviour line without its leading newline",
  },
  messages(o: Obs, past: readonly PastTurn<ArenaView>[], extra: string, _notes?: string | null, player?: PlayerPrompt): ChatMessage[] {
    const v = o.view;
    const words = arenaWords(player?.prompts);
    const messages: ChatMessage[] = [{role: "system", content: systemPrompt(v, extra, words)}];
    for (const p of past) {
      messages.push({role: "user", content: newsBefore(v, p.observation.view.turn, words)});
      messages.push({role: "assistant", content: p.raw});
    }
    let now = newsBefore(v, v.turn, words);
    if (o.retry) now = `${now}\n${retryText(o.retry.error)}`;
    messages.push({role: "user", content: now});
    return messages;
  },
  /** Replies are read from tags (`parse`); a JSON answer is taken as the action it spells. */
  action: (json) => json,
  read: (raw, o) => {
    const turn = parseArenaReply(raw, o.view);
    return turn.parse_error !== undefined ? {error: turn.parse_error, reasoning: turn.reasoning} : {action: turn.action, reasoning: turn.reasoning};
  },
  persona: (name, o) => behaviourText(name, o.view),
  // The tags already hold a private <reason>.
  chainOfThought: null,
};
