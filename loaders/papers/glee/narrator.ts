/**
 * What a language model reads in GLEE's three families (GLEE (Shapira et al.
 * 2024) Appendix D.2), built from the structured observation the game gives
 * (types.ts `GleeView`): the system message with the rules, the message of
 * each turn (everything that happened since this player's previous turn,
 * then what to do now) and the JSON format of each action. The games hold no
 * prompt text; `gleeNarrator` lays these out as one conversation for the LLM
 * player, and the human-study server shows people the same words.
 */
import {money} from "../../contract/legal.js";
import {bargainingFormat, bargainingRules, bargainingSystem, bargainingTurn, turnAsPrinted} from "./bargainingPrompts.js";
import {persuasionAction, persuasionFormat, persuasionRules, persuasionTurn} from "./persuasionPrompts.js";
import type {ActionSpec} from "../../contract/game.js";
import type {ChatMessage} from "../../llm/types.js";
import type {Narrator, PlayerPrompt} from "../../contract/narrator.js";
import {numberField} from "../../llm/parseReply.js";
import {personaText, ultimatumGoal, type PersonaGoal} from "../negotiationarena/personas.js";
import type {GleeObservation, GleeView, Player, PriceOffer, Role} from "./types.js";
import {other} from "./types.js";

const name = (p: Player) => (p === "alice" ? "Alice" : "Bob");

/** The system message's rules for the observing player. */
export function gleeRules(obs: GleeObservation): string {
  const v = obs.view;
  const p = v.player;
  const o = other(p);
  switch (v.family) {
    case "bargaining":
      return bargainingRules(v);
    case "negotiation": {
      const role = (x: Player) => (x === "alice" ? "seller" : "buyer");
      return [
        `You are playing as ${name(p)}, the ${role(p)}, in a negotiation over the price of a product.`,
        p === "alice" ? `You own the product, and it is worth ${money(v.value_self)} to you. Bob is a potential buyer.` : `Alice is selling the product. It is worth ${money(v.value_self)} to you.`,
        v.value_other !== null ? `The product is worth ${money(v.value_other)} to ${name(o)}.` : "",
        `In each round, one of you proposes a price${v.messages ? " and can attach a message" : ""}, and the other decides whether to accept it (and trade) or reject it and move to the next round, in which they will propose. Alice proposes first.`,
        p === "alice" ? `If you sell at price p you gain p minus your value.` : `If you buy at price p you gain your value minus p.`,
        `If no deal is made, both of you gain nothing.`,
        v.horizon === null ? "" : `You have ${v.horizon} round${v.horizon === 1 ? "" : "s"} to reach a deal.`,
      ].filter(Boolean).join(" ");
    }
    case "persuasion":
      return persuasionRules(v);
  }
}

/** The JSON format a model is asked to answer in, for one legal action. */
export function gleeFormat(spec: ActionSpec, obs: GleeObservation): string {
  const v = obs.view;
  const p = v.player;
  if (v.family === "persuasion") return persuasionFormat(v);
  if (v.family === "bargaining") return bargainingFormat(spec, v);
  if (spec.type === "decision") return `{"decision": "accept"} or {"decision": "reject"}`;
  return `Send your offer in the JSON format:\n{"price": The price you offer${v.messages ? `, "message": The message you pass to ${name(other(p))}` : ""}}`;
}

/** What the negotiation responder is told about an offer. */
function describeOffer(offer: PriceOffer, from: Player, round: number): string {
  return [`Round ${round}`, `${name(from)}'s offer:`, offer.message ? `# ${name(from)}'s message: ${offer.message}` : "", `# Price: ${money(offer.price)}`].filter(Boolean).join("\n");
}

/**
 * The message of this turn: everything that happened since the player's
 * `previous` observation (null at its first turn), then what to do now
 * (D.2: "all the information accumulated since its previous turn").
 */
export function gleeUpdate(obs: GleeObservation, previous: GleeObservation | null): string {
  const v = obs.view;
  const p = v.player;
  const lines: string[] = [];
  const seen = previous ? previous.view.history.length : 0;
  if (v.family === "persuasion") return persuasionTurn(obs, previous);
  if (v.family === "bargaining") return bargainingTurn(obs, previous);
  const o = other(p);
  for (const e of v.history.since(seen)) {
    if (e.action.type === "offer") {
      if (e.player !== p) lines.push(describeOffer(e.action as PriceOffer, e.player, e.round));
      continue;
    }
    const decision = (e.action as {decision: string}).decision;
    if (e.player === p) {
      if (decision === "reject") lines.push(`You have chosen to reject ${name(o)}'s offer from round ${e.round}.`);
    } else {
      lines.push(`${name(e.player)} ${decision === "accept" ? "accepted" : "rejected"} your offer from round ${e.round}.`);
    }
  }
  const messages = v.messages;
  const request = !obs.legal.length
    ? ""
    : obs.legal[0].type === "offer"
      ? `Round ${obs.round}\nSend your offer${messages ? " and a message" : ""} to ${name(o)}.\n` + gleeFormat(obs.legal[0], obs)
      : `Do you accept this offer?\n${gleeFormat(obs.legal[0], obs)}`;
  return [...lines, request].filter(Boolean).join("\n");
}

// ------------------------------------------------------------ the conversation (D.2)

export const FORMAT_GUIDELINE =
  "Each time it is your turn you will be told what to send and in which JSON format. Answer with that JSON object.";

/** What the persona wants, by role (NegotiationArena (Bianchi et al. 2024) appendix: ultimatum wording for dividing money, "spend less" for the buyer). */
function personaGoal(role: Role): PersonaGoal {
  if (role === "buyer") return {cunning: "spend less money", desperate: "spend less money"};
  if (role === "seller") return {cunning: "get more money", desperate: "get more money"};
  return ultimatumGoal;
}

/** The user message that asks again after a rule break. */
export function retryMessage(obs: GleeObservation): string {
  const formats = obs.legal.map((s) => gleeFormat(s, obs)).join("\nor\n");
  return `Your previous answer broke the rules: ${obs.retry?.error ?? "it was not valid"}.\nPlease answer again.\n${formats}`;
}

/** Fields a spec asks for. */
function fieldsOf(spec: ActionSpec): string[] {
  return [...Object.keys(spec.numbers ?? {}), ...Object.keys(spec.choices ?? {}), ...(spec.text ? [spec.text.field] : [])];
}

/**
 * The JSON reply as a game action: `type` from the legal spec (the one whose
 * fields the reply uses, or the only one), only that spec's fields; numbers
 * written as strings ("$1,000") are read as numbers, choices lower-cased.
 * Legality itself is judged by the game's `validate`.
 */
export function toAction(json: Record<string, unknown>, legal: readonly ActionSpec[]): Record<string, unknown> {
  const named = legal.find((s) => s.type === json.type);
  const spec = named ?? (legal.length === 1 ? legal[0] : legal.find((s) => fieldsOf(s).some((f) => f in json)));
  if (!spec) return json; // validate will name the expected types
  const action: Record<string, unknown> = {type: spec.type};
  for (const field of Object.keys(spec.numbers ?? {})) {
    if (!(field in json)) continue;
    action[field] = numberField(json[field]) ?? json[field];
  }
  for (const field of Object.keys(spec.choices ?? {})) {
    const v = json[field];
    if (v === undefined) continue;
    action[field] = typeof v === "string" ? v.trim().toLowerCase() : v;
  }
  if (spec.text && json[spec.text.field] !== undefined) action[spec.text.field] = json[spec.text.field];
  return action;
}

/** Myopic persuasion buyers are a new buyer every round (§2.3): their conversation starts afresh each round. */
const restartsEachRound = (v: GleeView): boolean => v.family === "persuasion" && v.player === "bob" && v.buyer_type === "myopic";

/**
 * The system message a turn is sent with. Bargaining: the authors' own
 * layout (bargainingPrompts.ts), the rules then this turn's JSON format,
 * rewritten every turn as their `edit_system_message` does. Negotiation and
 * persuasion: the rules and Parley's response-format guideline (their
 * formats end each user message).
 */
export function gleeSystem(obs: GleeObservation, prompts: PlayerPrompt["prompts"] = null): string {
  if (obs.view.family === "bargaining") return bargainingSystem(obs, prompts === "paper" ? "paper" : "code");
  if (obs.view.family === "persuasion") return `${persuasionRules(obs.view)}\n${persuasionFormat(obs.view)}`;
  return [gleeRules(obs), FORMAT_GUIDELINE].join("\n\n");
}

/** A turn's user message, as the player's `prompts` choice prints it (bargaining: D.2's printing with "paper"). */
function turnMessage(obs: GleeObservation, previous: GleeObservation | null, prompts: PlayerPrompt["prompts"]): string {
  const text = gleeUpdate(obs, previous);
  return prompts === "paper" && obs.view.family === "bargaining" ? turnAsPrinted(text) : text;
}

/**
 * GLEE's conversation (D.2). The system message is the rules and the
 * response format (`gleeSystem`), then the LLM player's `extra` (persona,
 * chain of thought). Each turn adds one user message holding everything
 * that happened since this player's previous turn plus what to do now, and
 * the model's reply as an assistant message. A rule break stays in the
 * conversation: the next user message states the error and repeats the
 * format (`keepsRuleBreaks`; the authors' code re-sends the same request
 * without saying what was wrong).
 */
export const gleeNarrator: Narrator<GleeView> = {
  keepsRuleBreaks: true,
  messages(obs, past, extra, _notes, player) {
    const prompts = player?.prompts ?? null;
    const turns = past.map((p) => p.observation);
    turns.push(obs);
    let start = 0;
    if (restartsEachRound(obs.view)) while (turns[start].round !== obs.round) start++;
    const system = obs.view.family === "negotiation" ? gleeSystem(turns[start], prompts) : gleeSystem(obs, prompts);
    const messages: ChatMessage[] = [{role: "system", content: [system, extra].filter(Boolean).join("\n\n")}];
    for (let i = start; i < turns.length; i++) {
      const turn = turns[i];
      messages.push({role: "user", content: turn.retry ? retryMessage(turn) : turnMessage(turn, i > 0 ? turns[i - 1] : null, prompts)});
      if (i < past.length) messages.push({role: "assistant", content: past[i].raw});
    }
    return messages;
  },
  action: (json, obs) => toAction(obs.view.family === "persuasion" ? persuasionAction(json, obs.view) : json, obs.legal),
  persona: (name, obs) => personaText(name, personaGoal(obs.view.role)),
};
