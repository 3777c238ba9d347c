/**
 * Every playable game, by id (`parley games`), read off the list of papers
 * (loaders/papers/index.ts): each paper's games written in code, in the
 * list's order, then the games written as data (a matrix or tree game is
 * one JSON file in data/games/; loaders/papers/gtllm/).
 */
import type {GameDef} from "../contract/game.js";
import {papers} from "../papers/index.js";
import type {GameFile} from "../papers/gtllm/files.js";

const coded: GameDef[] = papers.flatMap((p) => p.play.games);

/** Each paper's data games read from disk, each paper leaving out the ids taken before it. */
function readData(): {files: GameFile[]; defs: GameDef[]; problems: string[]; byPaper: Map<string, GameFile[]>} {
  const out = {files: [] as GameFile[], defs: [] as GameDef[], problems: [] as string[], byPaper: new Map<string, GameFile[]>()};
  for (const p of papers) {
    if (!p.readDataGames) continue;
    const rules = p.play.dataGames;
    if (!rules) throw new Error(`paper "${p.id}": readDataGames is declared but play.dataGames (the rules of its data games) is not`);
    const read = p.readDataGames([...coded.map((g) => g.id), ...out.files.map((f) => f.id)]);
    out.files.push(...read.files);
    out.defs.push(...read.files.map((f) => rules.def(f)));
    out.problems.push(...read.problems);
    out.byPaper.set(p.id, read.files);
  }
  return out;
}

const data = readData();

export const games: readonly GameDef[] = [...coded, ...data.defs];

/** The matrix and tree games read from data files, and one line per file left out. */
export const dataGames: readonly GameFile[] = data.files;
export const gameFileProblems: readonly string[] = data.problems;

/** The data game files paper `paper` read (none for a paper whose games are all code). */
export const dataGamesOf = (paper: string): readonly GameFile[] => data.byPaper.get(paper) ?? [];

/** The data file of a matrix or tree game, or undefined for a game written in code. */
export const dataGame = (id: string): GameFile | undefined => dataGames.find((g) => g.id === id);

/** The game with this id; throws naming the known ids. */
export function gameDef(id: string): GameDef {
  const def = games.find((g) => g.id === id);
  if (!def) throw new Error(`unknown game "${id}"; expected one of ${games.map((g) => g.id).join(", ")}${leftOut()}`);
  return def;
}

/** The games a run config's `game` entry names: an id, or a family prefix such as "gamabench/*". */
export function matchGames(pattern: string): GameDef[] {
  if (pattern.endsWith("/*")) return games.filter((g) => g.id.startsWith(pattern.slice(0, -1)));
  return games.filter((g) => g.id === pattern);
}

/** Notes the game files left out, for "unknown game" messages. */
export const leftOut = (): string => (gameFileProblems.length ? ` (left out: ${gameFileProblems.join("; ")})` : "");
