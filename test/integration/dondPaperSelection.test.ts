// Table 9's selection of Deal-or-No-Deal dialogues (Hua et al. 2024, §5.4; the authors' select_deal_no_deal.py),
// as `parley dond-stats --selection paper` makes it: on dialogues made by hand for each step, on the
// validation split against a second implementation over the raw lines and the authors' own numbers, and,
// when the test split is in the datasets directory, against the printed Table 9.
import {test} from "node:test";
import assert from "node:assert/strict";
import {existsSync, readFileSync, writeFileSync} from "node:fs";
import {createHash} from "node:crypto";
import {join} from "node:path";
import {ingestDond} from "../../loaders/papers/gtllm/dond/ingest.js";
import {writeIngest} from "../../loaders/ingest/write.js";
import {queryParquet} from "../../loaders/io/parquet.js";
import {datasetsConfig} from "../../loaders/projectConfig.js";
import {readSource} from "../../loaders/datasets/sources.js";
import {dondPaperSelectionSQL} from "../../src/lib/dondPaperSelection.js";
import {dondStatsSQL} from "../../src/lib/dond.js";
import {PAPER_TABLE9, printedAs, TABLE9_RATES} from "../../src/lib/dondPaper.js";
import {parley, scratch} from "../support/cli.js";

const tmp = scratch("parley-dond-selection-");
const datasets = datasetsConfig().dir;
const VAL = datasets && join(datasets, "dealornodeal/val.txt");
const TEST = datasets && join(datasets, "dealornodeal/test.txt");

type V = [number, number, number];
/** One line of the end-to-end-negotiator format: `own` speaks first when `first`, `mine` is the line's own share. */
function line(counts: V, own: V, partner: V, text: string, first: boolean, mine: V | "disagree" | "no_agreement"): string {
  const input = (v: V) => counts.map((c, k) => `${c} ${v[k]}`).join(" ");
  const [me, them] = first ? ["YOU", "THEM"] : ["THEM", "YOU"];
  const out = typeof mine === "string" ? Array(6).fill(`<${mine}>`).join(" ") : [...mine, ...counts.map((c, k) => c - mine[k])].map((x, i) => `item${i % 3}=${x}`).join(" ");
  return `<input> ${input(own)} </input> <dialogue> ${me}: ${text} <eos> ${them}: ok <eos> ${me}: <selection> </dialogue> <output> ${out} </output> <partner_input> ${input(partner)} </partner_input>`;
}
/** A dialogue's two lines, Alice's first; `aliceGets` her share or the failure. */
function both(counts: V, alice: V, bob: V, text: string, aliceGets: V | "disagree" | "no_agreement"): string[] {
  const bobGets = typeof aliceGets === "string" ? aliceGets : (counts.map((c, k) => c - aliceGets[k]) as V);
  return [line(counts, alice, bob, text, true, aliceGets), line(counts, bob, alice, text, false, bobGets)];
}

async function ingested(text: string): Promise<string> {
  const dir = tmp.dir();
  writeFileSync(join(dir, "dialogues.txt"), text);
  await writeIngest(ingestDond(join(dir, "dialogues.txt")), join(dir, "out"));
  return join(dir, "out");
}

test("each step of the selection on dialogues made by hand", async () => {
  const lines = [
    // 1–2 D1: kept from line 1 (Alice's side). ℓ1 = 1+1+0 = 2. Alice's best item (book, 8) is worth more than her
    // other items (1+1 = 2): not "maximum covered". Alice 8, Bob 3; Bob values Alice's book at 7 > 3: envy; Pareto optimal.
    ...both([1, 1, 1], [8, 1, 1], [7, 2, 1], "d1", [1, 0, 0]),
    // 3–4 D2: every count even: dropped.
    ...both([2, 2, 2], [3, 1, 1], [1, 3, 1], "d2", [2, 0, 0]),
    // 5 D3: given once (Alice's side): kept, and from here the odd lines are each pair's second. ℓ1 = 0+2+6 = 8.
    // Both value the book at 4, but Bob's best is the ball: not covered. Disagreement.
    line([1, 3, 1], [4, 2, 0], [4, 0, 6], "d3", true, "disagree"),
    // 6–7 D4: kept from line 7, Bob's side (own (4,3,1), partner (1,3,2)). ℓ1 = 3+0+1 = 4. Bob's best is the
    // book, Alice's the hat: not covered. Alice hat + 3 balls = 9, Bob the book = 4; Bob values Alice's share at 6: envy;
    // nothing gives Alice ≥ 9 and Bob ≥ 4 with one more: Pareto optimal.
    ...both([1, 1, 3], [1, 3, 2], [4, 3, 1], "d4", [0, 1, 3]),
    // 8–9 D5: line 9 has D4's setting from the same side (counts, own, partner): a repetition, dropped.
    ...both([1, 1, 3], [1, 3, 2], [4, 3, 1], "d5", [1, 1, 0]),
    // 10–11 D6: line 11 is Bob's side with D4's values the other way round (own (1,3,2), partner (4,3,1)):
    // another setting, kept. ℓ1 = 4. No agreement.
    ...both([1, 1, 3], [4, 3, 1], [1, 3, 2], "d6", "no_agreement"),
    // 12–13 D7: both value the book most (Bob's 2 is the first of equal maxima) and each side's other items
    // cover it (Alice 2+4 = 6 ≥ 4, Bob 4+4 = 8 ≥ 2): "maximum covered", dropped.
    ...both([1, 2, 2], [4, 1, 2], [2, 2, 2], "d7", [1, 0, 1]),
    // 14–15 D8: kept from line 15 (own (6,2,2), partner (4,4,2)). Both value the book most; Alice's other items
    // cover it (4+2 ≥ 4) but Bob's do not (2+2 < 6): not covered. ℓ1 = 2+2+0 = 4. Alice hat + ball = 6, Bob
    // the book = 6; Alice values the book at 4, Bob her share at 4: envy free; Bob ≥ 6 needs the book: Pareto optimal.
    ...both([1, 1, 1], [4, 4, 2], [6, 2, 2], "d8", [0, 1, 1]),
  ];
  const dir = await ingested(lines.join("\n") + "\n");
  const games = join(dir, "games.parquet");
  const kept = await queryParquet({games}, dondPaperSelectionSQL("games"));
  assert.deepEqual(
    kept.map((r) => [r.line, [...(r.own as number[])], [...(r.partner as number[])], r.distance]),
    [
      [1, [8, 1, 1], [7, 2, 1], 2],
      [5, [4, 2, 0], [4, 0, 6], 8],
      [7, [4, 3, 1], [1, 3, 2], 4],
      [11, [1, 3, 2], [4, 3, 1], 4],
      [15, [6, 2, 2], [4, 4, 2], 4],
    ],
  );
  // Table 9's columns: d = −2 {D1}; −4 adds D4, D6, D8; −8 adds D3.
  const stats = await queryParquet({games}, dondStatsSQL("games", {cumulative: true, selection: "paper"}));
  assert.deepEqual(stats, [
    {difficulty: -2, n: 1, agreement: 1, envy_free: 0, pareto_optimal: 1, both: 0},
    {difficulty: -4, n: 4, agreement: 3 / 4, envy_free: 1 / 4, pareto_optimal: 3 / 4, both: 1 / 4},
    {difficulty: -8, n: 5, agreement: 3 / 5, envy_free: 1 / 5, pareto_optimal: 3 / 5, both: 1 / 5},
  ]);
  // Every dialogue once, without the selection: eight.
  const all = await queryParquet({games}, dondStatsSQL("games", {cumulative: true}));
  assert.equal(all.at(-1)!.n, 8);
});

/**
 * A second implementation, over the file's raw lines as the authors' code reads them (no merging of the
 * two sides): even 0-based lines; drop all-even counts, "maximum covered" and repeated (counts, own,
 * partner); envy freeness and Pareto optimality by enumerating every split.
 */
function selectFromLines(text: string): {distance: number; agreement: boolean; envyFree: boolean; pareto: boolean}[] {
  const rows = text.split("\n").filter((l, i) => l.trim() && i % 2 === 0);
  const seen = new Set<string>();
  const out = [];
  for (const row of rows) {
    const nums = (tag: string) => new RegExp(`<${tag}>(.*?)</${tag}>`).exec(row)![1].trim().split(/\s+/).map(Number);
    const input = nums("input");
    const partnerInput = nums("partner_input");
    const counts = [input[0], input[2], input[4]];
    const v1 = [input[1], input[3], input[5]];
    const v2 = [partnerInput[1], partnerInput[3], partnerInput[5]];
    const dot = (a: number[], b: number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    const best = (v: number[]) => v.indexOf(Math.max(...v));
    const covers = (v: number[]) => dot(counts, v) - counts[best(v)] * v[best(v)] >= v[best(v)];
    const key = JSON.stringify([counts, v1, v2]);
    if (seen.has(key) || counts.every((c) => c % 2 === 0) || (covers(v1) && covers(v2) && best(v1) === best(v2))) continue;
    seen.add(key);
    const output = /<output>(.*?)<\/output>/.exec(row)![1].trim().split(/\s+/);
    const agreement = output[0].startsWith("item0=");
    const share = output.map((f) => Number(f.split("=")[1]));
    const [a, b] = [share.slice(0, 3), share.slice(3)];
    let pareto = agreement;
    if (agreement) {
      for (let x = 0; x <= counts[0]; x++) for (let y = 0; y <= counts[1]; y++) for (let z = 0; z <= counts[2]; z++) {
        const u1 = dot([x, y, z], v1);
        const u2 = dot([counts[0] - x, counts[1] - y, counts[2] - z], v2);
        if (u1 >= dot(a, v1) && u2 >= dot(b, v2) && (u1 > dot(a, v1) || u2 > dot(b, v2))) pareto = false;
      }
    }
    const envyFree = agreement && dot(a, v1) >= dot(b, v1) && dot(b, v2) >= dot(a, v2);
    out.push({distance: v1.reduce((s, v, k) => s + Math.abs(v - v2[k]), 0), agreement, envyFree, pareto});
  }
  return out;
}

/** Table 9's cumulative columns from selectFromLines' rows. */
function columns(rows: ReturnType<typeof selectFromLines>) {
  const distances = [...new Set(rows.map((r) => r.distance))].sort((x, y) => x - y);
  return distances.map((d) => {
    const pool = rows.filter((r) => r.distance <= d);
    const rate = (f: (r: (typeof rows)[number]) => boolean) => pool.filter(f).length / pool.length;
    return {difficulty: -d, n: pool.length, agreement: rate((r) => r.agreement), envy_free: rate((r) => r.envyFree), pareto_optimal: rate((r) => r.pareto), both: rate((r) => r.envyFree && r.pareto)};
  });
}

const near = (x: number, y: number) => Math.abs(x - y) < 1e-12;

test("the validation split: the command line equals a second implementation over the raw lines and the authors' own numbers", {skip: !(VAL && existsSync(VAL)) && "no datasets directory with dealornodeal/val.txt"}, async () => {
  const dir = await ingested(readFileSync(VAL!, "utf8"));
  const run = await parley(["dond-stats", dir, "--cumulative", "--selection", "paper"]);
  assert.equal(run.code, 0, run.stderr);
  const stats = JSON.parse(run.stdout) as ReturnType<typeof columns>;
  const second = columns(selectFromLines(readFileSync(VAL!, "utf8")));
  assert.equal(stats.length, second.length);
  stats.forEach((s, i) => {
    for (const key of ["difficulty", "n", ...TABLE9_RATES] as const) assert.ok(near(s[key], second[i][key]), `d = ${s.difficulty}, ${key}: ${s[key]} vs ${second[i][key]}`);
  });
  // The authors' select_deal_no_deal.py (Wenyueh/game_theory at b05314e) run on this file with --distance 2, 5, 11 and 20
  // printed n and the agreement, envy-free, Pareto-optimal and both rates:
  const authors: Record<number, number[]> = {
    [-2]: [9, 0.4444444444444444, 0.3333333333333333, 0.3333333333333333, 0.3333333333333333],
    [-5]: [77, 0.5844155844155844, 0.4935064935064935, 0.4935064935064935, 0.44155844155844154],
    [-11]: [226, 0.7831858407079646, 0.7477876106194691, 0.6548672566371682, 0.6327433628318584],
    [-16]: [252, 0.7976190476190477, 0.7658730158730159, 0.6666666666666666, 0.6468253968253969],
  };
  for (const [d, [n, ...rates]] of Object.entries(authors)) {
    const s = stats.find((r) => r.difficulty === Number(d))!;
    assert.equal(s.n, n, `n at d = ${d}`);
    TABLE9_RATES.forEach((key, k) => assert.ok(near(s[key], rates[k]), `d = ${d}, ${key}: ${s[key]} vs the authors' ${rates[k]}`));
  }
});

test("the test split, when configured: Table 9 as printed, every column to the fourth decimal", {skip: !(TEST && existsSync(TEST)) && "no dealornodeal/test.txt in the datasets directory (parley datasets fetch dond-test)"}, async () => {
  // The file the source list names (what `parley datasets fetch dond-test` verifies), byte for byte.
  const listed = readSource("data/sources/dond-test.json").files.find((f) => f.path === "dealornodeal/test.txt")!;
  assert.equal(createHash("sha256").update(readFileSync(TEST!)).digest("hex"), listed.sha256);
  const dir = await ingested(readFileSync(TEST!, "utf8"));
  const run = await parley(["dond-stats", dir, "--cumulative", "--selection", "paper"]);
  assert.equal(run.code, 0, run.stderr);
  const stats = JSON.parse(run.stdout) as ReturnType<typeof columns>;
  for (const printed of PAPER_TABLE9) {
    const s = stats.find((r) => r.difficulty === printed.difficulty)!;
    assert.equal(s.n, printed.n, `n at d = ${printed.difficulty}`);
    for (const key of TABLE9_RATES) assert.notEqual(printedAs(s[key], printed[key]), "differs", `d = ${printed.difficulty}, ${key}: ${s[key]} printed ${printed[key]}`);
  }
  // The first column, spelt out: 7 of 13 agree, 4 envy free, 7 Pareto optimal (printed 0.5384: 7/13 cut, not rounded), 4 both.
  assert.deepEqual(stats[0], {difficulty: -2, n: 13, agreement: 7 / 13, envy_free: 4 / 13, pareto_optimal: 7 / 13, both: 4 / 13});
});
