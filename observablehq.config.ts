// Observable Framework configuration for the Parley site.
// Offline by construction: no Google font (globalStylesheets is empty and
// style.css uses system fonts), no npm: imports, and telemetry is switched off
// by the scripts that run Framework (OBSERVABLE_TELEMETRY_DISABLE=true).
export default {
  title: "Parley",
  root: "src",
  // PARLEY_DIST lets tests build into a scratch directory without touching dist/.
  output: process.env.PARLEY_DIST ?? "dist",
  style: "style.css",
  globalStylesheets: [],
  pages: [
    {name: "Deal or No Deal", path: "/dond"},
    {name: "gamma-Bench leaderboard", path: "/gamabench"},
    {name: "NegotiationArena buy/sell", path: "/negotiationarena"},
    {name: "GLEE: humans vs LLM", path: "/glee-human"},
    {name: "GLEE: bargaining", path: "/glee-bargaining"},
    {name: "GLEE: negotiation", path: "/glee-negotiation"},
    {name: "GLEE: persuasion", path: "/glee-persuasion"},
    {name: "GLEE: what moves the outcome", path: "/glee-regression"},
    {name: "GLEE: model pairs and the meta-game", path: "/glee-pairs"},
  ],
  // One page, src/glee-[family].md, for GLEE's three families (Framework's parameterized routes).
  dynamicPaths: ["/glee-bargaining", "/glee-negotiation", "/glee-persuasion"],
  footer: "Parley: language agents in economic games. Built offline with Observable Framework.",
  search: false,
  linkify: false,
  typographer: false,
};
