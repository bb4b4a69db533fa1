// text.ts — Figure 1's plain-text helpers: the inline mini-language as plain text (for aria-labels,
// and as the fallback when the inline renderer fails), and a rough label width for fitting box labels.
// Leaves out: looking strings up (web/src/lib/text.ts `ft`) and rendering KaTeX (lib/inline.ts).

const TEX_SYMBOLS: [RegExp, string][] = [
  [/\\lVert|\\rVert|\\Vert|\\\|/g, '‖'],
  [/\\sqrt\{([^{}]*)\}/g, '√$1'],
  [/\\sqrt/g, '√'],
  [/\\tfrac\{([^{}]*)\}\{([^{}]*)\}|\\frac\{([^{}]*)\}\{([^{}]*)\}/g, '($1$3/$2$4)'],
  [/\\approx/g, '≈'],
  [/\\times/g, '×'],
  [/\\cdot/g, '·'],
  [/\\top/g, 'ᵀ'],
  [/\\mu/g, 'μ'],
  [/\\sigma/g, 'σ'],
  [/\\gamma/g, 'γ'],
  [/\\beta/g, 'β'],
  [/\\delta/g, 'δ'],
  [/\\epsilon/g, 'ε'],
  [/\\ell/g, 'ℓ'],
  [/\\ln/g, 'ln'],
  [/\\mathcal\s*\{?L\}?/g, 'ℒ'],
  [/\\leftarrow/g, '←'],
  [/\\to|\\rightarrow/g, '→'],
  [/\\le(q)?/g, '≤'],
  [/\\ge(q)?/g, '≥'],
  [/\\,|\\;|\\!|\\quad|\\qquad/g, ' '],
];

/**
 * A readable plain-text version of the inline mini-language: `$…$` unwrapped, `\role{r}{…}` → `…`,
 * common TeX commands → Unicode, `**b**`/`*i*`/`` `c` `` → their text, `[t](url)` → `t`.
 * Not a TeX renderer: good enough for screen-reader labels and as a fallback.
 */
export function plainInline(s: string): string {
  let out = s;
  // \role{name}{body} and font wrappers: keep the body (repeat for one level of nesting)
  for (let i = 0; i < 3; i++) {
    out = out.replace(/\\role\{\w+\}\{((?:[^{}]|\{[^{}]*\})*)\}/g, '$1');
    out = out.replace(/\\(?:mathrm|text|mathbf|operatorname|tilde|hat|bar|boldsymbol)\{((?:[^{}]|\{[^{}]*\})*)\}/g, '$1');
  }
  for (const [re, rep] of TEX_SYMBOLS) out = out.replace(re, rep);
  out = out.replace(/\^\{([^{}]*)\}/g, '^$1').replace(/_\{([^{}]*)\}/g, '_$1');
  out = out.replace(/\$/g, '');
  out = out.replace(/\\([A-Za-z]+)/g, '$1'); // any other command: its name
  out = out.replace(/[{}]/g, '');
  out = out.replace(/\*\*([^*]+)\*\*/g, '$1').replace(/\*([^*]+)\*/g, '$1').replace(/`([^`]+)`/g, '$1');
  out = out.replace(/\[([^\]]+)\]\([^)]*\)/g, '$1');
  return out.replace(/\s+/g, ' ').trim();
}

/** Rough rendered width of a label in em (CJK and full-width glyphs ≈ 1 em, the rest ≈ 0.6 em). */
export function labelEm(s: string): number {
  let em = 0;
  for (const ch of s) em += /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/.test(ch) ? 1 : 0.6;
  return em;
}
