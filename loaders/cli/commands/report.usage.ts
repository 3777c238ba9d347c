/**
 * `parley report`: the usage line, kept apart from the command's code so that
 * `parley help` (commands/index.ts) lists it without loading the command.
 */
export const usage = "report <run-dir ...> --out <dir> [--title T] [--with-builtin]   a static site about just these runs: front page, analyses, transcripts, references";
