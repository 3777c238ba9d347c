/**
 * The harness factors of an LLM player (playerSpec.ts), the choices around
 * the model rather than the model: legal moves listed in the prompt
 * (legalMoves.ts), structured output (structuredOutput.ts), retries after a
 * rule break, a majority vote of k samples (majorityVote.ts), and the
 * prompt's layout across a game's calls (playerOptions.ts). A run
 * records them per player in its manifest (runner/manifest.ts), and two runs
 * that differ in one compare on rule-break rate and payoff with `parley
 * compare` (src/lib/compare.ts).
 */
import type {LlmPlayerSpec} from "./playerSpec.js";
import type {Sampling} from "./types.js";
import type {PromptLayout} from "./playerOptions.js";

/** A player's harness, every factor spelled out (retries: the effective number given the run's max_attempts). */
export interface Harness {
  legal_moves: boolean;
  structured_output: boolean;
  retries: number;
  votes: number;
  prompt_layout: PromptLayout;
}

/** The harness of `spec` in a run whose max_attempts is `maxAttempts`. */
export function harnessOf(spec: Pick<LlmPlayerSpec, "legal_moves" | "structured_output" | "retries" | "votes" | "prompt_layout">, maxAttempts: number): Harness {
  return {legal_moves: spec.legal_moves ?? false, structured_output: spec.structured_output ?? false, retries: spec.retries ?? maxAttempts - 1, votes: spec.votes ?? 1, prompt_layout: spec.prompt_layout ?? "authors"};
}

/**
 * The cache sample of vote `i` (0-based) of a decision: the first is the
 * decision's own sample, so one vote is the player without the factor, call
 * for call; the others get their own, so that k samples are k answers.
 */
export const voteSample = (sample: string, i: number): string => (i === 0 ? sample : `${sample}#vote${i + 1}`);

/**
 * The cache sample of a decision's attempt `attempt` (from 1): the first is
 * the decision's own sample, each retry after a rule break gets its own
 * (`#attempt2`, ...). A retry's request may repeat an earlier one byte for
 * byte (a narrator that drops the broken answer from the conversation, the
 * same error twice); with the decision's sample it would be handed, from the
 * response cache, the very answer that broke the rules.
 */
export const attemptSample = (sample: string, attempt: number): string => (attempt <= 1 ? sample : `${sample}#attempt${attempt}`);

/**
 * The sampling of call `i` of a decision (vote `i` of its first attempt;
 * attempt n's k votes are calls (n - 1)k to nk - 1): the decision's own,
 * except that a provider seed moves on by `i` (wrapping within 32 bits),
 * since k samples drawn with one seed are k copies of one answer, and so is
 * a retry asked with the seed of the answer it replaces.
 */
export function voteSampling(sampling: Sampling, i: number): Sampling {
  if (i === 0 || sampling.seed === undefined) return sampling;
  const seed = ((sampling.seed + i + 2 ** 31) % 2 ** 32) - 2 ** 31;
  return {...sampling, seed};
}

/**
 * The usage of a decision's samples together: every count summed (input,
 * output, and whatever other token counts a provider reports), unknown
 * (null) when any sample's is, latency the longest (the samples are sent
 * at once).
 */
export function sumUsage<U extends {latency_ms?: number}>(usages: readonly U[]): U {
  if (usages.length === 1) return usages[0];
  const out: Record<string, number | null> = {};
  for (const u of usages) {
    for (const [k, v] of Object.entries(u)) {
      if (v === null) out[k] = null;
      if (typeof v !== "number" || out[k] === null) continue;
      out[k] = k === "latency_ms" ? Math.max(out[k] ?? 0, v) : (out[k] ?? 0) + v;
    }
  }
  return out as unknown as U;
}
