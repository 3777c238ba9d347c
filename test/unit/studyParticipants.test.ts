// A human study's participants as a report counts them (src/lib/studyParticipants.ts),
// from rows written by hand with their counts and times worked out here.
import {test} from "node:test";
import assert from "node:assert/strict";
import {reasonText, summarizeParticipants, type ParticipantRow} from "../../src/lib/studyParticipants.js";

const row = (id: string, over: Partial<ParticipantRow>): ParticipantRow => ({
  participant_id: id, condition: "alice", game_id: null, step: "consent", game_finished: false, excluded: false, exclusion_reason: null,
  assigned_at: "2026-11-01T10:00:00.000Z", consented_at: null, completed_at: null, ...over,
});

const rows: ParticipantRow[] = [
  // Completed in 4, 10 and 6 minutes from consent (the second's consent time missing: from assignment, 10 min).
  row("p1", {step: "done", game_id: "g1", game_finished: true, consented_at: "2026-11-01T10:01:00.000Z", completed_at: "2026-11-01T10:05:00.000Z"}),
  row("p2", {step: "done", game_id: "g2", game_finished: true, condition: "bob", completed_at: "2026-11-01T10:10:00.000Z"}),
  row("p3", {step: "done", game_id: "g3", game_finished: true, consented_at: "2026-11-01T10:00:00.000Z", completed_at: "2026-11-01T10:06:00.000Z"}),
  // Played, failed the quiz: excluded, game kept.
  row("p4", {step: "failed_quiz", game_id: "g4", game_finished: true, excluded: true, exclusion_reason: "quiz", consented_at: "2026-11-01T10:00:00.000Z"}),
  // Failed the attention check and (configured to play on) the quiz too, and completed: excluded for both.
  row("p5", {step: "done", game_id: "g5", game_finished: true, excluded: true, exclusion_reason: "attention_check,quiz", condition: "bob", consented_at: "2026-11-01T10:00:00.000Z", completed_at: "2026-11-01T10:20:00.000Z"}),
  row("p6", {step: "declined"}),
  row("p7", {step: "game", game_id: "g7", consented_at: "2026-11-01T10:00:00.000Z"}),
  row("p8", {step: "failed_attention", excluded: true, exclusion_reason: "attention_check", consented_at: "2026-11-01T10:00:00.000Z"}),
];

test("recruited, consented, declined, played, completed, excluded by reason, under way, and minutes to complete", () => {
  const s = summarizeParticipants(rows);
  assert.equal(s.recruited, 8);
  assert.equal(s.consented, 6, "p1, p3, p4, p5, p7, p8");
  assert.equal(s.declined, 1);
  assert.equal(s.played, 5, "g1–g5 are in the tables");
  assert.equal(s.completed, 4, "p1, p2, p3, p5");
  assert.equal(s.excluded, 3);
  assert.deepEqual(s.reasons, [{reason: "attention_check", participants: 2}, {reason: "quiz", participants: 2}]);
  assert.equal(s.underWay, 1, "p7, still in the game");
  // Completed: 4, 10, 6 and 20 minutes → median (6 + 10) / 2 = 8.
  assert.deepEqual(s.minutes, {median: 8, min: 4, max: 20});
  assert.deepEqual(s.conditions, [{condition: "alice", recruited: 6, completed: 2, excluded: 2}, {condition: "bob", recruited: 2, completed: 2, excluded: 1}]);
  // Only excluded participants whose game exists are listed as games.
  assert.deepEqual(s.excludedGames, [{game_id: "g4", reason: "quiz"}, {game_id: "g5", reason: "attention_check, quiz"}]);
});

test("no one completed: no time; reasons in words", () => {
  assert.equal(summarizeParticipants([row("a", {})]).minutes, null);
  assert.deepEqual(summarizeParticipants([]).reasons, []);
  assert.equal(summarizeParticipants([row("a", {excluded: true})]).reasons[0].reason, "unstated");
  assert.equal(reasonText("quiz"), "failed the comprehension quiz");
  assert.equal(reasonText("attention_check, quiz"), "failed the attention check and failed the comprehension quiz");
});
