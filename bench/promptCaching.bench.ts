/**
 * Prompt caching (issues 27 and 38): the share of input tokens billed at the
 * cached rate over a GLEE bargaining game (GLEE (Shapira et al. 2024) §2.1,
 * both seats the same provider's reasoning model, every offer rejected
 * until the last round) of 12 and of 40 rounds, in the authors' prompt
 * layout (the system message rewritten every turn with that turn's answer
 * format) and in the "fixed-system" layout (`prompt_layout`: one system
 * message all game, each turn's format at the end of its user message).
 * `parley run` plays each against strict loopback fakes that count cache
 * hits as each provider documents for the model (test/support/fakeLlmRules.ts:
 * OpenAI's automatic caching from 1,024 tokens in steps of 128; Anthropic's
 * reads up to the cache_control breakpoints parley sets, from 1,024 tokens
 * for Sonnet 4.5 and 4,096 for Haiku 4.5; Gemini 2.5 Flash's implicit
 * caching from 2,048 tokens); the figure is read back from
 * turns.cached_input_tokens / input_tokens, as recorded. Each layout and
 * length plays against fakes of its own, so no game reads another's cache.
 * Target: ≥ 60 % cached. Token counts are the fakes' (a quarter of the
 * characters), so the share is the prompt layout's under the providers'
 * rules, not a tokenizer's.
 */
import {mkdtempSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {parley} from "../test/support/cli.js";
import {gleeBot, roundOf} from "../test/support/gleeBot.js";
import {FAKE_KEY_ENV, reasoningPlayers, startReasoningFakes} from "../test/support/reasoningFakes.js";
import {documentedMinimum, OPENAI_CACHE_STEP} from "../test/support/fakeLlmRules.js";
import type {FakeRequest, Wire} from "../test/support/fakeLlm.js";
import {queryRun} from "../loaders/io/parquet.js";
import type {PromptLayout} from "../loaders/llm/playerOptions.js";

const LENGTHS = [12, 40];
const LAYOUTS: PromptLayout[] = ["authors", "fixed-system"];
const TARGET = 0.6;

/** Each model played, by its player id: provider, model. */
const MODELS: Record<string, {wire: Wire; model: string}> = {
  gpt: {wire: "openai", model: "o4-mini"},
  claude: {wire: "anthropic", model: "claude-sonnet-4-5"},
  haiku: {wire: "anthropic", model: "claude-haiku-4-5"},
  gemini: {wire: "gemini", model: "gemini-2.5-flash"},
};

interface Row {
  player: string;
  calls: number;
  input: number;
  longest: number;
  cached: number;
}

/** Plays one game per model of `rounds` rounds in `layout` against fresh fakes; per model, the recorded calls and tokens. */
async function play(rounds: number, layout: PromptLayout): Promise<{refused: number; rows: Row[]}> {
  // Reject every offer before the last round, so that the game plays all its rounds.
  const reject = "```json\n" + JSON.stringify({decision: "reject"}) + "\n```";
  const ask = (r: FakeRequest) => `${r.system}\n${r.lastUser}`;
  const fakes = await startReasoningFakes(gleeBot({misbehave: (r) => (/"decision"/.test(ask(r)) && roundOf(ask(r)) < rounds ? {text: reject} : null)}));
  const dir = mkdtempSync(join(tmpdir(), "parley-bench-caching-"));
  try {
    const byId = Object.fromEntries(reasoningPlayers(fakes, layout === "authors" ? {} : {prompt_layout: layout}).map((p) => [p.id, p]));
    const hosted = Object.entries(MODELS).map(([id, {model}]) => ({...byId[id === "haiku" ? "claude" : id], id, model}));
    const players = hosted.flatMap((p) => [p, {...p, id: `${p.id}-b`}]);
    writeFileSync(join(dir, "run.json"), JSON.stringify({game: "glee/bargaining", grid: {horizon: [rounds]}, players, lineups: hosted.map((p) => [p.id, `${p.id}-b`]), seed: 1}));
    const r = await parley(["run", join(dir, "run.json"), "--out", join(dir, "out"), "--quiet"], {[FAKE_KEY_ENV]: "sk-fake"});
    if (r.code !== 0) throw new Error(`parley run failed: ${r.stderr}`);
    const rows = await queryRun(join(dir, "out"), ["games", "players", "turns"], `
      SELECT split_part(p.agent, '-', 1) AS player, max(g.rounds)::INTEGER AS rounds, count(*)::INTEGER AS calls,
             sum(t.input_tokens)::BIGINT AS input, max(t.input_tokens)::BIGINT AS longest, sum(t.cached_input_tokens)::BIGINT AS cached
      FROM turns t JOIN players p USING (game_id, seat) JOIN games g USING (game_id) GROUP BY 1 ORDER BY 1`);
    for (const row of rows) if (row.rounds !== rounds) throw new Error(`${row.player}: the game ended after ${row.rounds} of ${rounds} rounds`);
    return {refused: fakes.all.reduce((n, s) => n + s.requests.length - s.answered.length, 0), rows: rows.map((x) => ({player: String(x.player), calls: Number(x.calls), input: Number(x.input), longest: Number(x.longest), cached: Number(x.cached)}))};
  } finally {
    await fakes.close();
    rmSync(dir, {recursive: true, force: true});
  }
}

const percent = (x: number) => `${(100 * x).toFixed(1)} %`;
const tokens = (n: number) => n.toLocaleString("en-US");

/** The rule a model's cache follows, as documented: its minimum prefix, and OpenAI's step. */
function rule(id: string): string {
  const {wire, model} = MODELS[id];
  return `≥ ${tokens(documentedMinimum(wire, model))}${wire === "openai" ? `, steps of ${OPENAI_CACHE_STEP}` : ""}`;
}

export default async function (): Promise<{headline: string}> {
  const shares = new Map<string, {share: number; longest: number}>();
  console.log(`GLEE bargaining, both seats one provider's reasoning model, every offer rejected until the last round; share of input tokens billed at the cached rate under each provider's documented rule for the model (target ${100 * TARGET} %)`);
  for (const rounds of LENGTHS) {
    for (const layout of LAYOUTS) {
      const {refused, rows} = await play(rounds, layout);
      console.log(`- ${rounds} rounds, ${layout === "authors" ? "the authors' layout" : "fixed-system layout"}; requests refused by the strict fakes: ${refused}`);
      for (const row of rows) {
        const share = row.cached / row.input;
        shares.set(`${row.player}|${rounds}|${layout}`, {share, longest: row.longest});
        const {wire, model} = MODELS[row.player];
        console.log(`  ${`${wire} ${model}`.padEnd(28)} calls ${row.calls}  input tokens ${row.input} (longest call ${row.longest})  cached ${row.cached}  share ${percent(share)} (ratio to target ${(share / TARGET).toFixed(2)})`);
      }
    }
  }
  const lines = [
    `Share of input billed cached over one GLEE bargaining game (fake tokens; longest call in brackets), by the provider's documented rule for the model; target ${100 * TARGET} %:`,
    "",
    `| model (cached prefix) | layout | ${LENGTHS.map((n) => `${n} rounds`).join(" | ")} |`,
    `| --- | --- | ${LENGTHS.map(() => "---").join(" | ")} |`,
    ...Object.keys(MODELS).flatMap((id) =>
      LAYOUTS.map((layout) => `| ${MODELS[id].wire} ${MODELS[id].model} (${rule(id)}) | ${layout} | ${LENGTHS.map((n) => shares.get(`${id}|${n}|${layout}`)).map((s) => (s ? `${percent(s.share)} (${tokens(s.longest)})` : "–")).join(" | ")} |`),
    ),
  ];
  console.log(`\n${lines.join("\n")}`);
  return {headline: lines.join("\n")};
}
