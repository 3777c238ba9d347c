/**
 * Numbers written the way GLEE's Python code writes them into its prompts
 * (eilamshapira/GLEE, `utils/utils.py` and f-strings of
 * `games/bargaining/bargaining.py`), so Parley's narrator sends the same
 * bytes the authors' code sent.
 */

/** Digits grouped by thousands with commas ("1234567" → "1,234,567"). */
const grouped = (digits: string): string => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/**
 * GLEE's `pretty_number(x)`: `f"{x:,.2f}"` with trailing zeros and then a
 * trailing dot removed: 1000 → "1,000", 9.999999999999998 → "10", 0.5 → "0.5".
 */
export function prettyNumber(x: number): string {
  const [int, frac] = Math.abs(x).toFixed(2).split(".");
  const text = `${x < 0 && Number(`${int}.${frac}`) !== 0 ? "-" : ""}${grouped(int!)}.${frac}`;
  return text.replace(/0+$/, "").replace(/\.$/, "");
}

/**
 * Python's `f"{x:,}"` for the game's sum of money: an integral amount as a
 * grouped integer ("1,000"), any other with its shortest decimal digits
 * ("1,000.5"). (Python writes a float-typed integral amount as "1,000.0";
 * GLEE's configurations give integers.)
 */
export function pyGrouped(x: number): string {
  if (Number.isInteger(x)) return (x < 0 ? "-" : "") + grouped(String(Math.abs(x)));
  const [int, frac] = String(Math.abs(x)).split(".");
  return (x < 0 ? "-" : "") + grouped(int!) + (frac ? `.${frac}` : "");
}

/**
 * Python's `str(x)` of a number the model sent, as GLEE's offer lines print
 * it ("# Bob gain: 100"). JavaScript keeps no int/float distinction, so a
 * value the model wrote as 100.0 (or as a string, which GLEE's player turns
 * into a float) prints "100" here where Python printed "100.0".
 */
export const pyStr = (x: number): string => String(x);

/** Python's `str.capitalize()`: first character upper-cased, the rest lower-cased. */
export const pyCapitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();
