/**
 * A language model in a seat: the engine's `Agent` backed by `complete`.
 *
 * The conversation follows GLEE (Shapira et al. 2024) Appendix D.2. The system message is the
 * game's rules as GLEE's narrator writes them from the observation
 * (narrators/glee.ts `gleeRules`), followed by the response-format guideline, the
 * persona (NegotiationArena (Bianchi et al. 2024) §4) and the chain-of-thought instruction when the
 * player has them. Each turn adds one user message holding everything that
 * happened since this player's last turn plus what to do now
 * (`gleeUpdate`, which ends with the JSON format), and the model's
 * reply as an assistant message. Myopic persuasion buyers are a new buyer
 * every round (§2.3), so their conversation restarts each round.
 *
 * Replies are parsed robustly (parseReply.ts) and mapped onto the legal
 * action: the action `type` comes from the legal spec, numbers written as
 * strings ("$1,000") are read as numbers, choices are lower-cased, fields the
 * game did not ask for are dropped. Legality itself is judged by the
 * engine's `validate` in the runner. When the runner asks again after a rule
 * break (`observation.retry`), the previous answer stays in the
 * conversation and the next user message states the error and repeats the
 * format; after the run's `max_attempts` illegal answers to one decision the
 * runner applies the fallback, ending the game without a deal
 * (ended_by = "rule_break", utilities 0; run/play.ts). A reply that cannot
 * be read returns `parse_error`; the model's text never makes this agent throw. Only a call that fails for good at the
 * transport level (LlmCallError, after retries) propagates.
 *
 * Reasoning is private: with chain of thought the model reasons inside
 * <reasoning> tags (a "reasoning" field inside the JSON is accepted too);
 * it is returned as `reasoning` and never copied into the action, so the
 * opponent, who only sees actions, never reads it.
 */
import type {ActionSpec, Observation, Role} from "./types.js";
import type {Agent, AgentContext, AgentReply} from "./familyAgent.js";
import type {ChatMessage} from "../../llm/types.js";
import type {Complete} from "../../llm/complete.js";
import {extractJson, numberField} from "../../llm/parseReply.js";
import {gleeFormat, gleeRules, gleeUpdate} from "./narrator.js";
import {personaText, ultimatumGoal, type PersonaGoal} from "../negotiationarena/personas.js";
import {samplingOf, type LlmPlayerSpec} from "../../llm/playerSpec.js";

export const FORMAT_GUIDELINE =
  "Each time it is your turn you will be told what to send and in which JSON format. Answer with that JSON object.";
export const CHAIN_OF_THOUGHT =
  "Before you answer, think step by step inside <reasoning> and </reasoning> tags. Your reasoning is private: the other player never sees it. After the closing tag, give your answer as the JSON object.";

/** What the persona wants, by role (NegotiationArena (Bianchi et al. 2024) appendix: ultimatum wording for dividing money, "spend less" for the buyer). */
function personaGoal(role: Role): PersonaGoal {
  if (role === "buyer") return {cunning: "spend less money", desperate: "spend less money"};
  if (role === "seller") return {cunning: "get more money", desperate: "get more money"};
  return ultimatumGoal;
}

/** The system message for a player: rules, format guideline, persona, chain of thought. */
export function systemMessage(observation: Observation, spec: Pick<LlmPlayerSpec, "persona" | "chain_of_thought">): string {
  const parts = [gleeRules(observation), FORMAT_GUIDELINE];
  if (spec.persona) parts.push(personaText(spec.persona, personaGoal(observation.role)));
  if (spec.chain_of_thought) parts.push(CHAIN_OF_THOUGHT);
  return parts.join("\n\n");
}

/** The user message that asks again after a rule break. */
export function retryMessage(observation: Observation): string {
  const formats = observation.legal.map((s) => gleeFormat(s, observation)).join("\nor\n");
  return `Your previous answer broke the rules: ${observation.retry?.error ?? "it was not valid"}.\nPlease answer again.\n${formats}`;
}

export interface ParsedReply {
  action: Record<string, unknown> | null;
  reasoning: string | null;
  error: string | null;
}

/** Splits a raw reply into its JSON answer and private reasoning (tags, or a reasoning-like key). Never throws. */
export function splitReply(raw: string): {json: Record<string, unknown> | null; reasoning: string | null; error: string | null} {
  const tagged = /<reasoning>([\s\S]*?)(?:<\/reasoning>|$)/i.exec(raw);
  let reasoning = tagged ? tagged[1]!.trim() : null;
  const answer = tagged ? raw.replace(tagged[0], " ") : raw;
  const extracted = extractJson(answer);
  if (!extracted.ok) return {json: null, reasoning, error: extracted.error};
  const json = {...extracted.value};
  for (const key of ["reasoning", "reason", "thoughts", "thinking"]) {
    if (typeof json[key] === "string") {
      reasoning = [reasoning, json[key] as string].filter(Boolean).join("\n");
      delete json[key];
    }
  }
  return {json, reasoning, error: null};
}

/** Splits a raw reply into the action (mapped onto `legal`) and private reasoning. Never throws. */
export function parseReply(raw: string, legal: readonly ActionSpec[]): ParsedReply {
  const {json, reasoning, error} = splitReply(raw);
  return json ? {action: toAction(json, legal), reasoning, error: null} : {action: null, reasoning, error};
}

/** Fields a spec asks for. */
function fieldsOf(spec: ActionSpec): string[] {
  return [...Object.keys(spec.numbers ?? {}), ...Object.keys(spec.choices ?? {}), ...(spec.text ? [spec.text.field] : [])];
}

/**
 * The JSON reply as an engine action: `type` from the legal spec (the one
 * whose fields the reply uses, or the only one), only that spec's fields.
 */
export function toAction(json: Record<string, unknown>, legal: readonly ActionSpec[]): Record<string, unknown> {
  const named = legal.find((s) => s.type === json.type);
  const spec = named ?? (legal.length === 1 ? legal[0] : legal.find((s) => fieldsOf(s).some((f) => f in json)));
  if (!spec) return json; // validate will name the expected types
  const action: Record<string, unknown> = {type: spec.type};
  for (const field of Object.keys(spec.numbers ?? {})) {
    if (!(field in json)) continue;
    action[field] = numberField(json[field]) ?? json[field];
  }
  for (const field of Object.keys(spec.choices ?? {})) {
    const v = json[field];
    if (v === undefined) continue;
    action[field] = typeof v === "string" ? v.trim().toLowerCase() : v;
  }
  if (spec.text && json[spec.text.field] !== undefined) action[spec.text.field] = json[spec.text.field];
  return action;
}

export class LlmAgent implements Agent {
  private messages: ChatMessage[] = [];
  private conversationRound = 0;
  /** This seat's previous observation: what happened since it is the next message. */
  private previous: Observation | null = null;

  /**
   * `samplePrefix` (e.g. the run seed) joins game id and seat in the cache's
   * sample key, so that a cache shared by runs with different seeds does not
   * replay one run's samples in another.
   */
  constructor(
    readonly spec: LlmPlayerSpec,
    readonly context: AgentContext,
    private readonly complete: Complete,
    private readonly samplePrefix = "",
  ) {}

  private startsFresh(observation: Observation): boolean {
    if (this.messages.length === 0) return true;
    const myopic = observation.family === "persuasion" && observation.player === "bob" && (observation.view as {buyer_type?: string}).buyer_type === "myopic";
    return myopic && observation.round !== this.conversationRound;
  }

  async act(observation: Observation): Promise<AgentReply> {
    if (this.startsFresh(observation)) this.messages = [{role: "system", content: systemMessage(observation, this.spec)}];
    this.conversationRound = observation.round;
    const ask = observation.retry ? retryMessage(observation) : gleeUpdate(observation, this.previous);
    this.previous = observation;
    const messages: ChatMessage[] = [...this.messages, {role: "user", content: ask}];
    const completion = await this.complete(messages, samplingOf(this.spec), `${this.samplePrefix}${this.context.gameId}/${this.context.player}`);
    const raw = completion.text;
    this.messages = [...messages, {role: "assistant", content: raw}];
    const usage = {input_tokens: completion.usage.input_tokens, output_tokens: completion.usage.output_tokens, latency_ms: completion.latency_ms};
    const parsed = parseReply(raw, observation.legal);
    return {
      action: parsed.action,
      raw,
      usage,
      ...(parsed.reasoning && {reasoning: parsed.reasoning}),
      ...(parsed.error && {parse_error: parsed.error}),
    };
  }
}
