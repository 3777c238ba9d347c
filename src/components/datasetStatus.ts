/** A notice for a dataset that is absent or was read with problems (from its status.json). */
import type {DatasetStatus} from "../lib/datasetStatus.js";

export function DatasetNotice(status: DatasetStatus): HTMLElement {
  const note = document.createElement("div");
  note.className = status.available ? "note" : "warning";
  const title = document.createElement("p");
  const body = document.createElement("p");
  if (!status.available) {
    title.textContent = `${status.title} is not available in this build.`;
    body.textContent = status.hint ?? "";
  } else {
    title.textContent = `${status.title} (${status.cite}), from ${status.path}.`;
    body.textContent = Object.entries(status.summary).map(([k, v]) => `${k.replaceAll("_", " ")}: ${v}`).join(" · ");
  }
  note.append(title, body);
  if (status.problems.length) {
    const details = document.createElement("details");
    const summary = document.createElement("summary");
    summary.textContent = `${status.problems.length} problem(s) while reading`;
    const list = document.createElement("ul");
    for (const p of status.problems.slice(0, 50)) {
      const li = document.createElement("li");
      li.textContent = p;
      list.append(li);
    }
    details.append(summary, list);
    note.append(details);
  }
  return note;
}
