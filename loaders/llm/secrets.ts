/**
 * API keys: read only from the environment variable a player's config names,
 * handed to the provider SDK and nowhere else. Every key read is remembered
 * (in memory only) so that `redactSecrets` can scrub it from any text that
 * may reach a file or a log: an SDK error message, and also the model's
 * replies, since an endpoint or proxy that echoes the request headers (or
 * Gemini's `key=` parameter) would otherwise put a key into turns, the
 * cache, checkpoints and the other player's prompt. A run reads every
 * player's key before its first call, so each reply is scrubbed of all of
 * them, not only of its own player's.
 */

/** Every key read, with its URL-encoded form when that differs (how an echoed `?key=` shows it). */
const known = new Set<string>();

/**
 * The value of the environment variable `name`, or null when `name` is null
 * (a keyless local endpoint). Throws, naming the variable and the player but
 * never a value, when the variable is unset or empty.
 */
export function resolveApiKey(name: string | null, who: string, env: NodeJS.ProcessEnv = process.env): string | null {
  if (name === null) return null;
  const value = env[name];
  if (!value) throw new Error(`${who}: environment variable ${name} (api_key_env) is not set`);
  if (value.length >= 4) known.add(value).add(encodeURIComponent(value));
  return value;
}

/** `text` with every API key read so far replaced by "[redacted]". */
export function redactSecrets(text: string): string {
  let out = text;
  // Longest first, so that a key containing another is removed whole.
  for (const secret of [...known].sort((a, b) => b.length - a.length)) if (out.includes(secret)) out = out.split(secret).join("[redacted]");
  return out;
}
