/**
 * Checking parameter values against their declaration (contract.ts
 * `ParamSpec`). Pure, so a run config (loaders/runner/runConfig.ts) and the play
 * page's parameter form (src/play.md) refuse the same values with the same words.
 */
import type {GameDef, ParamSpec, ParamValue, Params} from "./game.js";

/** 1e12 rather than 1000000000000 or 1e+12. */
export const short = (x: number): string => (Math.abs(x) >= 1e6 && Number.isInteger(Math.log10(Math.abs(x))) ? x.toExponential().replace("e+", "e") : String(x).replace("e+", "e"));

/** The values parameter `spec` takes, in the words of its error ("a number in (0, 1]"); the site's Reference prints it too. */
export function paramDomain(spec: ParamSpec): string {
  switch (spec.type) {
    case "boolean":
      return "true or false";
    case "choice":
      return `one of ${spec.values!.map((a) => JSON.stringify(a)).join(", ")}`;
    case "horizon":
      return `a positive integer up to ${spec.max ?? 1e6}${spec.allowInfinite ? ' or "inf"' : ""}`;
    case "integer":
    case "number": {
      const lo = spec.min ?? -Infinity, hi = spec.max ?? Infinity;
      const what = spec.type === "integer" ? "an integer" : "a number";
      return `${what} in ${spec.exclusiveMin ? "(" : "["}${short(lo)}, ${short(hi)}${spec.exclusiveMax ? ")" : "]"}`;
    }
  }
}

/** Why `value` is not a value of parameter `spec`, or null. */
export function paramValueError(spec: ParamSpec, value: unknown): string | null {
  switch (spec.type) {
    case "boolean":
      return typeof value === "boolean" ? null : `expected ${paramDomain(spec)}, got ${JSON.stringify(value)}`;
    case "choice":
      return spec.values!.includes(value as ParamValue) ? null : `expected ${paramDomain(spec)}, got ${JSON.stringify(value)}`;
    case "horizon":
      if (value === "inf" && spec.allowInfinite) return null;
      if (typeof value === "number" && Number.isInteger(value) && value >= (spec.min ?? 1) && value <= (spec.max ?? 1e6)) return null;
      return `expected ${paramDomain(spec)}, got ${JSON.stringify(value)}`;
    case "integer":
    case "number": {
      const lo = spec.min ?? -Infinity, hi = spec.max ?? Infinity;
      const ok =
        typeof value === "number" && Number.isFinite(value) && (spec.type !== "integer" || Number.isInteger(value)) &&
        (spec.exclusiveMin ? value > lo : value >= lo) && (spec.exclusiveMax ? value < hi : value <= hi);
      return ok ? null : `expected ${paramDomain(spec)}, got ${typeof value === "number" ? short(value) : JSON.stringify(value)}`;
    }
  }
}

/**
 * A game's parameters with the defaults filled in for those not given, or
 * one line naming the first parameter that is unknown or out of range (and
 * the game's own cross-parameter check for `nSeats` seats).
 */
export function resolveParams(def: GameDef, given: Record<string, unknown>, nSeats: number): {params: Params} | {error: string} {
  for (const name of Object.keys(given)) {
    if (!def.params.some((p) => p.name === name)) return {error: `${def.id}: unknown parameter "${name}"; expected one of ${def.params.map((p) => p.name).join(", ")}`};
  }
  const params: Params = {};
  for (const spec of def.params) {
    const value = given[spec.name] ?? spec.default;
    const error = paramValueError(spec, value);
    if (error) return {error: `${def.id} parameter ${spec.name}: ${error}`};
    params[spec.name] = value as ParamValue;
  }
  const error = def.checkParams?.(params, nSeats);
  return error ? {error: `${def.id}: ${error}`} : {params};
}
