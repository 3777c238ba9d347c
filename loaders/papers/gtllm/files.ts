/**
 * Matrix and tree games written as data: one JSON file per game in
 * data/games/ (the Guide's "Adding a game", src/guide/adding-a-game.md). Each file is checked here; a file
 * that is not a valid game is left out with one line naming the file, the
 * line (for JSON syntax) or key, and what was expected, and every other game
 * still loads.
 *
 *   {"id": "gtllm/stag_hunt", "title": "...", "description": "...",
 *    "citation": {"short", "title", "authors", "year", "section"},
 *    "kind": "matrix", "rows": [...], "cols": [...], "payoffs": [[[3, 3], [0, 1]], ...]}
 *   {"id": "...", ..., "kind": "tree", "tree": {"A1": [0, 0], "A2": {"B1": [1, -2], ...}}}
 */
import {MAX_JSON_DEPTH, parseJsonStrict} from "../../io/configJson.js";
import {readdirSync, readFileSync} from "node:fs";
import {join} from "node:path";
import type {Citation} from "../../contract/game.js";
import type {MatrixGame} from "../../../src/lib/matrixGame.js";
import {parseTree, type TreeNode} from "../../../src/lib/gameTree.js";

interface GameFileBase {
  id: string;
  title: string;
  description: string;
  citation: Citation;
  /** The file it came from (for messages). */
  file: string;
}

export type GameFile = (GameFileBase & {kind: "matrix"; matrix: MatrixGame}) | (GameFileBase & {kind: "tree"; tree: TreeNode});

const KEYS = {common: ["id", "title", "description", "citation", "kind"], matrix: ["rows", "cols", "payoffs"], tree: ["tree"]};
const CITATION_KEYS = ["short", "title", "authors", "year", "section"];

const fail = (key: string, message: string): never => {
  throw new Error(`${key}: ${message}`);
};

const text = (o: Record<string, unknown>, key: string, where = key): string => {
  const v = o[key];
  if (typeof v !== "string" || !v.trim()) fail(where, `expected a non-empty string, got ${JSON.stringify(v)}`);
  return v as string;
};

function names(o: Record<string, unknown>, key: string): string[] {
  const v = o[key];
  if (!Array.isArray(v) || v.length < 1 || v.some((x) => typeof x !== "string" || !x.trim())) fail(key, `expected a non-empty list of action names, got ${JSON.stringify(v)}`);
  const list = v as string[];
  const twice = list.find((x, i) => list.indexOf(x) !== i);
  if (twice !== undefined) fail(key, `"${twice}" is listed twice`);
  return list;
}

function payoffs(o: Record<string, unknown>, rows: number, cols: number): [number, number][][] {
  const p = o.payoffs;
  if (!Array.isArray(p) || p.length !== rows) fail("payoffs", `expected ${rows} rows (one per entry of "rows"), got ${Array.isArray(p) ? p.length : JSON.stringify(p)}`);
  return (p as unknown[]).map((row, i) => {
    if (!Array.isArray(row) || row.length !== cols) fail(`payoffs[${i}]`, `expected ${cols} cells (one per entry of "cols")`);
    return (row as unknown[]).map((cell, j) => {
      const ok = Array.isArray(cell) && cell.length === 2 && cell.every((x) => typeof x === "number" && Number.isFinite(x));
      if (!ok) fail(`payoffs[${i}][${j}]`, `expected [u_Alice, u_Bob], two finite numbers, got ${JSON.stringify(cell)}`);
      return cell as [number, number];
    });
  });
}

/** A game from a parsed file; throws naming the key. */
export function parseGameFile(json: unknown, file: string): GameFile {
  if (json === null || typeof json !== "object" || Array.isArray(json)) fail("(top level)", "expected a JSON object");
  const o = json as Record<string, unknown>;
  const kind = o.kind as "matrix" | "tree";
  if (kind !== "matrix" && kind !== "tree") fail("kind", `expected "matrix" or "tree", got ${JSON.stringify(kind)}`);
  const allowed = [...KEYS.common, ...KEYS[kind]];
  for (const k of Object.keys(o)) if (!allowed.includes(k)) fail(k, `unknown key for a ${kind} game; expected ${allowed.join(", ")}`);
  const id = text(o, "id");
  if (!/^[a-z0-9][a-z0-9_.-]*\/[a-z0-9][a-z0-9_.-]*$/i.test(id)) fail("id", `expected "<family>/<name>" of letters, digits, "_", "." and "-", got ${JSON.stringify(id)}`);
  const c = o.citation as Record<string, unknown>;
  if (c === null || typeof c !== "object" || Array.isArray(c)) fail("citation", `expected an object {${CITATION_KEYS.join(", ")}}`);
  for (const k of Object.keys(c)) if (!CITATION_KEYS.includes(k)) fail(`citation.${k}`, `unknown key; expected ${CITATION_KEYS.join(", ")}`);
  if (typeof c.year !== "number" || !Number.isInteger(c.year)) fail("citation.year", `expected a year, got ${JSON.stringify(c.year)}`);
  const citation: Citation = {short: text(c, "short", "citation.short"), title: text(c, "title", "citation.title"), authors: text(c, "authors", "citation.authors"), year: c.year as number, section: typeof c.section === "string" ? c.section : ""};
  const base = {id, title: text(o, "title"), description: text(o, "description"), citation, file};
  if (kind === "tree") {
    if (o.tree === undefined) fail("tree", "required");
    const tree = parseTree(o.tree);
    if ("payoff" in tree) fail("tree", "the root must be a decision, not a leaf");
    return {...base, kind, tree};
  }
  const rows = names(o, "rows");
  const cols = names(o, "cols");
  return {...base, kind, matrix: {rows, cols, payoffs: payoffs(o, rows.length, cols.length)}};
}

/** The 1-based line of character `position` in `source`. */
const lineOf = (source: string, position: number) => source.slice(0, position).split("\n").length;

/** JSON read strictly (io/configJson.ts: no key twice, no deep nesting), with the line of a syntax error in the message. */
function parseJson(source: string): unknown {
  try {
    JSON.parse(source);
  } catch (error) {
    const message = (error as Error).message;
    const at = /position (\d+)/.exec(message);
    throw new Error(at && !/line \d+/.test(message) ? `line ${lineOf(source, Number(at[1]))}: ${message}` : message);
  }
  try {
    return parseJsonStrict(source, 2 * MAX_JSON_DEPTH); // a tree game nests one level per move
  } catch (error) {
    throw new Error((error as Error).message);
  }
}

/**
 * Every *.json game in `dir` (sorted by file name), and one problem line per
 * file left out. `taken` are ids already used by other games; a file whose
 * id is taken, or repeats an earlier file's, is left out too.
 */
export function loadGameFiles(dir: string, taken: readonly string[] = []): {games: GameFile[]; problems: string[]} {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith(".json")).sort();
  } catch {
    return {games: [], problems: []};
  }
  const games: GameFile[] = [];
  const problems: string[] = [];
  const ids = new Map<string, string>(taken.map((id) => [id, "a built-in game"]));
  for (const name of files) {
    const file = join(dir, name);
    try {
      const game = parseGameFile(parseJson(readFileSync(file, "utf8")), file);
      const earlier = ids.get(game.id);
      if (earlier) fail("id", `"${game.id}" is already the id of ${earlier}`);
      ids.set(game.id, name);
      games.push(game);
    } catch (error) {
      problems.push(`${file}: ${(error as Error).message}; the game is left out`);
    }
  }
  return {games, problems};
}
