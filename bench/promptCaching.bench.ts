/**
 * Prompt caching (issue 27): the share of input tokens billed at the cached
 * rate over a GLEE bargaining game of 12 rounds (GLEE (Shapira et al. 2024)
 * §2.1, both seats the same provider's reasoning model, every offer
 * rejected until the last round), by provider. `parley run` plays it
 * against strict loopback fakes that count cache hits the way each provider
 * documents (test/support/fakeLlmRules.ts: OpenAI's automatic caching of a
 * prefix of ≥ 1024 tokens in 128-token steps, Gemini's implicit caching,
 * Anthropic's reads up to the cache_control breakpoints parley sets); the
 * figure is read back from turns.cached_input_tokens / input_tokens, as
 * recorded. Target: ≥ 60 % for each provider. Token counts are the fakes'
 * (a quarter of the characters), so the share is the prompt layout's, not a
 * tokenizer's.
 */
import {mkdtempSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {parley} from "../test/support/cli.js";
import {gleeBot, roundOf} from "../test/support/gleeBot.js";
import {FAKE_KEY_ENV, reasoningPlayers, startReasoningFakes} from "../test/support/reasoningFakes.js";
import {MIN_CACHED, type CacheRules} from "../test/support/fakeLlmRules.js";
import type {FakeRequest} from "../test/support/fakeLlm.js";
import {queryRun} from "../loaders/io/parquet.js";

const ROUNDS = 12;
const TARGET = 0.6;

/** Plays the game against fakes caching by `caching`'s rules; per provider, the recorded input and cached input tokens. */
async function play(caching: true | CacheRules): Promise<{refused: number; rows: Record<string, unknown>[]}> {
  // Reject every offer before the last round, so that the game plays all 12.
  const reject = "```json\n" + JSON.stringify({decision: "reject"}) + "\n```";
  const ask = (r: FakeRequest) => `${r.system}\n${r.lastUser}`;
  const fakes = await startReasoningFakes(gleeBot({misbehave: (r) => (/"decision"/.test(ask(r)) && roundOf(ask(r)) < ROUNDS ? {text: reject} : null)}), {caching});
  const dir = mkdtempSync(join(tmpdir(), "parley-bench-caching-"));
  try {
    const hosted = reasoningPlayers(fakes).filter((p) => p.id !== "local");
    const players = hosted.flatMap((p) => [p, {...p, id: `${p.id}-b`}]);
    writeFileSync(join(dir, "run.json"), JSON.stringify({game: "glee/bargaining", grid: {horizon: [ROUNDS]}, players, lineups: hosted.map((p) => [p.id, `${p.id}-b`]), seed: 1}));
    const r = await parley(["run", join(dir, "run.json"), "--out", join(dir, "out"), "--quiet"], {[FAKE_KEY_ENV]: "sk-fake"});
    if (r.code !== 0) throw new Error(`parley run failed: ${r.stderr}`);
    const rows = await queryRun(join(dir, "out"), ["games", "players", "turns"], `
      SELECT split_part(p.agent, '-', 1) AS provider, max(g.rounds)::INTEGER AS rounds, count(*)::INTEGER AS calls,
             sum(t.input_tokens)::BIGINT AS input, max(t.input_tokens)::BIGINT AS longest, sum(t.cached_input_tokens)::BIGINT AS cached
      FROM turns t JOIN players p USING (game_id, seat) JOIN games g USING (game_id) GROUP BY 1 ORDER BY 1`);
    return {refused: fakes.all.reduce((n, s) => n + s.requests.length - s.answered.length, 0), rows};
  } finally {
    await fakes.close();
    rmSync(dir, {recursive: true, force: true});
  }
}

const NAMES: Record<string, string> = {gpt: "openai o4-mini", claude: "anthropic claude-sonnet-4-5", gemini: "gemini gemini-2.5-flash"};

export default async function (): Promise<void> {
  const cases: Array<[string, true | CacheRules]> = [
    [`the providers' documented rules (a cached prefix of at least ${MIN_CACHED} tokens; OpenAI in steps of 128)`, true],
    ["the prompt layout alone (no minimum prefix, steps of 1 token): what the same game would bill cached with longer prompts", {minTokens: 0, openaiStep: 1}],
  ];
  console.log(`GLEE bargaining, horizon ${ROUNDS}, both seats one provider's reasoning model; share of input tokens billed at the cached rate (target ${100 * TARGET} %)`);
  for (const [what, caching] of cases) {
    const {refused, rows} = await play(caching);
    console.log(`- by ${what}; requests refused by the strict fakes: ${refused}`);
    for (const row of rows) {
      const share = Number(row.cached) / Number(row.input);
      console.log(`  ${String(NAMES[row.provider as string] ?? row.provider).padEnd(30)} rounds ${row.rounds}  calls ${row.calls}  input tokens ${row.input} (longest call ${row.longest})  cached ${row.cached}  share ${(100 * share).toFixed(1)} % (ratio to target ${(share / TARGET).toFixed(2)})`);
    }
  }
}
