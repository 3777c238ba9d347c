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
  if (status.manifest) note.append(ManifestDetails(status.manifest));
  return note;
}

/** A built-in dataset's manifest (what produced it), one click away; text only. */
function ManifestDetails(manifest: Record<string, unknown>): HTMLElement {
  const details = document.createElement("details");
  details.className = "parley-manifest";
  const summary = document.createElement("summary");
  summary.textContent = "Manifest: what produced this data";
  const list = document.createElement("ul");
  const item = (label: string, value: unknown) => {
    if (value === undefined || value === null) return;
    const li = document.createElement("li");
    li.textContent = `${label}: ${typeof value === "string" ? value : JSON.stringify(value)}`;
    list.append(li);
  };
  item("written as", manifest.kind === "run" ? "parley run" : "parley ingest");
  item("Parley", manifest.parley);
  item("config sha256", manifest.config_sha256);
  item("seed", manifest.seed);
  item("started", manifest.started);
  item("finished", manifest.finished);
  item("Node", manifest.node);
  item("packages", manifest.packages);
  item("counts", manifest.counts);
  const config = document.createElement("pre");
  config.textContent = JSON.stringify(manifest.config, null, 2);
  details.append(summary, list, config);
  return details;
}
