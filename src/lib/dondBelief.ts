/**
 * The negotiation workflow of Game-theoretic LLM: Agent Workflow for
 * Negotiation Games (Hua et al. 2024), §5.2, Algorithm 1, in its
 * deterministic form (λ = 1, γ = 1, a uniform belief over a finite set, as
 * the authors' `compute_all_possible_values` does), and the
 * valuation-estimation metrics of §5.5.2 (Tables 14–16).
 *
 * Everything is seen from one player ("me", values v) about the other.
 * Shares are always *my* share unless named otherwise.
 *
 * - Prior Ω(c) = {w ∈ {0..10}³ : Σ c_k w_k = 10} (Def. 10 on the integer grid).
 * - First opponent proposal (their share s): S = {w ∈ Ω : w·s ≥ w·(c − s)}:
 *   a rational opponent proposes nothing it envies.
 * - My proposal M answered by their counter-proposal q (their share):
 *   R1 = {w ∈ S : w·(c − M) < w·M and w·q ≥ w·(c − q)}  (my offer made them envious),
 *   R2 = {w ∈ S : w·(c − M) ≥ w·M and w·q > w·(c − M)}  (it was envy free but they want more);
 *   S ← R1 ∪ R2; when that is empty, R1 and R2 are taken from Ω instead; when
 *   still empty S is kept. If q gives me exactly M, S is kept (agreement).
 * - Proposal: among my envy-free shares x (v·x ≥ v·(c − x)) with
 *   P_EF(x) = |{w ∈ S : w·(c − x) ≥ w·x}| / |S| > 0 that the opponent has not
 *   already answered with a counter-proposal, the largest v·x; ties by
 *   higher P_EF, then lexicographic order.
 * - Acceptance: an offer is accepted when it is envy free for me and worth at
 *   least my next planned proposal (any envy-free offer once nothing is left
 *   to propose).
 * The last two are engineering choices (the paper leaves them to the LLM).
 * Not repeating a rejected share is one too: under Assumption 1 a rational
 * opponent rejects it again, and without it two workflow agents repeat their
 * first offers until the round cap (the belief alone never makes one concede).
 */
import {allocations, envyFree, noEnvy, rest, value, type Bundle} from "./dondAllocation.js";

/** Ω(c): every integer value vector with Σ c_k w_k = 10, in lexicographic order. */
export function valuationSpace(counts: Bundle, total = 10): number[][] {
  const out: number[][] = [];
  for (let a = 0; a <= total; a++) for (let b = 0; b <= total; b++) for (let c = 0; c <= total; c++) if (counts[0] * a + counts[1] * b + counts[2] * c === total) out.push([a, b, c]);
  return out;
}

/** A valuation as stored in turns.belief: "1,3,2". */
export const valuationKey = (w: Bundle): string => w.join(",");
export const parseValuation = (key: string): number[] => key.split(",").map(Number);

/** Share of `belief` under which the opponent does not envy my share `mine`. */
export function pEnvyFree(counts: Bundle, belief: readonly Bundle[], mine: Bundle): number {
  if (!belief.length) return 0;
  const theirs = rest(counts, mine);
  let n = 0;
  for (const w of belief) if (value(w, theirs) >= value(w, mine)) n++;
  return n / belief.length;
}

/** The belief after the opponent's first proposal (their share). */
export function firstBelief(counts: Bundle, omega: readonly Bundle[], theirs: Bundle): number[][] {
  return omega.filter((w) => noEnvy(counts, w, theirs)).map((w) => [...w]);
}

export interface BeliefUpdate {
  belief: number[][];
  r1: number[][];
  r2: number[][];
}

/** The update after my proposal `mine` was answered by their counter-proposal `theirs` (their share). */
export function updateBelief(counts: Bundle, omega: readonly Bundle[], belief: readonly Bundle[], mine: Bundle, theirs: Bundle): BeliefUpdate {
  const copy = () => belief.map((w) => [...w]);
  const offered = rest(counts, theirs);
  if (offered.every((x, k) => x === mine[k])) return {belief: copy(), r1: [], r2: []};
  const split = (from: readonly Bundle[]) => {
    const r1: number[][] = [];
    const r2: number[][] = [];
    const left = rest(counts, mine);
    for (const w of from) {
      const envious = value(w, left) < value(w, mine);
      if (envious && value(w, theirs) >= value(w, offered)) r1.push([...w]);
      else if (!envious && value(w, theirs) > value(w, left)) r2.push([...w]);
    }
    return {r1, r2};
  };
  let {r1, r2} = split(belief);
  if (!r1.length && !r2.length) ({r1, r2} = split(omega));
  if (!r1.length && !r2.length) return {belief: copy(), r1, r2};
  // R1 ∪ R2 in the prior's order.
  const keep = new Set([...r1, ...r2].map(valuationKey));
  return {belief: omega.filter((w) => keep.has(valuationKey(w))).map((w) => [...w]), r1, r2};
}

export interface Proposal {
  share: number[];
  p_ef: number;
}

/** My next proposal, leaving out the `rejected` shares (keys); null when no envy-free share has P_EF > 0. */
export function planProposal(counts: Bundle, v: Bundle, belief: readonly Bundle[], rejected: ReadonlySet<string> = new Set()): Proposal | null {
  let best: Proposal | null = null;
  let bestValue = -Infinity;
  for (const x of allocations(counts)) {
    if (!noEnvy(counts, v, x) || rejected.has(valuationKey(x))) continue;
    const p = pEnvyFree(counts, belief, x);
    if (p <= 0) continue;
    const u = value(v, x);
    if (u > bestValue || (u === bestValue && p > best!.p_ef)) [best, bestValue] = [{share: x, p_ef: p}, u];
  }
  return best;
}

/** Whether to accept being offered `mine`: envy free for me and worth at least my next planned proposal. */
export function accepts(counts: Bundle, v: Bundle, belief: readonly Bundle[], mine: Bundle, rejected: ReadonlySet<string> = new Set()): boolean {
  if (!noEnvy(counts, v, mine)) return false;
  const plan = planProposal(counts, v, belief, rejected);
  return !plan || value(v, mine) >= value(v, plan.share);
}

/**
 * One player's belief as the negotiation goes on: feed it every proposal in
 * order (mine and theirs); `belief` is the set of opponent valuations still
 * possible (Ω before the opponent's first proposal).
 */
export class BeliefTracker {
  readonly omega: number[][];
  belief: number[][];
  /** My shares the opponent answered with a counter-proposal (keys "book,hat,ball"). */
  readonly rejected = new Set<string>();
  private seenTheirs = false;
  private lastMine: number[] | null = null;

  constructor(readonly counts: Bundle) {
    this.omega = valuationSpace(counts);
    this.belief = this.omega.map((w) => [...w]);
  }

  mine(share: Bundle): void {
    this.lastMine = [...share];
  }

  /** The opponent proposed `theirs` (their own share). */
  theirs(theirs: Bundle): void {
    if (!this.seenTheirs) {
      this.belief = firstBelief(this.counts, this.omega, theirs);
      this.seenTheirs = true;
    }
    if (this.lastMine) {
      this.belief = updateBelief(this.counts, this.omega, this.belief, this.lastMine, theirs).belief;
      if (rest(this.counts, theirs).some((x, k) => x !== this.lastMine![k])) this.rejected.add(valuationKey(this.lastMine));
    }
    this.lastMine = null;
  }

  /** My next proposal under the current belief (null when nothing is left to propose). */
  plan(v: Bundle): Proposal | null {
    return planProposal(this.counts, v, this.belief, this.rejected);
  }

  /** Whether to accept being offered `mine`. */
  accepts(v: Bundle, mine: Bundle): boolean {
    return accepts(this.counts, v, this.belief, mine, this.rejected);
  }

  keys(): string[] {
    return this.belief.map(valuationKey);
  }
}

/**
 * Valuation estimation (§5.5.2, L826–842; Def. 12, L889–908). V_est is the
 * belief's support. The paper calls `hit` "precision" and `hit_normalised`
 * "recall", names its own prose contradicts; we use neutral names and show
 * the paper's beside them.
 * - hit = 𝟙[v_true ∈ V_est]; hit_normalised = hit / |V_est|;
 *   reduction = 1 − |V_est| / |Ω|;
 * - with the indistinguishable set I(v) = {v′ ∈ Ω : L*(v′) ⊆ L*(v)}, L*(v) the
 *   envy-free allocations of largest total when the opponent values with v:
 *   hit_i = 𝟙[V_est ∩ I(v_true) ≠ ∅], hit_i_normalised = |V_est ∩ I(v_true)| / |V_est|.
 * An empty V_est scores 0 on the normalised metrics.
 */
export interface ValuationEstimate {
  size: number;
  prior: number;
  hit: number;
  hit_normalised: number;
  reduction: number;
  hit_i: number;
  hit_i_normalised: number;
}

/** L*(w) from my side: my shares that are envy free for both, with the largest total. */
function bestSet(counts: Bundle, v: Bundle, w: Bundle): Set<string> {
  let top = -Infinity;
  let set: string[] = [];
  for (const x of allocations(counts)) {
    if (!envyFree(counts, v, w, x)) continue;
    const t = value(v, x) + value(w, rest(counts, x));
    if (t > top) [top, set] = [t, [valuationKey(x)]];
    else if (t === top) set.push(valuationKey(x));
  }
  return new Set(set);
}

/** I(v_true) from my side (values `v`), as valuation keys. */
export function indistinguishable(counts: Bundle, v: Bundle, truth: Bundle): Set<string> {
  const target = bestSet(counts, v, truth);
  const out = new Set<string>();
  for (const w of valuationSpace(counts)) {
    const mine = bestSet(counts, v, w);
    if ([...mine].every((x) => target.has(x))) out.add(valuationKey(w));
  }
  return out;
}

/** The metrics of one belief about an opponent whose true values are `truth`; `v` are my values. */
export function valuationEstimate(counts: Bundle, v: Bundle, truth: Bundle, belief: readonly string[]): ValuationEstimate {
  const prior = valuationSpace(counts).length;
  const size = belief.length;
  const hit = belief.includes(valuationKey(truth)) ? 1 : 0;
  const same = indistinguishable(counts, v, truth);
  const inI = belief.filter((k) => same.has(k)).length;
  return {
    size,
    prior,
    hit,
    hit_normalised: size ? hit / size : 0,
    reduction: 1 - size / prior,
    hit_i: inI > 0 ? 1 : 0,
    hit_i_normalised: size ? inI / size : 0,
  };
}

/** A belief as recorded on a turns row (dond.ts `dondBeliefSQL`). */
export interface BeliefRow {
  game_id: string;
  alice_agent: string;
  bob_agent: string;
  player: string;
  round: number;
  turn: number;
  belief: readonly string[];
  counts: readonly number[];
  values_a: readonly number[];
  values_b: readonly number[];
}

export interface ValuationSummary extends Omit<ValuationEstimate, "size" | "prior"> {
  /** The workflow's seat and the pairing. */
  player: string;
  alice_agent: string;
  bob_agent: string;
  /** null: each game's last belief (Tables 14, 16); else the belief held at the end of that round (Table 15). */
  round: number | null;
  n: number;
  size: number;
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * Tables 14–16 from recorded beliefs: per pairing and seat, the mean of each
 * metric over games, using each game's last belief, and by round the belief
 * held at the end of each round (carried forward through rounds without a
 * new one, up to the game's last round).
 */
export function valuationSummary(rows: readonly BeliefRow[], {byRound = false} = {}): ValuationSummary[] {
  const games = new Map<string, BeliefRow[]>();
  for (const r of rows) {
    const key = `${r.game_id}\u0000${r.player}`;
    games.set(key, [...(games.get(key) ?? []), r]);
  }
  const groups = new Map<string, {head: BeliefRow; round: number | null; estimates: ValuationEstimate[]}>();
  for (const list of games.values()) {
    list.sort((a, b) => a.turn - b.turn);
    const head = list[0];
    const alice = head.player === "alice";
    const estimate = (r: BeliefRow) => valuationEstimate(r.counts, alice ? r.values_a : r.values_b, alice ? r.values_b : r.values_a, r.belief);
    const add = (round: number | null, e: ValuationEstimate) => {
      const key = `${head.alice_agent}\u0000${head.bob_agent}\u0000${head.player}\u0000${round}`;
      const g = groups.get(key) ?? {head, round, estimates: []};
      g.estimates.push(e);
      groups.set(key, g);
    };
    if (!byRound) add(null, estimate(list[list.length - 1]));
    else {
      const last = list[list.length - 1].round;
      for (let round = list[0].round; round <= last; round++) {
        const held = list.filter((r) => r.round <= round).at(-1)!;
        add(round, estimate(held));
      }
    }
  }
  return [...groups.values()]
    .map(({head, round, estimates}) => ({
      player: head.player, alice_agent: head.alice_agent, bob_agent: head.bob_agent, round, n: estimates.length,
      size: mean(estimates.map((e) => e.size)),
      hit: mean(estimates.map((e) => e.hit)),
      hit_normalised: mean(estimates.map((e) => e.hit_normalised)),
      reduction: mean(estimates.map((e) => e.reduction)),
      hit_i: mean(estimates.map((e) => e.hit_i)),
      hit_i_normalised: mean(estimates.map((e) => e.hit_i_normalised)),
    }))
    .sort((a, b) => a.alice_agent.localeCompare(b.alice_agent) || a.bob_agent.localeCompare(b.bob_agent) || a.player.localeCompare(b.player) || (a.round ?? 0) - (b.round ?? 0));
}
