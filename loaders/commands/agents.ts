/** `parley agents`: the built-in GLEE agents as JSON (id, families, seats, description, source). */
import {builtinAgents} from "../agents/index.js";
import {FAMILIES} from "../games/types.js";
import {printJson} from "./args.js";

export const usage = "agents                                            list built-in game agents (JSON)";

export function agentList() {
  return builtinAgents.map((a) => ({
    id: a.id,
    families: a.families,
    seats: Object.fromEntries(a.families.filter((f) => FAMILIES.includes(f)).map((f) => [f, a.seats?.[f] ?? ["alice", "bob"]])),
    description: a.description,
    source: a.source,
  }));
}

export async function run(): Promise<number> {
  printJson(agentList());
  return 0;
}
