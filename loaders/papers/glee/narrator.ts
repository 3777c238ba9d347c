/**
 * What a language model reads in GLEE's three families (GLEE (Shapira et al.
 * 2024) Appendix D.2), built from the structured observation the game gives
 * (types.ts `GleeView`): the system message with the rules, the message of
 * each turn (everything that happened since this player's previous turn,
 * then what to do now) and the JSON format of each action. The games hold no
 * prompt text; `gleeNarrator` lays these out as one conversation for the LLM
 * player, and the human-study server shows people the same words.
 */
import {bargainingFormat, bargainingRules, bargainingSystemParts, bargainingTurn, turnAsPrinted} from "./bargainingPrompts.js";
import {negotiationAction, negotiationFormat, negotiationRules, negotiationSystemParts, negotiationTurn} from "./negotiationPrompts.js";
import {persuasionAction, persuasionFormat, persuasionRules, persuasionTurn} from "./persuasionPrompts.js";
import type {ActionSpec} from "../../contract/game.js";
import type {ChatMessage} from "../../llm/types.js";
import type {Narrator, PlayerPrompt} from "../../contract/narrator.js";
import {numberField} from "../../llm/parseReply.js";
import {personaText, ultimatumGoal, type PersonaGoal} from "../negotiationarena/personas.js";
import type {GleeObservation, GleeView, Role} from "./types.js";

/** The system message's rules for the observing player. */
export function gleeRules(obs: GleeObservation): string {
  const v = obs.view;
  switch (v.family) {
    case "bargaining":
      return bargainingRules(v);
    case "negotiation":
      return negotiationRules(v);
    case "persuasion":
      return persuasionRules(v);
  }
}

/** The JSON format a model is asked to answer in, for one legal action (the authors' wording, per family). */
export function gleeFormat(spec: ActionSpec, obs: GleeObservation): string {
  const v = obs.view;
  if (v.family === "persuasion") return persuasionFormat(v);
  if (v.family === "negotiation") return negotiationFormat(v, obs.round, spec.type === "decision");
  return bargainingFormat(spec, v);
}

/**
 * The message of this turn: everything that happened since the player's
 * `previous` observation (null at its first turn), then what to do now
 * (D.2: "all the information accumulated since its previous turn").
 */
export function gleeUpdate(obs: GleeObservation, previous: GleeObservation | null): string {
  switch (obs.view.family) {
    case "bargaining":
      return bargainingTurn(obs, previous);
    case "negotiation":
      return negotiationTurn(obs, previous);
    case "persuasion":
      return persuasionTurn(obs, previous);
  }
}

// ------------------------------------------------------------ the conversation (D.2)

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
 * The system message a turn is sent with, in the authors' layout
 * (`players/base_player.py` `edit_system_message`): the rules, a newline,
 * this turn's JSON format, rewritten every turn.
 */
export function gleeSystem(obs: GleeObservation, prompts: PlayerPrompt["prompts"] = null): string {
  const {rules, format} = gleeSystemParts(obs, prompts);
  return format ? `${rules}\n${format}` : rules;
}

/** The two parts of gleeSystem: the rules, the same at every turn of a game, and this turn's JSON format ("" when nothing is asked). */
export function gleeSystemParts(obs: GleeObservation, prompts: PlayerPrompt["prompts"] = null): {rules: string; format: string} {
  switch (obs.view.family) {
    case "bargaining":
      return bargainingSystemParts(obs, prompts === "paper" ? "paper" : "code");
    case "negotiation":
      return negotiationSystemParts(obs);
    case "persuasion":
      return {rules: persuasionRules(obs.view), format: obs.legal.length ? persuasionFormat(obs.view) : ""};
  }
}

/** A turn's user message, as the player's `prompts` choice prints it (bargaining: D.2's printing with "paper"). */
function turnMessage(obs: GleeObservation, previous: GleeObservation | null, prompts: PlayerPrompt["prompts"]): string {
  const text = gleeUpdate(obs, previous);
  return prompts === "paper" && obs.view.family === "bargaining" ? turnAsPrinted(text) : text;
}

/**
 * The request of this turn in the "fixed-system" layout: its user message,
 * then on the next line the format the authors' layout puts in the system
 * message (a request to answer again already repeats every format).
 */
function withFormat(text: string, obs: GleeObservation, prompts: PlayerPrompt["prompts"]): string {
  const {format} = gleeSystemParts(obs, prompts);
  return format && !obs.retry ? `${text}\n${format}` : text;
}

/**
 * GLEE's conversation (D.2). The system message is the rules and the
 * response format (`gleeSystem`), then the LLM player's `extra` (persona,
 * chain of thought). Each turn adds one user message holding everything
 * that happened since this player's previous turn plus what to do now, and
 * the model's reply as an assistant message. A rule break stays in the
 * conversation: the next user message states the error and repeats the
 * format (`keepsRuleBreaks`; the authors' code re-sends the same request
 * without saying what was wrong). With the player's layout "fixed-system"
 * the system message is the rules alone, the same all game, and this
 * turn's format ends the last user message (the history stays as the
 * authors' layout has it, without formats), so that each call's prompt
 * begins with the whole of the previous call's but that format.
 */
export const gleeNarrator: Narrator<GleeView> = {
  /** "paper": bargaining as Appendix D.2 prints it (the authors' code is the default; see the Guide's Prompts). */
  prompts: ["paper"],
  promptNotes: {
    paper: "bargaining's rules and turns as Appendix D.2 prints them, the rules one paragraph and single spaces, and nothing in negotiation and persuasion, whose prompts the paper does not print",
    code: "its default words already are the authors' code's (eilamshapira/GLEE at 3c9efe03), and the code's one other difference, telling a player the other's inflation loss under incomplete information, needs a discount factor that player is not told (§2.1)",
  },
  keepsRuleBreaks: true,
  messages(obs, past, extra, _notes, player) {
    const prompts = player?.prompts ?? null;
    const turns = past.map((p) => p.observation);
    turns.push(obs);
    let start = 0;
    if (restartsEachRound(obs.view)) while (turns[start].round !== obs.round) start++;
    const fixed = player?.layout === "fixed-system";
    const system = fixed ? gleeSystemParts(obs, prompts).rules : gleeSystem(obs, prompts);
    const messages: ChatMessage[] = [{role: "system", content: [system, extra].filter(Boolean).join("\n\n")}];
    for (let i = start; i < turns.length; i++) {
      const turn = turns[i];
      const text = turn.retry ? retryMessage(turn) : turnMessage(turn, i > 0 ? turns[i - 1] : null, prompts);
      messages.push({role: "user", content: fixed && i === turns.length - 1 ? withFormat(text, turn, prompts) : text});
      if (i < past.length) messages.push({role: "assistant", content: past[i].raw});
    }
    return messages;
  },
  action: (json, obs) => toAction(obs.view.family === "persuasion" ? persuasionAction(json, obs.view) : obs.view.family === "negotiation" ? negotiationAction(json) : json, obs.legal),
  persona: (name, obs) => personaText(name, personaGoal(obs.view.role)),
};
