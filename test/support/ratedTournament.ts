/**
 * A deterministic simulated tournament for the ratings tests: three two-seat
 * families over many configurations, with repeated games (the same outcome
 * several times in a configuration, as scripted agents give), ties, both
 * seat orders and self-play; an N-seat family; and a family with a single
 * configuration (resampled by game). Strengths are known per agent.
 */
import type {RatedGame} from "../../src/lib/ratings.js";
import {createRng} from "../../src/lib/rng.js";

export const STRENGTHS: Record<string, number> = {a: 1.2, b: 0.6, c: 0, d: -0.4, e: -1};

export function ratedTournament(seed = 7): RatedGame[] {
  const rng = createRng(seed);
  const agents = Object.keys(STRENGTHS);
  const games: RatedGame[] = [];
  const beats = (x: string, y: string) => rng.next() < 1 / (1 + Math.exp(STRENGTHS[y] - STRENGTHS[x]));
  for (const [family, configs] of [["two/alpha", 12], ["two/beta", 7], ["two/gamma", 20]] as const) {
    for (let c = 0; c < configs; c++) {
      for (const x of agents) {
        for (const y of agents) {
          if (rng.next() < 0.15) continue; // not every pairing in every configuration
          const outcome = x === y ? 0.5 : rng.next() < 0.1 ? 0.5 : beats(x, y) ? 1 : 0;
          // Scripted agents repeat themselves: the same game two or three times.
          const repeats = 1 + rng.int(3);
          for (let r = 0; r < repeats; r++) {
            games.push({family, cluster: `c${c}`, seats: [{agent: x, seat: 0, score: outcome === 0.5 ? 2 : outcome ? 3 : 1}, {agent: y, seat: 1, score: outcome === 0.5 ? 2 : outcome ? 1 : 3}]});
          }
        }
      }
    }
  }
  for (let c = 0; c < 6; c++) {
    for (let n = 0; n < 4; n++) {
      const seated = agents.filter(() => rng.next() < 0.8);
      games.push({family: "many/ffa", cluster: `v${c}`, seats: seated.map((agent, seat) => ({agent, seat, score: STRENGTHS[agent] + rng.next()}))});
    }
  }
  for (let n = 0; n < 15; n++) {
    const [x, y] = [agents[rng.int(5)], agents[rng.int(5)]];
    games.push({family: "one/config", cluster: "only", seats: [{agent: x, seat: 0, score: beats(x, y) ? 1 : 0}, {agent: y, seat: 1, score: 0.5}]});
  }
  return games;
}

/** A two-seat game of family `family` and configuration `cluster`: agent `a` in seat 0 scoring `sa`, `b` in seat 1 scoring `sb`. */
export const duel = (family: string, cluster: string, a: string, sa: number, b: string, sb: number): RatedGame => ({
  family,
  cluster,
  seats: [
    {agent: a, seat: 0, score: sa},
    {agent: b, seat: 1, score: sb},
  ],
});
