/**
 * The belief workflow of Game-theoretic LLM: Agent Workflow for Negotiation
 * Games (Hua et al. 2024) §5.2 (Algorithm 1, deterministic form,
 * src/lib/dondBelief.ts) for an LLM player of Deal or No Deal.
 *
 * Before each message after the opponent has spoken, one sub-call asks the
 * model which divisions its own last message and the opponent's reply
 * proposed; the belief update then runs in code on those two shares, and
 * the reflection (valuations still possible, the offer to accept or make)
 * is placed before the request. Every sub-call goes through the player's
 * `complete` (cached, counted, retried like any call) and is stored as a
 * turns row; an answer that cannot be read is that row's rule break and
 * leaves the belief as it was. The decision's row carries the belief.
 */
import type {GameObservation} from "../../../contract/game.js";
import type {DondView} from "./hardPoints.js";
import {value, rest} from "../../../../src/lib/dondAllocation.js";
import {BeliefTracker} from "../../../../src/lib/dondBelief.js";
import type {SubCall} from "../../../contract/agent.js";
import {dondOfferQuestion, dondReflection, readOffers} from "./narrator.js";
import type {Workflow, AskModel} from "../../../contract/workflow.js";

export function dondWorkflow(): Workflow<DondView> {
  let tracker: BeliefTracker | null = null;
  let seen = 0;
  return {
    subCallSample: "workflow",
    async prepare(obs: GameObservation<DondView>, ask: AskModel) {
      const {view, seat} = obs;
      if (view.phase !== "talk") return {calls: [], notes: null};
      tracker ??= new BeliefTracker(view.counts);
      const calls: SubCall[] = [];
      const fresh = view.log.slice(seen);
      seen = view.log.length;
      const reply = fresh.filter((m) => m.seat !== seat && !m.halt).at(-1);
      let offered: number[] | null = null;
      if (reply) {
        const mine = view.log.slice(0, view.log.indexOf(reply)).filter((m) => m.seat === seat && !m.halt).at(-1);
        const answer = await ask(dondOfferQuestion(obs, mine?.message ?? null, reply.message));
        const offers = readOffers(answer.raw);
        if ("error" in offers) calls.push({...answer, error: offers.error});
        else {
          calls.push(answer);
          if (offers.mine) tracker.mine(offers.mine);
          if (offers.theirs) {
            tracker.theirs(offers.theirs);
            offered = rest(view.counts, offers.theirs);
          }
        }
      }
      const plan = tracker.plan(view.values);
      const notes = dondReflection(obs, {
        belief: tracker.belief,
        prior: tracker.omega.length,
        plan,
        offered: offered && {share: offered, worth: value(view.values, offered), accept: tracker.accepts(view.values, offered)},
      });
      return {calls, notes, record: {belief: tracker.keys()}};
    },
  };
}
