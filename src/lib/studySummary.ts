/**
 * What a report's front page shows about its study (`parley report`):
 * written as data/study.json by loaders/site/reportSummary.ts, drawn by
 * src/components/studySummary.ts.
 */

import type {ParticipantsSummary} from "./studyParticipants.js";

export type ParamValue = string | number | boolean | null;

/** One game of the study: how many were played, rule breaks, and each parameter's values as played. */
export interface StudyGame {
  game: string;
  title: string;
  /** "GLEE (Shapira et al. 2024) §2", or null for a game Parley does not know. */
  citation: string | null;
  games: number;
  ruleBreaks: number;
  params: {name: string; label: string; values: ParamValue[]}[];
}

/** An agent that sat in the study's games; LLM players name their provider and model. */
export interface StudyAgent {
  agent: string;
  /** "llm" (a run's LLM player), "built-in" (one of Parley's strategies) or "data" (a player named by ingested logs: a person, a paper's model). */
  kind: "llm" | "built-in" | "data";
  provider: string | null;
  model: string | null;
  games: number;
}

export interface StudyRunSummary {
  name: string;
  description: string | null;
  runId: string | null;
  started: string | null;
  finished: string | null;
  games: number;
  costUsd: number | null;
  llmPlayers: {id: string; provider: string; model: string; reported: string[]}[];
}

export interface GleeHeadlineRow {
  family: string;
  alice_agent: string;
  bob_agent: string;
  n: number;
  efficiency: number | null;
  fairness: number | null;
  alice_self_gain: number | null;
  bob_self_gain: number | null;
}

export interface StudySummary {
  title: string;
  generated: string;
  runs: StudyRunSummary[];
  games: StudyGame[];
  agents: StudyAgent[];
  totals: {runs: number; games: number; turns: number; ruleBreaks: number; inputTokens: number | null; outputTokens: number | null; costUsd: number | null};
  /** The report's analysis pages, in the site's order. */
  pages: {path: string; name: string}[];
  /** The participants of the runs that are human studies (`parley play`), or null when none is. */
  participants: ParticipantsSummary | null;
  headlines: {
    /** Excluded participants' games left out. */
    glee: GleeHeadlineRow[] | null;
    /** Every game, excluded participants' too (null when no one was excluded). */
    gleeWithExcluded: GleeHeadlineRow[] | null;
    gamabench: {model: string; overall: number; sd: number | null; runs: number}[] | null;
  };
}
