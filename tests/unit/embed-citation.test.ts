// The embed protocol's host-message parser (web/src/lib/embed.ts) and the citation entries
// (web/src/content/citation.ts), table-driven.
import { describe, expect, it } from 'vitest';
import { heightMessage, parseHostMessage } from '../../web/src/lib/embed';
import { PAPER_BIBTEX, explainerBibtex } from '../../web/src/content/citation';

describe('parseHostMessage: only the documented shapes', () => {
  it.each([
    [
      { type: 'lnx:theme', v: 1, theme: 'dark' },
      { type: 'lnx:theme', v: 1, theme: 'dark' },
    ],
    [
      { type: 'lnx:theme', v: 1, theme: 'light' },
      { type: 'lnx:theme', v: 1, theme: 'light' },
    ],
    [
      { type: 'lnx:request-height', v: 1 },
      { type: 'lnx:request-height', v: 1 },
    ],
  ])('%j is accepted', (m, want) => expect(parseHostMessage(m)).toEqual(want));
  it.each([
    [null],
    [undefined],
    ['lnx:theme'],
    [42],
    [[{ type: 'lnx:theme', v: 1, theme: 'dark' }]],
    [{ type: 'lnx:theme', theme: 'dark' }],
    [{ type: 'lnx:theme', v: 2, theme: 'dark' }],
    [{ type: 'lnx:theme', v: '1', theme: 'dark' }],
    [{ type: 'lnx:theme', v: 1, theme: 'blue' }],
    [{ type: 'lnx:theme', v: 1, theme: '<img src=x onerror=alert(1)>' }],
    [{ type: 'lnx:theme', v: 1, theme: 'dark', extra: 1 }],
    [{ type: 'lnx:request-height', v: 1, height: 5 }],
    [{ type: 'lnx:height', v: 1, figure: 'fig2', height: 10, state: 'ready' }],
    [{ type: 'LNX:THEME', v: 1, theme: 'dark' }],
    [Object.assign(Object.create({ inherited: 1 }), { type: 'lnx:theme', v: 1, theme: 'dark' })],
  ])('%j is ignored', (m) => expect(parseHostMessage(m)).toBeNull());
  it('heightMessage rounds up and never goes negative', () => {
    expect(heightMessage('fig2', 612.2, 'ready')).toEqual({ type: 'lnx:height', v: 1, figure: 'fig2', height: 613, state: 'ready' });
    expect(heightMessage('fig1', -5, 'loading').height).toBe(0);
  });
});

describe('citation', () => {
  it('the paper: ICML 2020, PMLR 119, arXiv:2002.04745, balanced braces', () => {
    expect(PAPER_BIBTEX).toMatch(/^@inproceedings\{xiong2020layer,/);
    for (const s of ['{On Layer Normalization in the Transformer Architecture}', '{2020}', '{2002.04745}', '{119}', 'Liu, Tie-Yan'])
      expect(PAPER_BIBTEX).toContain(s);
    expect(PAPER_BIBTEX.split('{').length).toBe(PAPER_BIBTEX.split('}').length);
  });
  it.each([
    [
      { url: 'https://x.org/ln/', title: 'Where {LayerNorm} sits', version: '0.1.0', lang: 'en' as const },
      ['title        = {Where LayerNorm sits}', '\\url{https://x.org/ln/}', 'engine v0.1.0', 'english'],
    ],
    [
      { url: 'https://x.org/', title: 'LayerNorm 放在哪', version: null, lang: 'zh' as const },
      ['{LayerNorm 放在哪}', 'note         = {Interactive explainer}', 'chinese'],
    ],
  ])('explainerBibtex %#', (o, parts) => {
    const b = explainerBibtex(o);
    for (const p of parts) expect(b).toContain(p);
    expect(b.split('{').length).toBe(b.split('}').length);
  });
  it('without an address (the page the build writes with no site address) the entry names none', () => {
    const b = explainerBibtex({ url: '', title: 'T', version: '0.1.0', lang: 'en' });
    expect(b).not.toContain('howpublished');
    expect(b).toContain('engine v0.1.0');
    expect(b.split('{').length).toBe(b.split('}').length);
  });
});
