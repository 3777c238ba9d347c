/**
 * A narrator writes what a language model reads for one game: the words of
 * the paper's prompts, built from the structured observation the game gives
 * (games hold no prompt text). The LLM player (loaders/llm/llmPlayer.ts)
 * keeps the seat's past turns and asks the narrator for the whole
 * conversation each time, so a narrator can lay out the history the way its
 * paper does (GLEE restarts a myopic buyer's conversation every round, for
 * instance, from the rounds of the past turns).
 */
import type {GameObservation} from "./game.js";
import type {ChatMessage} from "../llm/types.js";
import type {PersonaName, PromptLayout, PromptSource} from "../llm/playerOptions.js";

/** A reply read by a narrator that has its own format (NegotiationArena's tags rather than JSON). */
export interface ParsedTurn {
  action: unknown;
  reasoning?: string;
  parse_error?: string;
}

/** One earlier decision of this seat: what it observed and what the model answered (raw text). */
export interface PastTurn<V = unknown> {
  observation: GameObservation<V>;
  raw: string;
}

/**
 * The player's own prompt settings (a run config's LLM player), for
 * narrators and workflows whose paper varies the prompt by player:
 * Game-theoretic LLM workflows (Hua et al. 2024) §6.3's personality of the
 * system prompt and §6.5's suffix of the action prompt; `prompts`, the
 * source of the words where the authors' runs, code and paper differ.
 * Narrators ignore the settings they have no use for.
 */
export interface PlayerPrompt {
  personality: string | null;
  negotiation_suffix: number | null;
  /**
   * Which of the authors' sources to render where they disagree: absent or
   * null, the default (the published runs' words where they were logged, else
   * the authors' code, with a code bug that changes the game replaced by the
   * paper's rule); "paper" or "code" (the run config's `prompts`).
   */
  prompts?: PromptSource | null;
  /** Whether the player plays with the game's workflow. */
  workflow?: boolean;
  /**
   * The conversation's layout (the run config's `prompt_layout`): absent or
   * "authors", the paper's; "fixed-system", the same system message at
   * every call of the game, what varies by turn (GLEE's answer format) at
   * the end of the last user message only, the history as in "authors". A
   * narrator whose system message never varies ignores it.
   */
  layout?: PromptLayout;
}

export interface Narrator<V = unknown> {
  /**
   * The messages to send now: system message, the history as the paper lays
   * it out, and the request for this decision. `past` holds this seat's
   * earlier decisions that were legal (rule-break attempts are left out,
   * unless `keepsRuleBreaks`). `extra` is appended to the system message
   * (persona, chain of thought) by the LLM player. `notes` is a workflow's
   * summary, placed before the request by narrators of games that have a
   * workflow. `player` holds the player's own prompt settings.
   */
  messages(observation: GameObservation<V>, past: readonly PastTurn<V>[], extra: string, notes?: string | null, player?: PlayerPrompt): ChatMessage[];
  /**
   * True when the paper's conversation keeps the answers that broke the
   * rules and the requests to answer again (GLEE (Shapira et al. 2024)
   * D.2): `past` then holds every attempt, each with its observation's
   * `retry` as the runner set it.
   */
  keepsRuleBreaks?: boolean;
  /**
   * The model's parsed JSON answer as the game's action (type from the legal
   * spec, numbers read from strings, choices normalised). Whatever cannot be
   * mapped is returned as is for the game's validate to name.
   */
  action(json: Record<string, unknown>, observation: GameObservation<V>): unknown;
  /**
   * For games whose paper asks for tagged text rather than JSON: the raw
   * reply as the game's action, or why it cannot be read (a rule break).
   * When present it replaces the JSON reading.
   */
  read?(raw: string, observation: GameObservation<V>, player?: PlayerPrompt): ReadReply;

  /**
   * Optional: why the parsed JSON is not an answer at all (a key the request
   * names is missing, the answer is not a number), or null. The LLM player
   * records it as a rule break with this reason.
   */
  check?(json: Record<string, unknown>, observation: GameObservation<V>): string | null;
  /**
   * The prompt sources this narrator can send besides its default (an LLM
   * player with `prompts` set sits only at games whose narrator lists it).
   */
  prompts?: readonly PromptSource[];
  /**
   * One phrase per prompt source (playerOptions.ts PROMPT_SOURCES): for a
   * source in `prompts`, what it changes in the game's words; for one not
   * there, why the game does not offer it. A run config that asks a game
   * for a source it lacks is refused with these (llmPlayer.ts promptsRefusal).
   */
  promptNotes?: Readonly<Record<PromptSource, string>>;
  /** The social behaviour's words for this game (default: the ultimatum wording of personas.ts). */
  persona?(name: PersonaName, observation: GameObservation<V>): string;
  /**
   * The chain-of-thought instruction: absent for the LLM player's default,
   * null when the game's own format already has a private reasoning field.
   */
  chainOfThought?: string | null;
}

export type ReadReply = {action: unknown; reasoning?: string | null; error?: undefined} | {error: string; reasoning?: string | null; action?: undefined};
