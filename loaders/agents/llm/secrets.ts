/**
 * API keys: read only from the environment variable a player's config names,
 * handed to the provider SDK and nowhere else. Every key read is remembered
 * (in memory only) so that `redactSecrets` can scrub it from any text that
 * may reach a file or a log, such as an SDK error message.
 */

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
  if (value.length >= 4) known.add(value);
  return value;
}

/** `text` with every API key read so far replaced by "[redacted]". */
export function redactSecrets(text: string): string {
  let out = text;
  for (const secret of known) if (out.includes(secret)) out = out.split(secret).join("[redacted]");
  return out;
}
