/**
 * The play engine of the static site (src/play.md): the games written in
 * code and their scripted agents, and the session, form and rows built on
 * them; no language models, no files, no Node modules. The site's data
 * loader src/data/play-engine.js.ts bundles this module for the browser
 * (a bundle that pulls anything Node-only fails to build).
 *
 * GLEE's three families come first (GLEE (Shapira et al. 2024) §2), then
 * the other two-seat games: Deal or No Deal (its points bundled), the
 * matrix and tree games of data/games/ (Game-theoretic LLM workflows (Hua
 * et al. 2024) §4; the registry reads their files from disk, so the data
 * loader reads them at build time and bundles `playEngine(files)` as
 * `scriptedEngine`) and NegotiationArena's games; then gamma-Bench's and
 * Economics Arena's N-player games, where the person takes one seat and
 * agents the others.
 */
import {gleeGames} from "../papers/glee/games.js";
import {negotiationArenaGames} from "../papers/negotiationarena/games.js";
import {gamabenchGames} from "../papers/gamabench/games.js";
import {econarenaGames} from "../papers/econarena/games.js";
import {dondGame, type DondPoint} from "../papers/gtllm/dond/game.js";
import hard50 from "../../data/dond/hard50.json" with {type: "json"};
import {mergeAgents} from "../contract/mergeAgents.js";
import {gleeAgents} from "../papers/glee/agents.js";
import {gamabenchAgents} from "../papers/gamabench/agents.js";
import {econarenaAgents} from "../papers/econarena/agents.js";
import {negotiationArenaAgents} from "../papers/negotiationarena/agents.js";
import {dondAgents} from "../papers/gtllm/dond/agents.js";
import {gtllmAgentDefs} from "../papers/gtllm/scriptedAgents.js";
import {dataGameDef} from "../papers/gtllm/dataGame.js";
import type {GameFile} from "../papers/gtllm/files.js";
import type {Engine} from "./session.js";

/** Deal or No Deal's 50 hard points, bundled (Node reads and checks the same file, games/dond.ts). */
const dond = dondGame(() => (hard50 as {points: DondPoint[]}).points);


/** The engine of the play page: the games in code and the matrix and tree games of `files`, with their scripted agents. */
export function playEngine(files: readonly GameFile[]): Engine {
  return {
    // Two-seat games first (the data games among them), then the N-player ones.
    games: [...gleeGames, dond, ...files.map(dataGameDef), ...negotiationArenaGames, ...gamabenchGames, ...econarenaGames],
    agents: mergeAgents([...gleeAgents, ...dondAgents, ...negotiationArenaAgents, ...gamabenchAgents, ...econarenaAgents, ...gtllmAgentDefs(files)]),
  };
}

export {startSession, restore, resolveSpec, PlayError, RECORD_FORMAT, type PlaySession, type PlaySpec, type Pending, type PlayRecord} from "./session.js";
export {HUMAN} from "./human.js";
export {actionForms, parseEntry, rangeText, type ActionForm, type FieldModel, type FormValues} from "../../src/lib/playForm.js";
export {playsGame} from "../contract/agent.js";
