/**
 * The play engine of the static site (src/play.md): the papers' games
 * written in code and their scripted agents, the matrix and tree games of
 * data/games/ built from their files, and the session, form and rows built
 * on them; no language models, no files, no Node modules. The site's data
 * loader src/data/play-engine.js.ts bundles this module with each paper's
 * browser-safe part (loaders/papers/<paper>/play.ts, for every paper in
 * the list of papers) and the game files it read, as `scriptedEngine` (a
 * bundle that pulls anything Node-only fails to build).
 */
import {mergeAgents} from "../contract/mergeAgents.js";
import type {GameDef} from "../contract/game.js";
import type {DataGameFile, PaperPlay} from "../contract/paper.js";
import type {Engine} from "./session.js";

/** One paper's browser-safe part and the data game files it read (none for a paper whose games are all code). */
export interface PaperPlayFiles<F extends DataGameFile = DataGameFile> {
  play: PaperPlay<F>;
  files: readonly F[];
}

/**
 * The engine of the play page, in the order of `parley games`: every
 * paper's games in code, then the data games. Two-seat games come first
 * (the order is otherwise kept), so the person meets GLEE's families, Deal
 * or No Deal and the matrix games before the N-player games where agents
 * take the other seats.
 */
export function playEngine(papers: readonly PaperPlayFiles[]): Engine {
  const rules = (p: PaperPlayFiles) => {
    if (!p.play.dataGames) throw new Error(`data game files ${p.files.map((f) => f.file).join(", ")} were given for a paper whose play part has no dataGames rules`);
    return p.play.dataGames;
  };
  const data = papers.filter((p) => p.files.length);
  const games: GameDef[] = [...papers.flatMap((p) => p.play.games), ...data.flatMap((p) => p.files.map((f) => rules(p).def(f)))];
  const twoSeat = (g: GameDef) => g.seats.max <= 2;
  return {
    games: [...games.filter(twoSeat), ...games.filter((g) => !twoSeat(g))],
    narrators: Object.assign({}, ...papers.map((p) => p.play.narrators), ...data.map((p) => Object.fromEntries(p.files.map((f) => [f.id, rules(p).narrator])))),
    agents: mergeAgents([...papers.flatMap((p) => p.play.agents), ...data.flatMap((p) => rules(p).agents(p.files))]),
  };
}

export {startSession, restore, resolveSpec, PlayError, RECORD_FORMAT, type PlaySession, type PlaySpec, type Pending, type PlayRecord} from "./session.js";
export {HUMAN} from "./human.js";
export {actionForms, parseEntry, rangeText, type ActionForm, type FieldModel, type FormValues} from "../../src/lib/playForm.js";
export {playsGame} from "../contract/agent.js";
