/**
 * The References page (/references), written from the papers' manifests:
 * each paper's full citation and what Parley plays, reads and measures of
 * it, with links to its pages. The site's page loader src/references.md.ts
 * prints it; `parley report` writes it into the report, with the links to
 * pages the report leaves out turned into plain text.
 */
import type {PaperManifest} from "../contract/paper.js";
import {papers} from "../papers/index.js";

const FRONT = `---
title: References
toc: false
---

# References

The papers Parley is built from, and where their games, data and measures appear here. Pages, the command line (\`parley games\`, \`parley agents\`) and the Guide cite them by short name, first author and year, with the section or table.
`;

/** One paper's entry: the citation in full, then its reference paragraph. */
export function referenceEntry(paper: Pick<PaperManifest, "citation" | "reference">): string {
  const c = paper.citation;
  return `**${c.short}.** ${c.authors}. *${c.title}.* ${c.venue}.\n${paper.reference}`;
}

/** The page's Markdown, papers in the order of the list of papers. */
export function referencesPage(): string {
  return `${FRONT}\n${papers.map(referenceEntry).join("\n\n")}\n`;
}
