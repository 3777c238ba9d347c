/**
 * Scripted negotiators for Deal or No Deal (Game-theoretic LLM: Agent
 * Workflow for Negotiation Games (Hua et al. 2024) §5). Each one, on its
 * turn to talk, accepts the opponent's last proposal (by halting the talk)
 * or makes its own proposal, with a structured share and a sentence saying
 * it; when the deal is written it writes the last proposal on the table
 * before the halt, from its own side, and "no deal" when the round cap ended
 * the talk.
 *
 * - `greedy`: always demands its most valuable share that leaves the other
 *   at least one item; accepts only offers worth as much.
 * - `fair`: proposes its least valuable share that it does not envy (worth
 *   at least 5 of its 10); accepts any offer it does not envy.
 * - `workflow-bayes`: Algorithm 1 in its deterministic form
 *   (src/lib/dondBelief.ts): tracks the opponent valuations still possible,
 *   proposes its best envy-free share the opponent may accept, accepts an
 *   envy-free offer worth at least its next proposal, and records its belief
 *   on every talk turn (turns.belief).
 */
import type {Action, GameObservation, Seat} from "../../../contract/game.js";
import type {DondView} from "./game.js";
import {allocations, ITEMS, noEnvy, rest, value, type Bundle} from "../../../../src/lib/dondAllocation.js";
import {BeliefTracker} from "../../../../src/lib/dondBelief.js";
import type {Agent, AgentDef, AgentReply} from "../../../contract/agent.js";

const GAME = "dond/negotiation";

/** "2 books, 1 hat and 0 balls". */
export function bundleText(x: Bundle): string {
  const parts = ITEMS.map((item, k) => `${x[k]} ${item}${x[k] === 1 ? "" : "s"}`);
  return `${parts[0]}, ${parts[1]} and ${parts[2]}`;
}

const shareFields = (x: Bundle) => ({book: x[0], hat: x[1], ball: x[2]});

/** The opponent's last message, if it is the latest entry and carries a proposal: my share under it. */
function offeredToMe(view: DondView, seat: Seat): number[] | null {
  const last = view.log.at(-1);
  return last && last.seat !== seat && last.proposal ? rest(view.counts, last.proposal) : null;
}

/** The deal a scripted agent writes: the last proposal before a halt, as its own share; null after the round cap. */
export function agreedShare(view: DondView, seat: Seat): number[] | null {
  if (view.halted_by === null) return null;
  const last = [...view.log].reverse().find((m) => m.proposal);
  if (!last) return null;
  return last.seat === seat ? [...last.proposal!] : rest(view.counts, last.proposal!);
}

interface Strategy {
  /** My next proposal (my share). */
  propose(view: DondView): number[];
  /** Whether to accept being offered `mine`. */
  accepts(view: DondView, mine: number[]): boolean;
  /** Seen before each talk decision (the workflow updates its belief here). */
  observe?(view: DondView, seat: Seat): Record<string, unknown> | undefined;
}

function negotiator(strategy: Strategy): Agent<DondView> {
  return {
    act(obs: GameObservation<DondView>): AgentReply {
      const {view, seat} = obs;
      if (view.phase === "deal") {
        const mine = agreedShare(view, seat);
        return {action: mine ? {type: "deal", ...shareFields(mine)} : {type: "no_deal"}};
      }
      const record = strategy.observe?.(view, seat);
      const offered = offeredToMe(view, seat);
      let action: Action;
      if (offered && strategy.accepts(view, offered)) {
        action = {type: "halt", message: `Deal: I take ${bundleText(offered)} and you take the rest.`};
      } else {
        const mine = strategy.propose(view);
        action = {type: "message", message: `I propose that I take ${bundleText(mine)}, and you take ${bundleText(rest(view.counts, mine))}.`, ...shareFields(mine)};
      }
      return record ? {action, record} : {action};
    },
  };
}

/** My shares ordered by my value (highest first), then lexicographically. */
const byValue = (counts: Bundle, v: Bundle): number[][] => allocations(counts).sort((a, b) => value(v, b) - value(v, a));

const greedy: Strategy = {
  propose(view) {
    const everything = view.counts.join(",");
    return byValue(view.counts, view.values).find((x) => x.join(",") !== everything)!;
  },
  accepts(view, mine) {
    return value(view.values, mine) >= value(view.values, this.propose(view));
  },
};

const fair: Strategy = {
  propose(view) {
    const mine = byValue(view.counts, view.values).filter((x) => noEnvy(view.counts, view.values, x));
    return mine.at(-1) ?? view.counts.slice();
  },
  accepts(view, mine) {
    return noEnvy(view.counts, view.values, mine);
  },
};

/** Algorithm 1, deterministic (a fresh tracker per game: agents are created per seat and game). */
function workflowBayes(): Strategy {
  let tracker: BeliefTracker | null = null;
  let seen = 0;
  return {
    observe(view, seat) {
      tracker ??= new BeliefTracker(view.counts);
      for (const m of view.log.slice(seen)) {
        if (!m.proposal) continue;
        if (m.seat === seat) tracker.mine(m.proposal);
        else tracker.theirs(m.proposal);
      }
      seen = view.log.length;
      return {belief: tracker.keys()};
    },
    propose(view) {
      // Nothing left that the opponent may accept: hold at the least share it does not envy.
      return tracker!.plan(view.values)?.share ?? fair.propose(view);
    },
    accepts(view, mine) {
      return tracker!.accepts(view.values, mine);
    },
  };
}

const def = (id: string, description: string, source: string, make: () => Strategy): AgentDef => ({
  id,
  games: [GAME],
  description,
  source,
  create: () => negotiator(make()) as Agent,
});

export const dondAgents: AgentDef[] = [
  def("greedy", "Deal or No Deal: always demands its most valuable share that leaves the other one item; accepts only as much.", "baseline", () => greedy),
  def("fair", "Deal or No Deal: proposes its least valuable share it does not envy (≥ 5 of 10); accepts any offer it does not envy.", "envy-freeness, Game-theoretic LLM workflows (Hua et al. 2024) Def. 7", () => fair),
  def(
    "workflow-bayes",
    "Deal or No Deal: the belief workflow (Algorithm 1, deterministic): narrows the opponent valuations still possible after each proposal, proposes its best envy-free share the opponent may accept, records the belief every turn.",
    "Game-theoretic LLM workflows (Hua et al. 2024) §5.2, Algorithm 1",
    workflowBayes,
  ),
];
