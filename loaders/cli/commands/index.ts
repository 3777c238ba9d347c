/**
 * Every `parley` command: its usage line and how to load it. A command's
 * module is imported only when that command runs, so `parley help` or
 * `parley agents` never load native DuckDB, the LLM SDKs or parquet-wasm;
 * keep this file free of imports that pull them in. Command modules read
 * their own usage line from here (for their error messages).
 */
import {adapters} from "../../ingest/adapters.js";

/** Planned games above which `parley run` asks for --yes before playing. */
export const CONFIRM_ABOVE = 1_000_000;

interface CommandEntry {
  usage: string;
  load(): Promise<(argv: string[]) => Promise<number>>;
}

export const commands = {
  ingest: {
    usage:
      `ingest <adapter> <path> --out <dir> [--strict]   read outside logs into Parquet (adapters: ${Object.keys(adapters).join(", ")})\n` +
      "  ingest human <record.json...> --out <dir>         games played on the /play page, replayed into the tables of parley run",
    load: async () => (await import("./ingest.js")).run,
  },
  stats: {
    usage:
      "stats <paper> <dir...> [--measure M] [--format json|jsonl|csv] [--<parameter> <value> ...]   a measure of a paper's analysis (src/analyses/<paper>.ts)\n" +
      "        over run or ingest directories (papers: glee, negotiationarena, gtllm, gamabench, econarena); without --measure the paper's default;\n" +
      "        parley stats <paper> --measures lists its measures and their parameters. dond-stats, gamabench-scores, econarena-stats,\n" +
      "        negotiationarena-stats, gtllm-stats and metrics are measures of it, printed as they always were",
    load: async () => (await import("./stats.js")).run,
  },
  "dond-stats": {
    usage: "dond-stats <dir> [--cumulative]                  agreement / envy-free / Pareto rates per difficulty (JSON)",
    load: async () => (await import("./stats.js")).alias("dond-stats"),
  },
  "gamabench-scores": {
    usage: "gamabench-scores <dir> [--runs]                   gamma-Bench 0–100 scores {model: {game: {mean, sd, runs}, overall}} (JSON)",
    load: async () => (await import("./stats.js")).alias("gamabench-scores"),
  },
  "econarena-stats": {
    usage: "econarena-stats <dir>                             Economics Arena (Guo et al. 2024, §3.2, App. A.3): payoff and rationality ratios, deviation, win and rule-break rates (JSON rows)",
    load: async () => (await import("./stats.js")).alias("econarena-stats"),
  },
  "negotiationarena-stats": {
    usage: "negotiationarena-stats <dir>                      NegotiationArena (Bianchi et al. 2024) §3 win rates (ties excluded) and mean payoffs per ordered pair (JSON Lines)",
    load: async () => (await import("./stats.js")).alias("negotiationarena-stats"),
  },
  "gtllm-stats": {
    usage: "gtllm-stats <dir>                                 NE and Pareto-optimal NE rates of matrix and tree games (JSON)",
    load: async () => (await import("./stats.js")).alias("gtllm-stats"),
  },
  datasets: {
    usage:
      "datasets                                          list catalog datasets and whether they are present (JSON)\n" +
      "  parley datasets fetch [id ...] [--mirror <url or dir>]   download public datasets from their authors' repositories (or a mirror), verified",
    load: async () => (await import("./datasets.js")).run,
  },
  equilibria: {
    usage: "equilibria <file.json> [--max-support-pairs N]    pure and mixed Nash equilibria of {rows, cols, a, b} (JSON)",
    load: async () => (await import("./equilibria.js")).run,
  },
  run: {
    usage:
      "run <config.json> --out <dir> [--shard i/n] [--concurrency N] [--cache <dir>] [--resume] [--quiet] [--yes] [--max-cost USD]  play a run config's games into <dir>/game=<id>/{games,players,turns}.parquet;\n" +
      "        --shard i/n plays shard i (from 0) of n into <dir>/game=<id>/shard=<i>/, the union of all n being the whole run;\n" +
      `        prints how many games it plans; more than ${CONFIRM_ABOVE.toLocaleString("en-US")} need --yes;\n` +
      "        runs with LLM players (or --resume) checkpoint each game and resume when run again; --cache moves the LLM response cache;\n" +
      "        --max-cost stops starting games before the spend (prices in parley.config.json) would pass the budget",
    load: async () => (await import("./run.js")).run,
  },
  games: {
    usage: "games                                             list playable games with their parameters (JSON)",
    load: async () => (await import("./games.js")).run,
  },
  agents: {
    usage: "agents                                            list built-in game agents (JSON)",
    load: async () => (await import("./agents.js")).run,
  },
  metrics: {
    usage:
      "metrics <dir> [--conventions paper|glee-code]     GLEE efficiency/fairness/self-gain per game (JSON Lines);\n" +
      "                                                    glee-code scores as GLEE's published analysis code does",
    load: async () => (await import("./stats.js")).alias("metrics"),
  },
  regress: {
    usage:
      "regress <dir> --family F --metric M [--pairs] [--baseline-agent X] [--source S] [--splits N] [--rows-only]\n" +
      "        [--conventions paper|glee-code]\n" +
      "                                                    GLEE one-hot OLS with 95% CIs (JSON)",
    load: async () => (await import("./regress.js")).run,
  },
  ratings: {
    usage: "ratings <dir ...> [--weighting families|games] [--resamples N] [--seed N]   Bradley–Terry ratings with intervals, tiers, α-Rank (JSON)",
    load: async () => (await import("./ratings.js")).run,
  },
  compare: {
    usage: "compare <dirA> <dirB> [--rename X=Y] | <dir ...> --agents A --agents B   paired differences, t and permutation tests, Holm (JSON)",
    load: async () => (await import("./compare.js")).run,
  },
  export: {
    usage: "export <dir> --out <dir> [--format jsonl]          each game with its transcript as chat messages (JSONL) and a dataset card",
    load: async () => (await import("./export.js")).run,
  },
  play: {
    usage:
      "play [--config <experiment.json>] [--port N] [--host H] [--out DIR]   experiment server: people play LLM players in the browser (GLEE's human study, App. E);\n" +
      "        loopback only unless --host (then links carry an access token); games land in <out> as parley run writes them; /admin needs the admin token",
    load: async () => (await import("./play.js")).run,
  },
  runs: {
    usage:
      "runs add <dir> [--name N] [--description D]      add a run directory (parley run or ingest output; globs allowed) to \"runs\" in parley.config.json\n" +
      "  parley runs list [--json]                         the configured runs: games, agents, models, date, whether still running",
    load: async () => (await import("./runs.js")).run,
  },
  build: {
    usage: "build                                             generate data and build the static site into dist/",
    load: async () => (await import("./site.js")).build,
  },
  serve: {
    usage: "serve [dir] [--port N]                            serve a built site on http://127.0.0.1:N (default dist/, 3000)",
    load: async () => (await import("./site.js")).serve,
  },
  dev: {
    usage: "dev                                               live preview on http://127.0.0.1:3000 (re-runs loaders on change; configured runs update as games finish)",
    load: async () => (await import("./site.js")).dev,
  },
  report: {
    usage: "report <run-dir ...> --out <dir> [--title T] [--with-builtin]   a static site about just these runs: front page, analyses, transcripts, references",
    load: async () => (await import("./report.js")).run,
  },
} satisfies Record<string, CommandEntry>;

export type CommandName = keyof typeof commands;

export const isCommand = (name: string): name is CommandName => Object.hasOwn(commands, name);
