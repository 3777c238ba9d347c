/**
 * Anthropic Messages (POST {base_url}/v1/messages) through the official
 * `@anthropic-ai/sdk`. System messages go to the top-level `system` field;
 * consecutive turns of the same role are merged, since the protocol wants
 * user and assistant to alternate.
 *
 * The SDK's retries are off (complete.ts retries), its OpenTelemetry spans
 * are off (they could carry prompt text), and an explicit apiKey is always
 * passed so the SDK never goes looking for credential files.
 */
import Anthropic from "@anthropic-ai/sdk";
import type {ChatMessage, ProviderCall, Sampling, Usage} from "./types.js";
import {anthropicThinking} from "./reasoning.js";
import {sdkTimeout, type ClientSettings} from "./openaiChat.js";
import {bodyString, bodyText, recordingFetch} from "./transport.js";
import {jsonText} from "../../src/lib/untrustedJson.js";
import {anthropicTool} from "./structuredOutput.js";
import {outputLimit} from "./callBound.js";
import {addCounts, fieldsOf, tokenCount, usageWarner, type UsageReport} from "./usage.js";

export const anthropicDefaultBaseURL = "https://api.anthropic.com";

export function anthropicMessages(model: string, settings: ClientSettings): ProviderCall {
  const client = new Anthropic({
    apiKey: settings.apiKey ?? "no-key",
    baseURL: settings.baseURL ?? anthropicDefaultBaseURL,
    maxRetries: 0,
    timeout: sdkTimeout(settings.timeoutMs),
    fetch: recordingFetch,
    logLevel: "off",
    openTelemetry: false,
  });
  const warn = usageWarner("anthropic", model);
  return async (messages: ChatMessage[], sampling: Sampling, signal: AbortSignal) => {
    const system = messages.filter((m) => m.role === "system").map((m) => m.content).join("\n\n");
    const turns = alternate(messages.filter((m) => m.role !== "system") as Array<{role: "user" | "assistant"; content: string}>);
    const asked = anthropicThinking(model, sampling);
    const response = await client.messages.create(
      {
        model,
        // With thinking, max_tokens must exceed budget_tokens (reasoning.ts): the answer's own limit on top of the thinking's room (callBound.ts).
        max_tokens: outputLimit("anthropic", model, sampling)!,
        messages: cachedTurns(turns),
        ...(system && {system: [{type: "text" as const, text: system, cache_control: {type: "ephemeral" as const}}]}),
        ...(asked && "budget" in asked && {thinking: {type: "enabled" as const, budget_tokens: asked.budget}}),
        // Adaptive thinking: the thinking comes back summarized (the default "omitted" of some models would lose it).
        ...(asked && "effort" in asked && {thinking: {type: "adaptive" as const, display: "summarized" as const}, output_config: {effort: asked.effort}}),
        ...(sampling.temperature !== undefined && {temperature: sampling.temperature}),
        ...(sampling.top_p !== undefined && {top_p: sampling.top_p}),
        ...(sampling.response_schema && anthropicTool(sampling.response_schema)),
      },
      {signal, maxRetries: 0},
    );
    const blocks = response.content ?? [];
    // A forced tool's call (structured output) is the answer: its input as JSON text (written without recursion: the input may nest at any depth).
    const text = blocks.map((block) => (block.type === "text" ? bodyText(block.text, "text block") : block.type === "tool_use" ? (jsonText(block.input) ?? "") : "")).join("");
    const thinking = blocks.map((block) => (block.type === "thinking" ? (bodyString(block.thinking) ?? "") : "")).filter(Boolean).join("\n\n");
    return {
      text,
      thinking: thinking || null,
      usage: anthropicUsage(response.usage, warn),
      finish_reason: bodyString(response.stop_reason),
      model: bodyString(response.model),
    };
  };
}

/**
 * Prompt caching (https://docs.claude.com/en/docs/build-with-claude/prompt-caching):
 * a `cache_control` breakpoint on the system prompt (set above) and one on
 * each of the last two turns (at most 4 breakpoints, this uses 3). Anthropic
 * reads only prefixes that an earlier request wrote at a breakpoint: the
 * next call of the game, which resends this conversation and adds to it,
 * reads it up to the last turn, or, when the last turn is not resent as it
 * was (the "fixed-system" prompt layout ends it with this turn's answer
 * format), up to the turn before it. Prefixes shorter than the model's
 * minimum (1,024 to 4,096 tokens) are simply not cached.
 */
export function cachedTurns(turns: Array<{role: "user" | "assistant"; content: string}>): Anthropic.MessageParam[] {
  return turns.map((t, i) =>
    i >= turns.length - 2 ? {role: t.role, content: [{type: "text" as const, text: t.content, cache_control: {type: "ephemeral" as const}}]} : t,
  );
}

/**
 * Anthropic usage to ours: its input_tokens leave out the tokens read from and written to the cache, which are all input too.
 * Every count is checked (usage.ts): one that is missing or not a count is unknown and reported, and so is the input it is part of.
 */
export function anthropicUsage(usage: Partial<Anthropic.Usage> | undefined, report: UsageReport = () => {}): Usage {
  const u = fieldsOf(usage);
  const read = tokenCount(u.cache_read_input_tokens, "usage.cache_read_input_tokens", report, "unsaid");
  const written = tokenCount(u.cache_creation_input_tokens, "usage.cache_creation_input_tokens", report, "unsaid");
  const thinking = tokenCount(fieldsOf(u.output_tokens_details).thinking_tokens, "usage.output_tokens_details.thinking_tokens", report, "unsaid");
  const uncached = tokenCount(u.input_tokens, "usage.input_tokens", report) ?? null;
  return {
    input_tokens: addCounts(addCounts(uncached, read === undefined ? 0 : read), written === undefined ? 0 : written),
    output_tokens: tokenCount(u.output_tokens, "usage.output_tokens", report) ?? null,
    ...(read !== undefined && {cached_input_tokens: read}),
    ...(written !== undefined && {cache_write_tokens: written}),
    ...(thinking !== undefined && {reasoning_tokens: thinking}),
  };
}

/** Merges consecutive same-role turns (joined by a blank line). */
export function alternate<T extends {role: string; content: string}>(turns: T[]): T[] {
  const out: T[] = [];
  for (const t of turns) {
    const last = out[out.length - 1];
    if (last && last.role === t.role) out[out.length - 1] = {...last, content: `${last.content}\n\n${t.content}`};
    else out.push({...t});
  }
  return out;
}
