// placements.test.ts — the page's placements come from the engine's registry (generated schema):
// every registered placement has a label (the engine's), a colour token in both themes and a
// marker, and a placement the page has never heard of still gets a label, a colour and a marker;
// every optimizer has its own line style (lib/optimizers.ts).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UI_STRINGS } from '../../web/src/content/ui-strings';
import { SHAPES, markerPath } from '../../web/src/lib/marker';
import { svgNum } from '../../web/src/lib/svg-num';
import { OPTIMIZERS } from '../../web/src/generated/engine-schema';
import { optimizerDash, optimizerLabel, optimizerLegend } from '../../web/src/lib/optimizers';
import { DASH } from '../../web/src/lib/palette';
import { PLACEMENTS, inRegistryOrder, placementColor, placementLabel, placementShape } from '../../web/src/lib/placements';

const css = readFileSync(new URL('../../web/src/styles/tokens.css', import.meta.url), 'utf8');
const themes = css.split(":root[data-theme='dark']");

describe('placements', () => {
  it.each(PLACEMENTS.map((p) => [p]))('%s has a label in zh and en, a colour in both themes, a marker of its own', (p) => {
    for (const lang of ['zh', 'en'] as const) {
      const label = placementLabel(p, (k) => UI_STRINGS[lang][k] ?? k);
      expect(label, lang).toBeTruthy();
      expect(label, lang).not.toBe(p.startsWith('placement.') ? p : `placement.${p}`);
    }
    for (const theme of themes) expect(theme).toContain(`--series-${p}:`);
    expect(placementColor(p)).toBe(`var(--series-${p}, var(--series-other))`);
    expect(SHAPES).toContain(placementShape(p));
  });
  it('markers differ while there are shapes enough', () => {
    const shapes = PLACEMENTS.slice(0, SHAPES.length).map(placementShape);
    expect(new Set(shapes).size).toBe(shapes.length);
  });
  it('a placement without strings: the engine label, else its name; the fallback colour and a marker', () => {
    const t = (k: string) => UI_STRINGS.en[k] ?? k;
    expect(placementLabel('post', t)).toBe('Post-LN');
    expect(placementLabel('sandwich-test', t)).toBe('sandwich-test');
    expect(placementColor('sandwich-test')).toContain('--series-other');
    expect(SHAPES).toContain(placementShape('sandwich-test'));
    for (const theme of themes) expect(theme).toContain('--series-other:');
  });
  it('orders any set of names as the engine does, dropping unknown ones', () => {
    expect(inRegistryOrder(['pre', 'admin', 'nope', 'post'])).toEqual(['post', 'pre', 'admin']);
  });
});

describe('optimizers', () => {
  it('each registered optimizer has its own line style, as the caption of Figure F says', () => {
    expect(new Set(OPTIMIZERS.map(optimizerDash)).size).toBe(OPTIMIZERS.length);
    expect([optimizerDash('adam'), optimizerDash('radam'), optimizerDash('sgd')]).toEqual([DASH.solid, DASH.dashed, DASH.dotted]);
    expect(optimizerLabel('sgd', (k) => UI_STRINGS.en[k] ?? k)).not.toBe('sgd');
    expect(optimizerLabel('lion-test', (k) => k)).toBe('lion-test');
  });
  it('a legend names each optimizer the panels draw once, in the order they first appear, in its line style', () => {
    const panels = [{ series: [{ optimizer: 'gi-adam' }, { optimizer: 'adam' }] }, { series: [{ optimizer: 'adam' }, { optimizer: 'lion-test' }] }];
    expect(optimizerLegend(panels, (k) => k)).toEqual([
      { label: 'gi-adam', color: 'var(--fg)', dash: optimizerDash('gi-adam') },
      { label: 'adam', color: 'var(--fg)', dash: DASH.solid },
      { label: 'lion-test', color: 'var(--fg)', dash: DASH.solid },
    ]);
    expect(optimizerLegend([], (k) => k)).toEqual([]);
  });
});

describe('coordinates in the SVG', () => {
  it.each([
    [12.345, 12.3],
    [12.35, 12.4],
    [-0.04, -0],
    [479.99999999999994, 480],
    [1e-9, 0],
  ])('%s is written as %s', (v, want) => expect(svgNum(v)).toBe(want));
  it.each([
    ['circle', 'M8.8,6.8a3.5,3.5 0 1,0 7,0a3.5,3.5 0 1,0 -7,0Z'],
    ['square', 'M8.8,3.3h7v7h-7Z'],
    ['diamond', 'M12.3,2.2L16.9,6.8L12.3,11.3L7.8,6.8Z'],
  ] as const)('a %s marker is drawn to a tenth of a unit', (shape, d) => expect(markerPath(shape, 12.345, 6.789, 3.5)).toBe(d));
});
