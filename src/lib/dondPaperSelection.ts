/**
 * The selection of Deal-or-No-Deal dialogues behind Table 9 of Game-theoretic
 * LLM: Agent Workflow for Negotiation Games (Hua et al. 2024, §5.4), as the
 * authors' code makes it (their repository Wenyueh/game_theory,
 * src/deal_no_deal/select_deal_no_deal.py, `__main__` and `L1_selection`),
 * written again here in SQL over the ingested games:
 *
 * 1. one side of each dialogue: the file's lines at even 0-based positions
 *    (`data[i] for i % 2 == 0`), i.e. odd 1-based line numbers. The file
 *    holds most dialogues as two adjacent lines, so this is usually one line
 *    per dialogue, but a dialogue given once shifts the parity, so a few
 *    dialogues are read from their second speaker's line, and a dialogue whose
 *    two lines are not adjacent can be read twice or not at all: each selected
 *    line counts once, as in their code;
 * 2. in file order, a line is dropped when every item count is even ("very
 *    easy envy-free cases"), or when both sides value the same item most
 *    (the first of equal maxima) and each side's other items, counted, are
 *    worth at least that item's unit value ("maximum covered"), or when its
 *    setting (counts, the line's own values, the partner's values, in that
 *    order) was kept before ("repetition": only kept lines are remembered);
 * 3. the difficulty is the ℓ1 distance of the two value vectors; Table 9's
 *    column d pools the kept lines at distance ≤ −d.
 *
 * The games table must be the ingested dialogues' (line_a and line_b, the
 * 1-based lines of Alice's and Bob's side; loaders/papers/gtllm/dond/ingest.ts).
 * A game's outcome is its first line's; the two lines of a dialogue agree
 * on it in both public splits. Games without line numbers (played games, the
 * 50 points' recorded outcomes) have no side to select and are left out.
 */

/** SQL of a dot product of three-element list expressions. */
const dot = (a: string, b: string) => `(${a}[1] * ${b}[1] + ${a}[2] * ${b}[2] + ${a}[3] * ${b}[3])`;

/** "Maximum covered" for one side with values `v`: its other items, counted, are worth at least its best item's unit value. */
const covered = (v: string) => `(${dot("counts", v)} - counts[list_position(${v}, list_max(${v}))] * list_max(${v}) >= list_max(${v}))`;

/**
 * One row per line the authors' selection keeps: game_id, line (1-based),
 * counts, own (that line's values), partner, distance (ℓ1). Same game twice
 * when both its lines are selected.
 */
export function dondPaperSelectionSQL(games = "games"): string {
  return `
WITH sides AS (
  SELECT game_id, line_a AS line, counts, values_a AS own, values_b AS partner FROM ${games} WHERE line_a % 2 = 1
  UNION ALL
  SELECT game_id, line_b AS line, counts, values_b AS own, values_a AS partner FROM ${games} WHERE line_b % 2 = 1
),
hard AS (
  SELECT * FROM sides
  WHERE NOT (counts[1] % 2 = 0 AND counts[2] % 2 = 0 AND counts[3] % 2 = 0)
    AND NOT (${covered("own")} AND ${covered("partner")} AND list_position(own, list_max(own)) = list_position(partner, list_max(partner)))
),
first_seen AS (
  SELECT *, row_number() OVER (PARTITION BY counts, own, partner ORDER BY line) AS seen FROM hard
)
SELECT game_id, line, counts, own, partner,
       (abs(own[1] - partner[1]) + abs(own[2] - partner[2]) + abs(own[3] - partner[3]))::INTEGER AS distance
FROM first_seen WHERE seen = 1
ORDER BY line`;
}
