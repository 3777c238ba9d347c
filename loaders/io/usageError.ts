/**
 * A mistake of the user's (a bad argument, input file or configuration),
 * which the command line prints as one line with exit code 2 instead of a
 * stack (loaders/cli/dispatch.ts). Library code that checks what the user gave
 * it (a datasets sources file, say) throws it too, so it lives down here
 * rather than in the command line.
 */
export class UsageError extends Error {}
