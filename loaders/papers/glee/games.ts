/**
 * GLEE's three families on the game contract (Shapira et al. 2024, "GLEE: A
 * Unified Framework and Benchmark for Language-based Economic
 * Environments", §2 and Table 1): `glee/bargaining`, `glee/negotiation`,
 * `glee/persuasion`, each declared with its rules in its own module
 * (bargaining.ts, negotiation.ts, persuasion.ts; alternating.ts holds the
 * offer protocol of the first two). Seat 0 is Alice, seat 1 Bob. Games rows
 * keep GLEE's familiar columns (family, alice_agent, bob_agent,
 * alice_utility, ...; tables.ts), so the GLEE metrics, regressions and pages
 * read Parley runs as before.
 */
import type {GameDef} from "../../contract/game.js";
import {bargaining} from "./bargaining.js";
import {negotiation} from "./negotiation.js";
import {persuasion} from "./persuasion.js";
import type {Family} from "./types.js";

export {GLEE_CITATION} from "./declarations.js";

export const gleeGames: GameDef[] = [bargaining, negotiation, persuasion];

/** `family` (a run config's GLEE alias) -> game id. */
export const gleeGameId = (family: Family): string => `glee/${family}`;
