/**
 * Which module may import which: `npm run lint:deps` (part of `npm test`)
 * checks the rules below with dependency-cruiser and fails on any break.
 * The Guide's architecture page (src/guide/architecture.md) draws the same layers.
 *
 * Type-only imports count as well (`tsPreCompilationDeps`): a type import
 * still ties one layer to another's shape, and a cycle of types is a cycle a
 * reader has to untangle.
 */

/**
 * The engine's layers, highest first. A module may import its own layer and
 * any layer below it, never one above. Layers on one line share a level
 * (they import each other freely and no import cycle is allowed anyway).
 * Paths are relative to the project root.
 */
const LAYERS = [
  {
    name: "cli",
    path: "^loaders/cli/",
    why: "the command line is a thin shell: it parses arguments, calls the library and prints; nothing imports it (rule cli-is-a-leaf)",
  },
  {
    name: "site",
    path: "^loaders/site/",
    why: "building, previewing and serving the site and reports: it shows configured runs, datasets and run results, so it sits above all of them",
  },
  {
    name: "usage",
    path: "^loaders/usage/",
    why: "each command's usage text: `parley help` prints it and the site's Reference (/reference/cli) shows it, so it sits below both and imports none of the commands' code",
  },
  {
    name: "ownRuns",
    path: "^loaders/ownRuns/",
    why: "the runs configured in parley.config.json: their state and the archives pages read; they read the dataset catalog and run manifests",
  },
  {
    name: "datasets / study",
    path: "^loaders/(datasets|study)/",
    why: "the dataset catalog (which regenerates built-in tables with the runner) and the human-study server (which plays games with the runner's loop); neither imports the other",
  },
  {
    name: "runner / analyses",
    path: "^loaders/(runner|analyses)/",
    why: "the runner plays any game with any seating (run configurations, grids, seeding, concurrency, resume, tables); analyses/ answers a paper's measures over run directories with native DuckDB",
  },
  {
    name: "llm player",
    path: "^loaders/llm/llmPlayer\\.ts$",
    why: "the LLM player: it reads the registries for a game's narrator and workflow, so it sits above them, unlike the LLM clients it calls",
  },
  {
    name: "registry",
    path: "^loaders/(registry/|ingest/adapters\\.ts$)",
    why: "the lists of games, agents, narrators, workflows and ingest adapters, gathered from the papers",
  },
  {
    name: "papers",
    path: "^loaders/papers/",
    why: "one folder per paper: its games, agents, narrators, ingest adapters, built on the shared contract",
  },
  {
    name: "contract / ingest",
    path: "^loaders/(contract|ingest)/",
    pathNot: "^loaders/ingest/adapters\\.ts$",
    why: "what every paper implements or uses: the game, agent and narrator contracts, and the reading and writing of outside logs",
  },
  {
    name: "llm clients",
    path: "^loaders/llm/",
    pathNot: "^loaders/llm/llmPlayer\\.ts$",
    why: "provider clients, a player's model settings (playerSpec.ts), limits, cache and cost, which know nothing of games (a narrator's chat messages are their input)",
  },
  {
    name: "io",
    path: "^loaders/(io/|projectConfig\\.ts$)",
    why: "Parquet, Arrow, DuckDB, files and the project's configuration: the bottom of the engine",
  },
];

const layerRules = LAYERS.slice(1).map((layer, i) => ({
  name: `layer-${layer.name.replace(/[^a-zA-Z]+/g, "-")}`,
  comment: `${layer.name} imports only its own layer and those below it: ${layer.why}`,
  severity: "error",
  from: {path: layer.path, ...(layer.pathNot && {pathNot: layer.pathNot})},
  to: {path: LAYERS.slice(0, i + 1).map((above) => above.path)},
}));

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "No import cycles, type-only ones included: a cycle means neither module can be read, tested or moved without the other, and it makes load order matter",
      severity: "error",
      from: {},
      to: {circular: true},
    },
    ...layerRules,
    {
      name: "cli-is-a-leaf",
      comment: "Nothing but the command line, its entry (bin/), tests and benchmarks imports loaders/cli/: what a command does that others need belongs in the library it calls",
      severity: "error",
      from: {pathNot: "^(loaders/cli|bin|test|bench)/"},
      to: {path: "^loaders/cli/"},
    },
    {
      name: "lib-is-pure",
      comment: "src/lib and src/analyses run unchanged in pages, tests and the command line: no engine (loaders/), no DOM helpers (src/components/), no data loaders, no Node API",
      severity: "error",
      from: {path: "^src/(lib|analyses)/"},
      to: {path: ["^loaders/", "^src/(components|data)/"]},
    },
    {
      name: "lib-is-pure-no-node",
      comment: "src/lib and src/analyses use no Node built-in (node:fs, node:path, ...): the browser has none",
      severity: "error",
      from: {path: "^src/(lib|analyses)/"},
      to: {dependencyTypes: ["core"]},
    },
    {
      name: "components-use-engine-types-only",
      comment: "src/components run in the browser, which cannot load the engine: they may name the engine's types (the game contract, the play session) but import none of its code",
      severity: "error",
      from: {path: "^src/components/"},
      to: {path: "^loaders/", dependencyTypesNot: ["type-only"]},
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: {fileName: "tsconfig.json"},
    doNotFollow: {path: "node_modules"},
    exclude: {path: "(^|/)node_modules/|^src/\\.observablehq/|^src/generated/|^dist/"},
  },
};
