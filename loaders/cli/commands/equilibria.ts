/**
 * `parley equilibria <file.json>`: Nash equilibria of a two-player payoff
 * table {"rows": [...], "cols": [...], "a": [[...]], "b": [[...]]} (a: row
 * player's payoffs, b: column player's). Prints {pure, mixed, method,
 * complete, eliminated, support_pairs}; see src/lib/equilibria.ts.
 */
import {readFileSync} from "node:fs";
import {findEquilibria} from "../../../src/lib/equilibria.js";
import {checkBimatrix} from "../../../src/lib/bimatrix.js";
import {intOption, parse, printJson, UsageError} from "./args.js";
import {inputPath} from "./inputs.js";
import {usage} from "../../usage/equilibria.usage.js";

/**
 * Support enumeration costs about 10 µs per support pair here; a million
 * (an 11 × 11 game has 705,431) is about 10 s. Above the limit Lemke–Howson runs instead.
 */
const MAX_SUPPORT_PAIRS = 1_000_000;

/**
 * JSON.parse, except that the bare words NaN, Infinity and -Infinity (which
 * Python's json.dump writes by default) become those numbers, so that
 * checkBimatrix can name the cell that holds one instead of the parser
 * failing somewhere in the file.
 */
function parseJsonWithNonFinite(text: string): unknown {
  const words: Record<string, number> = {NaN: NaN, Infinity: Infinity, "-Infinity": -Infinity};
  const marked = text.replace(/"(?:[^"\\]|\\.)*"|(-?Infinity|NaN)/g, (match, word) => (word ? `"\\u0000${word}"` : match));
  return JSON.parse(marked, (_key, value) => (typeof value === "string" && value.startsWith("\u0000") && value.slice(1) in words ? words[value.slice(1)] : value));
}

export async function run(argv: string[]): Promise<number> {
  const {values, positionals} = parse("equilibria", argv, {"max-support-pairs": {type: "string"}});
  if (positionals.length !== 1) throw new UsageError(`parley ${usage}`);
  const file = inputPath("equilibria", positionals[0], "file", 'expected a JSON table {"rows", "cols", "a", "b"}');
  const maxSupportPairs = intOption("equilibria", "max-support-pairs", values["max-support-pairs"], {min: 0, max: MAX_SUPPORT_PAIRS});
  let json: unknown;
  try {
    json = parseJsonWithNonFinite(readFileSync(file, "utf8"));
  } catch (error) {
    throw new UsageError(`parley equilibria: cannot read ${file}: ${(error as Error).message}`);
  }
  let game;
  try {
    game = checkBimatrix(json, file);
  } catch (error) {
    throw new UsageError(`parley equilibria: ${(error as Error).message}`);
  }
  const result = findEquilibria(game, {maxSupportPairs});
  printJson({
    pure: result.pure.map(({row, col, a, b}) => ({row, col, a, b})),
    mixed: result.mixed.map(({row, col, a, b}) => ({row, col, a, b})),
    method: result.method,
    complete: result.complete,
    eliminated: result.eliminated,
    support_pairs: result.support_pairs,
  });
  return 0;
}
