// Pure helpers of the page shell: preferences, interface strings, article loading.
import { describe, expect, it } from 'vitest';
import { initialLang, initialTheme } from '../../web/src/lib/prefs.svelte';
import { figureText, ft, panelReadout, tpl, uiString } from '../../web/src/lib/text';
import { XSelection } from '../../web/src/lib/x-selection.svelte';
import { pickArticle } from '../../web/src/lib/article';

describe('initialLang', () => {
  it.each([
    ['?lang=zh', 'en', 'en-US', 'zh'],
    ['?lang=en', 'zh', 'zh-CN', 'en'],
    ['?lang=fr', 'zh', 'en-US', 'zh'],
    ['', null, 'zh-TW', 'zh'],
    ['', null, 'en-GB', 'en'],
    ['', null, undefined, 'en'],
    ['', 'bogus', 'de', 'en'],
  ] as const)('%s, saved %s, navigator %s → %s', (q, saved, nav, want) => expect(initialLang(q, saved, nav)).toBe(want));
});

describe('initialTheme', () => {
  it.each([
    ['?theme=dark', 'light', false, 'dark'],
    ['?theme=light', 'dark', true, 'light'],
    ['', 'dark', false, 'dark'],
    ['', null, true, 'dark'],
    ['', null, false, 'light'],
    ['?theme=blue', null, false, 'light'],
  ] as const)('%s, saved %s, prefersDark %s → %s', (q, saved, dark, want) => expect(initialTheme(q, saved, dark)).toBe(want));
});

describe('interface strings', () => {
  it('tpl fills known placeholders and keeps unknown ones visible', () => {
    expect(tpl('Layer {l} of {n}', { l: 3 })).toBe('Layer 3 of {n}');
  });
  it('page-chrome strings per language; an unknown key shows as itself', () => {
    expect(uiString('en', 'recompute')).toBe('Recompute in your browser');
    expect(uiString('zh', 'recompute')).toBe('在浏览器里重新计算');
    expect(uiString('en', 'no.such.key')).toBe('no.such.key');
  });
  it('figureText is the article’s figure strings; empty title and caption without an article', () => {
    const t = figureText({ figures: { fig2: { title: 'T', caption: 'C', finalLn: 'FLN', readoutLayer: 'Layer {l}' } } }, 'fig2');
    expect(t.title).toBe('T');
    expect(t.finalLn).toBe('FLN');
    expect(ft(t, 'readoutLayer', { l: 2 })).toBe('Layer 2');
    expect(ft(t, 'missing.key')).toBe('missing.key');
    expect(figureText(null, 'fig2')).toEqual({ title: '', caption: '' });
  });
  it("panelReadout: the figure's readout of a panel at a step, each series' value joined as a list", () => {
    const text = { title: '', caption: '', readout: '{panel}, step {t}: {values}', 'readout.item': '{name} {v}' };
    const t = (k: string) => (k === 'sep.list' ? '; ' : k);
    const out = panelReadout(
      text,
      t,
      'Post-LN',
      7,
      [1, 2],
      (s) => `run ${s}`,
      (s) => String(10 * s),
    );
    expect(out).toBe('Post-LN, step 7: run 1 10; run 2 20');
  });
});

describe('XSelection.focused', () => {
  it('the panel that has the selection, else the first; undefined without panels', () => {
    const sel = new XSelection(() => [1, 2, 3]);
    const panels = [{ key: 'a' }, { key: 'b' }];
    expect(sel.focused(panels)).toBe(panels[0]);
    sel.panel('b', '').onfocus();
    expect(sel.focused(panels)).toBe(panels[1]);
    sel.panel('b', '').onblur();
    expect(sel.focused(panels)).toBe(panels[0]);
    expect(sel.focused([])).toBeUndefined();
  });
  it('ofSteps: the steps 1…n, read on every use, step 1 before one is picked', () => {
    let n = 3;
    const sel = XSelection.ofSteps(() => n);
    expect(sel.at).toBe(1);
    expect(sel.panel('a', '')).toMatchObject({ min: 1, max: 3, now: 1 });
    n = 5;
    expect(sel.panel('a', '')).toMatchObject({ min: 1, max: 5 });
    sel.pointer('a')({ x: 4.2 });
    expect(sel.at).toBe(4);
  });
});

describe('pickArticle', () => {
  const a = { lang: 'en', title: 'x', sections: [] };
  it.each([
    [{ default: a }, a],
    [{ article: a }, a],
    [{ default: 1, other: a }, a],
    [{ default: {} }, null],
  ])('%j', (mod, want) => expect(pickArticle(mod as never)).toBe(want));
});
