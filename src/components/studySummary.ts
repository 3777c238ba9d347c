/**
 * The front page of a report (`parley report`): the study's facts, games,
 * agents, runs and headline results, drawn from data/study.json
 * (src/lib/studySummary.ts). Every text from the runs (agent ids, model
 * names, descriptions) is set with textContent, never parsed as HTML.
 */
import type {StudySummary, ParamValue} from "../lib/studySummary.js";
import {reasonText} from "../lib/studyParticipants.js";

const el = <K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] => {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
};

const count = (n: number) => n.toLocaleString("en-US");
const fixed = (x: number | null, d = 3) => (x === null || !Number.isFinite(x) ? "–" : x.toFixed(d));
const value = (v: ParamValue) => (v === null ? "∞ / none" : String(v));

/** A table of text cells; `cells` of a row may be nodes (links). */
export function TextTable(headers: string[], rows: (string | Node)[][], className = "parley-study-table"): HTMLTableElement {
  const table = el("table", undefined, className);
  const head = el("tr");
  for (const h of headers) head.append(el("th", h));
  table.append(el("thead"));
  table.tHead!.append(head);
  const body = el("tbody");
  for (const row of rows) {
    const tr = el("tr");
    for (const cell of row) {
      const td = el("td");
      if (typeof cell === "string") td.textContent = cell;
      else td.append(cell);
      tr.append(td);
    }
    body.append(tr);
  }
  table.append(body);
  return table;
}

/** The study in numbers: runs, games, turns, rule breaks, tokens and cost (when known). Each figure has a data-fact attribute naming it. */
export function StudyFacts(s: StudySummary): HTMLElement {
  const list = el("ul", undefined, "parley-study-facts");
  const fact = (key: string, label: string, text: string) => {
    const li = el("li");
    li.append(el("strong", text), ` ${label}`);
    li.dataset.fact = key;
    list.append(li);
  };
  const {totals} = s;
  fact("games", totals.games === 1 ? "game" : "games", count(totals.games));
  fact("runs", totals.runs === 1 ? "run" : "runs", count(totals.runs));
  fact("agents", s.agents.length === 1 ? "agent" : "agents", count(s.agents.length));
  fact("turns", "turns (decisions and messages, rule breaks included)", count(totals.turns));
  fact("rule-breaks", "rule breaks (answers that broke the rules, each recorded and asked again)", count(totals.ruleBreaks));
  if (totals.inputTokens !== null) fact("tokens", "tokens sent and received", `${count(totals.inputTokens)} in, ${count(totals.outputTokens ?? 0)} out`);
  fact("cost", totals.costUsd === null ? "(no prices configured for these runs)" : "spent on model calls (prices of parley.config.json)", totals.costUsd === null ? "cost unknown" : `$${totals.costUsd.toFixed(2)}`);
  return list;
}

const link = (path: string, text: string) => Object.assign(el("a", text), {href: `.${path}`});

/** What was played: each game, its count, its rule breaks and its parameter grid as played. */
export function StudyGames(s: StudySummary): HTMLTableElement {
  return TextTable(
    ["game", "paper", "games", "rule breaks", "parameters as played"],
    s.games.map((g) => [g.title === g.game ? g.game : `${g.title} (${g.game})`, g.citation ?? "–", count(g.games), count(g.ruleBreaks), g.params.map((p) => `${p.name}: ${p.values.map(value).join(", ")}`).join("; ") || "–"]),
  );
}

/** Who played: each agent (LLM players with their provider and model) and its games. */
export function StudyAgents(s: StudySummary): HTMLTableElement {
  const table = TextTable(
    ["agent", "kind", "model", "games"],
    s.agents.map((a) => [a.agent, a.kind === "llm" ? `LLM (${a.provider})` : a.kind === "built-in" ? "built-in strategy" : "from the data", a.model ?? "–", count(a.games)]),
  );
  table.querySelectorAll("tbody tr").forEach((tr, i) => ((tr as HTMLElement).dataset.agent = s.agents[i].agent));
  return table;
}

/** The runs: name, description, when, games, models as reported by the API, cost. */
export function StudyRuns(s: StudySummary): HTMLTableElement {
  return TextTable(
    ["run", "description", "played", "games", "models (as the API reported them)", "cost"],
    s.runs.map((r) => [
      r.name, r.description ?? "–", r.started ? `${r.started.slice(0, 16).replace("T", " ")} – ${(r.finished ?? "").slice(0, 16).replace("T", " ")} UTC` : "–", count(r.games),
      r.llmPlayers.map((p) => `${p.id}: ${p.provider}/${p.model}${p.reported.length ? ` (${p.reported.join(", ")})` : ""}`).join("; ") || "–",
      r.costUsd === null ? "–" : `$${r.costUsd.toFixed(2)}`,
    ]),
  );
}

/** GLEE: mean efficiency, fairness and self-gains per family and ordered pair (GLEE (Shapira et al. 2024) §2). */
export function GleeHeadline(s: StudySummary, {withExcluded = false}: {withExcluded?: boolean} = {}): HTMLElement[] {
  const rows = (withExcluded ? s.headlines.gleeWithExcluded : null) ?? s.headlines.glee ?? [];
  const families = [...new Set(rows.map((r) => r.family))];
  return families.flatMap((family) => {
    const heading = el("h3");
    heading.append(link(`/glee-${family}`, family[0].toUpperCase() + family.slice(1)));
    return [heading, TextTable(
      ["Alice", "Bob", "games", "efficiency", "fairness", "Alice's self-gain", "Bob's self-gain"],
      rows.filter((r) => r.family === family).map((r) => [r.alice_agent, r.bob_agent, count(r.n), fixed(r.efficiency), fixed(r.fairness), fixed(r.alice_self_gain), fixed(r.bob_self_gain)]),
    )];
  });
}

/** gamma-Bench: overall score per lineup (gamma-Bench (Huang et al. 2024) §3, Appendix E). */
export function GamabenchHeadline(s: StudySummary): HTMLTableElement {
  return TextTable(["model or strategy", "overall (0–100)", "runs"], (s.headlines.gamabench ?? []).map((r) => [r.model, `${r.overall.toFixed(1)}${r.sd === null ? "" : ` ± ${r.sd.toFixed(1)}`}`, String(r.runs)]));
}

/** The report's analysis pages as a list of links. */
export function StudyPages(s: StudySummary): HTMLUListElement {
  const list = el("ul");
  for (const p of s.pages) {
    const li = el("li");
    li.append(link(p.path, p.name));
    list.append(li);
  }
  return list;
}

const minutes = (m: number) => (m < 1 ? `${Math.round(m * 60)} s` : `${m.toFixed(1)} min`);

/**
 * The participants of a human study: recruited, consented, declined, played,
 * completed, excluded (each reason) and still under way, the time the
 * completed ones took, and the same counts per condition. Each count has a
 * data-participants attribute naming it.
 */
export function StudyParticipants(s: StudySummary): HTMLElement {
  const p = s.participants!;
  const root = el("div", undefined, "parley-study-participants");
  const list = el("ul", undefined, "parley-study-facts");
  const fact = (key: string, n: number, label: string) => {
    const li = el("li");
    li.append(el("strong", count(n)), ` ${label}`);
    li.dataset.participants = key;
    list.append(li);
    return li;
  };
  fact("recruited", p.recruited, "recruited (sent to the study's link and assigned a condition)");
  fact("consented", p.consented, "gave their consent");
  if (p.declined) fact("declined", p.declined, "declined");
  fact("played", p.played, p.played === 1 ? "finished a game" : "finished their game");
  fact("completed", p.completed, "completed the study (and were given the completion code)");
  const out = fact("excluded", p.excluded, p.excluded === 1 ? "excluded from the analysis" : "excluded from the analysis");
  if (p.reasons.length) out.append(`: ${p.reasons.map((r) => `${count(r.participants)} ${reasonText(r.reason)}`).join("; ")}`);
  if (p.underWay) fact("under-way", p.underWay, "not finished (stopped before the end, or still playing when the report was built)");
  const time = el("li");
  time.dataset.participants = "time";
  time.append(p.minutes ? `${minutes(p.minutes.median)} median time to complete (consent to completion code; fastest ${minutes(p.minutes.min)}, slowest ${minutes(p.minutes.max)})` : "no one completed: no time to complete");
  list.append(time);
  root.append(list, TextTable(["condition", "recruited", "completed", "excluded"], p.conditions.map((c) => [c.condition, count(c.recruited), count(c.completed), count(c.excluded)])));
  return root;
}
