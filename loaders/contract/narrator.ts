/**
 * A narrator writes what a language model reads for one game: the words of
 * the paper's prompts, built from the structured observation the game gives
 * (games hold no prompt text). The LLM player (loaders/agents/llm/) keeps the
 * seat's past turns and asks the narrator for the whole conversation each
 * time, so a narrator can lay out the history the way its paper does.
 */
import type {GameObservation} from "./game.js";
import type {ChatMessage} from "../llm/types.js";
import type {PersonaName} from "../papers/negotiationarena/personas.js";

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

export interface Narrator<V = unknown> {
  /**
   * The messages to send now: system message, the history as the paper lays
   * it out, and the request for this decision. `past` holds this seat's
   * earlier decisions that were legal (rule-break attempts are left out).
   * `extra` is appended to the system message (response format, persona,
   * chain of thought) by the LLM player. `notes` is a workflow's summary,
   * placed before the request by narrators of games that have a workflow.
   */
  messages(observation: GameObservation<V>, past: readonly PastTurn<V>[], extra: string, notes?: string | null): ChatMessage[];
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
  read?(raw: string, observation: GameObservation<V>): ReadReply;

  /**
   * Optional: why the parsed JSON is not an answer at all (a key the request
   * names is missing, the answer is not a number), or null. The LLM player
   * records it as a rule break with this reason.
   */
  check?(json: Record<string, unknown>, observation: GameObservation<V>): string | null;
  /** The social behaviour's words for this game (default: the ultimatum wording of personas.ts). */
  persona?(name: PersonaName, observation: GameObservation<V>): string;
  /**
   * The chain-of-thought instruction: absent for the LLM player's default,
   * null when the game's own format already has a private reasoning field.
   */
  chainOfThought?: string | null;
}

export type ReadReply = {action: unknown; reasoning?: string | null; error?: undefined} | {error: string; reasoning?: string | null; action?: undefined};
