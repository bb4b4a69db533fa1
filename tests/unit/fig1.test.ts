// fig1.test.ts — Figure 1's backward path as data (web/src/figures/fig1/path.ts).
// Covers: the walk starts at the loss and ends at the last layer's W² in both rows; every step names
// nodes that exist; Pre-LN passes its Final LN and Post-LN its LN₂; consecutive nodes of a row are
// joined by a forward edge; every factor key has a string in an example text (and in the article's
// own fig1 text once content/zh.ts / en.ts exist); the layout reflows only the Pre-LN row when the
// Final LN opens. Leaves out: drawing (looked at in screenshots).
import { describe, expect, it } from 'vitest';
import {
  EDGES,
  FACTOR_KEYS,
  FINAL_LN_OPEN_W,
  NODES,
  ROWS,
  STEPS,
  TEXT_KEYS,
  clampStep,
  edgeBetween,
  layout,
  layoutRow,
  nodeById,
  nodeState,
  rowState,
  type RowId,
} from '../../web/src/figures/fig1/path';
import type { FigureText } from '../../web/src/content/types';

/** An example of the strings a prose writer supplies (English). */
const EXAMPLE_TEXT: FigureText = {
  title: 'Figure 1',
  caption: 'Post-LN above, Pre-LN below; $N\\times$ repeats the layer $L$ times.',
  captionStatic: 'The list under the diagram walks the gradient back.',
  stepLabel: 'Step {i} of {n}',
  stepPrev: 'Back',
  stepNext: 'Next',
  stepReset: 'Reset',
  postRow: 'Post-LN',
  preRow: 'Pre-LN',
  repeat: 'N×',
  finalLn: 'Final LN',
  expand: 'show its four steps',
  collapse: 'hide its four steps',
  tableView: 'Table view of the steps',
  f_loss: 'Loss → logits: $\\mathrm{softmax}(z)-\\mathrm{onehot}(y)$.',
  f_logits: 'Output layer $z=x E^\\top$: the gradient is multiplied by $E$.',
  f_finalLn: 'Pre-LN Final LN: $\\times\\sqrt d/\\lVert x_L\\rVert$ (Lemma 3).',
  f_ln2: 'Post-LN LN₂: $\\times\\sqrt d/\\lVert x^5\\rVert\\approx\\sqrt{2/3}$.',
  f_residual: 'Residual add: identity branch + FFN branch.',
  f_w2: '$\\delta\\cdot\\mathrm{ReLU}(W^1x)^\\top$: Theorem 1’s three factors.',
};

/** Non-null nodes of a row, in step order. */
const walk = (row: RowId) => STEPS.map((s) => s[row]).filter((id): id is string => id !== null);

describe('fig1 backward path', () => {
  it.each(ROWS)('%s row starts at the loss and ends at W² of the last layer', (row) => {
    const ids = walk(row);
    expect(ids[0]).toBe('loss');
    expect(ids.at(-1)).toBe('w2');
    expect(nodeById(row, 'loss')?.role).toBe('loss');
    const w2 = nodeById(row, 'w2')!;
    expect(w2.role).toBe('param');
    expect(w2.inLayer).toBe(true);
  });

  it('the first step moves both rows to the loss, the last both to W²', () => {
    expect(STEPS[0]).toMatchObject({ post: 'loss', pre: 'loss' });
    expect(STEPS.at(-1)).toMatchObject({ post: 'w2', pre: 'w2' });
  });

  it.each(STEPS.map((s, i) => [i + 1, s] as const))('step %i names nodes that exist', (_i, s) => {
    expect(s.post !== null || s.pre !== null).toBe(true);
    for (const row of ROWS) if (s[row] !== null) expect(nodeById(row, s[row]!)).toBeDefined();
  });

  it.each([
    ['pre', 'finalLn', 'norm', false],
    ['post', 'ln2', 'norm', true],
  ] as const)('%s row passes %s (role %s, inside the N× bracket: %s)', (row, id, role, inLayer) => {
    expect(walk(row)).toContain(id);
    const nd = nodeById(row, id)!;
    expect(nd.role).toBe(role);
    expect(nd.inLayer).toBe(inLayer);
  });

  it('Post-LN has no final LN; its last LN₂ is the last op before the output layer', () => {
    expect(nodeById('post', 'finalLn')).toBeUndefined();
    expect(edgeBetween('post', 'ln2', 'out')).toBeDefined();
    expect(edgeBetween('pre', 'finalLn', 'out')).toBeDefined();
  });

  it.each(ROWS)('%s row: consecutive nodes of the walk are joined by a forward edge', (row) => {
    const ids = walk(row);
    for (let i = 1; i < ids.length; i++) {
      // the gradient walks the forward edge later → earlier backwards
      expect(edgeBetween(row, ids[i], ids[i - 1]), `${ids[i]} → ${ids[i - 1]}`).toBeDefined();
    }
  });

  it('every edge joins nodes that exist in its row', () => {
    for (const e of EDGES) {
      expect(nodeById(e.row, e.from), `${e.row}:${e.from}`).toBeDefined();
      expect(nodeById(e.row, e.to), `${e.row}:${e.to}`).toBeDefined();
    }
  });

  it('node ids are unique within each row', () => {
    for (const row of ROWS) {
      const ids = NODES[row].map((n) => n.id);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  it('each factor key is used by exactly one step, in the documented order', () => {
    expect(STEPS.map((s) => s.factorKey)).toEqual([...FACTOR_KEYS]);
  });

  it.each(TEXT_KEYS.map((k) => [k]))('example text has a string for %s', (key) => {
    expect(typeof EXAMPLE_TEXT[key]).toBe('string');
    expect(EXAMPLE_TEXT[key].trim()).not.toBe('');
  });

  it('stepLabel has both placeholders', () => {
    expect(EXAMPLE_TEXT.stepLabel).toContain('{i}');
    expect(EXAMPLE_TEXT.stepLabel).toContain('{n}');
  });
});

describe('fig1 the walk, step by step', () => {
  it.each([
    // step, row, current, moved, visited, edges walked (forward from→to, oldest first)
    [1, 'post', 'loss', true, [], []],
    [1, 'pre', 'loss', true, [], []],
    [2, 'pre', 'out', true, ['loss'], ['out>loss']],
    [3, 'pre', 'finalLn', true, ['loss', 'out'], ['out>loss', 'finalLn>out']],
    [3, 'post', 'out', false, ['loss'], ['out>loss']],
    [4, 'post', 'ln2', true, ['loss', 'out'], ['out>loss', 'ln2>out']],
    [4, 'pre', 'finalLn', false, ['loss', 'out'], ['out>loss', 'finalLn>out']],
    [5, 'pre', 'add2', true, ['loss', 'out', 'finalLn'], ['out>loss', 'finalLn>out', 'add2>finalLn']],
    [6, 'post', 'w2', true, ['loss', 'out', 'ln2', 'add2'], ['out>loss', 'ln2>out', 'add2>ln2', 'w2>add2']],
  ] as const)('step %i, %s: at %s (moved %s)', (step, row, current, moved, visited, edges) => {
    const rs = rowState(row, step);
    expect(rs.current).toBe(current);
    expect(rs.moved).toBe(moved);
    expect(rs.visited).toEqual(visited);
    expect(rs.edges.map((e) => `${e.from}>${e.to}`)).toEqual(edges);
    expect(nodeState(rs, current)).toBe(moved ? 'current' : 'waiting');
    for (const v of visited) expect(nodeState(rs, v)).toBe('visited');
    expect(nodeState(rs, 'x')).toBe('idle');
  });

  it.each([
    [undefined, 1],
    [Number.NaN, 1],
    [0, 1],
    [-3, 1],
    [2.4, 2],
    [6, 6],
    [99, 6],
  ])('clampStep(%s) = %i', (input, out) => {
    expect(clampStep(input as number)).toBe(out);
  });
});

describe('fig1 layout', () => {
  it('closed: no parts; the two rows line up at ⊕₂, W², the output and the loss', () => {
    const l = layout(0);
    expect(l.pre.parts).toEqual([]);
    for (const id of ['add1', 'w2', 'add2', 'out', 'loss']) {
      expect(l.pre.nodes.find((n) => n.id === id)!.x).toBeCloseTo(l.post.nodes.find((n) => n.id === id)!.x);
    }
  });

  it('opening the Final LN widens it and shifts only what follows it in the Pre-LN row', () => {
    const closed = layout(0);
    const open = layout(1);
    const extra = FINAL_LN_OPEN_W - nodeById('pre', 'finalLn')!.w;
    const x = (l: typeof closed, row: RowId, id: string) => l[row].nodes.find((n) => n.id === id)!.x;
    expect(open.pre.nodes.find((n) => n.id === 'finalLn')!.width).toBeCloseTo(FINAL_LN_OPEN_W);
    expect(x(open, 'pre', 'out') - x(closed, 'pre', 'out')).toBeCloseTo(extra);
    expect(x(open, 'pre', 'loss') - x(closed, 'pre', 'loss')).toBeCloseTo(extra);
    expect(x(open, 'pre', 'add2')).toBeCloseTo(x(closed, 'pre', 'add2'));
    expect(open.post).toEqual(closed.post);
    expect(open.x1 - closed.x1).toBeCloseTo(extra);
    expect(open.pre.parts.map((p) => p.label)).toEqual(['−μ', '÷σ', '×γ', '+β']);
  });

  it.each([0, 0.5, 1])('open = %s: no two nodes of a row overlap, parts stay inside the Final LN', (t) => {
    for (const row of ROWS) {
      const rl = layoutRow(row, t);
      for (const lane of ['main', 'branch']) {
        const xs = rl.nodes.filter((n) => n.lane === lane).sort((a, b) => a.x - b.x);
        for (let i = 1; i < xs.length; i++) {
          expect(xs[i].x - xs[i].width / 2, `${row} ${xs[i - 1].id}|${xs[i].id}`).toBeGreaterThan(xs[i - 1].x + xs[i - 1].width / 2);
        }
      }
      const fin = rl.nodes.find((n) => n.expandable);
      for (const p of rl.parts) {
        expect(p.x - p.width / 2).toBeGreaterThanOrEqual(fin!.x - fin!.width / 2 - 1e-9);
        expect(p.x + p.width / 2).toBeLessThanOrEqual(fin!.x + fin!.width / 2 + 1e-9);
      }
    }
  });

  it('out-of-range or NaN openings are clamped', () => {
    expect(layout(-1)).toEqual(layout(0));
    expect(layout(2)).toEqual(layout(1));
    expect(layout(Number.NaN)).toEqual(layout(0));
  });

  it('every edge polyline starts and ends on its two nodes (x within their extents)', () => {
    for (const row of ROWS) {
      const rl = layoutRow(row, 0);
      for (const { edge, points } of rl.edges) {
        const a = rl.nodes.find((n) => n.id === edge.from)!;
        const b = rl.nodes.find((n) => n.id === edge.to)!;
        const [x0] = points[0];
        const [x1] = points[points.length - 1];
        expect(x0).toBeCloseTo(a.x + a.width / 2);
        expect(x1).toBeGreaterThanOrEqual(b.x - b.width / 2 - 1e-9);
        expect(x1).toBeLessThanOrEqual(b.x + b.width / 2 + 1e-9);
      }
    }
  });

  it('the N× bracket holds exactly the layer nodes', () => {
    for (const row of ROWS) {
      const rl = layoutRow(row, 0);
      for (const n of rl.nodes) {
        const inside = n.x - n.width / 2 > rl.bracket.x0 && n.x + n.width / 2 < rl.bracket.x1;
        expect(inside, `${row}:${n.id}`).toBe(n.inLayer);
      }
    }
  });
});

// The article's own Figure 1 strings, once the prose writer's content files exist.
const content = import.meta.glob<{ default?: { figures?: Record<string, FigureText> } }>('../../web/src/content/{zh,en}.ts', { eager: true });
describe.skipIf(Object.keys(content).length === 0)('fig1 strings in the article content', () => {
  it.each(Object.entries(content))('%s has every key Figure 1 reads', (_file, mod) => {
    const anyMod = mod as Record<string, unknown>;
    const article = (anyMod.default ?? Object.values(anyMod).find((v) => v && typeof v === 'object' && 'figures' in v)) as
      | { figures?: Record<string, FigureText> }
      | undefined;
    const fig1 = article?.figures?.fig1;
    expect(fig1, 'figures.fig1').toBeDefined();
    const missing = TEXT_KEYS.filter((k) => typeof fig1?.[k] !== 'string' || fig1[k].trim() === '');
    expect(missing).toEqual([]);
  });
});
