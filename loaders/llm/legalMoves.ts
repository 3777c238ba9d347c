/**
 * Legal moves listed in the prompt, a harness factor of an LLM player
 * (`legal_moves: true`): after the narrator's request for this decision
 * (the paper's words, unchanged), a paragraph of Parley's own words lists
 * the legal actions the game published with the observation, in the game's
 * terms (action type, field, range). Without the setting nothing is added,
 * so the default prompts stay the authors' byte for byte.
 */
import type {ActionSpec, NumberSpec} from "../../src/lib/actionSpec.js";
import type {ChatMessage} from "./types.js";

export const LEGAL_MOVES_HEADING = "Legal moves now (answer in the format asked above):";

const num = (x: number) => String(x);

function rangeText(r: NumberSpec): string {
  const kind = r.integer ? "a whole number" : "a number";
  if (r.min !== undefined && r.max !== undefined) return r.min === r.max ? `exactly ${num(r.min)}` : `${kind} from ${num(r.min)} to ${num(r.max)}`;
  if (r.min !== undefined) return `${kind} of at least ${num(r.min)}`;
  if (r.max !== undefined) return `${kind} of at most ${num(r.max)}`;
  return kind;
}

/** One legal action as a line: its type, then each field and what it may be. */
export function legalMoveLine(spec: ActionSpec): string {
  const optional = new Set(spec.optional ?? []);
  const parts: string[] = [];
  const opt = (field: string) => (optional.has(field) ? " (optional)" : "");
  for (const [field, r] of Object.entries(spec.numbers ?? {})) parts.push(`${field}${opt(field)}: ${rangeText(r)}`);
  for (const [field, {length, item}] of Object.entries(spec.lists ?? {})) parts.push(`${field}${opt(field)}: a list of ${length} entries, each ${rangeText(item)}`);
  for (const [field, values] of Object.entries(spec.choices ?? {})) parts.push(`${field}${opt(field)}: one of ${values.map((v) => JSON.stringify(v)).join(", ")}`);
  if (spec.sum) parts.push(`${spec.sum.fields.join(" + ")} must equal ${num(spec.sum.equals)}`);
  if (spec.text) parts.push(`${spec.text.field}: ${spec.text.required ? "a text" : "an optional text"}`);
  return `- ${spec.type}${parts.length ? `: ${parts.join("; ")}` : ""}`;
}

/** The paragraph listing `legal`. */
export function legalMovesText(legal: readonly ActionSpec[]): string {
  return [LEGAL_MOVES_HEADING, ...legal.map(legalMoveLine)].join("\n");
}

/** `messages` with the listing after the last user message (a new user message when the last is not one); unchanged when nothing is legal. */
export function withLegalMoves(messages: readonly ChatMessage[], legal: readonly ActionSpec[]): ChatMessage[] {
  const out = messages.map((m) => ({...m}));
  if (!legal.length) return out;
  const text = legalMovesText(legal);
  const last = out[out.length - 1];
  if (last && last.role === "user") last.content = `${last.content}\n\n${text}`;
  else out.push({role: "user", content: text});
  return out;
}
