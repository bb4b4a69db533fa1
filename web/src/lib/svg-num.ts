// svg-num.ts — how finely the figures write a coordinate into their SVG. Pure.

/** Decimals of a coordinate the figures write into their SVG (paths, ticks): a tenth of a unit of a
 *  viewBox about 480 wide, under a fifth of a pixel at the widest a figure is drawn. More are bytes
 *  the prerendered page carries and nobody sees (the article's HTML is mostly its figures). */
export const SVG_DIGITS = 1;
/** `v` rounded to SVG_DIGITS decimals, for an SVG attribute. */
export const svgNum = (v: number): number => Math.round(v * 10 ** SVG_DIGITS) / 10 ** SVG_DIGITS;
