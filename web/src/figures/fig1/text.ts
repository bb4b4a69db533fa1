// text.ts — Figure 1's label widths, for fitting box labels. (The plain-text version of the inline
// mini-language it uses for aria-labels and as a fallback is lib/plain-inline.ts.)

/** Rough rendered width of a label in em (CJK and full-width glyphs ≈ 1 em, the rest ≈ 0.6 em). */
export function labelEm(s: string): number {
  let em = 0;
  for (const ch of s) em += /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/.test(ch) ? 1 : 0.6;
  return em;
}
