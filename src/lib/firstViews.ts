/**
 * Every page whose first view is computed at build time (src/lib/snapshot.ts).
 * loaders/datasets/emit.ts runs each script against its dataset's tables in native
 * DuckDB and writes the answers into that dataset's archive as
 * `first-<page>.json`; the page reads them through pageData
 * (src/components/pageData.ts). A new page adds its FirstView here.
 */
import type {FirstView} from "./snapshot.js";
import {GLEE_FAMILIES} from "./gleeMetrics.js";
import {dondBeliefsFirstView, dondFirstView, dondPlayedFirstView} from "./pages/dond.js";
import {gleeHumanFirstView} from "./pages/gleeHuman.js";
import {gleeFamilyFirstView} from "./pages/gleeFamily.js";
import {gleeRegressionFirstView, gleePairsFirstView} from "./pages/gleeAnalysis.js";
import {gamabenchFirstView} from "./pages/gamabench.js";
import {ratingsFirstViews} from "./pages/ratings.js";
import {compareFirstView} from "./pages/compare.js";
import {negotiationArenaFirstViews} from "./pages/negotiationArena.js";
import {econarenaFirstView} from "./pages/econarena.js";
import {gtllmFirstView, gtllmMetagameFirstView} from "./pages/gtllm.js";
import {studyDiscountFirstView} from "./pages/studyDiscount.js";

export const FIRST_VIEWS: FirstView[] = [
  dondFirstView,
  dondPlayedFirstView,
  dondBeliefsFirstView,
  gamabenchFirstView,
  gleeHumanFirstView,
  ...GLEE_FAMILIES.map(gleeFamilyFirstView),
  gleeRegressionFirstView,
  gleePairsFirstView,
  ...ratingsFirstViews,
  compareFirstView,
  ...negotiationArenaFirstViews,
  econarenaFirstView,
  gtllmFirstView,
  gtllmMetagameFirstView,
  studyDiscountFirstView,
];
