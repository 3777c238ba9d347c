/** Every ingest adapter by the name `parley ingest <name>` takes. */
import {ingestDond} from "./dond.js";
import {ingestGamabench} from "./gamabench.js";
import {ingestNegotiationArena} from "./negotiationarena.js";
import {ingestGleeHuman} from "./glee.js";
import type {IngestResult} from "./types.js";

export type Adapter = (path: string) => IngestResult | Promise<IngestResult>;

export const adapters: Record<string, {describe: string; ingest: Adapter}> = {
  dond: {describe: "Deal-or-No-Deal dialogues, one per line (end-to-end-negotiator format)", ingest: ingestDond},
  gamabench: {describe: "gamma-Bench raw results, <model>_<game>_v1_<run>.json (seed 003)", ingest: ingestGamabench},
  negotiationarena: {describe: "NegotiationArena buy/sell logs, <run>/game_state.json (seed 001)", ingest: ingestNegotiationArena},
  glee: {describe: "GLEE human-vs-LLM games, <family>/<id>/{config.json, game.csv} (seed 000)", ingest: ingestGleeHuman},
};
