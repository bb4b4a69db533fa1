// path.ts — Figure 1 as data: the two one-layer diagrams (Post-LN above, Pre-LN below), their forward
// edges, the backward path from the loss to the last layer's W², and a pure layout in grid units.
//
// Covers: node ids, roles and labels; where each node sits (column `col`, lane `branch`/`main`);
// which nodes sit inside the N× repeat bracket; the ordered backward steps, each naming the node per
// row and the text key of the factor the gradient picks up there; the horizontal reflow when the
// Pre-LN Final LN is opened into its four parts (−μ, ÷σ, ×γ, +β).
// Leaves out: pixels, colours and text (the component scales grid units to pixels, colours come from
// `var(--role-…)`, strings come from the article's `FigureText`).
//
// Grid: one column ≈ one box plus its gap. Lanes: `main` is the residual stream, `branch` is the lane
// above it where the sub-layers sit. Edges point forward (from → to); the backward path walks them
// in reverse.

import type { Role } from '../../lib/palette';

export type RowId = 'post' | 'pre';
export const ROWS: readonly RowId[] = ['post', 'pre'];
export type Lane = 'main' | 'branch';
/** `box`: a labelled rectangle; `add`: the residual ⊕; `io`: the bare input x. */
export type Shape = 'box' | 'add' | 'io';

export interface FigNode {
  /** Unique within its row; the same id in both rows means "the same place in the layer". */
  id: string;
  row: RowId;
  /** Column of the node's centre, in grid units. */
  col: number;
  lane: Lane;
  role: Role;
  shape: Shape;
  /** Width in grid units (for `add`, the diameter). */
  w: number;
  /** Language-neutral label (symbols); the component may override it with `text['node_' + id]`. */
  label: string;
  /** Shorter label for phone widths; defaults to `label`. */
  short?: string;
  /** Inside the N× bracket (one Transformer layer, repeated L times). */
  inLayer: boolean;
  /** Only the Pre-LN Final LN: clicking it opens its four parts. */
  expandable?: boolean;
}

/** How a node is drawn during the backward walk: the gradient is here, its row waits, passed, or not yet. */
export type NodeState = 'idle' | 'visited' | 'current' | 'waiting';

export interface FigEdge {
  row: RowId;
  from: string;
  to: string;
  /** The identity path of a residual connection (drawn as the thick residual stream). */
  residual?: boolean;
}

/** The text keys of the per-step factors, in the order the steps use them. */
export const FACTOR_KEYS = ['f_loss', 'f_logits', 'f_finalLn', 'f_ln2', 'f_residual', 'f_w2'] as const;
export type FactorKey = (typeof FACTOR_KEYS)[number];

export interface Step {
  /** Node the Post-LN row's gradient reaches at this step, or null: this row does not move. */
  post: string | null;
  pre: string | null;
  /** Key into `FigureText` of the sentence that names the factor picked up at this step. */
  factorKey: FactorKey;
}

/** Every `FigureText` key the figure reads (besides `title` and `caption`, which every figure has).
 *  Missing keys render as the key name. */
export const UI_KEYS = [
  'captionStatic', // the caption of the page built without JavaScript (its arrows and the Final LN do nothing there)
  'stepLabel', // "Step {i} of {n}"
  'stepPrev',
  'stepNext',
  'stepReset',
  'postRow',
  'preRow',
  'repeat', // the bracket's label, e.g. "N×"
  'finalLn', // label of the Pre-LN Final LN box
  'expand', // accessible name of the Final LN button when closed / open
  'collapse',
  'tableView', // summary of the table alternative
] as const;
export const TEXT_KEYS: readonly string[] = [...UI_KEYS, ...FACTOR_KEYS];

// ---------------------------------------------------------------------------------------------
// Nodes. Columns are chosen so the two rows line up at ⊕₁ (3), W² (7.1), ⊕₂ (8), the output (11)
// and the loss (12.1): what differs between the rows is where the LN boxes sit.

const BOX = 0.82;
const ADD = 0.44;
const IO = 0.5;
const FINAL_LN_W = 1.4;

type NodeSpec = Omit<FigNode, 'row' | 'w'> & { w?: number };
const widthOf = (s: NodeSpec): number => s.w ?? (s.shape === 'add' ? ADD : s.shape === 'io' ? IO : BOX);

// The nodes both rows draw alike: the input, the residual adds, the FFN (W¹, ReLU, W²), the output
// and the loss.
const SAME = {
  x: { id: 'x', col: 0, lane: 'main', role: 'in', shape: 'io', label: 'x', inLayer: false },
  add1: { id: 'add1', col: 3, lane: 'main', role: 'in', shape: 'add', label: '⊕', inLayer: true },
  w1: { id: 'w1', col: 5.1, lane: 'branch', role: 'op', shape: 'box', label: 'W¹', inLayer: true },
  relu: { id: 'relu', col: 6.1, lane: 'branch', role: 'op', shape: 'box', label: 'ReLU', short: 'ReLU', inLayer: true },
  w2: { id: 'w2', col: 7.1, lane: 'branch', role: 'param', shape: 'box', label: 'W²', inLayer: true },
  add2: { id: 'add2', col: 8, lane: 'main', role: 'in', shape: 'add', label: '⊕', inLayer: true },
  out: { id: 'out', col: 11, lane: 'main', role: 'op', shape: 'box', label: '·Eᵀ', inLayer: false },
  loss: { id: 'loss', col: 12.1, lane: 'main', role: 'loss', shape: 'box', label: 'ℒ', inLayer: false },
} satisfies Record<string, NodeSpec>;

/** The feed-forward branch and its add, the same in both rows. */
const FFN: NodeSpec[] = [SAME.w1, SAME.relu, SAME.w2, SAME.add2];

const POST: NodeSpec[] = [
  SAME.x,
  { id: 'attn', col: 1.6, lane: 'branch', role: 'op', shape: 'box', label: 'Attn', short: 'Att', inLayer: true },
  SAME.add1,
  { id: 'ln1', col: 4, lane: 'main', role: 'norm', shape: 'box', label: 'LN₁', inLayer: true },
  ...FFN,
  { id: 'ln2', col: 9, lane: 'main', role: 'norm', shape: 'box', label: 'LN₂', inLayer: true },
  SAME.out,
  SAME.loss,
];

const PRE: NodeSpec[] = [
  SAME.x,
  { id: 'ln1', col: 1.2, lane: 'branch', role: 'norm', shape: 'box', label: 'LN₁', inLayer: true },
  { id: 'attn', col: 2.2, lane: 'branch', role: 'op', shape: 'box', label: 'Attn', short: 'Att', inLayer: true },
  SAME.add1,
  { id: 'ln2', col: 4.1, lane: 'branch', role: 'norm', shape: 'box', label: 'LN₂', inLayer: true },
  ...FFN,
  {
    id: 'finalLn',
    col: 9.45,
    lane: 'main',
    role: 'norm',
    shape: 'box',
    w: FINAL_LN_W,
    label: 'Final LN',
    short: 'LN',
    inLayer: false,
    expandable: true,
  },
  SAME.out,
  SAME.loss,
];

const build = (row: RowId, specs: NodeSpec[]): FigNode[] => specs.map((s) => ({ ...s, row, w: widthOf(s) }));

export const NODES: Record<RowId, readonly FigNode[]> = { post: build('post', POST), pre: build('pre', PRE) };

/** A row's edges, written `from→to` (space-separated); `from⇒to` is the identity path of a residual connection. */
const edgesOf = (row: RowId, pairs: string): FigEdge[] =>
  pairs.split(' ').map((p) => {
    const [from, to] = p.split(/→|⇒/);
    return p.includes('⇒') ? { row, from, to, residual: true } : { row, from, to };
  });

// Forward edges. Post-LN: x ← LN(x + F(x)) after each add. Pre-LN: x ← x + F(LN(x)), then a Final LN.
export const EDGES: readonly FigEdge[] = [
  ...edgesOf('post', 'x⇒add1 x→attn attn→add1 add1⇒ln1 ln1⇒add2 ln1→w1 w1→relu relu→w2 w2→add2 add2⇒ln2 ln2⇒out out→loss'),
  ...edgesOf('pre', 'x⇒add1 x→ln1 ln1→attn attn→add1 add1⇒add2 add1→ln2 ln2→w1 w1→relu relu→w2 w2→add2 add2⇒finalLn finalLn⇒out out→loss'),
];

/**
 * The backward path, loss first. Both rows move in lockstep; where only one row has the node
 * (Pre-LN's Final LN, Post-LN's LN₂) that row moves alone and the other waits (null).
 */
export const STEPS: readonly Step[] = [
  { post: 'loss', pre: 'loss', factorKey: 'f_loss' }, // ∂ℒ/∂z = softmax(z) − onehot(y)
  { post: 'out', pre: 'out', factorKey: 'f_logits' }, // z = x·Eᵀ: δ ← δ_z·E
  { post: null, pre: 'finalLn', factorKey: 'f_finalLn' }, // × √d/‖x_L‖ (Lemma 3), shrinks with L
  { post: 'ln2', pre: null, factorKey: 'f_ln2' }, // × √d/‖x⁵‖ ≈ √(2/3), fixed
  { post: 'add2', pre: 'add2', factorKey: 'f_residual' }, // identity branch + FFN branch
  { post: 'w2', pre: 'w2', factorKey: 'f_w2' }, // ∂ℒ/∂W² = δ·ReLU(W¹x)ᵀ, Theorem 1's three factors
];

// ---------------------------------------------------------------------------------------------
// Lookups

export function nodeById(row: RowId, id: string): FigNode | undefined {
  return NODES[row].find((n) => n.id === id);
}

export function edgeBetween(row: RowId, from: string, to: string): FigEdge | undefined {
  return EDGES.find((e) => e.row === row && e.from === from && e.to === to);
}

/** Clamp a step number to 1…STEPS.length (non-numbers → 1). */
export function clampStep(step: number | undefined | null, n = STEPS.length): number {
  if (typeof step !== 'number' || !Number.isFinite(step)) return 1;
  return Math.min(n, Math.max(1, Math.round(step)));
}

/** The drawing state of node `id` in a row at this point of the walk. */
export function nodeState(rs: RowState, id: string): NodeState {
  if (rs.current === id) return rs.moved ? 'current' : 'waiting';
  return rs.visited.includes(id) ? 'visited' : 'idle';
}

export interface RowState {
  /** The node the row's gradient has reached (the most recent non-null node up to this step). */
  current: string | null;
  /** True when this step moved the row (its entry is not null). */
  moved: boolean;
  /** Nodes reached before this step, loss first. */
  visited: string[];
  /** Forward edges walked backwards so far, oldest first; the last is the one taken this step if `moved`. */
  edges: FigEdge[];
}

/** Where each row is at step `step` (1-based): the walk up to and including that step. */
export function rowState(row: RowId, step: number, steps: readonly Step[] = STEPS): RowState {
  const k = clampStep(step, steps.length);
  const path: string[] = [];
  const edges: FigEdge[] = [];
  for (let i = 0; i < k; i++) {
    const id = steps[i][row];
    if (id === null) continue;
    const prev = path[path.length - 1];
    if (prev !== undefined) {
      const e = edgeBetween(row, id, prev); // forward edge id → prev, walked backwards
      if (e) edges.push(e);
    }
    path.push(id);
  }
  const moved = steps[k - 1][row] !== null;
  return { current: path[path.length - 1] ?? null, moved, visited: path.slice(0, -1), edges };
}

// ---------------------------------------------------------------------------------------------
// Layout, in grid units. `open` ∈ [0, 1] is how far the Final LN is opened (tweened by the component).

/** The Final LN's four parts when open: subtract the mean, divide by σ, scale, shift. */
export const FINAL_LN_PARTS = [
  { id: 'mu', label: '−μ' },
  { id: 'sigma', label: '÷σ' },
  { id: 'gamma', label: '×γ' },
  { id: 'beta', label: '+β' },
] as const;
const PART_W = 0.62;
const PART_GAP = 0.12;
const PART_PAD = 0.14;
export const FINAL_LN_OPEN_W = FINAL_LN_PARTS.length * PART_W + (FINAL_LN_PARTS.length - 1) * PART_GAP + 2 * PART_PAD;

export interface Placed extends FigNode {
  /** Centre x and width after the reflow. */
  x: number;
  width: number;
}
export interface PlacedPart {
  id: string;
  label: string;
  x: number;
  width: number;
  /** 0…1, for fading the parts in. */
  opacity: number;
}
/**
 * A polyline in grid units: x in columns, y in lanes (branch = 0, main = 1). Horizontal ends sit on
 * box edges; a vertical last segment ends at the target's centre and is trimmed when drawn.
 */
export type Pt = readonly [number, number];
export interface RowLayout {
  nodes: Placed[];
  edges: { edge: FigEdge; points: Pt[] }[];
  /** Horizontal extent of the N× bracket. */
  bracket: { x0: number; x1: number };
  /** Where the branch edges leave the residual stream (junction dots), x in columns. */
  junctions: number[];
  parts: PlacedPart[];
  x0: number;
  x1: number;
}

const lerp = (a: number, b: number, t: number): number => a + (b - a) * t;
const clamp01 = (t: number): number => (Number.isFinite(t) ? Math.min(1, Math.max(0, t)) : 0);

export function layoutRow(row: RowId, open = 0): RowLayout {
  const t = row === 'pre' ? clamp01(open) : 0;
  const fin = NODES[row].find((n) => n.expandable);
  const extra = fin ? (FINAL_LN_OPEN_W - fin.w) * t : 0;

  const nodes: Placed[] = NODES[row].map((n) => {
    if (fin && n.id === fin.id) {
      const width = n.w + extra;
      return { ...n, x: n.col - n.w / 2 + width / 2, width };
    }
    return { ...n, x: fin && n.col > fin.col ? n.col + extra : n.col, width: n.w };
  });
  const at = (id: string): Placed => nodes.find((n) => n.id === id)!;
  const left = (n: Placed) => n.x - n.width / 2;
  const right = (n: Placed) => n.x + n.width / 2;
  const laneY = (n: Placed) => (n.lane === 'branch' ? 0 : 1);

  const junctions: number[] = [];
  const edges = EDGES.filter((e) => e.row === row).map((edge) => {
    const a = at(edge.from);
    const b = at(edge.to);
    let points: Pt[];
    if (a.lane === b.lane) {
      points = [
        [right(a), laneY(a)],
        [left(b), laneY(b)],
      ];
    } else if (a.lane === 'main') {
      // up: along the stream, then up into the branch box's left side
      const gap = left(b) - right(a);
      const xs = gap < 0.5 ? right(a) + gap / 2 : left(b) - 0.25;
      junctions.push(xs);
      points = [
        [right(a), 1],
        [xs, 1],
        [xs, 0],
        [left(b), 0],
      ];
    } else {
      // down: along the branch, then down to the ⊕ (the drawing trims the last segment to its outline)
      points = [
        [right(a), 0],
        [b.x, 0],
        [b.x, 1],
      ];
    }
    return { edge, points };
  });

  const layer = nodes.filter((n) => n.inLayer);
  const xNode = nodes.find((n) => n.shape === 'io');
  const bracket = {
    x0: xNode ? right(xNode) + 0.12 : Math.min(...layer.map(left)) - 0.2,
    x1: Math.max(...layer.map(right)) + 0.2,
  };

  const parts: PlacedPart[] = [];
  if (fin && t > 0) {
    const f = at(fin.id);
    const inner0 = left(f) + PART_PAD * t;
    FINAL_LN_PARTS.forEach((p, i) => {
      const openX = inner0 + PART_W / 2 + i * (PART_W + PART_GAP);
      // parts slide out from the box centre while it widens
      parts.push({ id: p.id, label: p.label, x: lerp(f.x, openX, t), width: PART_W * (0.4 + 0.6 * t), opacity: t });
    });
  }

  return {
    nodes,
    edges,
    bracket,
    junctions,
    parts,
    x0: Math.min(...nodes.map(left)),
    x1: Math.max(...nodes.map(right)),
  };
}

/** Both rows; `x1` is the wider row's right edge (the viewBox width follows it). */
export function layout(open = 0): { post: RowLayout; pre: RowLayout; x0: number; x1: number } {
  const post = layoutRow('post', 0);
  const pre = layoutRow('pre', open);
  return { post, pre, x0: Math.min(post.x0, pre.x0), x1: Math.max(post.x1, pre.x1) };
}
