/**
 * Structured output on the fake LLM servers (fakeLlm.ts), as each provider
 * documents it:
 * - OpenAI chat completions, `response_format: {type: "json_schema",
 *   json_schema: {name, schema, strict: true}}`: the name matches
 *   ^[a-zA-Z0-9_-]{1,64}$; in strict mode the root is an object (not
 *   `anyOf`), every object sets `additionalProperties: false` and lists all
 *   its properties in `required`, and only the supported keywords appear;
 *   else 400. The answer is JSON content conforming to the schema.
 * - Anthropic Messages, `tools` + `tool_choice: {type: "tool", name}`: a tool
 *   name matches ^[a-zA-Z0-9_-]{1,64}$, its `input_schema` has type
 *   "object", the forced tool exists; else 400. The answer is a `tool_use`
 *   block whose `input` is the object, stop_reason "tool_use".
 * - Gemini generateContent, `generationConfig.responseSchema`: needs
 *   `responseMimeType: "application/json"`, excludes `responseJsonSchema`,
 *   and holds only the fields of the `Schema` type with types of its `Type`
 *   enum (an unknown field such as `additionalProperties` is refused as
 *   "Invalid JSON payload"); else 400. The answer is JSON text.
 * A scripted answer that does not conform to the schema is a bug of the
 * test, reported as such (the providers guarantee conformance).
 */

type Json = Record<string, any>;

export type StructuredWire = "openai" | "anthropic" | "gemini";

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const OPENAI_KEYWORDS = new Set(["type", "properties", "required", "additionalProperties", "enum", "const", "anyOf", "items", "description", "title", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems", "pattern", "format", "$ref", "$defs"]);
const GEMINI_FIELDS = new Set(["anyOf", "default", "description", "enum", "example", "format", "items", "maxItems", "maxLength", "maxProperties", "maximum", "minItems", "minLength", "minProperties", "minimum", "nullable", "pattern", "properties", "propertyOrdering", "required", "title", "type"]);
const GEMINI_TYPES = new Set(["TYPE_UNSPECIFIED", "STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"]);

/** Why OpenAI's strict mode refuses `s` at `path`, or null. */
function openaiStrictProblem(s: Json, path: string): string | null {
  if (!s || typeof s !== "object" || Array.isArray(s)) return `${path}: a schema must be an object`;
  for (const k of Object.keys(s)) if (!OPENAI_KEYWORDS.has(k)) return `${path}: '${k}' is not permitted`;
  const types = Array.isArray(s.type) ? s.type : [s.type];
  if (types.includes("object")) {
    if (s.additionalProperties !== false) return `${path}: 'additionalProperties' is required to be supplied and to be false`;
    const props = Object.keys(s.properties ?? {});
    const required = new Set(s.required ?? []);
    const missing = props.filter((p) => !required.has(p));
    if (missing.length) return `${path}: 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing[0]}'`;
    for (const p of props) {
      const problem = openaiStrictProblem(s.properties[p], `${path}.properties.${p}`);
      if (problem) return problem;
    }
  }
  if (s.items) return openaiStrictProblem(s.items, `${path}.items`);
  for (const [i, b] of (s.anyOf ?? []).entries()) {
    const problem = openaiStrictProblem(b, `${path}.anyOf[${i}]`);
    if (problem) return problem;
  }
  return null;
}

function geminiProblem(s: Json, path: string): string | null {
  if (!s || typeof s !== "object" || Array.isArray(s)) return `${path}: expected a Schema object`;
  for (const k of Object.keys(s)) if (!GEMINI_FIELDS.has(k)) return `Invalid JSON payload received. Unknown name "${k}" at '${path}': Cannot find field.`;
  if (s.type !== undefined && !GEMINI_TYPES.has(String(s.type).toUpperCase())) return `Invalid value at '${path}.type': ${JSON.stringify(s.type)}`;
  if (s.enum !== undefined && !(Array.isArray(s.enum) && s.enum.every((v: unknown) => typeof v === "string"))) return `Invalid value at '${path}.enum': enum values are strings`;
  for (const [k, v] of Object.entries(s.properties ?? {})) {
    const problem = geminiProblem(v as Json, `${path}.properties[${JSON.stringify(k)}]`);
    if (problem) return problem;
  }
  if (s.items) return geminiProblem(s.items, `${path}.items`);
  for (const [i, b] of (s.anyOf ?? []).entries()) {
    const problem = geminiProblem(b, `${path}.any_of[${i}]`);
    if (problem) return problem;
  }
  return null;
}

/** Why the provider refuses the request's structured-output part (a 400), or null (also when it asks for none). */
export function structuredProblem(wire: StructuredWire, body: Json): string | null {
  if (wire === "openai") {
    const rf = body.response_format;
    if (!rf || rf.type !== "json_schema") return null;
    const js = rf.json_schema;
    if (!js || typeof js.name !== "string" || !NAME.test(js.name)) return "Invalid 'response_format.json_schema.name': must match ^[a-zA-Z0-9_-]{1,64}$";
    if (js.strict !== true) return null;
    const schema = js.schema;
    if (!schema || (Array.isArray(schema.type) ? !schema.type.includes("object") : schema.type !== "object") || schema.anyOf) {
      return `Invalid schema for response_format '${js.name}': schema must be a JSON Schema of 'type: "object"', got 'type: "${schema?.type ?? "None"}"'.`;
    }
    const problem = openaiStrictProblem(schema, "context=()");
    return problem ? `Invalid schema for response_format '${js.name}': In ${problem}.` : null;
  }
  if (wire === "anthropic") {
    if (!body.tools && !body.tool_choice) return null;
    for (const [i, t] of (body.tools ?? []).entries()) {
      if (typeof t?.name !== "string" || !NAME.test(t.name)) return `tools.${i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`;
      if (t.input_schema?.type !== "object") return `tools.${i}.custom.input_schema.type: Input should be 'object'`;
    }
    const choice = body.tool_choice;
    if (choice?.type === "tool" && !(body.tools ?? []).some((t: Json) => t.name === choice.name)) return `tool_choice.name: tool '${choice.name}' not found in tools`;
    return null;
  }
  const config = body.generationConfig ?? {};
  if (config.responseSchema === undefined) return null;
  if (config.responseJsonSchema !== undefined) return "responseSchema and responseJsonSchema cannot both be set";
  if (config.responseMimeType !== "application/json") return `response_schema needs response_mime_type "application/json", got ${JSON.stringify(config.responseMimeType ?? "text/plain")}`;
  return geminiProblem(config.responseSchema, "generation_config.response_schema");
}

/** The schema the request constrains the answer to (as sent), and the forced tool's name (Anthropic); null when it asks for free text. */
export function requestedSchema(wire: StructuredWire, body: Json): {schema: Json; tool: string | null} | null {
  if (wire === "openai") return body.response_format?.type === "json_schema" ? {schema: body.response_format.json_schema.schema, tool: null} : null;
  if (wire === "anthropic") {
    const choice = body.tool_choice;
    const tool = choice?.type === "tool" ? (body.tools ?? []).find((t: Json) => t.name === choice.name) : null;
    return tool ? {schema: tool.input_schema, tool: tool.name} : null;
  }
  const schema = body.generationConfig?.responseSchema;
  return schema ? {schema, tool: null} : null;
}

/** Why `value` does not conform to `s` (a JSON schema or a Gemini Schema), or null. */
export function nonConforming(s: Json, value: unknown, path = "$"): string | null {
  if (Array.isArray(s.anyOf)) return s.anyOf.some((b: Json) => nonConforming(b, value, path) === null) ? null : `${path}: matches no branch of anyOf`;
  const types: string[] = (Array.isArray(s.type) ? s.type : s.type === undefined ? [] : [s.type]).map((t: string) => t.toLowerCase());
  if (value === null) return types.includes("null") || s.nullable ? null : `${path}: null not allowed`;
  if (Array.isArray(s.enum) && !s.enum.includes(value)) return `${path}: ${JSON.stringify(value)} not in enum`;
  const type = types.find((t) => t !== "null");
  if (type === "object") {
    if (typeof value !== "object" || Array.isArray(value)) return `${path}: expected an object`;
    const props: Json = s.properties ?? {};
    for (const k of s.required ?? []) if (!(k in (value as Json))) return `${path}.${k}: required`;
    for (const k of Object.keys(value as Json)) {
      if (!(k in props)) return `${path}.${k}: not a property of the schema`;
      const problem = nonConforming(props[k], (value as Json)[k], `${path}.${k}`);
      if (problem) return problem;
    }
    return null;
  }
  if (type === "array") {
    if (!Array.isArray(value)) return `${path}: expected an array`;
    if (s.minItems !== undefined && value.length < Number(s.minItems)) return `${path}: too few items`;
    if (s.maxItems !== undefined && value.length > Number(s.maxItems)) return `${path}: too many items`;
    for (const [i, v] of value.entries()) {
      const problem = s.items ? nonConforming(s.items, v, `${path}[${i}]`) : null;
      if (problem) return problem;
    }
    return null;
  }
  if (type === "integer" || type === "number") {
    if (typeof value !== "number" || (type === "integer" && !Number.isInteger(value))) return `${path}: expected ${type}`;
    if (s.minimum !== undefined && value < s.minimum) return `${path}: below minimum`;
    if (s.maximum !== undefined && value > s.maximum) return `${path}: above maximum`;
    return null;
  }
  if (type === "string") return typeof value === "string" ? null : `${path}: expected a string`;
  if (type === "boolean") return typeof value === "boolean" ? null : `${path}: expected a boolean`;
  return null;
}

/** The action types a schema of legal actions allows (the `type` enums of its `action` branches), JSON schema or Gemini Schema alike. */
export function schemaActionTypes(schema: Json): string[] {
  const action = schema.properties?.action ?? {};
  const branches: Json[] = action.anyOf ?? [action];
  return branches.flatMap((b) => b.properties?.type?.enum ?? []);
}
