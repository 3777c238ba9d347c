/**
 * The play engine of the static site (src/play.md): the games written in
 * code and their scripted agents, and the session, form and rows built on
 * them; no language models, no files, no Node modules. The site's data
 * loader src/data/play-engine.js.ts bundles this module for the browser
 * (a bundle that pulls anything Node-only fails to build).
 *
 * GLEE's three families come first (GLEE (Shapira et al. 2024) §2), then
 * Deal or No Deal (its points bundled) and NegotiationArena's two-seat
 * games, then gamma-Bench's and Economics Arena's N-player games, where the
 * person takes one seat and agents the others. The matrix and tree games of
 * data/games/ are read from disk by the registry (any file a user adds) and
 * are played through `parley play` instead.
 */
import type {GameDef} from "../games/contract.js";
import {gleeGames} from "../games/glee.js";
import {negotiationArenaGames} from "../games/negotiationarena/index.js";
import {gamabenchGames} from "../games/gamabench/index.js";
import {econarenaGames} from "../games/econarena/index.js";
import {dondGame, type DondPoint} from "../games/dondGame.js";
import hard50 from "../../data/dond/hard50.json" with {type: "json"};
import {mergeAgents} from "../agents/merge.js";
import {gleeAgents} from "../agents/gleeAgents.js";
import {gamabenchAgents} from "../agents/gamabench.js";
import {econarenaAgents} from "../agents/econarena.js";
import {negotiationArenaAgents} from "../agents/negotiationarena.js";
import {dondAgents} from "../agents/dond.js";
import type {Engine} from "./session.js";

/** Deal or No Deal's 50 hard points, bundled (Node reads and checks the same file, games/dond.ts). */
const dond = dondGame(() => (hard50 as {points: DondPoint[]}).points);

export const scriptedGames: readonly GameDef[] = [...gleeGames, dond, ...negotiationArenaGames, ...gamabenchGames, ...econarenaGames];

export const scriptedEngine: Engine = {
  games: scriptedGames,
  agents: mergeAgents([...gleeAgents, ...dondAgents, ...negotiationArenaAgents, ...gamabenchAgents, ...econarenaAgents]),
};

export {startSession, restore, resolveSpec, PlayError, RECORD_FORMAT, type PlaySession, type PlaySpec, type Pending, type PlayRecord} from "./session.js";
export {HUMAN} from "./human.js";
export {actionForms, parseEntry, rangeText, type ActionForm, type FieldModel, type FormValues} from "../../src/lib/playForm.js";
export {playsGame} from "../agents/contract.js";
