/**
 * `parley export <dir> --out <dir> [--format jsonl]`: every game of a run or
 * ingest directory as one JSON record with its full transcript in
 * chat-message form (for sharing and for training), plus a dataset card
 * (README.md: schema, counts, where the data came from, license note). Both
 * files are written beside each other under temporary names and renamed
 * into place, so an interrupted export leaves no half file behind.
 */
import {closeSync, existsSync, openSync, readFileSync, renameSync, rmSync, writeSync} from "node:fs";
import {basename, join, resolve} from "node:path";
import {readRunFile} from "../../io/runFile.js";
import {JsonInputError, MAX_JSON_DEPTH, parseJsonStrict} from "../../io/configJson.js";
import {printable} from "../../io/printable.js";
import {runTableFiles} from "../../io/runTables.js";
import type {SqlRow} from "../../io/duckdb.js";
import {parse, UsageError} from "./args.js";
import {usage} from "../../usage/export.usage.js";
import {outputDir, withRunInputs} from "./inputs.js";
import {seatRows} from "./seats.js";

/** Turn columns that become the message's own fields; the rest of a turn row is its `move`. */
const MESSAGE_FIELDS = new Set(["game_id", "turn", "round", "seat", "player", "action", "message", "raw", "reasoning", "rule_break", "rule_break_reason", "attempt", "input_tokens", "output_tokens", "cached_input_tokens", "cache_write_tokens", "reasoning_tokens", "latency_ms", "game"]);

const json = (value: unknown) => JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? v.toString() : v));

/** Non-null fields of a row, except `skip`. */
function fields(row: SqlRow, skip: ReadonlySet<string> = new Set()): SqlRow {
  return Object.fromEntries(Object.entries(row).filter(([k, v]) => v !== null && v !== undefined && !skip.has(k)));
}

/** One turn as a chat message: who spoke (seat and agent), what they sent, and the move it carried. */
function message(turn: SqlRow, agents: Map<string, string>): SqlRow {
  const seat = turn.seat ?? turn.player;
  const agent = agents.get(String(seat)) ?? null;
  const move = fields(turn, MESSAGE_FIELDS);
  const content = (turn.raw ?? turn.message ?? (Object.keys(move).length ? json(move) : turn.action ?? "")) as string;
  return fields({
    role: "assistant",
    name: agent ? `${seat} (${agent})` : String(seat),
    content,
    turn: turn.turn,
    round: turn.round,
    action: turn.action,
    move: Object.keys(move).length ? move : null,
    message: turn.message,
    reasoning: turn.reasoning,
    rule_break: turn.rule_break,
    rule_break_reason: turn.rule_break_reason,
    input_tokens: turn.input_tokens,
    output_tokens: turn.output_tokens,
    cached_input_tokens: turn.cached_input_tokens,
    cache_write_tokens: turn.cache_write_tokens,
    reasoning_tokens: turn.reasoning_tokens,
  });
}

/**
 * Text as a Markdown code span, whatever it holds: its fence is one backtick
 * longer than the longest run of backticks in it, so nothing in it ends the
 * span, and inside a span Markdown and HTML are shown as typed.
 */
function mdCode(text: string): string {
  const flat = text.replace(/[\r\n]+/g, " ");
  const fence = "`".repeat(Math.max(0, ...[...flat.matchAll(/`+/g)].map((m) => m[0].length)) + 1);
  const pad = /^`|`$/.test(flat) || /^ .* $/.test(flat) ? " " : "";
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/**
 * The card's provenance: the run's manifest.json parsed and written back as
 * JSON (never its raw text, so nothing in it can end the fenced block), read
 * only when it is a file inside the run directory (io/runFile.ts): a link
 * out of the run (to a secrets file, say) is not followed. A manifest left
 * out is said in the card and in `warning`, one line for stderr.
 */
function manifestSection(dir: string): {text: string; warning: string | null} {
  const path = join(dir, "manifest.json");
  const leftOut = (why: string) => ({text: `The exported directory's manifest.json ${why}, so it is left out.`, warning: `${path} ${why}; left out of the card`});
  const file = readRunFile(dir, "manifest.json");
  if (!file) return {text: "No manifest.json in the exported directory.", warning: null};
  if ("problem" in file) return leftOut(file.problem);
  let manifest: unknown;
  try {
    manifest = parseJsonStrict(file.text, MAX_JSON_DEPTH + 8);
  } catch (error) {
    if (error instanceof JsonInputError) return leftOut(`is not valid JSON (${error.message})`);
    throw error;
  }
  // Backticks only occur inside JSON strings, where \u0060 is the same character: no fence can close early.
  const json = JSON.stringify(manifest, null, 2).replaceAll("`", "\\u0060");
  return {text: "The run's manifest (`manifest.json`):\n\n```json\n" + json + "\n```", warning: null};
}

/** The card's first line: how a README.md written by an earlier export is told from anyone else's. */
const CARD_TITLE = "# Parley export";

/**
 * An export replaces games.jsonl and README.md in --out: only when they are
 * an earlier export's (its card), never a README.md of someone else's (a
 * project's, with --out .) or a games.jsonl without the card beside it.
 */
function refuseOthersFiles(out: string): void {
  const card = join(out, "README.md");
  let first: string | null = null;
  try {
    first = readFileSync(card, "utf8").split("\n", 1)[0];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw new UsageError(`parley export: --out ${out}: ${card} cannot be read (${(error as Error).message})`);
  }
  if (first !== null && first !== CARD_TITLE) throw new UsageError(`parley export: --out ${out} holds a README.md that parley export did not write; choose another --out (an export writes README.md and games.jsonl there)`);
  if (first === null && existsSync(join(out, "games.jsonl"))) throw new UsageError(`parley export: --out ${out} holds a games.jsonl without an export's README.md; choose another --out`);
}

export async function run(argv: string[]): Promise<number> {
  const {values, positionals} = parse("export", argv, {out: {type: "string"}, format: {type: "string", default: "jsonl"}});
  if (positionals.length !== 1 || !values.out) throw new UsageError(`parley ${usage}`);
  if (values.format !== "jsonl") throw new UsageError(`parley export: --format: expected jsonl, got "${values.format}"`);
  const [dir] = positionals;
  const out = outputDir("export", "--out", values.out);
  refuseOthersFiles(out);
  const seats = await seatRows("export", dir, "");
  const seatsOf = new Map<string, {seat: number; agent: string; score: number}[]>();
  for (const s of seats) seatsOf.set(s.game_id, [...(seatsOf.get(s.game_id) ?? []), {seat: s.seat, agent: s.agent, score: s.score}]);
  const hasTurns = runTableFiles(dir, "turns").files.length > 0;
  const target = join(out, "games.jsonl");
  const temp = `${target}.tmp-${process.pid}`;
  const fd = openSync(temp, "w");
  let games = 0;
  let turns = 0;
  const columns = {games: new Set<string>(), turns: new Set<string>()};
  try {
    await withRunInputs("export", dir, hasTurns ? ["games", "turns"] : ["games"], undefined, "", async (db) => {
      const gameRows = await db.query("SELECT * FROM games ORDER BY game_id");
      const turnRows = hasTurns ? await db.query("SELECT * FROM turns ORDER BY game_id, turn") : [];
      let t = 0;
      for (const g of gameRows) {
        const id = String(g.game_id);
        Object.keys(g).forEach((c) => columns.games.add(c));
        const players = (seatsOf.get(id) ?? []).sort((a, b) => a.seat - b.seat);
        // GLEE's flat turns name the seat alice | bob; the common ones number it.
        const agents = new Map(players.flatMap((p) => [[String(p.seat), p.agent], [["alice", "bob"][p.seat] ?? "", p.agent]] as [string, string][]));
        const messages: SqlRow[] = [];
        while (t < turnRows.length && String(turnRows[t].game_id) < id) t++;
        for (; t < turnRows.length && String(turnRows[t].game_id) === id; t++) {
          Object.keys(turnRows[t]).forEach((c) => columns.turns.add(c));
          messages.push(message(turnRows[t], agents));
        }
        writeSync(fd, json({game_id: id, game: g.game ?? g.family ?? null, config: fields(g, new Set(["game_id"])), players, messages}) + "\n");
        games++;
        turns += messages.length;
      }
    });
    closeSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, {force: true});
    throw error;
  }
  const provenance = manifestSection(dir);
  if (provenance.warning) process.stderr.write(`${printable(`parley export: ${provenance.warning}`)}\n`);
  const card = [
    CARD_TITLE,
    "",
    `Exported from ${mdCode(basename(resolve(dir)))} by \`parley export\`: ${games.toLocaleString("en-US")} games, ${turns.toLocaleString("en-US")} turns, one game per line of \`games.jsonl\`.`,
    "",
    "## Record",
    "",
    "- `game_id`, `game` (the game family), `config`: every column of the game's row in the `games` table (parameters and outcome).",
    "- `players`: one entry per seat: `seat`, `agent`, `score` (the seat's return as its paper defines it).",
    "- `messages`: the transcript in chat-message form, one per turn in order, rule-break attempts included: `role` (`assistant`), `name` (seat and agent), `content` (the agent's raw reply when it was a language agent, else its message, else its move as JSON), and `turn`, `round`, `action`, `move` (the game-specific fields of the turn), `message`, `reasoning` (private: never shown to the other seats during play), `rule_break`, `rule_break_reason`, token counts.",
    "",
    "## Columns seen",
    "",
    `- games: ${[...columns.games].sort().map(mdCode).join(", ")}`,
    `- turns: ${[...columns.turns].sort().map(mdCode).join(", ") || "(no turns table)"}`,
    "",
    "## Provenance",
    "",
    provenance.text,
    "",
    "## License",
    "",
    "Games played by Parley's built-in agents are yours to share. Games played by a provider's model are subject to that provider's terms for model outputs; ingested logs keep the license of the benchmark they came from (see Parley's Datasets page). Check both before publishing or training on this file.",
    "",
  ].join("\n");
  const cardTemp = join(out, `README.md.tmp-${process.pid}`);
  const fdCard = openSync(cardTemp, "w");
  writeSync(fdCard, card);
  closeSync(fdCard);
  renameSync(temp, target);
  renameSync(cardTemp, join(out, "README.md"));
  process.stderr.write(`parley export: ${games} games, ${turns} turns → ${target}\n`);
  return 0;
}
