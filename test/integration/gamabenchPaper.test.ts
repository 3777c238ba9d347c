// Reproduces the numbers gamma-Bench (Huang et al. 2024) prints (Tables 1, 2 and 5) from the shared
// gamma-Bench raw results. Where the independent computation disagrees with a
// printed number, the formula is not bent: the cell is listed in KNOWN below
// with what we compute, and the test checks both lists stay exactly as they are.
import {test} from "node:test";
import assert from "node:assert/strict";
import {existsSync} from "node:fs";
import {join} from "node:path";
import {datasetsConfig} from "../../loaders/projectConfig.js";
import {ingestGamabench} from "../../loaders/papers/gamabench/ingest.js";
import {writeIngest} from "../../loaders/ingest/write.js";
import {queryParquet} from "../../loaders/io/parquet.js";
import {mkdtempSync} from "node:fs";
import {tmpdir} from "node:os";
import {gameScoresSQL, nestSummary, runOverallSQL, summarySQL, withScoresSQL, type GameScoreRow, type SummaryRow} from "../../src/lib/gamabench.js";
import {scoreTables} from "../support/gamabenchFiles.js";

const dir = datasetsConfig().dir ? join(datasetsConfig().dir!, "gamabench") : null;
const skip = !dir || !existsSync(dir) ? `gamma-Bench raw results not found (${dir ?? "no datasets directory configured"}); set PARLEY_DATASETS` : false;

const G = ["guessing_game", "bar_game_implicit", "divide_dollar", "public_goods", "diner_dilemma", "sealed_bid_auction_first_price", "battle_royale", "pirate_game", "overall"];

/** Tables 1 and 2 as the seed text prints them: [mean, sd] per game in G's order. */
const PRINTED: Record<string, [number, number][]> = {
  "gpt-3.5-turbo-0613": [[41.4, 0.5], [74.8, 4.5], [42.4, 7.7], [38.8, 8.1], [67.0, 4.9], [5.5, 1.0], [19.5, 7.7], [68.4, 20.0], [43.5, 2.2]],
  "gpt-3.5-turbo-1106": [[68.5, 0.5], [64.3, 3.1], [70.3, 3.3], [43.5, 12.6], [1.4, 1.3], [3.4, 1.0], [35.7, 6.9], [69.6, 14.7], [44.8, 3.6]],
  "gpt-3.5-turbo-0125": [[63.4, 3.4], [68.7, 2.7], [68.6, 2.4], [17.8, 1.7], [2.8, 2.8], [4.2, 0.3], [28.6, 11.0], [71.6, 7.6], [41.9, 2.3]],
  "gpt-4-0125-preview": [[91.6, 0.6], [23.0, 8.1], [98.1, 1.9], [89.2, 1.8], [0.9, 0.7], [8.7, 0.7], [86.8, 9.7], [85.4, 8.6], [60.5, 2.7]],
  "gemini-1.0-pro": [[77.3, 6.2], [33.5, 10.3], [77.6, 3.6], [68.5, 7.6], [3.1, 1.5], [14.9, 6.6], [16.5, 6.9], [57.4, 14.3], [43.3, 3.2]],
  "gemini-1.5-pro": [[95.4, 0.5], [37.2, 4.2], [93.8, 0.3], [100.0, 0.0], [35.9, 5.3], [13.3, 4.6], [81.3, 7.7], [53.7, 1.2], [63.8, 1.6]],
  "llama-3.1-8b": [[85.5, 3.0], [75.7, 2.2], [56.4, 8.4], [19.6, 1.0], [59.3, 2.4], [16.9, 1.8], [35.9, 12.1], [42.3, 7.8], [48.9, 2.9]],
  "llama-3.1-70b": [[84.0, 1.7], [59.7, 3.5], [87.0, 4.1], [90.6, 3.6], [48.1, 5.7], [4.5, 0.7], [77.7, 26.0], [35.7, 7.3], [60.9, 2.4]],
  "llama-3.1-405b": [[94.3, 0.6], [20.5, 24.2], [94.9, 1.0], [96.9, 0.8], [14.4, 4.5], [4.2, 1.2], [92.7, 10.1], [38.2, 10.8], [57.0, 4.2]],
  "mixtral-8x7b": [[91.8, 0.4], [66.8, 5.8], [1.2, 2.8], [27.7, 11.7], [76.4, 7.1], [0.8, 0.4], [12.6, 9.5], [31.8, 5.0], [38.6, 2.3]],
  "mixtral-8x22b": [[83.6, 4.6], [39.3, 12.2], [79.0, 9.6], [83.7, 3.5], [79.9, 5.8], [5.2, 1.8], [36.0, 21.0], [53.0, 2.6], [57.5, 2.1]],
  "qwen2-72b": [[93.2, 1.3], [17.0, 25.5], [91.9, 2.4], [81.3, 5.9], [0.0, 0.0], [0.9, 0.2], [81.7, 9.6], [53.0, 1.1], [52.4, 3.4]],
};

/**
 * Cells where the printed number differs from ours by more than rounding,
 * with our value (mean, sd). Evidence in the report: the 0613 and 0125
 * columns of Table 1 carry each other's public goods, auction and overall
 * values (Table 5 confirms 0125 = 38.8, 5.5, 43.5); the pirate game of the
 * runs whose meta records "gold" (Gemini-1.5 and the open models) is printed
 * about 35 points lower than §3's formula gives; the overall values follow;
 * a few SDs differ by a little more than rounding.
 */
const KNOWN: Record<string, [number, number]> = {
  "gpt-3.5-turbo-0613/public_goods": [17.75, 1.71],
  "gpt-3.5-turbo-0613/sealed_bid_auction_first_price": [4.19, 0.34],
  "gpt-3.5-turbo-0613/pirate_game": [68.41, 19.87],
  "gpt-3.5-turbo-0613/overall": [41.94, 1.99],
  "gpt-3.5-turbo-0125/public_goods": [38.86, 8.09],
  "gpt-3.5-turbo-0125/sealed_bid_auction_first_price": [5.5, 1.0],
  "gpt-3.5-turbo-0125/pirate_game": [71.62, 7.68],
  "gpt-3.5-turbo-0125/overall": [43.51, 2.15],
  "gpt-3.5-turbo-1106/battle_royale": [35.65, 6.85], // printed 35.7 ± 6.9: SD off by more than rounding
  "gpt-3.5-turbo-1106/pirate_game": [69.49, 14.64],
  "gpt-3.5-turbo-1106/overall": [44.57, 1.51],
  "gpt-4-0125-preview/pirate_game": [85.37, 8.71],
  "gemini-1.0-pro/pirate_game": [58.02, 15.47],
  "gemini-1.0-pro/overall": [43.67, 3.25],
  "gemini-1.5-pro/pirate_game": [87.91, 5.61],
  "gemini-1.5-pro/overall": [68.1, 1.46],
  "llama-3.1-8b/pirate_game": [79.8, 10.43],
  "llama-3.1-8b/overall": [53.63, 3.22],
  "llama-3.1-70b/pirate_game": [70.43, 12.76],
  "llama-3.1-70b/overall": [65.26, 3.07],
  "llama-3.1-405b/pirate_game": [73.9, 13.04],
  "llama-3.1-405b/overall": [61.48, 4.0],
  "mixtral-8x7b/battle_royale": [12.63, 9.43], // printed 12.6 ± 9.5
  "mixtral-8x7b/pirate_game": [69.42, 8.11],
  "mixtral-8x7b/overall": [43.35, 2.51],
  "mixtral-8x22b/pirate_game": [88.3, 7.22],
  "mixtral-8x22b/overall": [61.88, 1.99],
  "qwen2-72b/pirate_game": [86.1, 6.42],
  "qwen2-72b/overall": [56.51, 3.38],
};

/** Table 5: the five runs of GPT-3.5 (0125), T1..T5, in G's order. */
const TABLE5 = [
  [65.4, 62.3, 63.9, 58.3, 67.3],
  [73.3, 67.5, 68.3, 67.5, 66.7],
  [68.1, 67.7, 68.7, 66.0, 72.6],
  [41.3, 25.4, 45.7, 38, 44.0],
  [4.0, 3.5, 0.0, 6.5, 0.0],
  [6.5, 6.5, 4.6, 5.5, 4.4],
  [20.0, 21.4, 46.7, 23.5, 31.3],
  [80.5, 71.0, 72.0, 74.8, 59.8],
  [44.9, 40.7, 46.2, 42.5, 43.2],
];
/** Table 5 cells that differ from ours by more than rounding (ours in the value). */
const KNOWN5: Record<string, number> = {
  "pirate_game/1": 80.58,
  "pirate_game/2": 71.22,
  "pirate_game/4": 74.72,
  "pirate_game/5": 59.54,
};

const TOL = 0.051; // one decimal as printed, plus float slack

let cache: Promise<{summary: SummaryRow[]; games: GameScoreRow[]; overall: {model: string; run: number; overall: number}[]}> | null = null;
function computed() {
  return (cache ??= (async () => {
    const result = ingestGamabench(dir!);
    assert.equal(result.summary.games_written, 600);
    const out = mkdtempSync(join(tmpdir(), "parley-gamabench-real-"));
    await writeIngest(result, out);
    return {
      summary: await scoreTables<SummaryRow>(out, (v) => withScoresSQL(summarySQL(), v.games, v.turns)),
      games: await scoreTables<GameScoreRow>(out, (v) => gameScoresSQL(v.games, v.turns)),
      overall: await scoreTables<{model: string; run: number; overall: number}>(out, (v) => withScoresSQL(runOverallSQL(), v.games, v.turns)),
    };
  })());
}

test("Tables 1 and 2: every printed mean ± SD is reproduced within rounding, except the listed cells", {skip}, async () => {
  const nested = nestSummary((await computed()).summary);
  const disagreements: Record<string, [number, number]> = {};
  for (const [model, cells] of Object.entries(PRINTED)) {
    cells.forEach(([mean, sd], k) => {
      const ours = nested[model]?.[G[k]];
      assert.ok(ours, `${model}/${G[k]} computed`);
      assert.equal(ours.runs, 5);
      if (Math.abs(ours.mean - mean) > TOL || Math.abs((ours.sd ?? 0) - sd) > TOL) {
        disagreements[`${model}/${G[k]}`] = [Math.round(ours.mean * 100) / 100, Math.round((ours.sd ?? 0) * 100) / 100];
      }
    });
  }
  if (process.env.PRINT) console.log(JSON.stringify(disagreements));
  assert.deepEqual(disagreements, KNOWN);
});

test("Table 5: the five runs of GPT-3.5 (0125), except the listed pirate runs", {skip}, async () => {
  const {games, overall} = await computed();
  const disagreements: Record<string, number> = {};
  TABLE5.forEach((printed, k) => {
    printed.forEach((value, r) => {
      const ours = G[k] === "overall"
        ? overall.find((o) => o.model === "gpt-3.5-turbo-0125" && o.run === r + 1)!.overall
        : games.find((g) => g.model === "gpt-3.5-turbo-0125" && g.game === G[k] && g.run === r + 1)!.score;
      if (Math.abs(ours - value) > TOL) disagreements[`${G[k]}/${r + 1}`] = Math.round(ours * 100) / 100;
    });
  });
  assert.deepEqual(disagreements, KNOWN5);
});

test("§3 prints S8P and S8V per round for the Table 3 game; Figure-level facts hold on the real file", {skip}, async () => {
  const {games} = await computed();
  const t3 = games.find((g) => g.model === "gpt-3.5-turbo-0125" && g.game === "pirate_game" && g.run === 1)!;
  assert.ok(Math.abs(t3.raw - 36) < 1e-9, "S8P = (8 + 6 + 94)/3");
  assert.ok(Math.abs(t3.raw_voters! - 19 / 24) < 1e-9, "S8V = 19 correct of 24 votes");
  const divide = games.filter((g) => g.model === "mixtral-8x7b" && g.game === "divide_dollar");
  assert.ok(divide.some((g) => g.score_unclipped < 0) && divide.every((g) => g.score >= 0), "Mixtral-8x7B's S3 needs the clip to [0, 100]");
});

test("payoffs by the rules of Appendix C equal the utilities the raw files record, player by player", {skip}, async () => {
  const out = mkdtempSync(join(tmpdir(), "parley-gamabench-payoffs-"));
  await writeIngest(ingestGamabench(dir!), out);
  const rows = await queryParquet<{game: string; n: number; recorded: number; same: number}>(
    {games: join(out, "games.parquet"), turns: join(out, "turns.parquet")},
    `SELECT g.variant AS game, count(*)::INTEGER AS n, count(p.utility_recorded)::INTEGER AS recorded,
            sum(CASE WHEN g.variant = 'public_goods' THEN (abs(p.utility_recorded - (g.tokens - p.amount)) < 1e-9)::INTEGER
                     ELSE (abs(p.payoff - p.utility_recorded) < 1e-9)::INTEGER END)::INTEGER AS same
     FROM turns p JOIN games g USING (game_id)
     WHERE g.variant IN ('bar_game_explicit', 'bar_game_implicit', 'diner_dilemma', 'divide_dollar', 'public_goods', 'sealed_bid_auction_first_price', 'sealed_bid_auction_second_price')
     GROUP BY g.variant ORDER BY g.variant`,
  );
  assert.equal(rows.length, 7);
  // Divide the dollar matches only because players are read from player_data: round_records lists answers in arrival order.
  for (const r of rows) assert.deepEqual([r.game, r.recorded, r.same], [r.game, r.n, r.n], `${r.game}: ${r.same} of ${r.n} rows agree`);
});
