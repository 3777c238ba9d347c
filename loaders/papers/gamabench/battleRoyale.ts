/**
 * Battle Royale (gamma-Bench (Huang et al. 2024) §2.3, §3.3 (7), Appendix
 * C.4): N players with hit rates base, base + step, … (35%, 40%, …, 80% in
 * the vanilla setting) take turns shooting in ascending order of hit rate,
 * cycling over the survivors. On its turn a player shoots at another
 * survivor (eliminating it with probability equal to its own hit rate) or
 * intentionally misses. Everyone is told each shot's outcome. The game ends
 * when one player is left ("last_survivor") or after `rounds` turns
 * ("round_cap"; the repository's runs stop at 20 turns: no raw file has more
 * than 20 shots).
 *
 * Seat i has hit rate base + i·step (the raw files' player_i), so the
 * shooting order is the seat order. A "round" is one shot. Whether a shot
 * hits is drawn from the game's chance when the shot is applied (no separate
 * chance node): uniform [0, 100) < hit rate, as the repository's
 * `random.uniform(0, 100) < hit_rate`. The draw's key is the shooter and its
 * own turn to shoot (`hit/<seat>/<k>`: seat s's k-th turn), so under the
 * common scheme a shooter has the same luck on its k-th turn however many
 * were eliminated before it.
 *
 * Returns: 1 to the last survivor; when the game stops with several
 * survivors (round cap, or a seat that kept breaking the rules), they share
 * the 1 equally. Rule breaks: the game ends with ended_by "rule_break" after
 * the shots taken so far.
 */
import type {Action, ActionSpec, Chance, GameDef, GameObservation, GameResult, GameState, Mover, ParamSpec, Params, Seat, StartContext} from "../../contract/game.js";
import {checkAction} from "../../contract/legal.js";
import {GB_GAME, GB_PLAYER, GB_TURN} from "./columns.js";
import {citation, MAX_ROUNDS_COLUMN, numberParam, SEATS_10} from "./paper.js";
import type {BattleRoyaleView, SettledResult, Shooter, ShotSeen} from "./views.js";

export type {BattleRoyaleView, Shooter, ShotSeen} from "./views.js";

/** Hit rates (%) by seat: base + i·step. */
export const hitRates = (n: number, base: number, step: number): number[] => Array.from({length: n}, (_, i) => base + i * step);

/**
 * The survivor with the highest hit rate other than the shooter (the lower
 * seat on equal rates): the target S7 rewards (§3.3 (7)); null when the
 * shooter is alone.
 */
export function strongestOther(alive: readonly Seat[], rates: readonly number[], shooter: Seat): Seat | null {
  let best: Seat | null = null;
  for (const s of alive) if (s !== shooter && (best === null || rates[s] > rates[best])) best = s;
  return best;
}

const PARAMS: ParamSpec[] = [
  // Table 9 (repository meta): hit-rate ranges 35..80 step 5, 10..100 step 10, 51..60 step 1.
  {name: "base_hit_rate", label: "Lowest hit rate (%)", type: "number", min: 0, max: 100, default: 35, grid: [35, 10, 51], baseline: 35, doc: "seat 0's hit rate"},
  {name: "hit_interval", label: "Hit-rate step (%)", type: "number", min: 0, max: 100, default: 5, grid: [5, 10, 1], baseline: 5, doc: "seat i hits with base + i·step percent"},
  {name: "rounds", label: "Turn cap", type: "integer", min: 1, max: 10000, default: 20, grid: [20], doc: "the game stops after this many shots (the repository's runs: 20)"},
];

interface Shot extends ShotSeen {
  /** Survivors (in shooting order) when the shot was taken. */
  alive: Seat[];
}

class BattleRoyaleState implements GameState<BattleRoyaleView> {
  private readonly rates: number[];
  private alive: Seat[];
  private shooter: Seat;
  private readonly shots: Shot[] = [];
  private aborted = false;

  constructor(
    private readonly gameId: string,
    readonly nSeats: number,
    private readonly p: {base_hit_rate: number; hit_interval: number; rounds: number},
    private readonly draws: Chance,
  ) {
    this.rates = hitRates(nSeats, p.base_hit_rate, p.hit_interval);
    // Ascending hit rate; equal rates keep seat order.
    this.alive = Array.from({length: nSeats}, (_, i) => i).sort((a, b) => this.rates[a] - this.rates[b] || a - b);
    this.shooter = this.alive[0];
  }

  private get over(): boolean {
    return this.aborted || this.alive.length <= 1 || this.shots.length >= this.p.rounds;
  }

  /** Turns `seat` has taken so far (shots and intentional misses). */
  private turnsOf(seat: Seat): number {
    return this.shots.reduce((n, shot) => n + (shot.shooter === seat ? 1 : 0), 0);
  }

  next(): Mover {
    return this.over ? {kind: "terminal"} : {kind: "seats", seats: [this.shooter]};
  }

  legal(seat: Seat): ActionSpec[] {
    if (this.over || seat !== this.shooter) return [];
    return [{type: "shoot", numbers: {target: {min: 0, max: this.nSeats - 1, integer: true}}}, {type: "miss"}];
  }

  validate(seat: Seat, action: unknown): string | null {
    if (this.over) return "the game is over";
    if (seat !== this.shooter) return `it is seat ${this.shooter}'s turn to shoot, not seat ${seat}'s`;
    const error = checkAction(this.legal(seat), action);
    if (error) return error;
    const a = action as Action;
    if (a.type === "shoot") {
      const t = a.target as number;
      if (t === seat) return "target: you cannot shoot yourself (choose another player, or miss)";
      if (!this.alive.includes(t)) return `target: seat ${t} is already out; players left: ${this.alive.join(", ")}`;
    }
    return null;
  }

  apply(actions: readonly Action[]): void {
    if (actions.length !== 1) throw new Error(`${this.gameId}: one shooter per turn, got ${actions.length} actions`);
    const error = this.validate(this.shooter, actions[0]);
    if (error) throw new Error(`${this.gameId}: seat ${this.shooter}, turn ${this.shots.length + 1}: ${error}`);
    const a = actions[0];
    const target = a.type === "shoot" ? (a.target as Seat) : null;
    const hit = target !== null && this.draws(`hit/${this.shooter}/${this.turnsOf(this.shooter) + 1}`).next() * 100 < this.rates[this.shooter];
    const before = [...this.alive];
    if (hit) this.alive = this.alive.filter((s) => s !== target);
    this.shots.push({round: this.shots.length + 1, shooter: this.shooter, target, hit, left: this.alive.length, alive: before});
    // The next survivor after the shooter in shooting order, cycling.
    const k = before.indexOf(this.shooter);
    for (let step = 1; step <= before.length; step++) {
      const s = before[(k + step) % before.length];
      if (this.alive.includes(s)) {
        this.shooter = s;
        break;
      }
    }
  }

  /** The shooter's hidden facts: its hit rate, its place in the order, and who is alive (with their rates). */
  turnInfo(seat: Seat): Record<string, unknown> {
    if (this.over || seat !== this.shooter) return {};
    return {hit_rate: this.rates[seat], position: this.alive.indexOf(seat) + 1, alive: [...this.alive], alive_rates: this.alive.map((s) => this.rates[s])};
  }

  observe(seat: Seat): GameObservation<BattleRoyaleView> {
    const rank = this.alive.indexOf(seat);
    const view: BattleRoyaleView = {
      n_players: this.nSeats,
      round: this.shots.length + 1,
      hit_rate: this.rates[seat],
      rank: rank < 0 ? null : rank + 1,
      alive: this.alive.map((s): Shooter => ({seat: s, hit_rate: this.rates[s]})),
      shooter: this.over ? null : this.shooter,
      history: this.shots.map(({round, shooter, target, hit, left}) => ({round, shooter, target, hit, left})),
    };
    return {game: battleRoyale.id, game_id: this.gameId, seat, seat_name: null, n_seats: this.nSeats, round: view.round, view, legal: this.legal(seat)};
  }

  abort(): void {
    if (!this.over) this.aborted = true;
  }

  /** One entry per shot, on the shooter's row: whether it hit. */
  settled(): SettledResult[] {
    return this.shots.map((s) => ({round: s.round, seat: s.shooter, action: s.target === null ? "miss" : "shoot", hit: s.hit}));
  }

  /** Survivors (in shooting order) when each shot was taken, for S7 (the strongest other survivor). */
  shotsTaken(): readonly Shot[] {
    return this.shots;
  }

  result(): GameResult {
    const survivors = new Set(this.alive);
    const winner = this.alive.length === 1 ? this.alive[0] : null;
    const endedBy = this.aborted ? "rule_break" : this.alive.length <= 1 ? "last_survivor" : this.over ? "round_cap" : "unfinished";
    return {
      rounds: this.shots.length,
      ended_by: endedBy,
      game: {...battleRoyale.paramColumns!(this.p), winner},
      seats: this.rates.map((hit_rate, s) => ({hit_rate, survived: survivors.has(s)})),
      returns: this.rates.map((_, s) => (survivors.has(s) ? 1 / survivors.size : 0)),
    };
  }
}

const settings = (params: Params) => ({
  base_hit_rate: numberParam(params, "base_hit_rate", PARAMS),
  hit_interval: numberParam(params, "hit_interval", PARAMS),
  rounds: numberParam(params, "rounds", PARAMS),
});

export const battleRoyale: GameDef = {
  id: "gamabench/battle_royale",
  title: "Battle Royale",
  citation: citation("§3.3 (7), Appendix C.4"),
  seats: SEATS_10,
  moves: "sequential",
  description: "Players take turns, weakest shot first, to shoot at another survivor or miss on purpose; the last one standing wins.",
  params: PARAMS,
  checkParams(params: Params, nSeats: number) {
    const s = settings(params);
    const top = s.base_hit_rate + (nSeats - 1) * s.hit_interval;
    return top <= 100 ? null : `hit rates ${s.base_hit_rate}% + ${nSeats - 1} × ${s.hit_interval}% reach ${top}%, above 100%`;
  },
  columns: {
    games: [GB_GAME.variant, GB_GAME.base_hit_rate, GB_GAME.hit_interval, MAX_ROUNDS_COLUMN, GB_GAME.winner],
    players: [GB_PLAYER.hit_rate, GB_PLAYER.survived],
    turns: [GB_TURN.target, GB_TURN.hit_rate, GB_TURN.position, GB_TURN.alive, GB_TURN.alive_rates, GB_TURN.hit],
  },
  paramColumns(params: Params) {
    const s = settings(params);
    return {variant: "battle_royale", base_hit_rate: s.base_hit_rate, hit_interval: s.hit_interval, max_rounds: s.rounds};
  },
  start(params: Params, context: StartContext) {
    return new BattleRoyaleState(context.gameId, context.nSeats, settings(params), context.chance);
  },
};
