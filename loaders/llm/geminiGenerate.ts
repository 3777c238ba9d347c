/**
 * Google Gemini generateContent (POST {base_url}/v1beta/models/{model}:generateContent)
 * through the official `@google/genai` SDK. System messages become
 * `systemInstruction`; assistant turns have role "model".
 *
 * The SDK retries only when `httpOptions.retryOptions` is given, so none is:
 * complete.ts retries. Its ApiError carries no headers, which is why every
 * client reads status and Retry-After through transport.ts's recordingFetch.
 */
import {GoogleGenAI} from "@google/genai";
import type {ChatMessage, ProviderCall, Sampling} from "./types.js";
import {sdkTimeout, type ClientSettings} from "./openaiChat.js";
import {recordingFetch} from "./transport.js";
import {alternate} from "./anthropicMessages.js";
import {geminiResponseConfig} from "./structuredOutput.js";

export const geminiDefaultBaseURL = "https://generativelanguage.googleapis.com";

export function geminiGenerate(model: string, settings: ClientSettings): ProviderCall {
  const client = new GoogleGenAI({
    // Explicit, so that GOOGLE_GENAI_USE_VERTEXAI or GOOGLE_API_KEY in the environment cannot redirect the call.
    vertexai: false,
    apiKey: settings.apiKey ?? "no-key",
    httpOptions: {baseUrl: settings.baseURL ?? geminiDefaultBaseURL, timeout: sdkTimeout(settings.timeoutMs), fetch: recordingFetch},
  });
  return async (messages: ChatMessage[], sampling: Sampling, signal: AbortSignal) => {
    const system = messages.filter((m) => m.role === "system").map((m) => m.content).join("\n\n");
    const contents = alternate(messages.filter((m) => m.role !== "system")).map((m) => ({
      role: m.role === "assistant" ? "model" : "user",
      parts: [{text: m.content}],
    }));
    const response = await client.models.generateContent({
      model,
      contents,
      config: {
        abortSignal: signal,
        maxOutputTokens: sampling.max_tokens,
        ...(system && {systemInstruction: system}),
        ...(sampling.temperature !== undefined && {temperature: sampling.temperature}),
        ...(sampling.top_p !== undefined && {topP: sampling.top_p}),
        ...(sampling.seed !== undefined && {seed: sampling.seed}),
        ...(sampling.response_schema && geminiResponseConfig(sampling.response_schema)),
      },
    });
    const candidate = response.candidates?.[0];
    const text = (candidate?.content?.parts ?? []).map((p) => (p.thought ? "" : p.text ?? "")).join("");
    const meta = response.usageMetadata;
    return {
      text,
      usage: {
        input_tokens: meta?.promptTokenCount ?? 0,
        output_tokens: (meta?.candidatesTokenCount ?? 0) + (meta?.thoughtsTokenCount ?? 0),
      },
      finish_reason: candidate?.finishReason ?? null,
      model: response.modelVersion ?? null,
    };
  };
}
