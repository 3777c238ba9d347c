/**
 * A paper's overview page (/papers/<paper>), written from its manifest: the
 * citation, the games it brings (seats, parameters, built-in agents, whether
 * a language model can sit them), its datasets, its pages and its analysis's
 * measures with the command that answers each. A paper with no pages of its
 * own (a newly added one) also gets its measures answered here, over its
 * sample run played when the site is built, so that adding a paper needs no
 * page. The site's page loader src/papers/[paper].md.ts prints it.
 */
import {mkdtempSync, readFileSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import type {GameDef} from "../contract/game.js";
import type {Measure} from "../../src/analyses/analysis.js";
import {paper as paperNamed} from "../papers/index.js";
import {dataGamesOf, games} from "../registry/games.js";
import {agents} from "../registry/agents.js";
import {playsGame} from "../contract/agent.js";
import {narratorFor} from "../registry/narrators.js";
import {answerOverRuns} from "../analyses/overRuns.js";
import {parseRunConfig} from "../runner/runConfig.js";
import {writeTournament} from "../runner/tournament.js";
import {projectRoot} from "../projectConfig.js";
import {escapeHtml, htmlTable} from "./markup.js";

type Paper = ReturnType<typeof paperNamed>;

/** The paper's games in code and as data, in the registry's order. */
const paperGames = (p: Paper): GameDef[] => {
  const ids = new Set([...p.play.games.map((g) => g.id), ...dataGamesOf(p.id).map((f) => f.id)]);
  return games.filter((g) => ids.has(g.id));
};

function gamesSection(p: Paper): string {
  const rows = paperGames(p).map((g) => [
    g.id,
    g.title,
    g.seats.min === g.seats.max ? g.seats.min : `${g.seats.min}–${g.seats.max}`,
    g.moves,
    g.params.map((s) => s.name).join(", "),
    narratorFor(g.id) ? "yes" : "no",
    agents.filter((a) => playsGame(a, g.id)).map((a) => a.id).join(", "),
  ]);
  return `## Games\n\n${htmlTable(["game", "title", "seats", "moves", "parameters", "LLM players", "built-in agents"], rows)}\n\nPlay them with \`parley run\` (a run config naming the game), against a person on [Play a game](../play), or in a human study (\`parley play\`).`;
}

function dataSection(p: Paper): string {
  if (!p.datasets.length) return "";
  const rows = p.datasets.map((d) => [d.id, d.title, d.cite, d.logs ? `logs: ${d.logs.path} (parley ingest ${d.logs.adapter})` : d.played ? `played: ${d.played.run}` : ""]);
  return `## Data\n\n${htmlTable(["dataset", "what", "cited", "from"], rows)}\n\nWhere each one stands in this build: [Datasets](../datasets).`;
}

const pagesSection = (p: Paper): string =>
  p.pages.length ? `## Pages\n\n${p.pages.map((page) => `- [${escapeHtml(page.title)}](..${page.path})${page.summary ? `: ${escapeHtml(page.summary)}` : ""}`).join("\n")}` : "";

const parameterText = (m: Measure): string => (m.parameters ?? []).map((q) => `--${q.name} ${q.choices ? q.choices.join("|") : q.kind}`).join(" ");

function measuresSection(p: Paper): string {
  if (!p.analysis) return "";
  const rows = p.analysis.measures.map((m) => [m.name, m.description, `parley stats ${p.id} <dir> --measure ${m.name}${parameterText(m) ? ` [${parameterText(m)}]` : ""}`]);
  return `## Measures\n\n${htmlTable(["measure", "what it holds", "command"], rows)}`;
}

/** The answer of one measure as a table (rows), or its JSON. */
function answerBlock(answer: unknown): string {
  if (Array.isArray(answer) && answer.every((r) => r && typeof r === "object" && !Array.isArray(r))) {
    const rows = answer as Record<string, unknown>[];
    const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
    return htmlTable(columns, rows.slice(0, 200).map((r) => columns.map((c) => r[c])));
  }
  return `<pre>${escapeHtml(JSON.stringify(answer, null, 2))}</pre>`;
}

/** The paper's sample run (a run config in the project), played into a scratch directory, and every measure answered over it. */
async function sampleAnswers(p: Paper): Promise<string> {
  if (!p.sampleRun || !p.analysis || p.pages.length) return "";
  const config = parseRunConfig(JSON.parse(readFileSync(join(projectRoot, p.sampleRun), "utf8")), p.id);
  const dir = mkdtempSync(join(tmpdir(), `parley-paper-${p.id}-`));
  try {
    await writeTournament(config, dir);
    const blocks: string[] = [];
    for (const m of p.analysis.measures) blocks.push(`### ${escapeHtml(m.name)}\n\n${escapeHtml(m.description)}\n\n${answerBlock(await answerOverRuns(p.analysis, m.name, dir))}`);
    return `## The sample run\n\n${escapeHtml(config.games.length)} game${config.games.length === 1 ? "" : "s"} of \`${escapeHtml(p.sampleRun)}\`, played when this site was built (seed ${escapeHtml(config.seed)}), and every measure over it.\n\n${blocks.join("\n\n")}`;
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
}

/** The page's Markdown. */
export async function paperPage(id: string): Promise<string> {
  const p = paperNamed(id);
  const c = p.citation;
  const sections = [gamesSection(p), dataSection(p), pagesSection(p), measuresSection(p), await sampleAnswers(p)].filter(Boolean);
  return `---\ntitle: ${JSON.stringify(c.short)}\ntoc: false\n---\n\n# ${escapeHtml(c.short)}\n\n${escapeHtml(c.authors)}. *${escapeHtml(c.title)}.* ${escapeHtml(c.venue)}.\n\n${p.reference.replaceAll("](./", "](../")}\n\n${sections.join("\n\n")}\n`;
}
