/**
 * A page's inputs in its URL, so that a copied link opens the same view.
 *
 * `urlInput("family", (value = "bargaining") => Inputs.radio(FAMILIES, {value}), oneOf(FAMILIES))`
 * builds the input with the value the URL's query names (`?family=persuasion`),
 * or with its own default when the URL names none or one the codec refuses,
 * and writes every change back into the query with history.replaceState
 * (no reload, no new history entry). Works in any static build: the server
 * ignores the query.
 */
export interface Codec<T> {
  /** The value a query parameter names, or undefined when it names none this input accepts. */
  parse(text: string): T | undefined;
  format(value: T): string;
}

export const text: Codec<string> = {parse: (s) => s, format: (v) => v};

export const flag: Codec<boolean> = {
  parse: (s) => (s === "true" ? true : s === "false" ? false : undefined),
  format: (v) => String(v),
};

export const integer: Codec<number> = {
  parse: (s) => (/^-?\d+$/.test(s) ? Number(s) : undefined),
  format: (v) => String(v),
};

/** One of `options` (compared as text, so numbers work too). */
export function oneOf<T>(options: readonly T[]): Codec<T> {
  return {parse: (s) => options.find((o) => String(o) === s), format: (v) => String(v)};
}

/** Several of `options`, comma-separated ("" for none); options not in the list are dropped. */
export function someOf<T>(options: readonly T[]): Codec<T[]> {
  return {
    parse: (s) => (s === "" ? [] : s.split(",").map((x) => options.find((o) => String(o) === x)).filter((x): x is T => x !== undefined)),
    format: (v) => v.map(String).join(","),
  };
}

/** The value of query parameter `name` in the current URL, read through `codec` (undefined when absent or refused). */
export function urlValue<T>(name: string, codec: Codec<T>): T | undefined {
  const raw = new URLSearchParams(location.search).get(name);
  return raw === null ? undefined : codec.parse(raw);
}

/** Writes `value` as query parameter `name` (or removes it, for undefined) without reloading. */
export function setUrlValue<T>(name: string, value: T | undefined, codec: Codec<T>): void {
  const url = new URL(location.href);
  if (value === undefined || value === null) url.searchParams.delete(name);
  else url.searchParams.set(name, codec.format(value));
  history.replaceState(history.state, "", url);
}

type Input<T> = HTMLElement & {value: T};

/** An input (see the module comment) whose value lives in query parameter `name`. */
export function urlInput<T>(name: string, create: (value?: T) => Input<T>, codec: Codec<T>): Input<T> {
  const wanted = urlValue(name, codec);
  const input = create(wanted);
  input.addEventListener("input", () => setUrlValue(name, input.value, codec));
  return input;
}
