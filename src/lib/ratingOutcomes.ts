/**
 * What one comparison of two seats is worth to the first, in [0, 1]: the
 * Bradley–Terry fit (ratings.ts) reads it as a fractional win, so a rating
 * can count by how much a seat won and not only whether it did. Pure.
 *
 * - `win` (the default, as ratings have always been): 1 if the first
 *   seat's return is higher, 0 if lower, ½ if equal.
 * - `surplus-share`: the first seat's share of what the two made together,
 *   x / (x + y), as PACT scores a match (Mazur 2025, "PACT: Benchmarking
 *   LLM negotiation skill in multi-round buyer-seller bargaining", its
 *   README's "surplus share"). ½ when both made 0.
 *   A share of a negative total, or of a total with a loss in it, means
 *   nothing: when either return is negative the comparison counts as
 *   `win` does (and `outcomeFallbacks` counts how often that happened).
 * - `advantage`: GTBench's normalised relative advantage (Duan et al.
 *   2024, "GTBench: Uncovering the Strategic Reasoning Limitations of LLMs
 *   via Game-Theoretic Evaluations", evaluation metrics: NRA = (x − y) /
 *   (|x| + |y|), 0 when both are 0; the authors' NRA_test.py computes the
 *   same), mapped from [−1, 1] to [0, 1] as (1 + NRA) / 2. With
 *   non-negative returns this equals `surplus-share`; it is defined for
 *   any signs (a loss against a gain counts as a whole loss, two losses
 *   by their relative size). GTBench sums each side's returns over a
 *   pair's games before dividing; here every game is its own comparison,
 *   so that games can be weighted and resampled like every other outcome.
 *
 * Every outcome gives o(x, y) + o(y, x) = 1 and, applied to the pair
 * (o, 1 − o) it produced, gives o again: a two-seat game can be shipped as
 * that pair (ratings.ts compactGames) without changing the fit.
 */

export const OUTCOMES = ["win", "surplus-share", "advantage"] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** Win / tie / loss as 1 / ½ / 0. */
const winOf = (x: number, y: number): number => (x > y ? 1 : x < y ? 0 : 0.5);

/** The first seat's outcome against the second under `outcome` (see the module comment). */
export function comparisonOutcome(outcome: Outcome, x: number, y: number): number {
  if (outcome === "win") return winOf(x, y);
  if (outcome === "surplus-share") {
    if (x < 0 || y < 0) return winOf(x, y);
    return x + y === 0 ? 0.5 : x / (x + y);
  }
  const scale = Math.abs(x) + Math.abs(y);
  return scale === 0 ? 0.5 : (1 + (x - y) / scale) / 2;
}

/**
 * Comparisons (pairs of seats held by different agents, a game's `count`
 * times) whose surplus share is not defined because a return is negative:
 * those `surplus-share` counts as win / tie / loss.
 */
export function outcomeFallbacks(games: readonly {seats: readonly {agent: string; score: number}[]; count?: number}[]): number {
  let n = 0;
  for (const g of games) {
    for (let a = 0; a < g.seats.length; a++) {
      for (let b = a + 1; b < g.seats.length; b++) {
        const [x, y] = [g.seats[a], g.seats[b]];
        if (x.agent !== y.agent && (x.score < 0 || y.score < 0)) n += g.count ?? 1;
      }
    }
  }
  return n;
}

/** "win", "surplus-share" or "advantage", else null (for option parsing). */
export function parseOutcome(text: string): Outcome | null {
  return (OUTCOMES as readonly string[]).includes(text) ? (text as Outcome) : null;
}

/** How each outcome is named on the page and in the CLI's help. */
export const OUTCOME_LABELS: Record<Outcome, string> = {
  win: "Win, tie or loss (1, ½, 0)",
  "surplus-share": "Share of the surplus (x / (x + y))",
  advantage: "Normalised relative advantage ((1 + (x − y) / (|x| + |y|)) / 2)",
};
