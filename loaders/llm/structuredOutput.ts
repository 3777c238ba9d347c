/**
 * Structured output, a harness factor of an LLM player (`structured_output:
 * true`): the legal actions the game publishes with every observation
 * (loaders/contract/game.ts ActionSpec) become a JSON schema the provider
 * constrains the answer to, and the answer is the game's action itself.
 *
 * One schema, in the subset OpenAI's Structured Outputs accept in strict
 * mode (every object closes with `additionalProperties: false` and lists all
 * its properties as required; an optional field is required but may be
 * null): `{"action": <one of the legal actions>}`, each legal action an
 * object whose `type` is that action's type and whose other fields are its
 * numbers (`minimum`, `maximum`, integer or number), lists (`minItems` =
 * `maxItems` = the length), choices (`enum`) and text. A rule no schema can
 * state (`sum`: GLEE's shares adding up to the pie) is said in the
 * action's description and still checked by the game. The root is an
 * object because every provider wants one (OpenAI's root may not be
 * `anyOf`; Anthropic's tool input is an object).
 *
 * Per provider (the requests are built by the provider clients from these):
 * - OpenAI chat completions: `response_format: {type: "json_schema",
 *   json_schema: {name, schema, strict: true}}`; the answer is the message
 *   content, JSON text conforming to the schema.
 * - Anthropic Messages: a tool `{name, description, input_schema}` and
 *   `tool_choice: {type: "tool", name}`, which makes the model call it; the
 *   answer is the `tool_use` block's `input`.
 * - Gemini generateContent: `responseMimeType: "application/json"` and
 *   `responseSchema`, the OpenAPI 3.0 subset of the `Schema` type (upper-case
 *   types, `nullable` instead of a null type, enums of strings marked
 *   `format: "enum"`, `minItems`/`maxItems` as strings, no
 *   `additionalProperties`); the answer is JSON text.
 */
import type {ActionSpec, NumberSpec} from "../../src/lib/actionSpec.js";
import {MAX_ANSWER_DEPTH, deeperThan} from "../../src/lib/untrustedJson.js";

/** A JSON schema as sent (plain data). */
export type JsonSchema = Record<string, unknown>;

/** The name of the response format (OpenAI) and of the tool (Anthropic). */
export const ACTION_SCHEMA_NAME = "game_action";

/** What the schema's description tells the model. */
export const ACTION_SCHEMA_DESCRIPTION = "Your move in the game now: exactly one of the legal actions.";

/** A schema to send with a request, as `Sampling.response_schema` carries it. */
export interface ResponseSchema {
  name: string;
  description: string;
  schema: JsonSchema;
}

const nullable = (type: string, optional: boolean): string | string[] => (optional ? [type, "null"] : type);

function numberSchema(range: NumberSpec, optional: boolean): JsonSchema {
  return {
    type: nullable(range.integer ? "integer" : "number", optional),
    ...(range.min !== undefined && {minimum: range.min}),
    ...(range.max !== undefined && {maximum: range.max}),
  };
}

/** One legal action as a closed object schema (module comment). */
export function actionSchema(spec: ActionSpec): JsonSchema {
  const optional = new Set(spec.optional ?? []);
  const properties: Record<string, JsonSchema> = {type: {type: "string", enum: [spec.type]}};
  for (const [field, range] of Object.entries(spec.numbers ?? {})) properties[field] = numberSchema(range, optional.has(field));
  for (const [field, {length, item}] of Object.entries(spec.lists ?? {})) {
    properties[field] = {type: nullable("array", optional.has(field)), items: numberSchema(item, false), minItems: length, maxItems: length};
  }
  for (const [field, values] of Object.entries(spec.choices ?? {})) {
    const canBeNull = optional.has(field) || values.includes(null);
    properties[field] = {type: nullable("string", canBeNull), enum: canBeNull && !values.includes(null) ? [...values, null] : [...values]};
  }
  if (spec.text) properties[spec.text.field] = {type: nullable("string", !spec.text.required)};
  const rules = spec.sum ? ` ${spec.sum.fields.join(" + ")} must equal ${spec.sum.equals}.` : "";
  return {
    type: "object",
    description: `The action "${spec.type}".${rules}`,
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  };
}

/** What the reasoning field of a chain-of-thought player's schema tells the model. */
export const REASONING_DESCRIPTION = "Your step-by-step reasoning before you choose the action. It is private: the other player never sees it.";

/**
 * The schema of an answer now: `{"action": one of the legal actions}`, with
 * `reasoning` first for a player with chain of thought (a schema leaves no
 * room for the tags the plain-text instruction asks for; properties are
 * generated in order, so the reasoning comes before the action); null when
 * there is no legal action.
 */
export function legalActionsSchema(legal: readonly ActionSpec[], {reasoning = false} = {}): ResponseSchema | null {
  if (!legal.length) return null;
  const branches = legal.map(actionSchema);
  const action = branches.length === 1 ? branches[0] : {anyOf: branches};
  return {
    name: ACTION_SCHEMA_NAME,
    description: ACTION_SCHEMA_DESCRIPTION,
    schema: {
      type: "object",
      properties: reasoning ? {reasoning: {type: "string", description: REASONING_DESCRIPTION}, action} : {action},
      required: reasoning ? ["reasoning", "action"] : ["action"],
      additionalProperties: false,
    },
  };
}

/**
 * The game's action in a structured answer (JSON text of `{"action": ...}`),
 * with the null fields left out (an optional field the model did not use),
 * or why it is not one (a rule break, never an exception).
 */
export function readStructuredAnswer(text: string): {action: Record<string, unknown>; reasoning?: string} | {error: string} {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {error: "structured output: the answer is not JSON"};
  }
  // n levels take at least 2n characters; deeper is no action, and whatever handles an action may walk it recursively.
  if (text.length > 2 * MAX_ANSWER_DEPTH && deeperThan(value, MAX_ANSWER_DEPTH)) return {error: `structured output: the answer is nested more than ${MAX_ANSWER_DEPTH} levels deep`};
  const action = (value as {action?: unknown} | null)?.action;
  if (action === null || typeof action !== "object" || Array.isArray(action)) return {error: 'structured output: expected an object with an "action" object'};
  const reasoning = (value as {reasoning?: unknown}).reasoning;
  return {action: Object.fromEntries(Object.entries(action).filter(([, v]) => v !== null)), ...(typeof reasoning === "string" && reasoning.trim() && {reasoning: reasoning.trim()})};
}

/** OpenAI chat completions' `response_format` for `s`. */
export function openaiResponseFormat(s: ResponseSchema) {
  return {type: "json_schema" as const, json_schema: {name: s.name, description: s.description, schema: s.schema, strict: true}};
}

/** Anthropic Messages' forced tool for `s`: `tools` and `tool_choice`. */
export function anthropicTool(s: ResponseSchema) {
  return {
    tools: [{name: s.name, description: s.description, input_schema: s.schema as {type: "object"; [k: string]: unknown}}],
    tool_choice: {type: "tool" as const, name: s.name},
  };
}

/** The JSON schema `s` in Gemini's `Schema` form (module comment). */
export function geminiSchema(s: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  const type = s.type;
  if (type !== undefined) {
    const types = Array.isArray(type) ? (type as string[]) : [type as string];
    const real = types.filter((t) => t !== "null");
    if (real.length !== 1) throw new Error(`Gemini's Schema has one type per field, got ${JSON.stringify(type)}`);
    out.type = real[0].toUpperCase();
    if (types.includes("null")) out.nullable = true;
  }
  if (typeof s.description === "string") out.description = s.description;
  if (Array.isArray(s.enum)) {
    const values = s.enum.filter((v) => v !== null);
    out.enum = values.map(String);
    out.format = "enum";
    if (values.length < s.enum.length) out.nullable = true;
  }
  for (const k of ["minimum", "maximum"] as const) if (typeof s[k] === "number") out[k] = s[k];
  for (const k of ["minItems", "maxItems"] as const) if (typeof s[k] === "number") out[k] = String(s[k]);
  if (s.items) out.items = geminiSchema(s.items as JsonSchema);
  if (Array.isArray(s.anyOf)) out.anyOf = (s.anyOf as JsonSchema[]).map(geminiSchema);
  if (s.properties) {
    const props = s.properties as Record<string, JsonSchema>;
    out.properties = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, geminiSchema(v)]));
    out.propertyOrdering = Object.keys(props);
  }
  if (Array.isArray(s.required)) out.required = [...(s.required as string[])];
  return out;
}

/** Gemini's generation config entries for `s`. */
export function geminiResponseConfig(s: ResponseSchema) {
  return {responseMimeType: "application/json", responseSchema: geminiSchema(s.schema)};
}
