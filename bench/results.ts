/**
 * bench/RESULTS.md, the record of what the benches measured: `npm run bench
 * -- <name> --append` appends one section per call, dated, with the commit
 * and the machine the figures come from, and the figures as the benches
 * printed them. A bench that returns a headline (its figures in a few
 * lines) also gets it written into the "Headline figures" block at the top
 * of the file, replacing its previous one, so the file reports first what
 * the latest runs found.
 */
import {spawnSync} from "node:child_process";
import {cpus, loadavg, totalmem} from "node:os";

export interface Machine {
  cores: number;
  cpu: string;
  memoryGiB: number;
  node: string;
  platform: string;
}

/** This machine, as a results section describes it. */
export function thisMachine(): Machine {
  const list = cpus();
  return {cores: list.length, cpu: list[0]?.model.trim() ?? "unknown CPU", memoryGiB: totalmem() / 2 ** 30, node: process.version, platform: `${process.platform} ${process.arch}`};
}

/** The checkout's commit (short), marked when the work tree has changes; null outside git. */
export function currentCommit(root: string): string | null {
  const head = spawnSync("git", ["rev-parse", "--short", "HEAD"], {cwd: root, encoding: "utf8"});
  if (head.status !== 0) return null;
  const dirty = spawnSync("git", ["status", "--porcelain", "--untracked-files=no"], {cwd: root, encoding: "utf8"});
  return head.stdout.trim() + (dirty.status === 0 && dirty.stdout.trim() ? " (with uncommitted changes)" : "");
}

/** The one-minute load average, rounded as the sections print it. */
export const load = (): string => loadavg()[0]!.toFixed(1);

/**
 * One section of RESULTS.md: a heading with the date, commit and benches,
 * the machine and its load, and the printed figures in a text block.
 */
export function resultsSection(s: {date: Date; commit: string | null; benches: readonly string[]; command: string; machine: Machine; loadStart: string; loadEnd: string; output: string}): string {
  const m = s.machine;
  const day = s.date.toISOString().slice(0, 10);
  const heading = `## ${day} · ${s.commit ?? "no commit"} · ${s.benches.join(", ") || "every bench"}`;
  const machine = `Machine: ${m.cores} cores (${m.cpu}), ${m.memoryGiB.toFixed(1)} GiB, ${m.platform}, Node ${m.node}; load average ${s.loadStart} at the start, ${s.loadEnd} at the end. Appended by \`${s.command}\`, started ${s.date.toISOString()}.`;
  const figures = s.output.replace(/^\s*\n/, "").replace(/\s+$/, "") || "(the benches printed nothing)";
  // A fence longer than any backtick run in the figures, so the block cannot end early.
  const fence = "`".repeat(Math.max(3, ...[...figures.matchAll(/`+/g)].map((r) => r[0].length + 1)));
  return `\n${heading}\n\n${machine}\n\n${fence}text\n${figures}\n${fence}\n`;
}

export const HEADLINES_HEADING = "## Headline figures";

/**
 * `results` (RESULTS.md's text) with `bench`'s entry of the headline block
 * set to `headline`, under a heading with the date and commit it comes
 * from. The block sits before the first dated section (created there when
 * absent) and keeps the other benches' entries in the order they came.
 */
export function withHeadline(results: string, s: {bench: string; date: Date; commit: string | null; headline: string}): string {
  const entry = `### ${s.bench} · ${s.date.toISOString().slice(0, 10)} · ${s.commit ?? "no commit"}\n\n${s.headline.trim()}\n`;
  const found = results.indexOf(`\n${HEADLINES_HEADING}\n`);
  if (found < 0) {
    const first = results.indexOf("\n## ");
    const at = first < 0 ? results.length : first + 1;
    const intro = `${HEADLINES_HEADING}\n\nThe latest figures of the benches that report a headline, each from its dated section below (\`--append\` replaces a bench's entry).\n`;
    return `${results.slice(0, at)}${intro}\n${entry}\n${results.slice(at)}`;
  }
  const begin = found + 1;
  const next = results.indexOf("\n## ", begin);
  const end = next < 0 ? results.length : next + 1;
  const [head, ...entries] = results.slice(begin, end).trimEnd().split(/\n(?=### )/);
  const i = entries.findIndex((e) => e.startsWith(`### ${s.bench} · `));
  if (i >= 0) entries[i] = entry;
  else entries.push(entry);
  return `${results.slice(0, begin)}${[head.trimEnd() + "\n", ...entries.map((e) => e.trimEnd() + "\n")].join("\n")}${next < 0 ? "" : "\n"}${results.slice(end)}`;
}
