/**
 * A run config's LLM player on the agent contract, for every game with a
 * narrator (loaders/registry/narrators.ts). The player keeps the seat's past
 * turns and asks the game's narrator for the whole conversation each time,
 * so the history is laid out as that game's paper does: GLEE's Appendix D.2
 * conversation (with its myopic-buyer restarts and the rule breaks kept in
 * it), gamma-Bench's rounds, the one prompt per decision of the matrix and
 * tree games, ... With `workflow: true` the game's workflow
 * (loaders/registry/workflows.ts) runs its sub-calls before each decision
 * and the narrator puts its summary into the prompt.
 *
 * Replies: private reasoning (<reasoning> tags, or a "reasoning" key) is
 * split off and never reaches another seat, and so is a reasoning model's
 * thinking (kept apart by the provider clients and complete.ts, before the
 * answer is parsed or shown to anyone; it goes to turns.reasoning first); the JSON is mapped onto the
 * game's action by the narrator (or the narrator reads its own tagged
 * format); a reply that cannot be read is a `parse_error` (a rule break),
 * never an exception. Only a call that fails for good at the transport
 * level (LlmCallError, after retries) propagates.
 */
import type {Agent, AgentDef, AgentReply, SeatContext, SubCall} from "../contract/agent.js";
import type {GameObservation} from "../contract/game.js";
import type {Narrator, PastTurn, PlayerPrompt} from "../contract/narrator.js";
import type {Workflow} from "../contract/workflow.js";
import type {Complete} from "./complete.js";
import {splitReply} from "./parseReply.js";
import {joinThinking} from "./reasoning.js";
import {personaText, ultimatumGoal} from "../papers/negotiationarena/personas.js";
import {samplingOf, type LlmPlayerSpec} from "./playerSpec.js";
import {narratedGames, narratorFor} from "../registry/narrators.js";
import type {ChatMessage, Sampling} from "./types.js";
import {legalActionsSchema, readStructuredAnswer} from "./structuredOutput.js";
import {withLegalMoves} from "./legalMoves.js";
import {majorityVote} from "./majorityVote.js";
import {attemptSample, sumUsage, voteSample, voteSampling} from "./harness.js";
import {checkAction} from "../contract/legal.js";
import type {PromptSource} from "./playerOptions.js";
import {hasWorkflow, workflowFor} from "../registry/workflows.js";

/** The chain-of-thought instruction appended to the system message, unless the narrator has its own (or none). */
export const CHAIN_OF_THOUGHT =
  "Before you answer, think step by step inside <reasoning> and </reasoning> tags. Your reasoning is private: the other player never sees it. After the closing tag, give your answer as the JSON object.";

export class LlmPlayer implements Agent {
  /** Written to the games row where the game declares `<seat>_model`, `<seat>_workflow` (the matrix and tree games). */
  readonly traits: Record<string, unknown>;
  private readonly past: PastTurn[] = [];
  /** The last answer, added to `past` when the next call shows it was legal (or always, when the narrator keeps rule breaks). */
  private pending: PastTurn | null = null;
  /** The workflow's summary and belief of the current decision (kept for the retries of a rule break). */
  private prepared: {notes: string | null; record?: Record<string, unknown>} = {notes: null};
  private readonly prompt: PlayerPrompt;
  /** Answers to one decision before the game's fallback, when the spec sets `retries` (else the run's max_attempts). */
  readonly maxAttempts?: number;

  /**
   * `samplePrefix` (e.g. the run seed) joins game id and seat in the cache's
   * sample key, so that a cache shared by runs with different seeds does not
   * replay one run's samples in another.
   */
  constructor(
    readonly spec: LlmPlayerSpec,
    readonly context: SeatContext,
    private readonly narrator: Narrator,
    private readonly complete: Complete,
    private readonly samplePrefix = "",
    private readonly workflow: Workflow | null = null,
  ) {
    this.traits = {model: spec.model, workflow: spec.workflow ?? false};
    this.prompt = playerPrompt(spec);
    if (spec.retries !== undefined) this.maxAttempts = spec.retries + 1;
  }

  /** Persona (NegotiationArena's wording, Bianchi et al. 2024 §4, unless the narrator words it) and chain of thought, appended to the system message. */
  private extra(observation: GameObservation): string {
    const parts: string[] = [];
    const {persona, chain_of_thought} = this.spec;
    if (persona) parts.push(this.narrator.persona ? this.narrator.persona(persona, observation) : personaText(persona, ultimatumGoal));
    const thinking = this.narrator.chainOfThought === undefined ? CHAIN_OF_THOUGHT : this.narrator.chainOfThought;
    if (chain_of_thought && thinking) parts.push(thinking);
    return parts.join("\n\n");
  }

  private get sample(): string {
    return `${this.samplePrefix}${this.context.gameId}/${this.context.seatName ?? `seat${this.context.seat}`}`;
  }

  /** One model call: the raw text (the answer, without the model's thinking), the thinking and its usage. */
  private async call(messages: ChatMessage[], sample: string, sampling: Sampling = samplingOf(this.spec)) {
    const completion = await this.complete(messages, sampling, sample);
    const {input_tokens, output_tokens, cached_input_tokens, cache_write_tokens, reasoning_tokens} = completion.usage;
    return {
      raw: completion.text,
      thinking: completion.thinking ?? null,
      usage: {input_tokens, output_tokens, ...(cached_input_tokens !== undefined && {cached_input_tokens}), ...(cache_write_tokens !== undefined && {cache_write_tokens}), ...(reasoning_tokens !== undefined && {reasoning_tokens}), latency_ms: completion.latency_ms},
    };
  }

  /** One answer read as the game's action: by the structured schema, the narrator's own format, or the JSON it asked for. */
  private read(raw: string, observation: GameObservation, structured: boolean): {action: unknown; parse_error?: string; reasoning?: string} {
    if (structured) {
      const read = readStructuredAnswer(raw);
      return "error" in read ? {action: null, parse_error: read.error} : {action: read.action, ...(read.reasoning && {reasoning: read.reasoning})};
    }
    if (this.narrator.read) {
      const read = this.narrator.read(raw, observation, this.prompt);
      const reasoning = read.reasoning ? {reasoning: read.reasoning} : {};
      return read.error !== undefined ? {...reasoning, action: null, parse_error: read.error} : {...reasoning, action: read.action};
    }
    const parsed = splitReply(raw);
    const reasoning = parsed.reasoning ? {reasoning: parsed.reasoning} : {};
    if (!parsed.json) return {...reasoning, action: null, parse_error: parsed.error ?? "no JSON answer"};
    const unreadable = this.narrator.check?.(parsed.json, observation);
    if (unreadable) return {...reasoning, action: null, parse_error: unreadable};
    return {...reasoning, action: this.narrator.action(parsed.json, observation)};
  }

  /**
   * `read`, never throwing: an answer a reader could not handle at all is a
   * rule break like any unreadable answer, its raw text and usage kept.
   */
  private readSafely(raw: string, observation: GameObservation, structured: boolean): ReturnType<LlmPlayer["read"]> {
    try {
      return this.read(raw, observation, structured);
    } catch (error) {
      return {action: null, parse_error: `the reply could not be read: ${error instanceof Error ? error.message : String(error)}`};
    }
  }

  /**
   * The decision's samples (one, or `votes` of them; harness.ts): each its
   * own call and cache sample (a retry's apart from the first attempt's),
   * read, and the majority vote's winner returned with the usage of all of
   * them.
   */
  private async sampleDecision(messages: ChatMessage[], observation: GameObservation) {
    const schema = this.spec.structured_output ? legalActionsSchema(observation.legal, {reasoning: this.spec.chain_of_thought}) : null;
    const sampling: Sampling = {...samplingOf(this.spec), ...(schema && {response_schema: schema})};
    const k = this.spec.votes ?? 1;
    const attempt = observation.retry?.attempt ?? 1;
    const sample = attemptSample(this.sample, attempt);
    const calls = await Promise.all(Array.from({length: k}, (_, i) => this.call(messages, voteSample(sample, i), voteSampling(sampling, (attempt - 1) * k + i))));
    const reads = calls.map((c) => this.readSafely(c.raw, observation, schema !== null));
    const winner = k === 1 ? 0 : majorityVote(reads.map((r) => ({action: r.action, legal: r.parse_error === undefined && checkAction(observation.legal, r.action) === null})), observation.legal).winner;
    return {raw: calls[winner].raw, thinking: calls[winner].thinking, usage: sumUsage(calls.map((c) => c.usage)), read: reads[winner]};
  }

  /** Runs the workflow before a decision's first attempt; its sub-calls, or undefined when there were none. */
  private async runWorkflow(workflow: Workflow, observation: GameObservation): Promise<SubCall[] | undefined> {
    const sample = workflow.subCallSample === "decision" ? this.sample : `${this.sample}/workflow`;
    const done = await workflow.prepare(observation, (messages) => this.call(messages, sample));
    this.prepared = {notes: done.notes, record: done.record};
    return done.calls.length ? done.calls : undefined;
  }

  async act(observation: GameObservation): Promise<AgentReply> {
    // The previous answer was legal unless the runner is asking again after a rule break.
    if (this.pending && (!observation.retry || this.narrator.keepsRuleBreaks)) this.past.push(this.pending);
    this.pending = null;
    const calls = this.workflow && !observation.retry ? await this.runWorkflow(this.workflow, observation) : undefined;
    const narrated = this.narrator.messages(observation, this.past, this.extra(observation), this.prepared.notes, this.prompt);
    const messages = this.spec.legal_moves ? withLegalMoves(narrated, observation.legal) : narrated;
    const {raw, thinking, usage, read} = await this.sampleDecision(messages, observation);
    this.pending = {observation, raw};
    const extra = {...(calls && {calls}), ...(this.prepared.record && {record: this.prepared.record})};
    const {reasoning: answerReasoning, ...answer} = read;
    const reasoning = joinThinking(thinking, answerReasoning ?? null);
    return {raw, usage, ...extra, ...answer, ...(reasoning && {reasoning})};
  }
}

/** The spec's own prompt settings, as narrators and workflows read them. */
const playerPrompt = (spec: LlmPlayerSpec): PlayerPrompt => ({personality: spec.personality ?? null, negotiation_suffix: spec.negotiation_suffix ?? null, prompts: spec.prompts ?? null, workflow: spec.workflow ?? false, layout: spec.prompt_layout ?? "authors"});

/** Whether an LLM player can play `game`: the game has a narrator. */
export const llmPlays = (game: string): boolean => narratorFor(game) !== null;

/** True when the game's narrator can send the words of `source` (an LLM player's `prompts`). */
export const offersPrompts = (game: string, source: PromptSource): boolean => (narratorFor(game)?.prompts ?? []).includes(source);

/**
 * Why `game` does not send `source`'s words and what it offers instead, in
 * one line (the narrator's `promptNotes`), e.g. `glee/bargaining does not
 * offer "code": <why>; it offers "paper" (<what it changes>)`.
 */
export function promptsRefusal(game: string, source: PromptSource): string {
  const narrator = narratorFor(game);
  const notes = narrator?.promptNotes;
  const offered = narrator?.prompts ?? [];
  const why = notes?.[source] ?? "its paper's Guide page, Prompts, lists the sources it offers";
  const offers = offered.length ? `it offers ${offered.map((s) => `"${s}"${notes ? ` (${notes[s]})` : ""}`).join(" and ")}` : "it offers no other words than its default";
  return `${game} does not offer "${source}": ${why}; ${offers}`;
}

/** Whether `spec` can play `game`: a narrator, and a workflow when it asks for one. */
const specPlays = (spec: LlmPlayerSpec, game: string): boolean =>
  llmPlays(game) && (!spec.workflow || hasWorkflow(game)) && (!spec.prompts || offersPrompts(game, spec.prompts));

/** An agent registry entry for a run-config LLM player; `complete` is built once and shared by all its games. */
export function llmPlayerDef(spec: LlmPlayerSpec, complete: Complete, samplePrefix = ""): AgentDef {
  return {
    id: spec.id,
    games: narratedGames,
    canSit: (game) => specPlays(spec, game),
    description: `${spec.provider} ${spec.model}${spec.persona ? ` (${spec.persona})` : ""}${spec.chain_of_thought ? " with chain of thought" : ""}${spec.workflow ? " with the game-theoretic workflow" : ""}`,
    source: "GLEE (Shapira et al. 2024) Appendix D.2 prompts, or the game's narrator (matrix and tree games: Game-theoretic LLM workflows (Hua et al. 2024) §4); personas NegotiationArena (Bianchi et al. 2024) §4",
    create: (c) => {
      const narrator = narratorFor(c.game);
      if (!narrator) throw new Error(`no narrator for ${c.game}: LLM players cannot play it`);
      const workflow = spec.workflow ? workflowFor(c.game, playerPrompt(spec)) : null;
      return new LlmPlayer(spec, c, narrator, complete, samplePrefix, workflow);
    },
  };
}
