/**
 * The charts' categorical palette (src/lib/palette.ts) stays apart for
 * readers with the common colour-vision deficiencies: every colour is
 * passed through the simulation of Machado, Oliveira & Fernandes (2009,
 * "A Physiologically-based Model for Simulation of Color Vision Deficiency",
 * severity 1.0 matrices, applied to linear RGB) for protanopia, deuteranopia
 * and tritanopia, and every pair of simulated colours differs by at least
 * MIN_DELTA_E in CIEDE2000 (Sharma, Wu & Dalal 2005, whose test pairs check
 * the formula here). Plot's default scheme, which the palette replaces, does not.
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {OBSERVABLE10, OKABE_ITO} from "../../src/lib/palette.js";

type Vec = [number, number, number];
type Matrix = [Vec, Vec, Vec];

const MACHADO: Record<string, Matrix> = {
  protanopia: [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
  deuteranopia: [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.01182, 0.04294, 0.968881]],
  tritanopia: [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.3039]],
};

/** At least this far apart (CIEDE2000) under every simulated deficiency: clearly different at a glance (2.3 is just noticeable). */
const MIN_DELTA_E = 10;
/** The colours compared: all of the palette, and as many of the scheme it replaces. */
const SERIES = OKABE_ITO.length;

const toLinear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const fromHex = (hex: string): Vec => [1, 3, 5].map((i) => toLinear(parseInt(hex.slice(i, i + 2), 16) / 255)) as Vec;
const apply = (m: Matrix, v: Vec): Vec => m.map((row) => Math.min(1, Math.max(0, row[0] * v[0] + row[1] * v[1] + row[2] * v[2]))) as Vec;

/** CIE L*a*b* (D65) of linear sRGB. */
function lab([r, g, b]: Vec): Vec {
  const x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047;
  const y = 0.2126729 * r + 0.7151522 * g + 0.072175 * b;
  const z = (0.0193339 * r + 0.119192 * g + 0.9503041 * b) / 1.08883;
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

/** CIEDE2000 colour difference (kL = kC = kH = 1). */
export function deltaE2000([L1, a1, b1]: Vec, [L2, a2, b2]: Vec): number {
  const rad = Math.PI / 180;
  const C1 = Math.hypot(a1, b1);
  const C2 = Math.hypot(a2, b2);
  const Cm = (C1 + C2) / 2;
  const G = 0.5 * (1 - Math.sqrt(Cm ** 7 / (Cm ** 7 + 25 ** 7)));
  const a1p = (1 + G) * a1;
  const a2p = (1 + G) * a2;
  const C1p = Math.hypot(a1p, b1);
  const C2p = Math.hypot(a2p, b2);
  const hue = (b: number, a: number) => (b === 0 && a === 0 ? 0 : (Math.atan2(b, a) / rad + 360) % 360);
  const h1p = hue(b1, a1p);
  const h2p = hue(b2, a2p);
  const dLp = L2 - L1;
  const dCp = C2p - C1p;
  let dhp = 0;
  if (C1p * C2p !== 0) dhp = Math.abs(h2p - h1p) <= 180 ? h2p - h1p : h2p - h1p > 180 ? h2p - h1p - 360 : h2p - h1p + 360;
  const dHp = 2 * Math.sqrt(C1p * C2p) * Math.sin((dhp / 2) * rad);
  const Lpm = (L1 + L2) / 2;
  const Cpm = (C1p + C2p) / 2;
  let hpm = h1p + h2p;
  if (C1p * C2p !== 0) hpm = Math.abs(h1p - h2p) <= 180 ? (h1p + h2p) / 2 : h1p + h2p < 360 ? (h1p + h2p + 360) / 2 : (h1p + h2p - 360) / 2;
  const T = 1 - 0.17 * Math.cos((hpm - 30) * rad) + 0.24 * Math.cos(2 * hpm * rad) + 0.32 * Math.cos((3 * hpm + 6) * rad) - 0.2 * Math.cos((4 * hpm - 63) * rad);
  const dTheta = 30 * Math.exp(-(((hpm - 275) / 25) ** 2));
  const RC = 2 * Math.sqrt(Cpm ** 7 / (Cpm ** 7 + 25 ** 7));
  const SL = 1 + (0.015 * (Lpm - 50) ** 2) / Math.sqrt(20 + (Lpm - 50) ** 2);
  const SC = 1 + 0.045 * Cpm;
  const SH = 1 + 0.015 * Cpm * T;
  const RT = -Math.sin(2 * dTheta * rad) * RC;
  return Math.sqrt((dLp / SL) ** 2 + (dCp / SC) ** 2 + (dHp / SH) ** 2 + RT * (dCp / SC) * (dHp / SH));
}

/** The smallest CIEDE2000 difference between two of `colours` as seen with `deficiency` (or normal vision), and the pair. */
function closest(colours: readonly string[], deficiency?: string): {delta: number; pair: [string, string]} {
  const seen = colours.map((c) => lab(deficiency ? apply(MACHADO[deficiency], fromHex(c)) : fromHex(c)));
  let best = {delta: Infinity, pair: ["", ""] as [string, string]};
  for (let i = 0; i < colours.length; i++) for (let j = i + 1; j < colours.length; j++) {
    const delta = deltaE2000(seen[i], seen[j]);
    if (delta < best.delta) best = {delta, pair: [colours[i], colours[j]]};
  }
  return best;
}

test("CIEDE2000 gives Sharma, Wu & Dalal's (2005) test values, and sRGB white is L* 100", () => {
  const pairs: [Vec, Vec, number][] = [
    [[50, 2.6772, -79.7751], [50, 0, -82.7485], 2.0425],
    [[50, 0, 0], [50, -1, 2], 2.3669],
    [[50, 2.5, 0], [73, 25, -18], 27.1492],
    [[50, 2.5, 0], [50, 3.1736, 0.5854], 1.0],
    [[60.2574, -34.0099, 36.2677], [60.4626, -34.1751, 39.4387], 1.2644],
    [[2.0776, 0.0795, -1.135], [0.9033, -0.0636, -0.5514], 0.9082],
  ];
  for (const [x, y, expected] of pairs) assert.equal(Number(deltaE2000(x, y).toFixed(4)), expected, `${x} / ${y}`);
  const [L, a, b] = lab([1, 1, 1]);
  assert.ok(Math.abs(L - 100) < 1e-4 && Math.abs(a) < 1e-3 && Math.abs(b) < 1e-3, `${L} ${a} ${b}`);
  // Machado's protanopia matrix leaves grey grey (its rows sum to 1).
  for (const m of Object.values(MACHADO)) for (const row of m) assert.ok(Math.abs(row[0] + row[1] + row[2] - 1) < 1e-5);
});

test(`the palette's ${SERIES} colours stay at least ${MIN_DELTA_E} apart (CIEDE2000) with normal vision and under simulated protanopia, deuteranopia and tritanopia`, () => {
  const palette = OKABE_ITO.slice(0, SERIES);
  for (const deficiency of [undefined, ...Object.keys(MACHADO)]) {
    const {delta, pair} = closest(palette, deficiency);
    assert.ok(delta >= MIN_DELTA_E, `${deficiency ?? "normal vision"}: ${pair.join(" and ")} differ by ${delta.toFixed(2)}`);
  }
});

test("Plot's default scheme, which the palette replaces, does not: two of its first colours come within the limit under a deficiency", () => {
  const worst = Math.min(...Object.keys(MACHADO).map((d) => closest(OBSERVABLE10.slice(0, SERIES), d).delta));
  assert.ok(worst < MIN_DELTA_E, `observable10's closest pair is ${worst.toFixed(2)} apart`);
});
