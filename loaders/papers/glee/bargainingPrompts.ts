/**
 * The words GLEE's own code sends a language model in bargaining
 * (eilamshapira/GLEE @ 3c9efe031c4db60d8c6a03e17df01b9179b4f887, the stored
 * version closest to the human-study data's commit d62fc869, whose prompt
 * code it shares with the latest version 021b4048):
 * `games/bargaining/prompts/rules_prompt.txt` and `offer_format.txt`,
 * `games/bargaining/bargaining.py` (`build_inflation_message`,
 * `build_max_round`, `get_inflation_update`, `generate_make_offer_txt`,
 * `generate_accept_offer_txt`, `generate_response_texts`) and
 * `players/base_player.py` (`edit_system_message`: the system message is
 * the rules, a newline and this turn's format; `act`: a turn's user message
 * is everything added to the player's buffer since its last answer,
 * stripped). GLEE (Shapira et al. 2024) Appendix D.2 prints one such game.
 *
 * Kept as the code has them: "1,000$" in the rules and format, "$1,000" in
 * the round's request; offer lines "# Bob gain: 100 " (the model's number,
 * no sign, a trailing space); the inflation update only to the responder
 * (the proposer's is passed under a name `generate_make_offer_txt` never
 * reads); "Due to inflation,  the money…" with two spaces and "The money
 * you gains"; `capitalize()` lower-casing a name ("The money alice gains");
 * no inflation sentence when neither player discounts; "We will relay
 * messages…" when messages are off; the number of rounds told only when it
 * is at most 20.
 *
 * One change, a bug of the code that changes the game: under incomplete
 * information the code's inflation update tells the responder how much the
 * other player's money has lost from round 2 on (it uses both discount
 * factors whatever the information structure), and its rules say nothing
 * about inflation when both factors are 1, which tells each player the
 * other's. Parley follows the paper's rule (§2.1: each player knows only
 * its own factor): the update names only the player's own loss, and the
 * rules always carry the code's incomplete-information sentence. (Parley's
 * observation does not hold the other's factor, so the code's leak cannot
 * be offered as an option.)
 */
import type {ActionSpec} from "../../contract/game.js";
import type {BargainingView, GleeObservation, Player, SplitOffer} from "./types.js";
import {other} from "./types.js";
import {prettyNumber, pyCapitalize, pyGrouped, pyStr} from "./pythonNumbers.js";

/** Which printing of the authors' words: their code's bytes (default) or Appendix D.2's printed text. */
export type BargainingWording = "code" | "paper";

const name = (p: Player) => (p === "alice" ? "Alice" : "Bob");

/** `build_inflation_message`: the rules' inflation sentence ("" when nobody discounts, complete information). */
function inflationMessage(v: BargainingView): string {
  const o = name(other(v.player));
  const selfLoss = (1 - v.delta_self) * 100;
  if (v.delta_other === null) return `Beware of inflation! With each passing round, the money is worth ${prettyNumber(selfLoss)}% less for you. You don't know how the inflation effect on ${o}.`;
  const otherLoss = (1 - v.delta_other) * 100;
  if (!selfLoss && !otherLoss) return "";
  let prefix = `Beware of inflation! With each passing round, the money is worth ${prettyNumber(selfLoss)}% less `;
  if (selfLoss !== otherLoss) prefix += `for you. For ${o}, the money is worth ${prettyNumber(otherLoss)}% less`;
  return prefix.trim() + ".";
}

/** `build_max_round`: the horizon is told only when it is at most 20 rounds. */
const maxRoundsMessage = (v: BargainingView): string =>
  v.horizon !== null && v.horizon > 0 && v.horizon <= 20 ? `You have ${v.horizon} rounds to divide the money, or both of you will get nothing!\n` : "";

/** `rules_prompt.txt` filled in for the observing player, stripped as `edit_system_message` strips it. */
export function bargainingRules(v: BargainingView): string {
  const p = name(v.player);
  const o = name(other(v.player));
  return [
    "Let's play a game.",
    `In this game, there are two players. You are playing as ${p}.`,
    `You and ${o} need to divide ${prettyNumber(v.money)}$ between you.`,
    "In each round of the game, one of the players will make a proposal for division and can describe their proposal in a few words.",
    "The other player will decide whether to accept the offer and finish the game, or to proceed to the next round, in which they will be the one making the proposal.",
    `We will relay messages between you and ${o}.`,
    inflationMessage(v),
    maxRoundsMessage(v),
  ].join("\n").trim();
}

/** This turn's format: `offer_format.txt` for an offer, `generate_accept_offer_txt`'s answer line for a decision. */
export function bargainingFormat(spec: ActionSpec, v: BargainingView): string {
  if (spec.type === "decision") return `Answer with {"decision": "accept"} or {"decision": "reject"}`;
  const p = v.player;
  const o = other(p);
  return (
    `Send your offer to divide ${prettyNumber(v.money)}$${v.messages ? " and the message you attached" : ""} in the JSON format:\n` +
    `{"${p}_gain": The part that you will receive in your offer,\n` +
    `"${o}_gain": The part that ${name(o)} will receive in your offer${v.messages ? `,\n"message": The message you pass to ${name(o)}` : ""}}`
  );
}

/** `get_inflation_update` for the responder of `round` (ends with a newline, or ""). */
function inflationUpdate(v: BargainingView, round: number): string {
  const selfLoss = 1 - v.delta_self ** (round - 1);
  if (v.delta_other === null) return selfLoss ? `Due to inflation, the money you gain is worth ${prettyNumber(selfLoss * 100)}% less than in the first round.\n` : "";
  const otherLoss = 1 - v.delta_other ** (round - 1);
  const o = name(other(v.player));
  if (!selfLoss && !otherLoss) return "";
  let update = "Due to inflation, ";
  if (selfLoss === otherLoss) {
    update += `the money you gain is worth ${prettyNumber(selfLoss * 100)}% less than in the first round.`;
  } else {
    if (selfLoss) update += `the money you gain is worth ${prettyNumber(selfLoss * 100)}% less than in the first round.`;
    if (otherLoss) {
      let addition = `the money ${o} gains is worth ${prettyNumber(otherLoss * 100)}% less than in the first round.`;
      if (selfLoss) addition = pyCapitalize(addition);
      else addition += " The money you gains is worth the same as in the first round.";
      update += ` ${addition}`;
    } else {
      update += ` The money ${o} gains is worth the same as in the first round.`;
    }
  }
  return update + "\n";
}

/** `generate_accept_offer_txt`'s offer block, before its closing question. */
function offerBlock(v: BargainingView, offer: SplitOffer, round: number): string {
  const from = other(v.player);
  return (
    `\nRound ${round}\n${inflationUpdate(v, round)}${name(from)}'s offer:\n` +
    (v.messages ? `# ${name(from)}'s message: ${offer.message ?? ""} \n` : "") +
    `# ${name(v.player)} gain: ${pyStr(offer[`${v.player}_gain`])} \n` +
    `# ${name(from)} gain: ${pyStr(offer[`${from}_gain`])} \n`
  );
}

/**
 * The user message of this turn: what the authors' game added to the
 * player's buffer since its `previous` observation (null at its first turn),
 * then the request, stripped as `Player.act` strips it.
 */
export function bargainingTurn(obs: GleeObservation, previous: GleeObservation | null): string {
  const v = obs.view as BargainingView;
  const p = v.player;
  const o = name(other(p));
  let buffer = "";
  for (const e of v.history.since(previous ? previous.view.history.length : 0)) {
    if (e.action.type === "offer") {
      if (e.player !== p) buffer += offerBlock(v, e.action as SplitOffer, e.round);
    } else if ((e.action as {decision: string}).decision === "reject") {
      buffer += e.player === p ? `You have chosen to reject ${o}'s offer from round ${e.round}.\n` : `${o} rejected your offer from round ${e.round}.\n`;
    }
  }
  const ask = obs.legal[0];
  if (ask?.type === "decision") buffer += "Do you accept this offer?";
  else if (ask) buffer += `Round ${obs.round}\nSend your offer to divide $${pyGrouped(v.money)}${v.messages ? ` and a message to ${o}` : ""}.`;
  return buffer.trim();
}

/** The system message of this turn (`edit_system_message`): the rules, a newline, this turn's format. */
export function bargainingSystem(obs: GleeObservation, wording: BargainingWording = "code"): string {
  const {rules, format} = bargainingSystemParts(obs, wording);
  return format ? `${rules}\n${format}` : rules;
}

/** The two parts of bargainingSystem: the rules, the same all game, and this turn's format ("" when nothing is asked). */
export function bargainingSystemParts(obs: GleeObservation, wording: BargainingWording = "code"): {rules: string; format: string} {
  const v = obs.view as BargainingView;
  return {rules: wording === "paper" ? asPrinted(bargainingRules(v)) : bargainingRules(v), format: obs.legal.length ? bargainingFormat(obs.legal[0]!, v) : ""};
}

/** Appendix D.2's printing: the rules as one paragraph, runs of spaces as one. */
export const asPrinted = (text: string): string => text.split("\n").filter(Boolean).join(" ").replace(/ {2,}/g, " ");

/** A turn's user message as D.2 prints it: runs of spaces as one, no space before a line break (the line breaks stay). */
export const turnAsPrinted = (text: string): string => text.replace(/ +\n/g, "\n").replace(/ {2,}/g, " ");
