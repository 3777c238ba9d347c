/**
 * Pirate Game (gamma-Bench (Huang et al. 2024) §2.3, §3.3 (8), Table 3,
 * Appendix C.4): N ranked pirates share G gold. The most senior surviving
 * pirate proposes how to split G among the survivors (whole, non-negative
 * numbers); then all survivors, the proposer included, vote at once. The
 * plan passes when at least half accept (the repository's accepting_rate ≥
 * 0.5); otherwise the proposer is thrown overboard and the next most senior
 * proposes. The game ends on acceptance ("accepted") or when one pirate is
 * left ("last_survivor", who keeps G).
 *
 * Seat i is the (i + 1)-th most senior pirate. A round is one proposal: the
 * proposer's "propose" turn, then every survivor's "vote" turn. (The
 * repository records the proposer's vote as an automatic accept; here the
 * proposer votes like everyone else, as the paper's rule 4 says.)
 *
 * Returns: each pirate's gold under the accepted plan (0 when thrown
 * overboard). Rule breaks: the game ends with ended_by "rule_break" after the
 * proposals resolved so far; no plan passed, so every return is 0.
 */
import type {Action, ActionSpec, GameDef, GameObservation, GameResult, GameState, Mover, ParamSpec, Params, Seat, StartContext} from "../../contract/game.js";
import {checkAction} from "../../contract/legal.js";
import {GB_GAME, GB_PLAYER, GB_TURN} from "./columns.js";
import {citation, numberParam, SEATS_10} from "./paper.js";
import type {PirateView, PirateVote, ProposalSeen, SettledResult} from "./views.js";

export type {PirateView, PirateVote, ProposalSeen} from "./views.js";

/**
 * Stewart's (1999) optimal proposal for n pirates left and G gold (§3.3 (8)):
 * the proposer keeps G − ⌊(n − 1)/2⌋ and gives one coin to each pirate at
 * relative position 3, 5, 7, … (the proposer's parity); everyone else gets 0.
 * n = 10, G = 100: [96, 0, 1, 0, 1, 0, 1, 0, 1, 0]. When G < ⌊(n − 1)/2⌋ the
 * proposer keeps nothing and only the first G of those pirates get a coin.
 */
export function pirateOptimalPlan(n: number, gold: number): number[] {
  const plan = new Array<number>(n).fill(0);
  let left = gold;
  for (let position = 3; position <= n && left > 0; position += 2) {
    plan[position - 1] = 1;
    left--;
  }
  plan[0] = left;
  return plan;
}

/**
 * Stewart's vote rule (§3.3 (8)) for the pirate at relative `position`
 * (1 = proposer, who accepts its own plan): accept with two or more coins,
 * reject with none, and with exactly one accept iff the position has the
 * proposer's parity (odd).
 */
export function pirateOptimalVote(allocation: number, position: number): PirateVote {
  if (position === 1) return "accept";
  if (allocation >= 2) return "accept";
  if (allocation === 1) return position % 2 === 1 ? "accept" : "reject";
  return "reject";
}

/** Whether a voter's vote is the correct one (S8V; the proposer is not scored). */
export const pirateVoteCorrect = (vote: string, allocation: number, position: number): boolean => vote === pirateOptimalVote(allocation, position);

/** The plan passes when at least half of the voters accept. */
export const pirateAccepted = (accepts: number, voters: number): boolean => accepts >= voters / 2;

const PARAMS: ParamSpec[] = [
  // Table 9: G ∈ {4, 5, 100, 400}.
  {name: "gold", label: "Gold G", type: "integer", min: 1, max: 1e6, default: 100, grid: [4, 5, 100, 400], baseline: 100, doc: "the gold coins to divide"},
];

/** An action's `written` when it is a list of [key, string or number] entries; else null. */
function writtenPlan(w: unknown): [string, string | number][] | null {
  if (!Array.isArray(w) || !w.every((e) => Array.isArray(e) && e.length === 2 && typeof e[0] === "string" && (typeof e[1] === "string" || typeof e[1] === "number"))) return null;
  return w.map(([k, x]) => [k, x] as [string, string | number]);
}

interface Proposal extends ProposalSeen {
  votes: PirateVote[];
}

class PirateState implements GameState<PirateView> {
  private survivors: Seat[];
  private plan: number[] | null = null;
  /** The plan as its proposer wrote it (the action's `written`, which the LLM narrator fills), relayed to the voters. */
  private planWritten: [string, string | number][] | null = null;
  private readonly proposals: Proposal[] = [];
  private endedBy: "accepted" | "last_survivor" | "rule_break" | null = null;

  constructor(
    private readonly gameId: string,
    readonly nSeats: number,
    private readonly gold: number,
  ) {
    this.survivors = Array.from({length: nSeats}, (_, i) => i);
  }

  private get proposer(): Seat {
    return this.survivors[0];
  }

  private get round(): number {
    return this.proposals.length + 1;
  }

  next(): Mover {
    if (this.endedBy) return {kind: "terminal"};
    return {kind: "seats", seats: this.plan ? [...this.survivors] : [this.proposer]};
  }

  legal(seat: Seat): ActionSpec[] {
    if (this.endedBy) return [];
    if (!this.plan) {
      if (seat !== this.proposer) return [];
      const n = this.survivors.length;
      return [{type: "propose", lists: {plan: {length: n, item: {min: 0, max: this.gold, integer: true}}}, sum: {fields: ["plan"], equals: this.gold}}];
    }
    return this.survivors.includes(seat) ? [{type: "vote", choices: {choice: ["accept", "reject"]}}] : [];
  }

  validate(seat: Seat, action: unknown): string | null {
    if (this.endedBy) return "the game is over";
    if (!this.plan && seat !== this.proposer) return `seat ${this.proposer} proposes now, not seat ${seat}`;
    if (this.plan && !this.survivors.includes(seat)) return `seat ${seat} was thrown overboard and cannot vote`;
    return checkAction(this.legal(seat), action);
  }

  apply(actions: readonly Action[]): void {
    if (this.endedBy) throw new Error(`${this.gameId}: the game is over`);
    const seats = (this.next() as {seats: readonly Seat[]}).seats;
    if (actions.length !== seats.length) throw new Error(`${this.gameId}: expected ${seats.length} actions (seats ${seats.join(", ")}), got ${actions.length}`);
    actions.forEach((a, k) => {
      const error = this.validate(seats[k], a);
      if (error) throw new Error(`${this.gameId}: seat ${seats[k]}, round ${this.round}: ${error}`);
    });
    if (!this.plan) {
      this.plan = [...(actions[0].plan as number[])];
      this.planWritten = writtenPlan(actions[0].written);
      return;
    }
    const votes = actions.map((a) => a.choice as PirateVote);
    const accepts = votes.filter((v) => v === "accept").length;
    const accepted = pirateAccepted(accepts, votes.length);
    this.proposals.push({round: this.round, proposer: this.proposer, plan: this.plan, survivors: [...this.survivors], accepts, accepted, your_vote: null, votes, ...(this.planWritten && {plan_written: this.planWritten})});
    this.plan = null;
    if (accepted) this.endedBy = "accepted";
    else {
      this.survivors = this.survivors.slice(1);
      if (this.survivors.length === 1) this.endedBy = "last_survivor";
    }
  }

  /** The seat's rank among the survivors (1 = proposer) and, when voting, the gold the plan gives it. */
  turnInfo(seat: Seat): Record<string, unknown> {
    const k = this.survivors.indexOf(seat);
    if (this.endedBy || k < 0) return {};
    return this.plan ? {position: k + 1, allocation: this.plan[k]} : {position: k + 1};
  }

  observe(seat: Seat): GameObservation<PirateView> {
    const k = this.survivors.indexOf(seat);
    const phase = this.endedBy || k < 0 ? "over" : this.plan ? "vote" : "propose";
    const view: PirateView = {
      n_players: this.nSeats,
      gold: this.gold,
      rank: seat + 1,
      round: this.round,
      phase,
      proposer: this.endedBy ? null : this.proposer,
      survivors: [...this.survivors],
      plan: this.plan && !this.endedBy ? [...this.plan] : null,
      offered: this.plan && k >= 0 && !this.endedBy ? this.plan[k] : null,
      ...(this.plan && this.planWritten && !this.endedBy && {plan_written: this.planWritten.map(([k, x]) => [k, x] as [string, string | number])}),
      history: this.proposals.map(({votes, ...p}) => {
        const i = p.survivors.indexOf(seat);
        return {...p, plan: [...p.plan], survivors: [...p.survivors], your_vote: i < 0 ? null : votes[i]};
      }),
    };
    return {game: pirate.id, game_id: this.gameId, seat, seat_name: null, n_seats: this.nSeats, round: this.round, view, legal: this.legal(seat)};
  }

  abort(): void {
    if (!this.endedBy) this.endedBy = "rule_break";
  }

  /** One entry per vote of each resolved proposal; on the accepted one, `payoff` is the gold the plan gives. */
  settled(): SettledResult[] {
    return this.proposals.flatMap((p) => p.survivors.map((seat, i): SettledResult => (p.accepted ? {round: p.round, seat, action: "vote", payoff: p.plan[i]} : {round: p.round, seat, action: "vote"})));
  }

  /** Every resolved proposal with each survivor's vote (in `survivors` order), for S8. */
  proposalsMade(): readonly Proposal[] {
    return this.proposals;
  }

  result(): GameResult {
    const last = this.proposals.at(-1);
    const gold = new Array<number>(this.nSeats).fill(0);
    if (this.endedBy === "accepted" && last) last.survivors.forEach((s, i) => (gold[s] = last.plan[i]));
    if (this.endedBy === "last_survivor") gold[this.survivors[0]] = this.gold;
    const alive = new Set(this.survivors);
    return {
      rounds: this.proposals.length,
      ended_by: this.endedBy ?? "unfinished",
      game: {variant: "pirate_game", gold: this.gold, winner: this.endedBy === "accepted" ? last!.proposer : null},
      seats: gold.map((_, s) => ({survived: alive.has(s)})),
      returns: gold,
    };
  }
}

export const pirate: GameDef = {
  id: "gamabench/pirate",
  title: "Pirate Game",
  citation: citation("§3.3 (8), Table 3, Appendix C.4"),
  seats: SEATS_10,
  moves: "sequential",
  description: "The most senior pirate proposes how to share the gold; if fewer than half accept, it is thrown overboard and the next proposes.",
  params: PARAMS,
  columns: {
    games: [GB_GAME.variant, GB_GAME.gold, GB_GAME.winner],
    players: [GB_PLAYER.survived],
    turns: [GB_TURN.plan, GB_TURN.choice, GB_TURN.position, GB_TURN.allocation, GB_TURN.payoff],
  },
  paramColumns(params: Params) {
    return {variant: "pirate_game", gold: numberParam(params, "gold", PARAMS)};
  },
  start(params: Params, context: StartContext) {
    return new PirateState(context.gameId, context.nSeats, numberParam(params, "gold", PARAMS));
  },
};
