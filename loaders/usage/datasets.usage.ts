/**
 * `parley datasets`: the usage line, kept apart from the command's code so that
 * `parley help` (./commands.ts) lists it without loading the command and the
 * site's Reference (/reference/cli) shows it.
 */
export const usage =
  "datasets                                          list catalog datasets and whether they are present (JSON)\n" +
  "  parley datasets fetch [id ...] [--mirror <url or dir>] [--min-rate B] [--stall S] [--deadline S]\n" +
  "        download public datasets from their authors' repositories (or a mirror), verified; a transfer slower than --min-rate bytes/s\n" +
  "        (default 4096) over any --stall window (default 30 s) is cut and resumed, and --deadline (default 600 s) bounds each file";
