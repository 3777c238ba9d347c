/**
 * The engine of a session in Node (`parley play`, `parley ingest human`):
 * every registered game and built-in agent. The browser has its own,
 * scripted-only one (scripted.ts), since the registries read game files
 * from disk.
 */
import {games} from "../registry/games.js";
import {agents} from "../registry/agents.js";
import type {Engine} from "./session.js";

export const nodeEngine: Engine = {games, agents};
