// tex-seed.test.ts — lib/tex.ts seedTex: the formulas the build wrote in an island are read back
// (keyed by their TeX, in their mode) and renderTex gives them without running KaTeX; what KaTeX
// writes into a formula's annotation is the TeX it was given, the key the seed reads.
import { describe, expect, it } from 'vitest';
import { renderTex, seedTex } from '../../web/src/lib/tex';

/** A formula of the build's HTML as seedTex reads it: its annotation, its .katex, its wrapper. */
function formula(tex: string, display: boolean, html: string) {
  const katex = {
    outerHTML: display ? '' : html,
    parentElement: { classList: { contains: (c: string) => display && c === 'katex-display' }, outerHTML: display ? html : '' },
  };
  return { textContent: tex, closest: (sel: string) => (sel === '.katex' ? katex : null) };
}
const root = (fs: ReturnType<typeof formula>[]) => ({ querySelectorAll: () => fs }) as unknown as ParentNode;

describe('seedTex', () => {
  it('renderTex gives a seeded formula as the build wrote it, in its mode only', () => {
    const tex = '\\seeded{x_1}'; // not a macro KaTeX knows: rendered, it would be an error span
    seedTex(root([formula(tex, false, '<span class="katex">inline</span>'), formula(tex, true, '<span class="katex-display">display</span>')]));
    expect(renderTex(tex)).toBe('<span class="katex">inline</span>');
    expect(renderTex(tex, true)).toBe('<span class="katex-display">display</span>');
    expect(renderTex('\\seeded{x_2}')).toMatch(/tex-error/);
  });
  it('keeps what it has: a formula rendered first stays as rendered', () => {
    const first = renderTex('a+b');
    seedTex(root([formula('a+b', false, '<span>other</span>')]));
    expect(renderTex('a+b')).toBe(first);
  });
  it('reads the key KaTeX writes: the annotation holds the TeX as given, the role macro and escapes too', () => {
    for (const tex of ['\\role{norm}{\\mathrm{LN}}(x + F(x))', 'a < b \\& c', '\\frac{\\partial \\mathcal L}{\\partial W^{2}}']) {
      for (const display of [false, true]) {
        const html = renderTex(tex, display);
        const ann = html.match(/<annotation encoding="application\/x-tex">([\s\S]*?)<\/annotation>/)?.[1] ?? '';
        const text = ann
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&quot;/g, '"')
          .replace(/&#x27;/g, "'")
          .replace(/&amp;/g, '&');
        expect(text).toBe(tex);
        expect(html.startsWith('<span class="katex-display">')).toBe(display);
      }
    }
  });
});
