/**
 * One generic game per kind, parameterised by a data file (files.ts): a
 * bimatrix game (two seats, any number of actions each, simultaneous, one
 * shot) and a finite perfect-information tree (two seats alternating, Alice
 * first, leaves carry both payoffs), each with the pre-play talk of talk.ts.
 * These are the complete-information games of Game-theoretic LLM workflows
 * (Hua et al. 2024) §4.1 and §6; a new game is a new JSON file.
 *
 * Outcome: the joint action (matrix) or the path (tree), both payoffs, and
 * whether the outcome is a pure Nash equilibrium (tree: a subgame-perfect
 * path) and a Pareto-optimal one (src/lib/matrixGame.ts, gameTree.ts), the
 * two columns of Tables 5–8.
 *
 * Rule breaks (after the run's max_attempts): in talk, the talk ends (as if
 * the seat had halted; `talk_ended_by` = "rule_break") and the game goes on;
 * at an action, the game ends with ended_by = "rule_break", no outcome,
 * returns 0 and is_ne = is_po_ne = is_any_ne = false.
 */
import type {Action, ActionSpec, GameDef, GameObservation, GameResult, GameState, Mover, Params, Seat, Settled, StartContext} from "../../contract/game.js";
import {checkAction} from "../../contract/legal.js";
import type {Column} from "../../io/schema.js";
import {cellVerdict} from "../../../src/lib/matrixGame.js";
import {isLeaf, nodeAt, pathVerdict, type TreeNode} from "../../../src/lib/gameTree.js";
import type {GameFile} from "./files.js";
import {SEAT_NAMES, Talk, TALK_PARAMS, TALK_SPECS} from "./talk.js";
import {labelIndex, neutralLabels, neutralTree, type DataGameView, type TalkLine} from "./views.js";

const col = (name: string, type: Column["type"], doc: string): Column => ({name, type, doc});

const GAME_COLUMNS: Column[] = [
  col("kind", "VARCHAR", "matrix or tree"),
  col("alice_agent", "VARCHAR", "player id in seat 0"),
  col("bob_agent", "VARCHAR", "player id in seat 1"),
  col("alice_model", "VARCHAR", "Alice's model (LLM players)"),
  col("bob_model", "VARCHAR", "Bob's model (LLM players)"),
  col("alice_workflow", "BOOLEAN", "Alice used the game-theoretic workflow (§4.4): an LLM player with workflow: true, or workflow-ne / workflow-bi"),
  col("bob_workflow", "BOOLEAN", "Bob used the workflow"),
  col("alice_choice", "VARCHAR", "matrix: Alice's action (neutral label choice_k)"),
  col("bob_choice", "VARCHAR", "matrix: Bob's action (neutral label)"),
  col("path", "VARCHAR", "the actions played, in order, as neutral labels separated by spaces"),
  col("path_names", "VARCHAR", "the same, by the data file's action names, separated by ' / '"),
  col("alice_payoff", "DOUBLE", "u_Alice of the outcome (null after a rule break)"),
  col("bob_payoff", "DOUBLE", "u_Bob"),
  col("is_ne", "BOOLEAN", "the outcome is a pure Nash equilibrium (tree: a subgame-perfect path, the paper's reading)"),
  col("is_po_ne", "BOOLEAN", "... and no other such equilibrium Pareto-dominates it"),
  col("is_any_ne", "BOOLEAN", "the outcome is that of some pure Nash equilibrium (tree: of its strategic form, subgame perfect or not; matrix: = is_ne)"),
  col("talk_messages", "INTEGER", "messages sent in the talk"),
  col("talk_ended_by", "VARCHAR", "how the last talk ended: none (0 rounds), rounds, halt, rule_break"),
];

const TURN_COLUMNS: Column[] = [
  col("choice", "VARCHAR", "the action chosen (neutral label choice_k)"),
  col("choice_name", "VARCHAR", "its name in the data file"),
  col("phase", "VARCHAR", "talk, act, or workflow (an LLM player's workflow sub-call)"),
  col("talk_round", "INTEGER", "round of talk (1-based) of a message"),
  col("workflow_step", "VARCHAR", "which workflow question a sub-call answered (§4.4)"),
];

const chooseLists: ActionSpec[][] = [];
/** The legal "choose" action among n neutral labels (one shared list per n). */
const chooseSpecs = (n: number): ActionSpec[] => (chooseLists[n] ??= [{type: "choose", choices: {choice: neutralLabels(n)}}]);

/** What both kinds share: the talk before each move, validation, the rule-break fallback, the result. */
abstract class DataGameState implements GameState<DataGameView> {
  readonly nSeats = 2;
  protected readonly log: TalkLine[] = [];
  protected talk: Talk;
  private talkEndedBy = "none";
  protected aborted = false;
  private readonly settledChoices: Settled[] = [];

  constructor(
    protected readonly file: GameFile,
    protected readonly gameId: string,
    protected readonly rounds: number,
    protected readonly first: Seat,
  ) {
    this.talk = new Talk(rounds, first, 1, this.log);
  }

  /** 1-based number of the current action. */
  protected abstract get move(): number;
  /** Seats that choose now (after the talk); empty when the game is over. */
  protected abstract choosers(): Seat[];
  /** Number of actions `seat` chooses among now. */
  protected abstract options(seat: Seat): number;
  /** Applies the chosen indices of `choosers()`. */
  protected abstract choose(indices: number[]): void;
  /** The data file's name of `seat`'s `index`-th action now. */
  protected abstract actionName(seat: Seat, index: number): string;
  protected abstract view(seat: Seat): DataGameView;
  protected abstract outcome(): {game: Record<string, unknown>; returns: number[]};

  protected get over(): boolean {
    return this.aborted || this.choosers().length === 0;
  }

  /** Starts the talk before the next move (tree games). */
  protected nextTalk(): void {
    this.talk = new Talk(this.rounds, this.first, this.move, this.log);
  }

  protected talkFields(seat: Seat) {
    return {me: seat, phase: (this.talk.over ? "act" : "talk") as "act" | "talk", negotiation_rounds: this.rounds, who_first: this.first, talk_round: this.talk.round, talk: this.log.slice()};
  }

  next(): Mover {
    if (this.over) return {kind: "terminal"};
    if (!this.talk.over) return {kind: "seats", seats: [this.talk.speaker]};
    return {kind: "seats", seats: this.choosers()};
  }

  legal(seat: Seat): ActionSpec[] {
    if (this.over) return [];
    if (!this.talk.over) return seat === this.talk.speaker ? TALK_SPECS : [];
    return this.choosers().includes(seat) ? chooseSpecs(this.options(seat)) : [];
  }

  validate(seat: Seat, action: unknown): string | null {
    if (this.over) return "the game is over";
    const specs = this.legal(seat);
    if (!specs.length) return `seat ${seat} (${SEAT_NAMES[seat] ?? "?"}) is not to move now`;
    const error = checkAction(specs, action);
    if (error) return error;
    const a = action as Action;
    if (a.type === "message" && !String(a.message).trim()) return "message: a non-empty text is required";
    return null;
  }

  apply(actions: readonly Action[]): void {
    const seats = (this.next() as {kind: "seats"; seats: Seat[]}).seats ?? [];
    if (this.over || actions.length !== seats.length) throw new Error(`${this.gameId}: expected ${seats.length} actions, got ${actions.length}`);
    actions.forEach((a, k) => {
      const error = this.validate(seats[k], a);
      if (error) throw new Error(`${this.gameId}: seat ${seats[k]}: ${error}`);
    });
    if (!this.talk.over) {
      const [a] = actions;
      if (a.type === "halt") this.talk.halt(seats[0]);
      else this.talk.say(seats[0], String(a.message));
      if (this.talk.over) this.talkEndedBy = this.talk.halted !== null ? "halt" : "rounds";
      return;
    }
    const indices = actions.map((a) => labelIndex(String(a.choice)));
    seats.forEach((seat, k) => this.settledChoices.push({round: this.move, seat, action: "choose", choice_name: this.actionName(seat, indices[k])}));
    this.choose(indices);
    if (!this.over && this.rounds > 0) this.nextTalk();
  }

  observe(seat: Seat): GameObservation<DataGameView> {
    return {game: this.file.id, game_id: this.gameId, seat, seat_name: SEAT_NAMES[seat] ?? null, n_seats: 2, round: this.move, view: this.view(seat), legal: this.legal(seat)};
  }

  turnInfo(): Record<string, unknown> {
    return this.talk.over ? {phase: "act"} : {phase: "talk", talk_round: this.talk.round};
  }

  settled(): Settled[] {
    return this.settledChoices;
  }

  abort(_seat: Seat, _reason: string): void {
    if (!this.talk.over) {
      this.talk.halt(this.talk.speaker);
      this.talkEndedBy = "rule_break";
    } else this.aborted = true;
  }

  result(): GameResult {
    const common = {kind: this.file.kind, talk_messages: this.log.length, talk_ended_by: this.talkEndedBy};
    if (this.aborted) return {rounds: this.move, ended_by: "rule_break", game: {...common, is_ne: false, is_po_ne: false, is_any_ne: false}, seats: [{}, {}], returns: [0, 0]};
    const {game, returns} = this.outcome();
    return {rounds: this.move - (this.over ? 1 : 0), ended_by: "completed", game: {...common, ...game, alice_payoff: returns[0], bob_payoff: returns[1]}, seats: [{}, {}], returns};
  }
}

class MatrixState extends DataGameState {
  private chosen: number[] | null = null;
  private readonly labels: [string[], string[]];

  constructor(file: Extract<GameFile, {kind: "matrix"}>, gameId: string, rounds: number, first: Seat) {
    super(file, gameId, rounds, first);
    this.labels = [neutralLabels(file.matrix.rows.length), neutralLabels(file.matrix.cols.length)];
  }
  private get matrix() {
    return (this.file as Extract<GameFile, {kind: "matrix"}>).matrix;
  }
  protected get move() {
    return this.chosen ? 2 : 1;
  }
  protected choosers(): Seat[] {
    return this.chosen ? [] : [0, 1];
  }
  protected options(seat: Seat) {
    return this.labels[seat].length;
  }
  protected choose(indices: number[]) {
    this.chosen = indices;
  }
  protected actionName(seat: Seat, index: number) {
    return (seat === 0 ? this.matrix.rows : this.matrix.cols)[index];
  }
  protected view(seat: Seat): DataGameView {
    return {kind: "matrix", ...this.talkFields(seat), labels: this.labels, payoffs: this.matrix.payoffs};
  }
  protected outcome() {
    const [i, j] = this.chosen!;
    return {
      game: {alice_choice: this.labels[0][i], bob_choice: this.labels[1][j], path: `${this.labels[0][i]} ${this.labels[1][j]}`, path_names: `${this.matrix.rows[i]} / ${this.matrix.cols[j]}`, ...cellVerdict(this.matrix, i, j)},
      returns: [...this.matrix.payoffs[i][j]],
    };
  }
}

class TreeState extends DataGameState {
  private readonly moves: number[] = [];
  private readonly neutral: TreeNode;

  constructor(file: Extract<GameFile, {kind: "tree"}>, gameId: string, rounds: number, first: Seat, neutral: TreeNode) {
    super(file, gameId, rounds, first);
    this.neutral = neutral;
  }
  private get tree() {
    return (this.file as Extract<GameFile, {kind: "tree"}>).tree;
  }
  private get node() {
    return nodeAt(this.tree, this.moves);
  }
  protected get move() {
    return this.moves.length + 1;
  }
  protected choosers(): Seat[] {
    const node = this.node;
    return isLeaf(node) ? [] : [node.mover];
  }
  protected options() {
    const node = this.node;
    return isLeaf(node) ? 0 : node.actions.length;
  }
  protected choose([k]: number[]) {
    this.moves.push(k);
  }
  protected actionName(_seat: Seat, index: number) {
    return (this.node as {actions: string[]}).actions[index];
  }
  protected view(seat: Seat): DataGameView {
    const node = this.node;
    return {kind: "tree", ...this.talkFields(seat), tree: this.neutral, moves: [...this.moves], mover: isLeaf(node) ? 0 : node.mover};
  }
  protected outcome() {
    const names: string[] = [];
    this.moves.forEach((k, d) => names.push((nodeAt(this.tree, this.moves.slice(0, d)) as {actions: string[]}).actions[k]));
    return {
      game: {path: this.moves.map((k) => `choice_${k + 1}`).join(" "), path_names: names.join(" / "), ...pathVerdict(this.tree, this.moves)},
      returns: [...(this.node as {payoff: [number, number]}).payoff],
    };
  }
}

/** The GameDef of one data file. */
export function dataGameDef(file: GameFile): GameDef {
  const neutral = file.kind === "tree" ? neutralTree(file.tree) : null;
  const size = file.kind === "matrix" ? `${file.matrix.rows.length}×${file.matrix.cols.length} matrix` : "tree";
  return {
    id: file.id,
    title: file.title,
    citation: file.citation,
    seats: {min: 2, max: 2, default: 2, names: SEAT_NAMES},
    moves: file.kind === "matrix" ? "simultaneous" : "sequential",
    description: `${file.description} (${size}; ${file.file.split("/").slice(-2).join("/")})`,
    params: TALK_PARAMS,
    columns: {games: GAME_COLUMNS, players: [], turns: TURN_COLUMNS},
    start(params: Params, context: StartContext): GameState {
      const rounds = Number(params.negotiation_rounds ?? 0);
      const first = (params.who_first === "bob" ? 1 : 0) as Seat;
      return file.kind === "matrix" ? new MatrixState(file, context.gameId, rounds, first) : new TreeState(file, context.gameId, rounds, first, neutral!);
    },
  };
}
