/**
 * Fake language models of known playing strength, for adaptive sampling's
 * tests and bench: each answers gamma-Bench's Guess-the-Average request
 * (gamabench/guessing, the paper's {"chosen_number": N} reply) with
 * N = round(SCALE · e^(−s) · E), E exponential with mean 1, s the strength
 * named in its model ("bt:1.5"). Played by two seats with a ratio R below 1,
 * the game makes the lower number win (the target R·(x + y)/2 is nearer the
 * lower of x, y), and the lower of two such numbers belongs to model i with
 * probability e^(s_i) / (e^(s_i) + e^(s_j)) (the smaller of two exponential
 * draws with rates e^(s_i), e^(s_j)): the models meet exactly under
 * Bradley–Terry, strengths s, up to the rounding (equal numbers tie).
 * Draws come from one seeded stream in arrival order, as a sampled model's do.
 */
import type {FakeRequest, Reply} from "./fakeLlm.js";
import {createRng} from "../../src/lib/rng.js";

const SCALE = 1000;

/** The model name of a fake player of strength `s`. */
export const btModel = (s: number): string => `bt:${s}`;

/** Upper end of the guessing game's range that the answers need (grid key "max"). */
export const BT_MAX = 1_000_000;

export function btGuesser(seed: number): (request: FakeRequest) => Reply {
  const rng = createRng(seed);
  return (request) => {
    const s = Number(/^bt:(.+)$/.exec(request.model)?.[1]);
    if (!Number.isFinite(s) || !/Now round \d+ starts/.test(request.lastUser)) return {status: 400, message: `fakeBtModel: not a guessing request for a bt:<strength> model (${request.model})`};
    const draw = -Math.log(1 - rng.next());
    return {text: JSON.stringify({chosen_number: Math.min(BT_MAX, Math.round(SCALE * Math.exp(-s) * draw))})};
  };
}
