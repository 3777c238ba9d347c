/**
 * A configured run's card (its run.json: loaders/ownRuns/runArchives.ts RunInfo): how
 * many games are in and whether `parley run` is still writing it, then,
 * one click away, its manifest: games, agents, models, dates, the config as
 * given, Parley's version. Everything is text (textContent), never HTML.
 */
import type {RunInfo} from "../lib/runInfo.js";

const el = <K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] => {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
};

const count = (n: number, what: string) => `${n.toLocaleString("en-US")} ${what}${n === 1 ? "" : "s"}`;

/** One line: what the run holds and whether it is finished. */
export function runHeadline(info: RunInfo): string {
  const state = info.running ? `still running: ${count(info.total, "finished game")} in so far` : `${count(info.total, "game")}${info.finished ? `, finished ${info.finished.slice(0, 16).replace("T", " ")} UTC` : ""}`;
  return `Your run “${info.name}” (${info.path}): ${state}.`;
}

export function RunManifest(info: RunInfo): HTMLElement {
  const card = el("div", undefined, info.problem ? "warning parley-run" : "note parley-run");
  card.append(el("p", runHeadline(info), "parley-run-headline"));
  if (info.description) card.append(el("p", info.description));
  if (info.problem) card.append(el("p", info.problem));
  const details = el("details");
  details.append(el("summary", "Manifest: games, agents, models, config"));
  const list = el("ul");
  const item = (label: string, value: string) => list.append(el("li", `${label}: ${value}`));
  item("games", info.games.map((g) => `${g.game} (${g.games.toLocaleString("en-US")})`).join(", ") || "none yet");
  item("agents", info.agents.join(", ") || "–");
  if (info.models.length) item("LLM models", info.models.join(", "));
  item("written by", info.kind === "ingest" ? "parley ingest" : info.kind === "run" ? "parley run" : "– (no manifest.json yet)");
  item("started", info.started ?? "–");
  item("finished", info.running ? "not yet (the run is still going)" : (info.finished ?? "–"));
  if (info.parley) item("Parley", JSON.stringify(info.parley));
  details.append(list);
  if (info.config !== null) {
    details.append(el("p", "Config as given:"));
    details.append(el("pre", JSON.stringify(info.config, null, 2)));
  }
  card.append(details);
  return card;
}
