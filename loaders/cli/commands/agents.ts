/** `parley agents`: the built-in agents as JSON (id, games, description, source; per game when one id plays several). */
import {agents} from "../../registry/agents.js";
import type {AgentDef} from "../../contract/agent.js";
import {printJson} from "./args.js";

export function agentList() {
  return agents.map((a) => {
    const variants = (a as AgentDef & {variants?: AgentDef[]}).variants;
    return {
      id: a.id,
      games: a.games,
      description: a.description,
      source: a.source,
      ...(variants && {by_game: variants.map((v) => ({games: v.games, description: v.description, source: v.source}))}),
    };
  });
}

export async function run(): Promise<number> {
  printJson(agentList());
  return 0;
}
