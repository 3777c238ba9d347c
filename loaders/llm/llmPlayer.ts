/**
 * A run config's LLM player on the agent contract, for any game with a
 * narrator. GLEE seats use GLEE's LLM agent (llmAgent.ts: the Appendix D.2
 * conversation); every other game's seats use `NarratedLlmAgent`, which asks
 * the game's narrator (narrators/) for the whole conversation each turn, so
 * the history is laid out as that game's paper does.
 *
 * Replies: private reasoning (<reasoning> tags, or a "reasoning" key) is
 * split off and never reaches another seat; the JSON is mapped onto the
 * game's action by the narrator; a reply that cannot be read is a
 * `parse_error` (a rule break), never an exception.
 */
import type {Agent, AgentDef, AgentReply, SeatContext, SubCall} from "../contract/agent.js";
import type {GameObservation} from "../contract/game.js";
import type {Family, Player} from "../papers/glee/types.js";
import {contractAgent} from "../papers/glee/agents.js";
import type {Complete} from "./complete.js";
import {CHAIN_OF_THOUGHT, LlmAgent, splitReply} from "../papers/glee/llmAgent.js";
import {personaText, ultimatumGoal} from "../papers/negotiationarena/personas.js";
import {samplingOf, type LlmPlayerSpec} from "./playerSpec.js";
import type {Narrator, PastTurn} from "../contract/narrator.js";
import {narratorFor} from "../registry/narrators.js";
import type {ChatMessage} from "./types.js";
import {hasWorkflow, workflowFor, type Workflow} from "../registry/workflows.js";
import {GtLlmAgent} from "../papers/gtllm/llmPlayer.js";
import {dataGame, dataGames} from "../registry/games.js";

export class NarratedLlmAgent implements Agent {
  private past: PastTurn[] = [];
  private pending: PastTurn | null = null;

  constructor(
    readonly spec: LlmPlayerSpec,
    readonly context: SeatContext,
    private readonly narrator: Narrator,
    private readonly complete: Complete,
    private readonly samplePrefix = "",
    private readonly workflow: Workflow | null = null,
  ) {}

  /** Persona (NegotiationArena's wording, Bianchi et al. 2024 §4) and chain of thought, appended to the system message. */
  private extra(observation: GameObservation): string {
    const parts: string[] = [];
    const {persona, chain_of_thought} = this.spec;
    if (persona) parts.push(this.narrator.persona ? this.narrator.persona(persona, observation) : personaText(persona, ultimatumGoal));
    const thinking = this.narrator.chainOfThought === undefined ? CHAIN_OF_THOUGHT : this.narrator.chainOfThought;
    if (chain_of_thought && thinking) parts.push(thinking);
    return parts.join("\n\n");
  }

  /** The workflow's summary and belief of the current decision (kept for the retries of a rule break). */
  private prepared: {notes: string | null; record?: Record<string, unknown>} = {notes: null};

  private get sample(): string {
    return `${this.samplePrefix}${this.context.gameId}/${this.context.seatName ?? `seat${this.context.seat}`}`;
  }

  /** One model call: the raw text and its usage. */
  private async call(messages: ChatMessage[], sample: string) {
    const completion = await this.complete(messages, samplingOf(this.spec), sample);
    return {raw: completion.text, usage: {input_tokens: completion.usage.input_tokens, output_tokens: completion.usage.output_tokens, latency_ms: completion.latency_ms}};
  }

  async act(observation: GameObservation): Promise<AgentReply> {
    // The previous answer was legal unless the runner is asking again after a rule break.
    if (this.pending && !observation.retry) this.past.push(this.pending);
    this.pending = null;
    let calls: SubCall[] | undefined;
    if (this.workflow && !observation.retry) {
      const done = await this.workflow.prepare(observation, (messages) => this.call(messages, `${this.sample}/workflow`));
      this.prepared = {notes: done.notes, record: done.record};
      if (done.calls.length) calls = done.calls;
    }
    const messages = this.narrator.messages(observation, this.past, this.extra(observation), this.prepared.notes);
    const {raw, usage} = await this.call(messages, this.sample);
    this.pending = {observation, raw};
    const extra = {...(calls && {calls}), ...(this.prepared.record && {record: this.prepared.record})};
    if (this.narrator.read) {
      const read = this.narrator.read(raw, observation);
      const base = {raw, usage, ...extra, ...(read.reasoning && {reasoning: read.reasoning})};
      return read.error !== undefined ? {...base, action: null, parse_error: read.error} : {...base, action: read.action};
    }
    const parsed = splitReply(raw);
    const base = {raw, usage, ...extra, ...(parsed.reasoning && {reasoning: parsed.reasoning})};
    if (!parsed.json) return {...base, action: null, parse_error: parsed.error ?? "no JSON answer"};
    const unreadable = this.narrator.check?.(parsed.json, observation);
    if (unreadable) return {...base, action: null, parse_error: unreadable};
    return {...base, action: this.narrator.action(parsed.json, observation)};
  }
}

/** Whether an LLM player can play `game` (a narrator exists for it; matrix and tree games share theirs). */
export const llmPlays = (game: string): boolean => game.startsWith("glee/") || narratorFor(game) !== null || dataGame(game) !== undefined;

/** Whether `spec` can play `game`: a narrator, and a workflow when it asks for one. */
const specPlays = (spec: LlmPlayerSpec, game: string): boolean => llmPlays(game) && (!spec.workflow || hasWorkflow(game));

/** An agent registry entry for a run-config LLM player; `complete` is built once and shared by all its games. */
export function llmPlayerDef(spec: LlmPlayerSpec, complete: Complete, samplePrefix = ""): AgentDef {
  return {
    id: spec.id,
    games: ["glee/*", "gamabench/*", "gtllm/*", "dond/*", "econarena/*", "negotiationarena/*", ...dataGames.map((g) => g.id)],
    canSit: (game) => specPlays(spec, game),
    description: `${spec.provider} ${spec.model}${spec.persona ? ` (${spec.persona})` : ""}${spec.chain_of_thought ? " with chain of thought" : ""}${spec.workflow ? " with the game-theoretic workflow" : ""}`,
    source: "GLEE (Shapira et al. 2024) Appendix D.2 prompts, or the game's narrator (matrix and tree games: Game-theoretic LLM workflows (Hua et al. 2024) §4); personas NegotiationArena (Bianchi et al. 2024) §4",
    create: (c) => {
      if (c.game.startsWith("glee/")) {
        const family = c.game.slice("glee/".length) as Family;
        return contractAgent(new LlmAgent(spec, {family, player: c.seatName as Player, gameId: c.gameId}, complete, samplePrefix)) as Agent;
      }
      if (dataGame(c.game)) return new GtLlmAgent(spec, c, complete, samplePrefix);
      const narrator = narratorFor(c.game);
      if (!narrator) throw new Error(`no narrator for ${c.game}: LLM players cannot play it yet`);
      return new NarratedLlmAgent(spec, c, narrator, complete, samplePrefix, spec.workflow ? workflowFor(c.game) : null);
    },
  };
}
