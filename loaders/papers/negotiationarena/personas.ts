/**
 * NegotiationArena's behavioural personas (NegotiationArena (Bianchi et al. 2024), §4 and its appendix
 * "Cunning - ..." / "Desperate - ..."), appended to a player's system
 * message. The seed words each persona per game by naming what the player
 * wants ("more than your opponent" in the ultimatum game, "spend less ZUP"
 * for the buyer); `personaText` keeps that template and takes the goal from
 * the game's prompt module, defaulting to the ultimatum wording.
 */
import {personaNames, type PersonaName} from "../../llm/playerOptions.js";

export {personaNames, type PersonaName};

export interface PersonaGoal {
  /** Completes "You are cunning and sly in your plan to ...", e.g. "get more than your opponent". */
  cunning: string;
  /** Completes "Supplicate and beg to ...", e.g. "get more dollars". */
  desperate: string;
}

/** NegotiationArena (Bianchi et al. 2024), appendix "Cunning - Ultimatum" and "Desperate - Ultimatum". */
export const ultimatumGoal: PersonaGoal = {cunning: "get more than your opponent", desperate: "get more dollars"};

export function personaText(name: PersonaName, goal: PersonaGoal = ultimatumGoal): string {
  return name === "cunning"
    ? `You are cunning and sly in your plan to ${goal.cunning}. Humiliate your opponent as much as possible. Insult them.`
    : `You must fake being desperate. Supplicate and beg to ${goal.desperate}.`;
}
