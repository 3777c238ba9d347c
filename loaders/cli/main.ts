// The `parley` command: runs the command its arguments name (loaders/cli/dispatch.ts) and exits with its code.
import {main} from "./dispatch.js";

process.exitCode = await main(process.argv.slice(2));
