/**
 * A fake LLM endpoint in its own process (for benches, so that the server's
 * CPU is not counted as the client's): `node --import tsx
 * test/support/fakeLlmProcess.ts <wire> <delayMs>` answers every request
 * with a short JSON reply after `delayMs` and prints its base URL on stdout.
 */
import {startFakeLlm, type Wire} from "./fakeLlm.js";

const wire = (process.argv[2] ?? "openai") as Wire;
const delayMs = Number(process.argv[3] ?? 100);
const server = await startFakeLlm(wire, () => ({text: '{"decision": "accept"}', delayMs, inputTokens: 300, outputTokens: 8}));
process.stdout.write(server.baseURL + "\n");
process.on("SIGTERM", () => void server.close().then(() => process.exit(0)));
