/**
 * Adaptive sampling (`parley run --adaptive`): which games a tournament plays
 * next so that the ranking's rank intervals narrow fastest, and when it
 * stops. The runner (loaders/runner/adaptive.ts) and the simulation tests
 * drive the same `AdaptivePlanner`. Pure: no DOM, no Node API.
 *
 * What is chosen. A match is every lineup of one game that seats the same
 * agents (for two seats: both seat orders); its lineups are always played
 * together, once each, in one configuration. A decision is a batch of
 * matches (`picks`):
 * - seed: first, every match of every game once, so that every agent is
 *   compared, directly or through others, with every other;
 * - each further pick goes to the game (family) with the fewest games so
 *   far, so families keep equal shares whatever the results;
 * - explore: one pick in `exploreShare` takes the family's next match in a
 *   fixed cycle, whatever the results, so every match keeps a share of the
 *   games bounded away from 0: the condition under which an adaptively
 *   sampled fit stays consistent and asymptotically normal (Chiang et al.
 *   2024, "Chatbot Arena: An Open Platform for Evaluating LLMs by Human
 *   Preference", §5: P_t(a) > ε), and a ranking that starts wrong cannot
 *   keep two agents from meeting;
 * - gain: the others take the match whose games most reduce
 *     Σ sd(θ_i − θ_j)  over neighbours i, j of the current ranking,
 *   per game played, where at least one of the two has a rank interval
 *   still wider than the target: the standard deviation of each gap
 *   between neighbours (the Fisher information of the Bradley–Terry fit,
 *   src/lib/btInformation.ts, counting games chosen but not yet seen),
 *   because a rank interval is as wide as the neighbours its agent cannot
 *   be told from. Within a batch, picks are greedy, each counting the
 *   information of those before it. This is Chatbot Arena's rule (§5,
 *   eq. 9: play the pair whose next comparison most shrinks its confidence
 *   interval) aimed at the ranking rather than the win matrix, and the
 *   active-ranking idea of spending comparisons only where ranks are
 *   unresolved (Heckel et al. 2019, "Active ranking from pairwise
 *   comparisons and when parametric assumptions do not help", Annals of
 *   Statistics 47(6)). A neighbour pair counts fully however far apart it
 *   looks: weighting pairs by how much their order is in doubt
 *   (e^(−z²/2)) needed fewer games but gave a pair that had started on a
 *   lucky streak fewer games, so its gap stayed inflated (tried while the
 *   rule was chosen: the top agent of eight 0.6 logit apart, eight
 *   configurations, rated 0.17 logit too high on average, its 95 % interval
 *   covering the truth in 82 % of 40 seeds).
 * - configuration: the one in which the match has been played least (then
 *   the family), so every configuration holds about the same mix of
 *   matches: configurations are the sampled units of the ratings'
 *   intervals (ratings.ts), whose spread they read, and spreading every
 *   match over all of them gives the intervals every degree of freedom
 *   the run's configurations can give.
 *
 * Lag. Batch t is chosen from the results of batches up to t − 2: it is
 * chosen as soon as batch t − 2 has finished, while batch t − 1 plays, so
 * the runner always has the next games ready (concurrency stays full), and
 * the choice never depends on which games of a batch happened to finish
 * first (a resumed run makes the same choices as one never stopped).
 *
 * Stop. "separated" when every agent's rank interval (src/lib/ratings.ts,
 * rank_hi − rank_lo, on the games seen) is at most `targetWidth`;
 * "max-games" when no further match fits in `maxGames`. Every decision
 * fits the games seen as `parley ratings` does (rateAgents without draws:
 * the cluster-robust variance over configurations and its Student t), and
 * reads pairwise rank intervals off it (`pairwiseRankIntervals`: another
 * agent counts as possibly above or below unless their order is sure at
 * the two-sided level, by the fit's intervals and by the model's own
 * variance, the inverse of the Fisher information of the games seen, as a
 * floor); those say which agents still block the stop. The floor matters
 * with few configurations: their spread can be small by luck (or nil,
 * when they happen to agree game for game); without it, four agents of
 * equal strength whose two configurations went alike were "separated"
 * after 185 games in 40 runs of 40 (the unit test's field). The rank
 * intervals themselves (draws from the ratings' joint t) are checked
 * only when the pairwise ones are all narrow enough, and after a check
 * that failed not before the games seen have grown by `recheckGrowth`:
 * few looks, each of which is a chance to stop on a lucky streak, and
 * with few configurations a lucky streak includes a variance estimate
 * that happens to be small.
 *
 * Why the ratings stay unbiased. The choices depend only on earlier results
 * (and on nothing random), so the likelihood of the games factorises into
 * the design's part, which does not involve the strengths, and the
 * Bradley–Terry part: the maximum-likelihood fit of src/lib/ratings.ts is
 * the estimator as it stands, with no weights. What a naive fit gets wrong
 * under adaptive pairing lies outside the likelihood, and the design above
 * removes it: seat balancing and family weights (ratings.ts buildCells) are
 * computed from realised counts, which would follow the results if the
 * planner chose seat orders or games; here every seat order of a match is
 * played together and families take equal shares, so those weights are
 * constants of the design. How many games a pair gets does not depend on
 * how far apart it looks (neighbours count fully, above), only on who its
 * neighbours are and whether their intervals still block the stop; and
 * every match keeps a share of the games (explore), and every configuration
 * about the same mix of matches, which keeps the intervals, computed as
 * for a fixed design, honest. The simulation tests check both on fields
 * with known strengths, with 2, 4 and 20 configurations. Raw win shares
 * (`wins / weight` in the ratings) are not comparable across agents of an
 * adaptive run: strong agents meet strong neighbours more often.
 */
import {btInformation, rateAgents, type RatedGame, type RatingsResult} from "./ratings.js";
import {addInformation, bernoulliVariance, gapSd, invertSymmetric} from "./btInformation.js";
import {normalQuantile} from "./studentT.js";

/** One game (family) of the run as the planner sees it. */
export interface AdaptiveFamily {
  family: string;
  /** Configurations (parameter combinations), numbered 0 … configs − 1. */
  configs: number;
  /** Every lineup the run allows, one agent per seat. */
  lineups: readonly (readonly string[])[];
}

/** A game the planner chose: which game, configuration, lineup and repetition. */
export interface PlannedRef {
  family: string;
  config: number;
  lineup: readonly string[];
  repetition: number;
}

export interface AdaptiveOptions {
  /** Stop when every agent's rank interval width (rank_hi − rank_lo) is at most this. */
  targetWidth: number;
  /** Games the run may play in all. */
  maxGames: number;
  /** Games per batch (the runner's concurrency); a match is never split, so a batch may hold a few more. */
  batchSize: number;
  /** Share of picks after the seed that follow the fixed cycle (1: round-robin). */
  exploreShare?: number;
  /** Interval level of the rank intervals. */
  level?: number;
  /** Draws and seed of the rank intervals that check the stop (rateAgents). */
  resamples?: number;
  seed?: number;
  /** After a stopping check that failed, the next waits until the games seen have grown by this share. */
  recheckGrowth?: number;
  /** The ratings' prior (virtual ties per agent), as rateAgents uses it. */
  prior?: number;
}

export const ADAPTIVE_DEFAULTS = {exploreShare: 0.1, level: 0.95, resamples: 1000, seed: 1, recheckGrowth: 0.1, prior: 1} as const;

export type PickReason = "seed" | "explore" | "gain";

/** One match chosen for a batch: its lineups, each with its repetition number, in one configuration. */
export interface AdaptivePick {
  family: string;
  config: number;
  games: {lineup: string[]; repetition: number}[];
  why: PickReason;
  /** For "gain": the criterion's reduction per game, and the neighbours whose gap's sd it reduces most. */
  gain?: number;
  pair?: [string, string];
}

/** One decision of the planner: a batch of picks, or a stop, with what it saw. */
export interface BatchDecision {
  batch: number;
  /** Finished games the decision saw (those of batches up to batch − 2). */
  seen: number;
  /** Pairwise rank interval widths per agent on those games (pairwiseRankIntervals, the model's variance as a floor; null before any). */
  widths: Record<string, number> | null;
  /** The rank intervals' widths (rateAgents' draws), when the stop was checked at this decision. */
  checked?: {widths: Record<string, number>; max: number};
  stop: "separated" | "max-games" | null;
  picks: AdaptivePick[];
}

/** A run config whose lineups the planner cannot use (the message names the game). */
export class AdaptiveFieldError extends Error {}

interface Match {
  family: number;
  /** Position among all matches of the run. */
  slot: number;
  lineups: string[][];
  /** Comparisons one play of the match gives, by agent index. */
  pairs: {a: number; b: number; n: number}[];
}

const refKey = (family: string, config: number, lineup: readonly string[], repetition: number) => `${family}\u0000${config}\u0000${lineup.join("\u0001")}\u0000${repetition}`;

/** The key of a planned game, as `finished` and `pending` use it. */
export const plannedKey = (g: PlannedRef): string => refKey(g.family, g.config, g.lineup, g.repetition);

export class AdaptivePlanner {
  readonly agents: string[];
  readonly decisions: BatchDecision[] = [];
  private readonly o: Required<AdaptiveOptions>;
  private readonly index: Map<string, number>;
  private readonly families: {family: string; configs: number}[];
  private readonly familyIndex: Map<string, number>;
  /** Per family, its informative matches in the order of the run's lineups. */
  private readonly matches: Match[][];
  private readonly matchOf = new Map<string, Match>();
  // What has been chosen: games per family, agent and configuration; picks per match and configuration; repetitions taken.
  private readonly familyGames: number[];
  private readonly configGames: number[][];
  private readonly plays: number[][];
  private readonly explored: number[];
  private readonly repetitions = new Map<string, number>();
  private afterSeed = 0;
  private scheduledGames = 0;
  /** Comparisons per pair (a·k + b, a < b) of every game chosen, seen or not. */
  private readonly scheduledPairs: Float64Array;
  /** The batch of every game chosen, by plannedKey. */
  private readonly batchOf = new Map<string, number>();
  private readonly gamesOfBatch: PlannedRef[][] = [];
  private readonly keysOfBatch: string[][] = [];
  // What has been seen: results by key (kept until their batch is looked at), then the games folded in, as rateAgents reads them.
  private readonly results = new Map<string, readonly number[]>();
  private readonly folded = new Set<string>();
  /** Games seen, identical ones of a configuration merged (a count), by a key that also orders them. */
  private readonly seenRows = new Map<string, RatedGame>();
  /** seenRows' games in the order of their keys; null when a row has been added since. */
  private orderedRows: RatedGame[] | null = null;
  private seenGames = 0;
  /** Comparisons per pair (a·k + b, a < b) of the games seen. */
  private readonly seenPairs: Float64Array;
  private foldedBatches = 0;
  private theta: Float64Array;

  constructor(families: readonly AdaptiveFamily[], options: AdaptiveOptions) {
    this.o = {...ADAPTIVE_DEFAULTS, ...options};
    this.families = families.map((f) => ({family: f.family, configs: f.configs}));
    this.agents = [...new Set(families.flatMap((f) => f.lineups.flat()))].sort();
    this.index = new Map(this.agents.map((a, i) => [a, i]));
    this.familyIndex = new Map(families.map((f, i) => [f.family, i]));
    const k = this.agents.length;
    let slot = 0;
    this.matches = families.map((f, fi) => {
      const found = informativeMatches(f, fi, this.index);
      for (const m of found) {
        m.slot = slot++;
        for (const l of m.lineups) this.matchOf.set(`${fi}\u0000${l.join("\u0001")}`, m);
      }
      return found;
    });
    this.familyGames = families.map(() => 0);
    this.configGames = families.map((f) => new Array<number>(f.configs).fill(0));
    this.plays = this.matches.flat().map((m) => new Array<number>(families[m.family].configs + 1).fill(0));
    this.explored = families.map(() => 0);
    this.scheduledPairs = new Float64Array(k * k);
    this.seenPairs = new Float64Array(k * k);
    this.theta = new Float64Array(k);
  }

  /** Takes over decisions already made (a resumed run's log), in order. */
  restore(decisions: readonly BatchDecision[]): void {
    for (const d of decisions) {
      if (d.batch !== this.decisions.length) throw new RangeError(`adaptive log: decision ${this.decisions.length} is numbered ${d.batch}`);
      for (const p of d.picks) this.take(p, d.batch);
      this.decisions.push(d);
    }
  }

  /** A game's returns per seat once it has finished (any time; the planner looks at them two batches later). */
  finished(game: PlannedRef, scores: readonly number[]): void {
    const key = plannedKey(game);
    const batch = this.batchOf.get(key);
    if (batch === undefined || this.results.has(key)) return;
    this.results.set(key, scores);
    // A result that comes after its batch was looked at (a game replayed on resume) counts from the next decision.
    if (batch < this.foldedBatches) this.fold(key, game, scores);
  }

  /** Whether the planner has stopped (the last decision was a stop). */
  get stopped(): BatchDecision["stop"] {
    return this.decisions.at(-1)?.stop ?? null;
  }

  /** The games of batch `batch`, in the order chosen. */
  gamesOf(batch: number): readonly PlannedRef[] {
    return this.gamesOfBatch[batch] ?? [];
  }

  /** Games whose results the next decision looks at (batches up to decisions − 1) that have none yet. */
  awaiting(): PlannedRef[] {
    const out: PlannedRef[] = [];
    for (let b = this.foldedBatches; b <= this.decisions.length - 2; b++) this.gamesOf(b).forEach((g, n) => this.results.has(this.keysOfBatch[b][n]) || out.push(g));
    return out;
  }

  /** Every game chosen so far, in the order chosen. */
  planned(): PlannedRef[] {
    return this.gamesOfBatch.flat();
  }

  /** The next decision: the picks of batch `decisions.length`, or a stop. */
  decide(): BatchDecision {
    const batch = this.decisions.length;
    if (this.stopped) throw new Error("the adaptive planner has stopped");
    for (; this.foldedBatches <= batch - 2; this.foldedBatches++) {
      const keys = this.keysOfBatch[this.foldedBatches] ?? [];
      this.gamesOf(this.foldedBatches).forEach((g, n) => {
        const scores = this.results.get(keys[n]);
        if (scores) this.fold(keys[n], g, scores);
      });
    }
    // The fit of the games seen, ordered by key: a function of the results alone, bit for bit, whatever order they
    // came in, so a resumed planner (which did not make the earlier decisions) chooses as one never stopped.
    const rows = (this.orderedRows ??= [...this.seenRows].sort((x, y) => (x[0] < y[0] ? -1 : 1)).map(([, row]) => row));
    const fit = rows.length ? rateAgents(rows, {resamples: 0, level: this.o.level, prior: this.o.prior}) : null;
    const rated = new Map((fit?.agents ?? []).map((a) => [a.agent, a.rating]));
    this.theta = Float64Array.from(this.agents, (a) => rated.get(a) ?? 0);
    // The model's covariance of the games seen: a floor under the fit's intervals (pairwiseRankIntervals).
    const k = this.agents.length;
    const model = fit && invertSymmetric(k, btInformation(k, this.seenPairs, this.theta, this.o.prior));
    const intervals = fit ? pairwiseRankIntervals(this.agents, fit, this.o.level, model) : null;
    const widths = intervals && Object.fromEntries(this.agents.map((a, i) => [a, intervals[i].hi - intervals[i].lo]));
    const decision: BatchDecision = {batch, seen: this.seenGames, widths, stop: null, picks: []};

    if (widths && Math.max(...Object.values(widths)) <= this.o.targetWidth && this.mayCheck()) {
      decision.checked = this.rankIntervalWidths(rows);
      if (decision.checked.max <= this.o.targetWidth) return this.record({...decision, stop: "separated"});
    }
    // Agents whose interval blocks the stop; all of them before any result, or once the pairwise intervals say "separated" but the rank intervals do not (yet).
    let blocking = new Set(this.agents.map((_, i) => i).filter((i) => !intervals || intervals[i].hi - intervals[i].lo > this.o.targetWidth));
    if (!blocking.size || decision.checked) blocking = new Set(this.agents.map((_, i) => i));
    decision.picks = this.choosePicks(blocking);
    return this.record(decision.picks.length ? decision : {...decision, stop: "max-games"});
  }

  private record(decision: BatchDecision): BatchDecision {
    this.decisions.push(decision);
    return decision;
  }

  /**
   * Counts a game seen, as rateAgents reads it: its seats' order of finish
   * (all a comparison reads of a score), identical games of a configuration
   * merged into one with a count; a family of one configuration keeps its
   * games apart, each a sampled unit of the intervals (ratings.ts).
   */
  private fold(key: string, game: PlannedRef, scores: readonly number[]): void {
    if (this.folded.has(key)) return;
    this.folded.add(key);
    if (new Set(game.lineup).size < 2) return;
    this.seenGames++;
    this.countPairs(this.seenPairs, game.lineup);
    const places = scores.map((x) => scores.filter((y) => y > x).length);
    const single = (this.families[this.familyIndex.get(game.family)!]?.configs ?? 1) < 2;
    const row = single ? key : JSON.stringify([game.family, game.config, game.lineup, places]);
    const seen = this.seenRows.get(row);
    if (seen) {
      seen.count!++;
      return;
    }
    this.seenRows.set(row, {family: game.family, cluster: String(game.config), seats: game.lineup.map((agent, seat) => ({agent, seat, score: -places[seat]})), count: 1});
    this.orderedRows = null;
  }

  /** Whether the stop may be checked now: never checked, or the games seen have grown enough since the last check. */
  private mayCheck(): boolean {
    const last = [...this.decisions].reverse().find((d) => d.checked);
    return !last || this.seenGames >= last.seen * (1 + this.o.recheckGrowth) + 1;
  }

  /** The rank intervals' widths (rateAgents' draws) on the games seen; agents not ranked with the largest component count as wide open. */
  private rankIntervalWidths(rows: readonly RatedGame[]): {widths: Record<string, number>; max: number} {
    const result = rateAgents(rows, {resamples: this.o.resamples, seed: this.o.seed, level: this.o.level, prior: this.o.prior});
    const widths = Object.fromEntries(this.agents.map((a) => [a, this.agents.length - 1]));
    for (const a of result.agents) if (a.component === 0 && a.rank_lo !== null && a.rank_hi !== null) widths[a.agent] = a.rank_hi - a.rank_lo;
    return {widths, max: Math.max(...Object.values(widths))};
  }

  /** Picks filling a batch (a match is never split; nothing past maxGames). */
  private choosePicks(blocking: ReadonlySet<number>): AdaptivePick[] {
    const k = this.agents.length;
    const room = this.o.maxGames - this.scheduledGames;
    const size = Math.min(room, this.o.batchSize);
    // Planning covariance: every game chosen so far counts, seen or not.
    const cov = invertSymmetric(k, btInformation(k, this.scheduledPairs, this.theta, this.o.prior));
    const neighbours = neighbourPairs(this.theta, blocking);
    const picks: AdaptivePick[] = [];
    let games = 0;
    while (games < size) {
      const f = this.familyGames.indexOf(Math.min(...this.familyGames));
      const next = this.nextMatch(f, cov, neighbours);
      if (games + next.match.lineups.length > room) break;
      const config = this.leastPlayedConfig(next.match);
      const pick: AdaptivePick = {
        family: this.families[f].family,
        config,
        games: next.match.lineups.map((lineup) => ({lineup, repetition: this.repetitions.get(lineupKey(f, config, lineup)) ?? 0})),
        why: next.why,
        ...(next.why === "gain" && {gain: next.gain, pair: next.pair}),
      };
      this.take(pick, this.decisions.length);
      for (const p of next.match.pairs) addInformation(cov, k, p.a, p.b, p.n * bernoulliVariance(this.theta[p.a] - this.theta[p.b]));
      picks.push(pick);
      games += next.match.lineups.length;
    }
    return picks;
  }

  /** Adds a game's comparisons (every two seats of different agents) to `pairs` (a·k + b, a < b). */
  private countPairs(pairs: Float64Array, lineup: readonly string[]): void {
    const k = this.agents.length;
    const seats = lineup.map((a) => this.index.get(a));
    for (let x = 0; x < seats.length; x++) {
      for (let y = x + 1; y < seats.length; y++) {
        const [i, j] = [seats[x], seats[y]];
        if (i !== undefined && j !== undefined && i !== j) pairs[Math.min(i, j) * k + Math.max(i, j)]++;
      }
    }
  }

  /** Counts a pick as chosen in `batch`. */
  private take(pick: AdaptivePick, batch: number): void {
    const f = this.familyIndex.get(pick.family);
    const refs = pick.games.map((g) => ({family: pick.family, config: pick.config, lineup: g.lineup, repetition: g.repetition}));
    (this.gamesOfBatch[batch] ??= []).push(...refs);
    const keys = (this.keysOfBatch[batch] ??= []);
    for (const g of refs) {
      const key = plannedKey(g);
      keys.push(key);
      this.batchOf.set(key, batch);
      this.scheduledGames++;
      if (f === undefined) continue;
      const lineup = lineupKey(f, g.config, g.lineup);
      this.repetitions.set(lineup, Math.max(this.repetitions.get(lineup) ?? 0, g.repetition + 1));
      this.countPairs(this.scheduledPairs, g.lineup);
    }
    if (f === undefined) return;
    this.familyGames[f] += refs.length;
    if (pick.config < this.families[f].configs) this.configGames[f][pick.config] += refs.length;
    const m = refs.length ? this.matchOf.get(`${f}\u0000${refs[0].lineup.join("\u0001")}`) : undefined;
    if (m && pick.config < this.families[f].configs) {
      this.plays[m.slot][pick.config]++;
      this.plays[m.slot][this.families[f].configs]++;
    }
    if (pick.why === "explore") this.explored[f]++;
    if (pick.why !== "seed") this.afterSeed++;
  }

  /** The family's next match: an unplayed one (seed), the cycle's next (explore), or the one of most gain per game. */
  private nextMatch(f: number, cov: Float64Array, neighbours: [number, number][]): {match: Match; why: PickReason; gain?: number; pair?: [string, string]} {
    const matches = this.matches[f];
    const all = this.families[f].configs;
    const unplayed = matches.find((m) => this.plays[m.slot][all] === 0);
    if (unplayed) return {match: unplayed, why: "seed"};
    const share = this.o.exploreShare;
    if (Math.floor((this.afterSeed + 1) * share) > Math.floor(this.afterSeed * share)) return {match: matches[this.explored[f] % matches.length], why: "explore"};
    const k = this.agents.length;
    const before = Float64Array.from(neighbours, ([i, j]) => gapSd(cov, k, i, j));
    const drops = new Float64Array(neighbours.length);
    let best = {match: matches[0], gain: -Infinity};
    for (const m of matches) {
      this.sdDrops(m, cov, neighbours, before, drops);
      const gain = drops.reduce((t, d) => t + d, 0) / m.lineups.length;
      if (gain > best.gain + 1e-15) best = {match: m, gain};
    }
    this.sdDrops(best.match, cov, neighbours, before, drops);
    const most = drops.indexOf(Math.max(...drops));
    const pair = neighbours[most] ?? [best.match.pairs[0].a, best.match.pairs[0].b];
    return {match: best.match, why: "gain", gain: best.gain, pair: [this.agents[pair[0]], this.agents[pair[1]]]};
  }

  /**
   * How much one play of `m` lowers each neighbour gap's sd, into `drops`.
   * A match of one pair (two seats) is a rank-one update: with v = Σx,
   * x = e_a − e_b, Var'(θ_i − θ_j) = Var(θ_i − θ_j) − h (v_i − v_j)² / (1 + h (v_a − v_b))
   * (Sherman–Morrison), without copying Σ.
   */
  private sdDrops(m: Match, cov: Float64Array, neighbours: [number, number][], before: Float64Array, drops: Float64Array): void {
    const k = this.agents.length;
    if (m.pairs.length > 1) {
      const after = new Float64Array(cov);
      for (const p of m.pairs) addInformation(after, k, p.a, p.b, p.n * bernoulliVariance(this.theta[p.a] - this.theta[p.b]));
      neighbours.forEach(([i, j], q) => (drops[q] = before[q] - gapSd(after, k, i, j)));
      return;
    }
    const {a, b, n} = m.pairs[0];
    const h = n * bernoulliVariance(this.theta[a] - this.theta[b]);
    const scale = h / (1 + h * (cov[a * k + a] - cov[a * k + b] - cov[b * k + a] + cov[b * k + b]));
    for (let q = 0; q < neighbours.length; q++) {
      const [i, j] = neighbours[q];
      const d = cov[i * k + a] - cov[i * k + b] - cov[j * k + a] + cov[j * k + b];
      drops[q] = before[q] - Math.sqrt(Math.max(0, before[q] * before[q] - scale * d * d));
    }
  }

  /** The configuration where the match has been played least, then where its family has; the lowest on a tie. */
  private leastPlayedConfig(m: Match): number {
    const plays = this.plays[m.slot];
    const games = this.configGames[m.family];
    let best = 0;
    for (let c = 1; c < games.length; c++) if ((plays[c] - plays[best] || games[c] - games[best]) < 0) best = c;
    return best;
  }
}

const lineupKey = (f: number, config: number, lineup: readonly string[]) => `${f}\u0000${config}\u0000${lineup.join("\u0001")}`;

/** Throws AdaptiveFieldError, naming the game, when a game of the run has no lineup that compares two agents. */
export function checkAdaptiveFamilies(families: readonly AdaptiveFamily[]): void {
  const index = new Map([...new Set(families.flatMap((f) => f.lineups.flat()))].map((a, i) => [a, i]));
  families.forEach((f, fi) => informativeMatches(f, fi, index));
}

/** A family's matches that compare someone; throws when there is none. */
function informativeMatches(f: AdaptiveFamily, fi: number, index: Map<string, number>): Match[] {
  const found = matchesOf(f, fi, index).filter((m) => m.pairs.length > 0);
  if (!found.length) throw new AdaptiveFieldError(`${f.family}: no lineup seats two different agents, so its games compare no one (adaptive sampling needs lineups such as "all", or pairs of different agents)`);
  return found;
}

/** A family's lineups grouped into matches (same agents, any seats), in the order of their first lineup. */
function matchesOf(f: AdaptiveFamily, fi: number, index: Map<string, number>): Match[] {
  const byKey = new Map<string, Match>();
  for (const lineup of f.lineups) {
    const key = JSON.stringify([...lineup].sort());
    let m = byKey.get(key);
    if (!m) byKey.set(key, (m = {family: fi, slot: -1, lineups: [], pairs: []}));
    m.lineups.push([...lineup]);
    for (let x = 0; x < lineup.length; x++) {
      for (let y = x + 1; y < lineup.length; y++) {
        if (lineup[x] === lineup[y]) continue;
        const [a, b] = [index.get(lineup[x])!, index.get(lineup[y])!].sort((p, q) => p - q);
        const pair = m.pairs.find((p) => p.a === a && p.b === b);
        if (pair) pair.n++;
        else m.pairs.push({a, b, n: 1});
      }
    }
  }
  return [...byKey.values()];
}

/**
 * Rank intervals read pair by pair off a fit (rateAgents' `above`, the
 * one-sided t confidence that one agent is above another): another agent
 * counts as possibly above i unless i is above it with the confidence of
 * one tail of the two-sided `level`, and as possibly below likewise.
 * Agents outside the largest connected set, or without degrees of freedom
 * (no family with two sampled units yet), have every rank open, 1 … k.
 *
 * `model`, when given, is the fit's covariance under the Bradley–Terry
 * model (the inverse of its Fisher information, k×k in the order of
 * `agents`), and an order must be sure by it as well: the gap above
 * z·sd(θ_i − θ_j) at the same one-tailed confidence, z normal since this
 * variance is not estimated from the configurations. It is a floor: with
 * few configurations the cluster-robust variance rests on a spread of few
 * units, which can happen to be small (configurations that agree by luck,
 * or by a lucky streak of games), and then the t's wider quantile does
 * not make up for it. The model's variance is what the games' own noise
 * gives when configurations do not differ at all, so an interval no
 * narrower than it is no narrower than any spread between them can make.
 */
export function pairwiseRankIntervals(agents: readonly string[], fit: RatingsResult, level: number, model: Float64Array | null = null): {lo: number; hi: number}[] {
  const k = agents.length;
  const sure = 1 - (1 - level) / 2;
  const z = normalQuantile(sure);
  const at = new Map(fit.agents.map((a, n) => [a.agent, n]));
  const index = new Map(agents.map((a, n) => [a, n]));
  // Whether fit agent i is surely above fit agent j: by the fit's intervals and, with `model`, by the model's variance too.
  const surely = (i: number, j: number): boolean => {
    if (!(fit.above![i][j] >= sure)) return false;
    if (!model) return true;
    const [a, b] = [fit.agents[i], fit.agents[j]];
    return a.rating - b.rating > z * gapSd(model, k, index.get(a.agent)!, index.get(b.agent)!);
  };
  return agents.map((agent) => {
    const i = at.get(agent);
    if (i === undefined || fit.above === null || fit.agents[i].component !== 0 || fit.agents[i].df === null) return {lo: 1, hi: k};
    let above = 0;
    let below = 0;
    fit.agents.forEach((other, j) => {
      if (j === i || other.component !== 0) return;
      if (surely(j, i)) above++;
      else if (surely(i, j)) below++;
    });
    return {lo: 1 + above, hi: k - below};
  });
}

/** Pairs of agents next to each other in the ranking by `theta` (no agent strictly between), one of them in `blocking`. */
function neighbourPairs(theta: Float64Array, blocking: ReadonlySet<number>): [number, number][] {
  const k = theta.length;
  const pairs: [number, number][] = [];
  for (let i = 0; i < k; i++) {
    for (let j = i + 1; j < k; j++) {
      if (!blocking.has(i) && !blocking.has(j)) continue;
      const [lo, hi] = theta[i] < theta[j] ? [theta[i], theta[j]] : [theta[j], theta[i]];
      let between = false;
      for (let m = 0; m < k && !between; m++) between = m !== i && m !== j && theta[m] > lo && theta[m] < hi;
      if (!between) pairs.push([i, j]);
    }
  }
  return pairs;
}

/** The games of `planner` that finished, as rateAgents reads them (cluster: the configuration, as `parley ratings` has it). */
export function ratedGamesOf(games: readonly (PlannedRef & {scores: readonly number[] | null})[]): RatedGame[] {
  return games
    .filter((g) => g.scores !== null && new Set(g.lineup).size > 1)
    .map((g) => ({family: g.family, cluster: String(g.config), seats: g.lineup.map((agent, seat) => ({agent, seat, score: g.scores![seat]}))}));
}
