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
    {name: "Deal or No Deal played", path: "/dond-played"},
    {name: "Deal or No Deal: valuation estimation", path: "/dond-beliefs"},
    {name: "gamma-Bench leaderboard", path: "/gamabench"},
    {name: "Economics Arena", path: "/econarena"},
    {name: "NegotiationArena", path: "/negotiationarena"},
    {name: "NegotiationArena: resource exchange", path: "/negotiationarena-resource-exchange"},
    {name: "NegotiationArena: ultimatum", path: "/negotiationarena-ultimatum"},
    {name: "NegotiationArena: seller and buyer", path: "/negotiationarena-buy-sell"},
    {name: "GLEE: humans vs LLM", path: "/glee-human"},
    {name: "GLEE: bargaining", path: "/glee-bargaining"},
    {name: "GLEE: negotiation", path: "/glee-negotiation"},
    {name: "GLEE: persuasion", path: "/glee-persuasion"},
    {name: "GLEE: what moves the outcome", path: "/glee-regression"},
    {name: "GLEE: model pairs and the meta-game", path: "/glee-pairs"},
    {name: "Ratings across games", path: "/ratings"},
    {name: "Compare two agents", path: "/compare"},
    {name: "Study: self-gain and patience", path: "/study-discount"},
    {name: "Complete-information games", path: "/gtllm"},
    {name: "Adopt the workflow? (meta-game)", path: "/gtllm-metagame"},
    {name: "Datasets", path: "/datasets"},
    {name: "References", path: "/references"},
  ],
  // A site icon inline (no request, so no /favicon.ico 404 on a visitor's first page).
  head: `<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Crect width='16' height='16' rx='3' fill='%234269d0'/%3E%3Ctext x='8' y='12' font-size='11' text-anchor='middle' fill='white' font-family='sans-serif'%3EP%3C/text%3E%3C/svg%3E">`,
  // One page, src/glee-[family].md, for GLEE's three families (Framework's parameterized routes).
  // One page, src/negotiationarena-[scenario].md, for NegotiationArena's three scenarios.
  dynamicPaths: ["/glee-bargaining", "/glee-negotiation", "/glee-persuasion", "/negotiationarena-resource-exchange", "/negotiationarena-ultimatum", "/negotiationarena-buy-sell"],
  footer: "Parley: language agents in economic games. Built offline with Observable Framework.",
  search: false,
  linkify: false,
  typographer: false,
};
