/**
 * Every ingest adapter by the name `parley ingest <name>` takes, read off
 * the list of papers (loaders/papers/index.ts). Each adapter's module is
 * imported when it runs, so that listing them (the CLI's help) loads none.
 */
import type {AdapterInput, IngestAdapter} from "../contract/paper.js";
import type {IngestResult} from "./types.js";
import {papers} from "../papers/index.js";

export type Adapter = (path: string) => IngestResult | Promise<IngestResult>;

export type {AdapterInput};

function collect(): Record<string, IngestAdapter> {
  const out: Record<string, IngestAdapter> = {};
  const declaredBy: Record<string, string> = {};
  for (const p of papers) {
    for (const [name, adapter] of Object.entries(p.ingest)) {
      if (declaredBy[name]) throw new Error(`papers "${declaredBy[name]}" and "${p.id}" both declare the ingest adapter "${name}"`);
      out[name] = adapter;
      declaredBy[name] = p.id;
    }
  }
  return out;
}

export const adapters: Readonly<Record<string, IngestAdapter>> = collect();
