/**
 * The engine of a session in Node (`parley play`, `parley ingest human`):
 * every registered game, built-in agent and narrator. The browser has its
 * own, scripted-only one (browserEngine.ts), since the registries read game
 * files from disk.
 */
import {games} from "../registry/games.js";
import {agents} from "../registry/agents.js";
import {narrators} from "../registry/narrators.js";
import type {Engine} from "./session.js";

export const nodeEngine: Engine = {games, agents, narrators};
