/**
 * `parley stats`: the usage line, kept apart from the command's code so that
 * `parley help` (./commands.ts) lists it without loading the command and the
 * site's Reference (/reference/cli) shows it.
 */
export const usage =
  "stats <paper> <dir...> [--measure M] [--format json|jsonl|csv] [--<parameter> <value> ...]   a measure of a paper's analysis (src/analyses/<paper>.ts)\n" +
  "        over run or ingest directories (<paper>: its folder under loaders/papers/); without --measure the paper's default;\n" +
  "        parley stats <paper> --measures lists its measures and their parameters. dond-stats, gamabench-scores, econarena-stats,\n" +
  "        negotiationarena-stats, gtllm-stats and metrics are measures of it, printed as they always were";
