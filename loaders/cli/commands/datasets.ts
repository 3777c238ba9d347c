/**
 * `parley datasets`: the catalog and whether each dataset is where the
 * configuration says; `parley datasets fetch [id ...]` downloads the public
 * ones from their authors' published locations (or a mirror), verified.
 */
import {existsSync, mkdirSync, statSync} from "node:fs";
import {join, resolve} from "node:path";
import {catalog, datasetEntry, downloads, locateDataset} from "../../datasets/catalog.js";
import {datasetsConfig} from "../../projectConfig.js";
import {intOption, parse, printJson, UsageError} from "./args.js";
import {printable, redactUrl} from "../../io/printable.js";
import {DEFAULT_LIMITS, DownloadError, isUrl} from "../../io/download.js";

export async function run(argv: string[] = []): Promise<number> {
  if (argv[0] === "fetch") return fetchDatasets(argv.slice(1));
  if (argv.length) throw new UsageError(`parley datasets: unexpected "${argv[0]}"; expected "parley datasets" or "parley datasets fetch [id ...] [--mirror <url or dir>] [--min-rate B] [--stall S] [--deadline S]"`);
  const config = datasetsConfig();
  printJson({
    datasets_dir: config.dir,
    configured_by: config.from,
    datasets: catalog.map((d) => {
      const at = locateDataset(d.id);
      return {id: d.id, title: d.title, path: at.path, available: at.available, ...(d.source ? {source: d.source} : {}), ...(at.available ? {} : {hint: at.hint})};
    }),
    // Files to fetch and ingest that no page shows.
    downloads: downloads.map((d) => {
      const path = config.dir ? join(config.dir, d.path) : null;
      return {id: d.id, title: d.title, path, available: path !== null && existsSync(path), source: d.source, ingest: `parley ingest ${d.adapter} ${path ?? d.path} --out <dir>`};
    }),
  });
  return 0;
}

async function fetchDatasets(argv: string[]): Promise<number> {
  const {values, positionals} = parse("datasets fetch", argv, {mirror: {type: "string"}, "min-rate": {type: "string"}, stall: {type: "string"}, deadline: {type: "string"}});
  const limits = {
    minRate: intOption("datasets fetch", "min-rate", values["min-rate"], {min: 0, max: 1e9}, DEFAULT_LIMITS.minRate),
    stallMs: 1000 * intOption("datasets fetch", "stall", values.stall, {min: 1, max: 3600}, DEFAULT_LIMITS.stallMs / 1000),
    deadlineMs: 1000 * intOption("datasets fetch", "deadline", values.deadline, {min: 1, max: 7 * 24 * 3600}, DEFAULT_LIMITS.deadlineMs / 1000),
  };
  const config = datasetsConfig();
  if (!config.dir) throw new UsageError('parley datasets fetch: no datasets directory is configured; set PARLEY_DATASETS=/path/to/datasets or "datasets" in parley.config.json');
  const mirror = values.mirror && !isUrl(values.mirror) ? resolve(values.mirror) : values.mirror;
  if (mirror && !isUrl(mirror) && !(existsSync(mirror) && statSync(mirror).isDirectory())) {
    throw new UsageError(`parley datasets fetch: --mirror ${redactUrl(values.mirror!)}: expected an http(s) URL or a directory laid out like the datasets directory`);
  }
  const entries = positionals.length ? positionals.map(fetchable) : [...catalog.filter((d) => d.source), ...downloads];
  if (existsSync(config.dir) && !statSync(config.dir).isDirectory()) throw new UsageError(`parley datasets fetch: ${config.dir} (the datasets directory) is a file`);
  mkdirSync(config.dir, {recursive: true});

  const {readSource, fetchSource} = await import("../../datasets/sources.js");
  const progress = progressLine();
  let failed = 0;
  const fetched = [];
  for (const entry of entries) {
    const source = readSource(entry.source!);
    try {
      const summary = await fetchSource(entry.id, source, config.dir, {
        mirror,
        limits,
        progress,
        problem: (line) => progress.problem(`parley datasets fetch: ${line}`),
      });
      failed += summary.failed;
      fetched.push({...summary, from: redactUrl(mirror ?? source.repository), license: source.license});
    } catch (error) {
      if (!(error instanceof DownloadError)) throw error;
      progress.problem(`parley datasets fetch: ${entry.id}: ${error.message}`);
      return 1;
    }
  }
  printJson({datasets_dir: config.dir, datasets: fetched});
  if (failed) progress.problem(`parley datasets fetch: ${failed} file(s) not fetched (see above); run again to retry`);
  return failed ? 1 : 0;
}

function fetchable(id: string): {id: string; source?: string} {
  const download = downloads.find((d) => d.id === id);
  if (download) return download;
  let entry;
  try {
    entry = datasetEntry(id);
  } catch (error) {
    throw new UsageError(`parley datasets fetch: ${(error as Error).message}`);
  }
  if (!entry.source) {
    throw new UsageError(`parley datasets fetch: "${id}" has no published files to fetch (${entry.generate ? "it is generated at build time" : "no source is recorded"}); fetchable: ${[...catalog.filter((d) => d.source), ...downloads].map((d) => d.id).join(", ")}`);
  }
  return entry;
}

/**
 * Progress on stderr: on a terminal one line rewritten in place (at most
 * ten times a second), elsewhere a line every few seconds and at the end of
 * each dataset. Problems get lines of their own.
 */
function progressLine() {
  const tty = process.stderr.isTTY;
  let last = 0;
  let open = false;
  const write = (line: string, final: boolean) => {
    const now = Date.now();
    if (!final && now - last < (tty ? 100 : 3000)) return;
    last = now;
    process.stderr.write(tty ? `\r\x1b[K${printable(line)}${final ? "\n" : ""}` : `${printable(line)}\n`);
    open = tty && !final;
  };
  return Object.assign(write, {
    problem(line: string) {
      process.stderr.write(`${open ? "\n" : ""}${printable(line)}\n`);
      open = false;
    },
  });
}
