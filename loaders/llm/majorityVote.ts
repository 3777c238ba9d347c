/**
 * Majority vote of k samples, a harness factor of an LLM player (`votes:
 * k`): the decision is asked k times (k calls, each its own sample in the
 * response cache), every answer is read as usual, and the modal legal move
 * wins.
 *
 * - A sample is legal when its action passes the legal actions the game
 *   published (the LLM player checks it with loaders/contract/legal.ts
 *   `checkAction`); a game's own further checks (a budget, a standing
 *   offer) are the game's, after the vote.
 * - Samples vote by move: the action with its free text left out (the
 *   `message` of a proposal differs from sample to sample; the proposal is
 *   the move), compared as JSON with sorted keys.
 * - Ties go to the move whose first sample came first (sample 1, 2, ..., k,
 *   the order of the calls' sample keys, not of their arrival), and the
 *   answer given is that first sample, message and reasoning included:
 *   deterministic for a given set of answers.
 * - When no sample is legal the first sample's answer stands, and is the
 *   rule break the runner records and asks again about.
 * The usage of every sample is counted (llmPlayer.ts sums it), so cost
 * includes all k calls.
 */
import type {ActionSpec} from "../../src/lib/actionSpec.js";

/** One sample's read answer: its action, and whether it passes the legal actions (only legal samples vote). */
export interface VoteSample {
  action: unknown;
  legal: boolean;
}

export interface VoteResult {
  /** Index of the sample whose answer is given. */
  winner: number;
  /** Votes per move (the move's JSON), in order of first appearance. */
  tally: {move: string; votes: number; first: number}[];
  /** Samples whose action was legal. */
  legal: number;
}

/** JSON with sorted object keys. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The move of a legal action: the action without its free-text fields. */
export function moveOf(action: Record<string, unknown>, legal: readonly ActionSpec[]): string {
  const spec = legal.find((s) => s.type === action.type);
  const text = new Set(["message", "text", ...(spec?.text ? [spec.text.field] : [])]);
  return canonical(Object.fromEntries(Object.entries(action).filter(([k]) => !text.has(k))));
}

/** The vote of `samples` under the legal actions `legal` (module comment). */
export function majorityVote(samples: readonly VoteSample[], legal: readonly ActionSpec[]): VoteResult {
  if (!samples.length) throw new Error("majority vote: no samples");
  const tally = new Map<string, {move: string; votes: number; first: number}>();
  let legalCount = 0;
  samples.forEach((s, i) => {
    if (!s.legal || s.action === null || typeof s.action !== "object") return;
    legalCount++;
    const move = moveOf(s.action as Record<string, unknown>, legal);
    const t = tally.get(move);
    if (t) t.votes++;
    else tally.set(move, {move, votes: 1, first: i});
  });
  const entries = [...tally.values()];
  let best: (typeof entries)[number] | null = null;
  for (const t of entries) if (!best || t.votes > best.votes || (t.votes === best.votes && t.first < best.first)) best = t;
  return {winner: best ? best.first : 0, tally: entries, legal: legalCount};
}
