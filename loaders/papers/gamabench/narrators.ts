/**
 * The gamma-Bench narrators: the V1 prompts of gamma-Bench (Huang et al.
 * 2024), Appendix C, for the eight games, filled from each seat's `view`
 * (loaders/papers/gamabench/views.ts).
 *
 * Wording: what the published runs sent, byte for byte. The authors' raw
 * results (CUHK-ARISE/GAMABench `raw_results/`) log every player's system
 * message and round reports, and the Gemini runs also every request; the
 * repository's `prompt_template/<game>/*_v1.txt` and game classes give the
 * same text. test/integration/gamabenchTranscripts.test.ts checks every
 * request of every published V1 run against the logs. Where Appendix C's
 * printed text differs, the runs' words are followed (noted per game).
 * Values are written as the repository's Python `str()` writes them
 * (`pyFloat`: 10.0, `pyList`: [1, 2], `pyPlan`).
 *
 * Chat layout (Appendix C; the repository's `report_result` and `start`):
 * SYSTEM the role-play slot (empty by default, so the message opens with
 * "\n\n", as every run logged it), then the rules, "a game played by N
 * players over K rounds"; then for each earlier round the result template
 * split at "You chose:" into USER (up to "You chose:"), ASSISTANT (the
 * seat's own choice, as the template's JSON, e.g. {"chosen_number": "42"}:
 * the repository stores this reconstruction, not the raw reply) and USER
 * (the outcome); finally USER the request "Now round I starts ... JSON
 * format". Requests of earlier rounds are not kept. Battle Royale adds, for
 * every shot, a USER line that everyone alive reads (the shooter also gets
 * its own three-part report first); the Pirate Game asks the proposer for a
 * plan and every voter for a decision with different requests, and echoes
 * the plan as its proposer wrote it. Public goods drops one old history
 * message per round after round 10 (the repository's token limit). The
 * views already hold what each seat was told, so `past` (this seat's
 * earlier raw replies) is not needed to rebuild the history.
 *
 * Options and differences (each on the Guide page, src/guide/gamabench.md):
 * `prompts: "code"` sends the format lines of the repository's latest code
 * (commit e44a56a, after the published runs: "(do not use markdown
 * format)", El Farol's "Please only provide"); `extra` (the LLM player's
 * persona or chain of thought) takes the role-play slot, with Parley's words
 * rather than the repository's role and chain-of-thought prompts; after an
 * unreadable answer the repository silently asks again, while Parley says
 * what was wrong (`retryMessage`); Gemini's message layout is not used.
 */
import type {GameObservation, Seat} from "../../contract/game.js";
import type {
  AuctionRoundSeen,
  AuctionView,
  BattleRoyaleView,
  DinerRoundSeen,
  DinerView,
  DollarRoundSeen,
  DollarView,
  ElFarolRoundSeen,
  ElFarolView,
  GuessingRoundSeen,
  GuessingView,
  ProposalSeen,
  PirateView,
  PublicGoodsRoundSeen,
  PublicGoodsView,
  Shooter,
  ShotSeen,
} from "./views.js";
import {numberField} from "../../llm/parseReply.js";
import type {ChatMessage} from "../../llm/types.js";
import type {Narrator, PlayerPrompt} from "../../contract/narrator.js";

// ---------------------------------------------------------------- values as Python writes them

/** A Python float as `str()` writes it: 10 -> "10.0", 6.8 -> "6.8". */
export function pyFloat(x: number): string {
  return Number.isInteger(x) && Math.abs(x) < 1e16 ? `${x}.0` : String(x);
}

/** Python's round(x, digits) (ties to even on the exact binary value, as CPython does). */
export function pyRound(x: number, digits: number): number {
  return Number(pyFixed(x, digits));
}

/** Python's f"{x:.{digits}f}": like toFixed, but an exact tie rounds to even (0.125 -> "0.12"). */
export function pyFixed(x: number, digits: number): string {
  const s = x.toFixed(digits);
  const scaled = x * 10 ** digits;
  if (Number.isInteger(scaled * 2) && !Number.isInteger(scaled) && Math.abs(scaled) < 2 ** 52) {
    const down = Math.trunc(scaled);
    const even = down % 2 === 0 ? down : down + Math.sign(scaled);
    return (even / 10 ** digits).toFixed(digits);
  }
  return s;
}

/** A Python list of already formatted items: "[1, 2, 3]". */
export const pyList = (items: readonly (string | number)[]): string => `[${items.join(", ")}]`;

/** R as the repository's `ratio_str` for the guessing game: 2/3, 1/2, 7/6, 1, 0. */
export function fractionString(r: number): string {
  if (Number.isInteger(r)) return String(r);
  for (let d = 2; d <= 12; d++) {
    const n = Math.round(r * d);
    if (Math.abs(r * d - n) < 1e-9) return `${n}/${d}`;
  }
  return String(r);
}

/** R as El Farol's `ratio_str`: 0.6 -> "60%". */
export const percentString = (r: number): string => `${Number((r * 100).toFixed(6))}%`;

// ---------------------------------------------------------------- the common layout

/** One round's result template, split as the repository splits it at `<part>///</part>`: user, assistant, user. */
export interface Report {
  user: string;
  assistant: string;
  outcome: string;
}

const reportMessages = (r: Report): ChatMessage[] => [
  {role: "user", content: r.user},
  {role: "assistant", content: r.assistant},
  {role: "user", content: r.outcome},
];

/** The system message: the rules, then `extra` (format guideline, persona, chain of thought) when given. */
export const systemWithExtra = (rules: string, extra: string): string => (extra.trim() ? `${rules}\n\n${extra.trim()}` : rules);

/**
 * gamma-Bench's system message as the repository fills `description_v1.txt`:
 * its first line is the role-play slot (`!<INPUT 5>!`, " " + the role prompt,
 * or empty), then a blank line and the rules. Without a role the message so
 * opens with "\n\n", as every published run's log has it. Parley's `extra`
 * (persona, chain of thought) takes the role's place.
 */
export const gamabenchSystem = (rules: string, extra: string): string => `${extra.trim() ? ` ${extra.trim()}` : ""}\n\n${rules}`;

/** What `prompts` changes in the four games whose latest code words their format lines otherwise, and why the other four offer nothing. */
const PAPER_NOTE = "the published runs' words are the default; Appendix C's few others (a format line ending with a period, \"exceeds\" for the runs' \"does not exceeds\", the pirate's plan format) were not what the runs sent, and are not offered";
const LATEST_CODE = {
  code: "the format lines of the repository's latest code, commit e44a56a, after the published runs: \" (do not use markdown format)\" added, and El Farol's \"Please only provide your decision\"",
  paper: PAPER_NOTE,
} as const;
const RUNS_ONLY = {code: "its latest code words it as the published runs read it: nothing would change", paper: PAPER_NOTE} as const;

/** `prompts: "code"`: the format lines of the repository's latest code (commit e44a56a, 2024-11-20, after the published runs). */
const codeWords = (player: PlayerPrompt | undefined): boolean => player?.prompts === "code";

/** " (do not use markdown format)", which the repository's code added to four games' format lines after the published runs. */
const markdownNote = (code: boolean): string => (code ? " (do not use markdown format)" : "");

/**
 * Asked again after a rule break (the repository re-sends the same request
 * without comment; Parley also says what was wrong). Follows the request as
 * its own user message and repeats the JSON format.
 */
export const retryMessage = (error: string, format: string): string =>
  `Your previous answer broke the rules: ${error}.\nPlease answer again. ${format}`;

function conversation(rules: string, extra: string, history: ChatMessage[], request: string, format: string, retry: GameObservation["retry"]): ChatMessage[] {
  const messages: ChatMessage[] = [{role: "system", content: gamabenchSystem(rules, extra)}, ...history, {role: "user", content: request}];
  if (retry) messages.push({role: "user", content: retryMessage(retry.error, format)});
  return messages;
}

const playedBy = (v: {n_players: number; rounds: number}) => `You are participating in a game played by ${v.n_players} players over ${v.rounds} rounds.`;

// ---------------------------------------------------------------- mapping replies onto actions

/** The action type: the only legal one, else `fallback`. */
const typeOf = (observation: GameObservation, fallback: string): string => (observation.legal.length === 1 ? observation.legal[0]!.type : fallback);

/** A number, or a string holding one ("$10", "10.0", " 7 "); anything else as is. */
const readNumber = (v: unknown): unknown => numberField(v) ?? v;

/** A choice lower-cased and trimmed; anything else as is. */
const readChoice = (v: unknown): unknown => (typeof v === "string" ? v.trim().toLowerCase() : v);

/**
 * `{type, [field]: read(json[key])}` when the reply uses the template's key
 * (or already the action's field), else the reply as is for validate to name.
 */
function mapField(json: Record<string, unknown>, observation: GameObservation, key: string, fallbackType: string, field: string, read: (v: unknown) => unknown): unknown {
  const source = key in json ? key : field in json ? field : null;
  if (source === null) return json;
  return {type: typeOf(observation, fallbackType), [field]: read(json[source])};
}

/** A seat from "player_3", "Player 3", "3" or 3; null for an intentional miss ("null", "none", -1); undefined when unreadable. */
export function readSeat(v: unknown): Seat | null | undefined {
  if (v === null || v === undefined) return null;
  if (typeof v === "number") return v === -1 ? null : Number.isInteger(v) && v >= 0 ? v : undefined;
  if (typeof v !== "string") return undefined;
  const s = v.trim().toLowerCase();
  if (["", "null", "none", "-1", "miss", "nobody", "no one"].includes(s)) return null;
  const m = /^(?:player)?[\s_-]*(\d+)$/.exec(s);
  return m ? Number(m[1]) : undefined;
}

// ================================================================ (1) Guess 2/3 of the Average
// Paper vs runs: the paper's format line ends with a period; "Winning
// Number: W." has a period in the runs; the target is printed with two
// decimals (f"{:.2f}"). The repository's latest code adds "(do not use
// markdown format)" to the format line (`prompts: "code"`).

export const guessingPrompts = {
  system: (v: GuessingView) =>
    `${playedBy(v)}

Game Rules:

1. Each player selects an integer number between ${v.min} and ${v.max}, inclusive.
2. After all selections are made, the average of all chosen numbers is calculated.
3. The target number is ${fractionString(v.ratio)} of this average.
4. The winner is the player(s) who selected a number closest to the target number.`,
  report: (r: GuessingRoundSeen, v: GuessingView): Report => ({
    user: `Game Results for Round ${r.round}:

Average Number Chosen: ${r.average}
Target Number (${fractionString(v.ratio)} of Average): ${pyFixed(r.target, 2)}
Winning Number: ${r.winning_number}.

You chose:`,
    assistant: `{"chosen_number": "${r.chosen}"}`,
    outcome: `${r.won ? "Congratulation you won" : "Unfortunately you lost"}.`,
  }),
  format: (v: GuessingView, code = false) =>
    `Please provide your chosen number in the following JSON format${markdownNote(code)}: {"chosen_number": "integer_between_${v.min}_and_${v.max}"}`,
  request: (v: GuessingView, code = false) =>
    `Now round ${v.round} starts.

Your goal is to choose a number that you believe will be closest to ${fractionString(v.ratio)} of the average of all numbers chosen by players, including your selection.

${guessingPrompts.format(v, code)}`,
};

const guessing: Narrator<GuessingView> = {
  prompts: ["code"],
  promptNotes: LATEST_CODE,
  messages: (o, _past, extra, _notes, player) =>
    conversation(guessingPrompts.system(o.view), extra, o.view.history.flatMap((r) => reportMessages(guessingPrompts.report(r, o.view))), guessingPrompts.request(o.view, codeWords(player)), guessingPrompts.format(o.view, codeWords(player)), o.retry),
  action: (json, o) => mapField(json, o, "chosen_number", "choose", "amount", readNumber),
};

// ================================================================ (2) El Farol Bar
// Paper vs repository: the explicit report says "which is [more]/[equal to
// or less] than R" in the paper and "equal or less" in the repository's
// code (followed here). Both the paper and the repository ask to go "when
// you predict fewer than R of the players will go", while rule 2 says
// "equal to or less than R" (GAMES.md §5 item 18): kept as printed. The
// runs read "Please provide your decision ..." as the paper prints it; the
// repository's latest code says "Please only provide your decision ...
// (do not use markdown format)" (`prompts: "code"`).
// Implicit feedback (the scored setting): a stayer is told only its own
// choice and HOME utility (report_implicit_v1.txt); goers get the explicit report.

export const elFarolPrompts = {
  system: (v: ElFarolView) =>
    `${playedBy(v)}

Game Rules:

1. Every round, you and the other players decide independently whether to go to a bar.
2. If equal to or less than ${percentString(v.ratio)} of the players go to the bar, everyone who goes has more fun than staying home, receiving a utility of ${v.max}.
3. If more than ${percentString(v.ratio)} of the players go to the bar, everyone who goes has less fun than staying home, receiving a utility of ${v.min}.
4. Everyone who stays home receives a utility of ${v.home}.`,
  report: (r: ElFarolRoundSeen, v: ElFarolView): Report => {
    const hidden = (v.feedback === "implicit" && r.choice === "stay") || r.went === null || r.stayed === null || r.fun === null;
    const answer = {assistant: `{"decision": "${r.choice}"}`, outcome: `You gained ${r.gained}.`};
    if (hidden) return {user: `Game Results for Round ${r.round}:\n\nYou chose:`, ...answer};
    return {
      user: `Game Results for Round ${r.round}:

${r.went} players went to the bar, while ${r.stayed} players stayed home.
${r.went}/${v.n_players}, which is ${r.fun ? "equal or less" : "more"} than ${percentString(v.ratio)} of the players went to the bar.
It was ${r.fun ? "more" : "less"} fun to go to the bar this round.

You chose:`,
      ...answer,
    };
  },
  format: (_v: ElFarolView, code = false) => `Please ${code ? "only " : ""}provide your decision in the following JSON format${markdownNote(code)}: {"decision": "go_or_stay"}`,
  request: (v: ElFarolView, code = false) =>
    `Now round ${v.round} starts.

Your goal is to maximize your fun. Choose to go to the bar when you predict fewer than ${percentString(v.ratio)} of the players will go, and choose to stay home otherwise.

${elFarolPrompts.format(v, code)}`,
};

const elFarol: Narrator<ElFarolView> = {
  prompts: ["code"],
  promptNotes: LATEST_CODE,
  messages: (o, _past, extra, _notes, player) =>
    conversation(elFarolPrompts.system(o.view), extra, o.view.history.flatMap((r) => reportMessages(elFarolPrompts.report(r, o.view))), elFarolPrompts.request(o.view, codeWords(player)), elFarolPrompts.format(o.view, codeWords(player)), o.retry),
  action: (json, o) => mapField(json, o, "decision", "decide", "choice", readChoice),
};

// ================================================================ (3) Divide the Dollar
// Paper vs repository: the paper prints "The sum [does not exceed]/[exceeds]
// G."; the repository writes "does not exceeds" (followed: the V1 runs read
// it). Its latest code's format line adds "(do not use markdown format)"
// (`prompts: "code"`).

export const dollarPrompts = {
  system: (v: DollarView) =>
    `${playedBy(v)}

Game Rules:

1. You are dividing ${v.gold} golds. Each player independently proposes a bid.
2. If the sum of all bids does not exceed ${v.gold}, each player receives their bid amount.
3. If the sum exceeds ${v.gold}, all players receive nothing.`,
  report: (r: DollarRoundSeen, v: DollarView): Report => ({
    user: `Game Results for Round ${r.round}:\n\nYour bid amount was:`,
    assistant: `{"bid_amount": "${r.bid}"}`,
    outcome: `The sum of all bids was ${r.total}.
The sum ${r.exceeded ? "exceeds" : "does not exceeds"} ${v.gold}.
You received ${r.received} golds.`,
  }),
  format: (v: DollarView, code = false) => `Please provide your bid amount in the following JSON format${markdownNote(code)}: {"bid_amount": "integer_between_0_and_${v.gold}"}`,
  request: (v: DollarView, code = false) =>
    `Now round ${v.round} starts.

Your goal is to maximize your individual gain without causing the total sum of bids to exceed ${v.gold} golds.

${dollarPrompts.format(v, code)}`,
};

const dollar: Narrator<DollarView> = {
  prompts: ["code"],
  promptNotes: LATEST_CODE,
  messages: (o, _past, extra, _notes, player) =>
    conversation(dollarPrompts.system(o.view), extra, o.view.history.flatMap((r) => reportMessages(dollarPrompts.report(r, o.view))), dollarPrompts.request(o.view, codeWords(player)), dollarPrompts.format(o.view, codeWords(player)), o.retry),
  action: (json, o) => mapField(json, o, "bid_amount", "bid", "amount", readNumber),
};

// ================================================================ (4) Public Goods Game
// Paper vs repository: the paper lists "C_I1, C_I2, ..., C_IN"; the
// repository prints Python lists ([10, 5, 0]) and its gain and token counts
// are Python floats rounded to 2 decimals (6.8, 24.0).

export const publicGoodsPrompts = {
  system: (v: PublicGoodsView) =>
    `${playedBy(v)}

Game Rules:

1. In each round, you, as a player, must decide how many of your private tokens you wish to contribute secretly to the public pot.
2. The total tokens in this pot will be multiplied by the factor ${v.ratio} to create the "public good" payoff.
3. This payoff will then be evenly divided among all players, regardless of their individual contribution.
4. Any tokens you do not contribute will be retained in your private collection.`,
  report: (r: PublicGoodsRoundSeen): Report => ({
    user: `Game Results for Round ${r.round}:\n\nContributed tokens of each player: ${pyList(r.contributions)}\nYou contributed:`,
    assistant: `{"tokens_contributed": "${r.contributed}"}`,
    outcome: `Tokens in the public pot: ${r.pot}
Your gain: ${pyFloat(pyRound(r.gain, 2))}
Your tokens after round ${r.round}: ${pyFloat(pyRound(r.tokens_after, 2))}
Tokens of each player after round ${r.round}: ${pyList(r.tokens_all.map((t) => pyFloat(pyRound(t, 2))))}`,
  }),
  format: (v: PublicGoodsView) => `Please provide the number of tokens in the following JSON format: {"tokens_contributed": "integer_between_0_and_${v.tokens}"}`,
  request: (v: PublicGoodsView) =>
    `Now round ${v.round} starts.

Your goal is to maximize your total token count by the end of the game. Currently you have ${v.tokens} tokens. You need to decide the number of tokens to be contributed to the public pot.

${publicGoodsPrompts.format(v)}`,
};

/**
 * The repository's token limit for this game (`PublicGoods.save`, run after
 * every round): once round 10 is over, each round's save drops the oldest
 * message after the system message, so the request of round I (I > 11) has
 * lost the first I − 11 history messages, cutting into a report. The
 * published chat-model runs' logs show it (Gemini's runs were not trimmed).
 */
export const PUBLIC_GOODS_KEPT_ROUNDS = 10;
const publicGoodsHistory = (v: PublicGoodsView): ChatMessage[] =>
  v.history.flatMap((r) => reportMessages(publicGoodsPrompts.report(r))).slice(Math.max(0, v.round - 1 - PUBLIC_GOODS_KEPT_ROUNDS));

const publicGoods: Narrator<PublicGoodsView> = {
  promptNotes: RUNS_ONLY,
  messages: (o, _past, extra) =>
    conversation(publicGoodsPrompts.system(o.view), extra, publicGoodsHistory(o.view), publicGoodsPrompts.request(o.view), publicGoodsPrompts.format(o.view), o.retry),
  action: (json, o) => mapField(json, o, "tokens_contributed", "contribute", "amount", readNumber),
};

// ================================================================ (5) Diner's Dilemma
// Paper vs repository: the paper prints "The total cost is S_I. You need to
// pay C_I." and "Your utility is u_IJ."; the repository writes the sums out
// ("0 * 20 + 10 * 10 = 100", "10.0", "15 - 100/10 = 5.00"). Its latest
// code's format line adds "(do not use markdown format)" (`prompts: "code"`).

export const dinerPrompts = {
  system: (v: DinerView) =>
    `${playedBy(v)}

Game Rules:

1. Each player must choose to order either a costly dish or a cheap dish.
2. The price of the costly dish is ${v.exp_cost}. The price of the cheap dish is ${v.cheap_cost}.
3. The costly dish brings you a utility of ${v.exp_utility}. The cheap dish brings you a utility of ${v.cheap_utility}.
4. The costly dish is tastier than the cheap dish, but not sufficiently to justify its price when dining alone.
5. At the end of each round, the total cost of all dishes ordered is split equally among all players.`,
  report: (r: DinerRoundSeen, v: DinerView): Report => ({
    user: `Game Results for Round ${r.round}:

${r.costly} people chose the costly dish, while ${r.cheap} chose the cheap dish.
The total cost is ${r.costly} * ${v.exp_cost} + ${r.cheap} * ${v.cheap_cost} = ${r.total_cost}. You need to pay ${pyFloat(r.share)}.

You chose:`,
    assistant: `{"chosen_dish": "${r.choice}"}`,
    outcome: `Your utility is ${r.choice === "cheap" ? v.cheap_utility : v.exp_utility} - ${r.total_cost}/${v.n_players} = ${pyFixed(r.utility, 2)}.`,
  }),
  format: (_v: DinerView, code = false) => `Please provide your chosen dish in the following JSON format${markdownNote(code)}: {"chosen_dish": "costly_or_cheap"}`,
  request: (v: DinerView, code = false) =>
    `Now round ${v.round} starts.

Your goal is to maximize your overall satisfaction, balancing the quality of the dish and the cost shared.

${dinerPrompts.format(v, code)}`,
};

const diner: Narrator<DinerView> = {
  prompts: ["code"],
  promptNotes: LATEST_CODE,
  messages: (o, _past, extra, _notes, player) =>
    conversation(dinerPrompts.system(o.view), extra, o.view.history.flatMap((r) => reportMessages(dinerPrompts.report(r, o.view))), dinerPrompts.request(o.view, codeWords(player)), dinerPrompts.format(o.view, codeWords(player)), o.retry),
  action: (json, o) => mapField(json, o, "chosen_dish", "order", "choice", readChoice),
};

// ================================================================ (6) Sealed-Bid Auction
// Paper and repository agree ("pays the price of the [highest]/[second
// highest] bid"; the repository fills the mode name "highest bid").

export const auctionPrompts = {
  system: (v: AuctionView) =>
    `${playedBy(v)}

Game Rules:

1. Each player has a private valuation for the item in each round.
2. Without knowing the bids and valuations of other players, each player submits a written bid for the item.
3. The highest bidder wins the item and pays the price of the ${v.pricing === "second" ? "second highest bid" : "highest bid"}.
4. If you win, your utility for that round is your valuation minus the price paid. If you lose, your utility is zero.`,
  report: (r: AuctionRoundSeen): Report => ({
    user: `Game Results for Round ${r.round}:\n\nYour valuation for this round's item was ${r.valuation}.\nYour bid was:`,
    assistant: `{"bid": "${r.bid}"}`,
    outcome: `The winning bid was: ${r.winning_bid}.\nThe price paid was: ${r.price}.\nYou ${r.won ? "won" : "lost"}. Your utility is ${r.utility}.`,
  }),
  format: (v: AuctionView) => `Please provide your bid in the following JSON format: {"bid": "integer_between_0_and_${v.valuation}"}`,
  request: (v: AuctionView) =>
    `Now round ${v.round} starts.

Your primary goal is to maximize your total utility. Your valuation for this round's item is ${v.valuation}.

${auctionPrompts.format(v)}`,
};

const auction: Narrator<AuctionView> = {
  promptNotes: RUNS_ONLY,
  messages: (o, _past, extra) =>
    conversation(auctionPrompts.system(o.view), extra, o.view.history.flatMap((r) => reportMessages(auctionPrompts.report(r))), auctionPrompts.request(o.view), auctionPrompts.format(o.view), o.retry),
  action: (json, o) => mapField(json, o, "bid", "bid", "amount", readNumber),
};

// ================================================================ (7) Battle Royale
// Paper vs repository: the paper says "a game played by N." and lists the
// players as {"ID_1": "HIT_1", ...}; the repository says "N players" and
// prints a JSON array (json.dumps, indent=0) of {"The 1st player to shot":
// "player_0", "hit_rate": "35%"}. The paper's answer format is
// {"target": ...}; the repository's is {"action": "shoot_or_miss", "target":
// "playerID_or_null"} and it reports "... and hit. player_X is eliminated
// from the game." Every survivor reads every shot; the shooter first gets its
// own report ("Your action:", its JSON, "You shot at ...").

/** "1st", "2nd", "3rd", "4th", "11th", "21st" (the repository's `ordinal`). */
export function ordinal(n: number): string {
  const suffix = n % 100 >= 10 && n % 100 <= 20 ? "th" : ({1: "st", 2: "nd", 3: "rd"} as Record<number, string>)[n % 10] ?? "th";
  return `${n}${suffix}`;
}

/** Players in shooting order as the repository prints them (json.dumps(..., indent=0)). */
export const lineup = (players: readonly Shooter[]): string =>
  `[\n${players.map((p, i) => `{\n"The ${ordinal(i + 1)} player to shot": "player_${p.seat}",\n"hit_rate": "${p.hit_rate}%"\n}`).join(",\n")}\n]`;

/**
 * Everyone at the start, in shooting order (the system message lists them).
 * The view lists only the survivors; eliminated seats get back the hit rate
 * of the repository's rule, base + interval × seat, read off the survivors
 * (a view that carries `players` is used as is).
 */
function startingLineup(v: BattleRoyaleView & {players?: Shooter[]}, seat: Seat): Shooter[] {
  if (v.players) return v.players;
  const alive = v.alive.length >= 2 ? v.alive : [...v.alive, ...(v.alive.some((p) => p.seat === seat) ? [] : [{seat, hit_rate: v.hit_rate}])];
  if (alive.length === v.n_players) return alive;
  const [a, b] = [alive[0]!, alive[alive.length - 1]!];
  const step = b.seat === a.seat ? 0 : (b.hit_rate - a.hit_rate) / (b.seat - a.seat);
  const rate = (s: Seat) => alive.find((p) => p.seat === s)?.hit_rate ?? Number((a.hit_rate + step * (s - a.seat)).toFixed(6));
  return Array.from({length: v.n_players}, (_, s) => ({seat: s, hit_rate: rate(s)})).sort((x, y) => x.hit_rate - y.hit_rate || x.seat - y.seat);
}

const shotText = (s: ShotSeen, subject: "you" | "they"): string => {
  if (s.target === null) return subject === "you" ? "You intentionally missed your shot." : "intentionally missed the shot.";
  const aim = `${subject === "you" ? "You shot" : "shot"} at player_${s.target}`;
  return s.hit ? `${aim} and hit. player_${s.target} is eliminated from the game.` : `${aim} but missed.`;
};

export const battleRoyalePrompts = {
  system: (v: BattleRoyaleView, seat: Seat) => {
    const players = startingLineup(v, seat);
    const order = players.findIndex((p) => p.seat === seat) + 1;
    return `You are participating in a game played by ${v.n_players} players.

Game Rules:

1. You are in a survival game where only one can survive and win.
2. Players take turns shooting at others in a predetermined order based on their hit rates, from the lowest to the highest.
3. Players' names and hit rates ranked by shooting order are ${lineup(players)}. You are player_${seat}. Your hit rate is ${v.hit_rate}%. You are the ${order}-th to shoot.
4. You have an unlimited number of bullets.
5. You may choose to intentionally miss your shot on your turn.`;
  },
  /** The shooter's own report (report2_v1.txt). */
  ownReport: (s: ShotSeen): Report => ({
    user: `Game Results for Round ${s.round}:\n\nYour action:`,
    assistant: `{"action": "${s.target === null ? "miss" : "shoot"}", "target": "${s.target === null ? "null" : s.target}"}`,
    outcome: `${shotText(s, "you")}\nThere are ${s.left} players left.`,
  }),
  /** What every survivor reads (report_v1.txt). */
  report: (s: ShotSeen) => `Game Results for Round ${s.round}:\n\nplayer_${s.shooter} ${shotText(s, "they")}\nThere are ${s.left} players left.`,
  format: (_v: BattleRoyaleView) => `Please provide your action in the following JSON format: {"action": "shoot_or_miss", "target": "playerID_or_null"}`,
  request: (v: BattleRoyaleView, seat: Seat) =>
    `Now round ${v.round} starts.

Your goal is to eliminate other players to survive until the end and win the game. The remaining players' names and hit rates ranked by shooting order are: ${lineup(v.alive)}. You are player_${seat}. Your hit rate is ${v.hit_rate}%. You are the ${v.rank}-th to shoot. Please decide whether to shoot at a player or intentionally miss.

${battleRoyalePrompts.format(v)}`,
};

const battleRoyale: Narrator<BattleRoyaleView> = {
  promptNotes: RUNS_ONLY,
  messages: (o, _past, extra) => {
    const history = o.view.history.flatMap((s): ChatMessage[] => [
      ...(s.shooter === o.seat ? reportMessages(battleRoyalePrompts.ownReport(s)) : []),
      {role: "user", content: battleRoyalePrompts.report(s)},
    ]);
    return conversation(battleRoyalePrompts.system(o.view, o.seat), extra, history, battleRoyalePrompts.request(o.view, o.seat), battleRoyalePrompts.format(o.view), o.retry);
  },
  // The repository decides by the target alone: null (or "-1") is an intentional miss, any player a shot, whatever "action" says.
  action: (json, o) => {
    const hasTarget = "target" in json;
    const action = readChoice(json.action);
    if (!hasTarget) return action === "miss" ? {type: "miss"} : json;
    const target = readSeat(json.target);
    if (target === null) return {type: "miss"};
    return {type: "shoot", target: target === undefined ? json.target : target};
  },
};

// ================================================================ (8) Pirate Game
// Paper vs repository: the paper says "a game played by N." and asks the
// proposer for {"I": "g_II", ...}; the repository says "N players" and asks
// for {"proposal": {"1-th": "g_1", ..., "10-th": "g_10"}} "in the following
// JSON format only". The repository's request to the proposer opens "Now
// you, the I-th most senior pirate, need to propose a plan." (the paper
// prints the voters' opening for both). Its report writes the proposer's
// rank through `player_id_manipulation`, giving "The 1-st-th", "2-nd-th",
// "3-rd-th" most senior pirate (kept: the V1 runs read it), and the plan,
// in the report and the voters' request, as str() of the proposer's own
// JSON object: its keys and its values as written ({'2-th': '30', '3-rd':
// '20'} or {'2-th': 30}); the LLM narrator hands that object to the game as
// the action's `written`, and a plan without it (a scripted proposer) is
// printed {'1-th': 96, '2-th': 0}. The repository's current code tells
// every pirate of an accepted plan "You receive <the proposer's share>
// golds" (it reads gold_distribution[0]); its published V1 transcripts show
// each pirate its own share, which we follow. No decision follows an
// accepted plan, so no chat that is sent contains it.

/** The repository's `player_id_manipulation`: 1 -> "1-st", 2 -> "2-nd", 3 -> "3-rd", else "n-th". */
export const rankLabel = (rank: number): string => `${rank}${rank === 1 ? "-st" : rank === 2 ? "-nd" : rank === 3 ? "-rd" : "-th"}`;

/** A string or number as Python's repr writes it inside a dict: 'x' (quotes escaped as Python does), 50. */
export function pyRepr(x: string | number): string {
  if (typeof x === "number") return String(x);
  const quote = x.includes("'") && !x.includes('"') ? '"' : "'";
  const body = x.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/\t/g, "\\t");
  return `${quote}${quote === "'" ? body.replace(/'/g, "\\'") : body}${quote}`;
}

/**
 * A plan as the repository prints it (str() of the proposer's parsed JSON
 * object): the proposer's own entries when known ({'2-th': '30', '3-rd':
 * 20}), else the requested form with numbers ({'3-th': 50, '4-th': 1, ...};
 * keys are the survivors' ranks).
 */
export const pyPlan = (plan: readonly number[], survivors: readonly Seat[], written?: readonly (readonly [string, string | number])[]): string =>
  written ? `{${written.map(([k, x]) => `${pyRepr(k)}: ${pyRepr(x)}`).join(", ")}}` : `{${survivors.map((s, i) => `'${s + 1}-th': ${plan[i]}`).join(", ")}}`;

const PIRATE_GOAL =
  "Your primary goal is to survive. If you survive, your next goal is to maximize the number of gold coins you receive. You may also prefer to throw another pirate overboard if it does not negatively impact your other goals.";

export const piratePrompts = {
  system: (v: PirateView) =>
    `You are participating in a game played by ${v.n_players} players.

Game Rules:

1. You are pirates who have found ${v.gold} gold coins. You are deciding how to distribute these coins among yourselves.
2. The pirates will make decisions in strict order of seniority. You are the ${v.rank}-th most senior pirate.
3. The most senior pirate proposes a plan to distribute the ${v.gold} gold coins.
4. All pirates, including the proposer, vote on the proposed distribution.
5. If the majority accepts the plan, each pirate receives the gold coins as the most senior pirate proposed.
6. If the majority rejects the plan, the proposer is thrown overboard, and the next senior pirate proposes a new plan.
7. The game ends when a plan is accepted or only one pirate remains.`,
  report: (p: ProposalSeen, seat: Seat): Report => {
    const label = rankLabel(p.proposer + 1);
    const share = p.plan[p.survivors.indexOf(seat)] ?? 0;
    const result =
      p.proposer === seat
        ? p.accepted
          ? `Your plan was accepted. The game ends. You receive ${share} golds.`
          : "Your plan was rejected. You are eliminated from the game and receive nothing."
        : p.accepted
          ? `The ${label}-th most senior pirate's plan was accepted. The game ends. You receive ${share} golds.`
          : `The ${label}-th most senior pirate was thrown overboard and eliminated from the game. The game continues.`;
    return {
      user: `The ${label}-th most senior pirate proposed a plan of ${pyPlan(p.plan, p.survivors, p.plan_written)}.\n${p.accepts} of ${p.survivors.length} pirates chose to accept the distribution. \n\nYou chose:`,
      assistant: `{"decision": "${p.your_vote ?? ""}"}`,
      outcome: `${p.accepted ? "Equal to or greater" : "Less"} than half of the pirates accepted the plan.\n${result}`,
    };
  },
  proposerFormat: (v: PirateView) =>
    `Please provide your proposal of the golds distributed to each pirate from the you to the ${v.n_players}-th most senior in the following JSON format only: {"proposal": {"${v.rank}-th": "g_${v.rank}", ..., "${v.n_players}-th": "g_${v.n_players}"}}`,
  voterFormat: (_v: PirateView) => `Please only provide your decision on the current proposal in the following JSON format: {"decision": "accept_or_reject"}`,
  /** request2_v1.txt: to the most senior survivor. */
  proposerRequest: (v: PirateView) =>
    `Now you, the ${v.rank}-th most senior pirate, need to propose a plan.

${PIRATE_GOAL}

You need to propose a plan to divide ${v.gold} golds. The proposed numbers must be all non-negative integers and sum up to ${v.gold}.

${piratePrompts.proposerFormat(v)}`,
  /** request1_v1.txt: to every voter. */
  voterRequest: (v: PirateView) =>
    `Now the ${(v.proposer ?? 0) + 1}-th most senior pirate needs to propose a plan.

${PIRATE_GOAL}

The proposed plan is ${pyPlan(v.plan ?? [], v.survivors, v.plan_written)}. You will get ${v.offered} golds from this plan.

${piratePrompts.voterFormat(v)}`,
};

/**
 * A plan from {"proposal": {"3-th": "50", ...}} (the repository's format),
 * {"proposal": [50, ...]}, or the paper's bare {"3": "50", ...}: gold per
 * survivor, most senior first. Keys naming the survivors' ranks (or their
 * seats, "player_2") put the entries in that order; otherwise the reply's
 * order is kept. null when there is no plan to read.
 */
function readPlan(json: Record<string, unknown>, survivors: readonly Seat[]): unknown[] | null {
  const bare = !("proposal" in json) && !("plan" in json);
  const raw = bare ? json : json.proposal ?? json.plan;
  if (Array.isArray(raw)) return raw.map(readNumber);
  if (raw === null || typeof raw !== "object") return null;
  let entries = Object.entries(raw as Record<string, unknown>);
  if (bare) entries = entries.filter(([k]) => /\d/.test(k));
  if (entries.length === 0) return null;
  const keyed = entries.map(([k, g]) => ({n: Number(/\d+/.exec(k)?.[0] ?? NaN), g}));
  for (const ids of [survivors.map((s) => s + 1), survivors]) {
    const byId = ids.map((id) => keyed.find((e) => e.n === id));
    if (keyed.length === ids.length && byId.every((e) => e !== undefined)) return byId.map((e) => readNumber(e!.g));
  }
  return keyed.map((e) => readNumber(e.g));
}

/** The reply's "proposal" object as written (its entries, when every value is a string or a number); else null. */
function planAsWritten(json: Record<string, unknown>): [string, string | number][] | null {
  const raw = json.proposal;
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return null;
  const entries = Object.entries(raw as Record<string, unknown>);
  if (!entries.length || !entries.every(([, x]) => typeof x === "string" || typeof x === "number")) return null;
  return entries as [string, string | number][];
}

/** The repository reads a vote by substring: "accept"/"Accept" anywhere, else "reject". */
function readVote(v: unknown): unknown {
  if (typeof v !== "string") return v;
  const s = v.trim().toLowerCase();
  if (s === "accept" || s === "reject") return s;
  if (s.includes("accept")) return "accept";
  if (s.includes("reject")) return "reject";
  return s;
}

const pirate: Narrator<PirateView> = {
  promptNotes: RUNS_ONLY,
  messages: (o, _past, extra) => {
    const v = o.view;
    const history = v.history.filter((p) => p.survivors.includes(o.seat)).flatMap((p) => reportMessages(piratePrompts.report(p, o.seat)));
    const proposing = v.phase === "propose";
    const request = proposing ? piratePrompts.proposerRequest(v) : piratePrompts.voterRequest(v);
    const format = proposing ? piratePrompts.proposerFormat(v) : piratePrompts.voterFormat(v);
    return conversation(piratePrompts.system(v), extra, history, request, format, o.retry);
  },
  action: (json, o) => {
    if (o.view.phase === "propose") {
      const plan = readPlan(json, o.view.survivors);
      // written: the proposer's own object, which the repository echoes to the voters as is.
      const written = planAsWritten(json);
      return plan ? {type: typeOf(o, "propose"), plan, ...(written && {written})} : json;
    }
    return mapField(json, o, "decision", "vote", "choice", readVote);
  },
};

// ================================================================ registry

/** The narrator of each gamma-Bench game, by game id. */
export const gamabenchNarrators: Record<string, Narrator> = {
  "gamabench/guessing": guessing as Narrator,
  "gamabench/el_farol": elFarol as Narrator,
  "gamabench/divide_dollar": dollar as Narrator,
  "gamabench/public_goods": publicGoods as Narrator,
  "gamabench/diner": diner as Narrator,
  "gamabench/sealed_bid": auction as Narrator,
  "gamabench/battle_royale": battleRoyale as Narrator,
  "gamabench/pirate": pirate as Narrator,
};
