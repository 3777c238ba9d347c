/**
 * `parley report`: the usage line, kept apart from the command's code so that
 * `parley help` (./commands.ts) lists it without loading the command and the
 * site's Reference (/reference/cli) shows it.
 */
export const usage = "report <run-dir ...> --out <dir> [--title T] [--with-builtin]   a static site about just these runs: front page, analyses, transcripts, references";
