/** `parley games`: every registered game as JSON (id, title, citation, seats, moves, parameters with defaults and grids). */
import {gameFileProblems, games} from "../../registry/games.js";
import {printable} from "../../io/printable.js";
import {printJson} from "./args.js";

export function gameList() {
  return games.map((g) => ({
    id: g.id,
    title: g.title,
    description: g.description,
    // "GLEE (Shapira et al. 2024): GLEE: A Unified Framework ... §2.1, Table 1" — short name with first author and year, title, section.
    citation: `${g.citation.short}: ${g.citation.title}${g.citation.section ? `, ${g.citation.section}` : ""}`,
    seats: {min: g.seats.min, max: g.seats.max, default: g.seats.default, ...(g.seats.names && {names: g.seats.names})},
    moves: g.moves,
    parameters: g.params.map((p) => ({
      name: p.name,
      label: p.label,
      type: p.type,
      ...(p.values && {values: p.values}),
      ...(p.min !== undefined && {min: p.min, ...(p.exclusiveMin && {min_exclusive: true})}),
      ...(p.max !== undefined && {max: p.max, ...(p.exclusiveMax && {max_exclusive: true})}),
      ...(p.allowInfinite && {infinite: "inf"}),
      default: p.default,
      grid: p.grid,
      ...(p.baseline !== undefined && {baseline: p.baseline}),
    })),
  }));
}

export async function run(): Promise<number> {
  // A game file that is not a valid game: one line each on stderr, the others are listed.
  for (const line of gameFileProblems) process.stderr.write(`${printable(`parley games: ${line}`)}\n`);
  printJson(gameList());
  return 0;
}
