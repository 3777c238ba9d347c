/**
 * Every ingest adapter by the name `parley ingest <name>` takes. Each
 * adapter's module is imported when it runs, so that listing them (the
 * CLI's help) loads none.
 */
import type {IngestResult} from "./types.js";

export type Adapter = (path: string) => IngestResult | Promise<IngestResult>;

/** What each adapter reads, checked by `parley ingest` before it starts. */
export type AdapterInput = "file" | "directory" | "file or directory";

export const adapters: Record<string, {describe: string; input: AdapterInput; ingest: Adapter}> = {
  dond: {describe: "Deal-or-No-Deal dialogues, one per line (end-to-end-negotiator format)", input: "file", ingest: async (path) => (await import("../papers/gtllm/dond/ingest.js")).ingestDond(path)},
  gamabench: {describe: "gamma-Bench raw results, <model>_<game>_v1_<run>.json (gamma-Bench (Huang et al. 2024))", input: "file or directory", ingest: async (path) => (await import("../papers/gamabench/ingest.js")).ingestGamabench(path)},
  negotiationarena: {describe: "NegotiationArena buy/sell logs, <run>/game_state.json (NegotiationArena (Bianchi et al. 2024))", input: "file or directory", ingest: async (path) => (await import("../papers/negotiationarena/ingest.js")).ingestNegotiationArena(path)},
  glee: {describe: "GLEE human-vs-LLM games, <family>/<id>/{config.json, game.csv} (GLEE (Shapira et al. 2024))", input: "directory", ingest: async (path) => (await import("../papers/glee/ingest.js")).ingestGleeHuman(path)},
};
