// plain-inline.ts — the inline mini-language (content/types.ts) as plain text: for aria-labels,
// document titles, CSV cells, and as the fallback when the inline renderer fails. Pure function.
// Leaves out: rendering HTML and KaTeX (inline.ts).

/** TeX commands written as their character (`\approx` → ≈), replaced in this order (\top before \to). */
const TEX_NAMES: Record<string, string> = {
  approx: '≈',
  times: '×',
  cdot: '·',
  top: 'ᵀ',
  mu: 'μ',
  sigma: 'σ',
  gamma: 'γ',
  beta: 'β',
  delta: 'δ',
  epsilon: 'ε',
  ell: 'ℓ',
  ln: 'ln',
};

const TEX_SYMBOLS: [RegExp, string][] = [
  [/\\lVert|\\rVert|\\Vert|\\\|/g, '‖'],
  [/\\sqrt\{([^{}]*)\}/g, '√$1'],
  [/\\sqrt/g, '√'],
  [/\\tfrac\{([^{}]*)\}\{([^{}]*)\}|\\frac\{([^{}]*)\}\{([^{}]*)\}/g, '($1$3/$2$4)'],
  ...Object.entries(TEX_NAMES).map(([name, text]): [RegExp, string] => [new RegExp(`\\\\${name}`, 'g'), text]),
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
  out = out
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/\*([^*]+)\*/g, '$1')
    .replace(/`([^`]+)`/g, '$1');
  out = out.replace(/\[([^\]]+)\]\([^)]*\)/g, '$1');
  return out.replace(/\s+/g, ' ').trim();
}
