/**
 * The categorical palette of Parley's charts: Okabe and Ito's eight colours
 * ("Color Universal Design", Okabe & Ito 2008), chosen to stay apart for
 * readers with the common colour-vision deficiencies. Black comes last (it
 * reads as text). test/unit/palette.test.ts simulates protanopia,
 * deuteranopia and tritanopia (Machado, Oliveira & Fernandes 2009) and checks
 * every pair stays apart (CIEDE2000).
 */
export const OKABE_ITO = ["#E69F00", "#56B4E9", "#009E73", "#0072B2", "#D55E00", "#CC79A7", "#F0E442", "#000000"] as const;

/** Plot's default categorical scheme (observable10), which the palette replaces. */
export const OBSERVABLE10 = ["#4269d0", "#efb118", "#ff725c", "#6cc5b0", "#3ca951", "#ff8ab7", "#a463f2", "#97bbf5", "#9c6b4e", "#9498a0"] as const;
