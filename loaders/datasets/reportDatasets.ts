/**
 * Which games each catalog dataset holds and which pages analyse it, as a
 * report (loaders/site/reportSite.ts) and a configured run's archive
 * (loaders/ownRuns/runArchives.ts) both group a run's games.
 */
/** A catalog dataset a report can show: the games it holds (by id prefix) and the pages that read it. */
export interface ReportDataset {
  id: string;
  /** Game ids of this dataset start with one of these. */
  prefixes: string[];
  /** The pages that analyse it; `{variant}` pages are listed once per variant present (the part of the game id after the prefix). */
  pages: (games: string[]) => string[];
  /** Per table, a SQL condition keeping only the rows the pages read. */
  where?: Record<string, string>;
}

const variants = (games: string[], prefix: string, known: readonly string[]) => known.filter((v) => games.includes(`${prefix}${v}`));

export const REPORT_DATASETS: ReportDataset[] = [
  {id: "glee", prefixes: ["glee/"], pages: (games) => [...variants(games, "glee/", ["bargaining", "negotiation", "persuasion"]).map((f) => `/glee-${f}`), "/glee-regression", "/glee-pairs"]},
  {id: "gamabench", prefixes: ["gamabench/"], pages: () => ["/gamabench"]},
  {
    id: "negotiationarena", prefixes: ["negotiationarena/"],
    pages: (games) => ["/negotiationarena", ...variants(games, "negotiationarena/", ["resource_exchange", "ultimatum", "buy_sell"]).map((s) => `/negotiationarena-${s.replace("_", "-")}`)],
  },
  {id: "dond", prefixes: ["dond/"], pages: () => ["/dond", "/dond-played", "/dond-beliefs"]},
  {id: "econarena", prefixes: ["econarena/"], pages: () => ["/econarena"], where: {turns: "payoff IS NOT NULL OR rule_break"}},
  {id: "gtllm", prefixes: ["gtllm/"], pages: () => ["/gtllm", "/gtllm-metagame"]},
];

/** The report dataset that holds game `game`, or undefined (a game no page analyses). */
export function datasetOfGame(game: string): ReportDataset | undefined {
  return REPORT_DATASETS.find((d) => d.prefixes.some((p) => game.startsWith(p)));
}
