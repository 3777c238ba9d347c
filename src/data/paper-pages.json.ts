// Each paper's overview and pages with their one-sentence summaries, from the papers' manifests (loaders/papers/<paper>/index.ts), for the home page's list.
import {papers} from "../../loaders/papers/index.js";

process.stdout.write(JSON.stringify(papers.map((p) => ({paper: p.citation.short, overview: `/papers/${p.id}`, pages: p.pages.filter((page) => page.summary).map(({path, title, summary}) => ({path, title, summary}))}))));
