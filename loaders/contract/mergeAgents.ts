/**
 * One agent id that plays several games (e.g. `random`) is registered once
 * per family of games; `mergeAgents` joins the entries. Pure: the browser's
 * scripted-only registry (loaders/study/browserEngine.ts) uses it too.
 */
import type {AgentDef, SeatContext} from "./agent.js";
import {playsGame} from "./agent.js";

/** Merges entries that share an id into one agent that plays all their games. */
export function mergeAgents(defs: readonly AgentDef[]): AgentDef[] {
  const byId = new Map<string, AgentDef[]>();
  for (const d of defs) byId.set(d.id, [...(byId.get(d.id) ?? []), d]);
  return [...byId.values()].map((entries) => {
    if (entries.length === 1) return entries[0];
    const pick = (game: string) => entries.find((e) => playsGame(e, game));
    return {
      id: entries[0].id,
      games: entries.flatMap((e) => e.games),
      canSit: (game, seat, n) => {
        const e = pick(game);
        return !!e && (e.canSit?.(game, seat, n) ?? true);
      },
      description: entries.map((e) => e.description).join(" "),
      source: [...new Set(entries.map((e) => e.source))].join("; "),
      variants: entries,
      create: (context: SeatContext) => {
        const e = pick(context.game);
        if (!e) throw new Error(`agent "${entries[0].id}" does not play ${context.game}`);
        return e.create(context);
      },
    } as AgentDef & {variants: AgentDef[]};
  });
}
