/**
 * What the eight gamma-Bench games share: the citation, the players and
 * rounds parameters of the simultaneous games, and a few helpers for
 * parameters and settled results.
 */
import type {Citation, ParamSpec, Params} from "../../contract/game.js";
import {GB_GAME} from "./columns.js";

export const GAMABENCH_PAPER = {
  short: "gamma-Bench (Huang et al. 2024)",
  title: "How Far Are We on the Decision-Making of LLMs? Evaluating LLMs' Gaming Ability in Multi-Agent Environments",
  authors: "Jen-tse Huang, Eric John Li, Man Ho Lam, Tian Liang, Wenxuan Wang, Youliang Yuan, Wenxiang Jiao, Xing Wang, Zhaopeng Tu, Michael R. Lyu",
  year: 2024,
} as const;

export const citation = (section: string): Citation => ({...GAMABENCH_PAPER, section});

/** The paper plays every game with N = 10 agents (§3). */
export const SEATS_10 = {min: 2, max: 20, default: 10} as const;

/**
 * K = 20 rounds in the simultaneous games (§3; players are told K). The
 * paper does not vary K; the parameter lets a run shorten or lengthen games.
 */
export const ROUNDS_PARAM: ParamSpec = {
  name: "rounds",
  label: "Rounds K",
  type: "integer",
  min: 1,
  max: 1000,
  default: 20,
  grid: [20],
  doc: "rounds played; players are told K (gamma-Bench (Huang et al. 2024) §3: K = 20)",
};

/** A parameter value as a number (configs give numbers; the runner fills defaults). */
export const numberParam = (params: Params, name: string, specs: readonly ParamSpec[]): number => {
  const v = params[name] ?? specs.find((s) => s.name === name)?.default;
  return Number(v);
};

/** A parameter value as a string, falling back to the declared default. */
export const stringParam = (params: Params, name: string, specs: readonly ParamSpec[]): string => String(params[name] ?? specs.find((s) => s.name === name)!.default);

/** Games-row column of the planned K (the common `rounds` column holds the rounds played). */
export const MAX_ROUNDS_COLUMN = GB_GAME.max_rounds;

/** Sums a list of per-round payoff vectors into per-seat totals. */
export function totals(nSeats: number, rounds: readonly {payoffs: readonly number[]}[]): number[] {
  const out = new Array<number>(nSeats).fill(0);
  for (const r of rounds) r.payoffs.forEach((p, i) => (out[i] += p));
  return out;
}

/** n distinct values from the list, uniformly (partial Fisher–Yates) with `int(k)` uniform in [0, k). */
export function sampleDistinct<T>(values: readonly T[], n: number, int: (k: number) => number): T[] {
  const pool = [...values];
  for (let i = 0; i < n; i++) {
    const j = i + int(pool.length - i);
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, n);
}
