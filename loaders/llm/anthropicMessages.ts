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
import type {ChatMessage, ProviderCall, Sampling} from "./types.js";
import {sdkTimeout, type ClientSettings} from "./openaiChat.js";
import {recordingFetch} from "./transport.js";
import {anthropicTool} from "./structuredOutput.js";

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
  return async (messages: ChatMessage[], sampling: Sampling, signal: AbortSignal) => {
    const system = messages.filter((m) => m.role === "system").map((m) => m.content).join("\n\n");
    const turns = alternate(messages.filter((m) => m.role !== "system") as Array<{role: "user" | "assistant"; content: string}>);
    const response = await client.messages.create(
      {
        model,
        max_tokens: sampling.max_tokens,
        messages: turns,
        ...(system && {system}),
        ...(sampling.temperature !== undefined && {temperature: sampling.temperature}),
        ...(sampling.top_p !== undefined && {top_p: sampling.top_p}),
        ...(sampling.response_schema && anthropicTool(sampling.response_schema)),
      },
      {signal, maxRetries: 0},
    );
    const text = (response.content ?? [])
      // A forced tool's call (structured output) is the answer: its input as JSON text.
      .map((block) => (block.type === "text" ? block.text : block.type === "tool_use" ? JSON.stringify(block.input) : ""))
      .join("");
    return {
      text,
      usage: {input_tokens: response.usage?.input_tokens ?? 0, output_tokens: response.usage?.output_tokens ?? 0},
      finish_reason: response.stop_reason ?? null,
      model: response.model ?? null,
    };
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
