/**
 * Google Gemini generateContent (POST {base_url}/v1beta/models/{model}:generateContent)
 * through the official `@google/genai` SDK. System messages become
 * `systemInstruction`; assistant turns have role "model".
 *
 * The SDK retries only when `httpOptions.retryOptions` is given, so none is:
 * complete.ts retries. Its ApiError carries no headers, which is why every
 * client reads status and Retry-After through transport.ts's recordingFetch.
 */
import {GoogleGenAI, type GenerateContentResponseUsageMetadata} from "@google/genai";
import type {ChatMessage, ProviderCall, Sampling, Usage} from "./types.js";
import {thinkingBudgetOf} from "./reasoning.js";
import {sdkTimeout, type ClientSettings} from "./openaiChat.js";
import {bodyString, bodyText, recordingFetch} from "./transport.js";
import {alternate} from "./anthropicMessages.js";
import {geminiResponseConfig} from "./structuredOutput.js";
import {outputLimit} from "./callBound.js";
import {addCounts, fieldsOf, tokenCount, usageWarner, type UsageReport} from "./usage.js";

export const geminiDefaultBaseURL = "https://generativelanguage.googleapis.com";

export function geminiGenerate(model: string, settings: ClientSettings): ProviderCall {
  const client = new GoogleGenAI({
    // Explicit, so that GOOGLE_GENAI_USE_VERTEXAI or GOOGLE_API_KEY in the environment cannot redirect the call.
    vertexai: false,
    apiKey: settings.apiKey ?? "no-key",
    httpOptions: {baseUrl: settings.baseURL ?? geminiDefaultBaseURL, timeout: sdkTimeout(settings.timeoutMs), fetch: recordingFetch},
  });
  const warn = usageWarner("gemini", model);
  return async (messages: ChatMessage[], sampling: Sampling, signal: AbortSignal) => {
    const system = messages.filter((m) => m.role === "system").map((m) => m.content).join("\n\n");
    const contents = alternate(messages.filter((m) => m.role !== "system")).map((m) => ({
      role: m.role === "assistant" ? "model" : "user",
      parts: [{text: m.content}],
    }));
    const budget = thinkingBudgetOf(sampling);
    const response = await client.models.generateContent({
      model,
      contents,
      config: {
        abortSignal: signal,
        // Thinking tokens count against maxOutputTokens (reasoning.ts): the answer's own limit on top of the budget (callBound.ts).
        maxOutputTokens: outputLimit("gemini", model, sampling)!,
        ...(system && {systemInstruction: system}),
        // includeThoughts: the thought parts come back (as summaries), for turns.reasoning; none when thinking is off.
        ...(budget !== null && {thinkingConfig: {thinkingBudget: budget, ...(budget > 0 && {includeThoughts: true})}}),
        ...(sampling.temperature !== undefined && {temperature: sampling.temperature}),
        ...(sampling.top_p !== undefined && {topP: sampling.top_p}),
        ...(sampling.seed !== undefined && {seed: sampling.seed}),
        ...(sampling.response_schema && geminiResponseConfig(sampling.response_schema)),
      },
    });
    const candidate = response.candidates?.[0];
    const parts = candidate?.content?.parts ?? [];
    const text = parts.map((p) => (p.thought ? "" : bodyText(p.text, "text part"))).join("");
    const thinking = parts.map((p) => (p.thought ? (bodyString(p.text) ?? "") : "")).filter(Boolean).join("\n\n");
    return {
      text,
      thinking: thinking || null,
      usage: geminiUsage(response.usageMetadata, warn),
      finish_reason: bodyString(candidate?.finishReason),
      model: bodyString(response.modelVersion),
    };
  };
}

/**
 * Gemini usage to ours: promptTokenCount includes cachedContentTokenCount;
 * candidatesTokenCount leaves out thoughtsTokenCount, which is output too.
 * The API's JSON omits a count that is zero (proto3), so an absent count is
 * 0, except the prompt's (a prompt is never empty: unknown). A reply
 * without usageMetadata says nothing: its counts are unknown. Every count
 * is checked (usage.ts): one that is not a count is unknown and reported,
 * and so is the output it is part of.
 */
export function geminiUsage(meta: GenerateContentResponseUsageMetadata | undefined, report: UsageReport = () => {}): Usage {
  if (!meta || typeof meta !== "object" || Array.isArray(meta)) {
    report("usageMetadata", meta ?? undefined);
    return {input_tokens: null, output_tokens: null};
  }
  const u = fieldsOf(meta);
  const count = (field: string) => tokenCount(u[field], `usageMetadata.${field}`, report, "zero") ?? null;
  const thoughts = count("thoughtsTokenCount");
  return {
    input_tokens: tokenCount(u.promptTokenCount, "usageMetadata.promptTokenCount", report) ?? null,
    output_tokens: addCounts(count("candidatesTokenCount"), thoughts),
    cached_input_tokens: count("cachedContentTokenCount"),
    reasoning_tokens: thoughts,
  };
}
