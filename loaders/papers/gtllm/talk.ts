/**
 * Pre-play talk of Game-theoretic LLM workflows (Hua et al. 2024) §4.2–4.3
 * (the protocol of the authors' simultaneous_game_agent.py and
 * sequential_game_agent.py): up to `negotiation_rounds` rounds, in each of
 * which the first speaker sends a message and the other replies; either may
 * end the talk at once by halting ("halt negotiation"); both see every
 * message; then the actions are chosen privately. Tree games talk like this
 * before every move. (The repository's halt test compares the message
 * without its tags to the tagged text, so its talk never ends early outside
 * its matrix workflow; here a halt ends it, as the prompt promises. An LLM
 * player with `prompts: "code"` plays the repository's way: its narrator
 * reads the halt as a message.)
 */
import type {ActionSpec, ParamSpec, Seat} from "../../contract/game.js";
import type {TalkLine} from "./views.js";

export const TALK_SPECS: ActionSpec[] = [{type: "message", text: {field: "message", required: true}}, {type: "halt"}];

export const TALK_PARAMS: ParamSpec[] = [
  {
    name: "negotiation_rounds", label: "Negotiation rounds", type: "integer", min: 0, max: 20, default: 0, grid: [0, 4], baseline: 0,
    doc: "rounds of talk before each action (Tables 5 and 7: 0; Tables 6 and 8: 4; §6.4: 0 to 3)",
  },
  {
    name: "who_first", label: "Who speaks first", type: "choice", values: ["alice", "bob"], default: "alice", grid: ["alice", "bob"], baseline: "alice",
    doc: "the seat that opens every round of talk (§6.6 varies it in Battle of the Sexes)",
  },
];

export const SEAT_NAMES = ["alice", "bob"] as const;

/** The talk before one move. */
export class Talk {
  round = 1;
  /** 0: the first speaker's turn in this round; 1: the reply. */
  private half = 0;
  halted: Seat | null = null;

  constructor(
    readonly rounds: number,
    readonly first: Seat,
    readonly move: number,
    /** The game's log, shared by every move's talk. */
    private readonly log: TalkLine[],
  ) {}

  get over(): boolean {
    return this.halted !== null || this.round > this.rounds;
  }

  get speaker(): Seat {
    return (this.half === 0 ? this.first : 1 - this.first) as Seat;
  }

  say(seat: Seat, message: string): void {
    this.log.push({seat, move: this.move, round: this.round, message});
    this.advance();
  }

  halt(seat: Seat): void {
    this.halted = seat;
  }

  private advance(): void {
    if (this.half === 0) this.half = 1;
    else (this.half = 0), this.round++;
  }
}
