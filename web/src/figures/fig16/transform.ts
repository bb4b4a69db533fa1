// fig16/transform.ts — init-profile documents → the composer's four panels at init. Pure.
// Each panel has one series per placement: the reference document's (Post-LN, Pre-LN, computed once)
// and the composed placement's (its own document, recomputed on every change), in that order:
//   stream    ‖x_l‖²/d per layer l (as Figure 2), with Lemma 2's band (1 + l/2 … 1 + 3l/2)
//   w2        the W² gradient per layer (Theorem 1's statistic, the paper's ‖mean ∂ℒ/∂W²‖; as Figure 3a)
//   last      the last layer's W² gradient against depth L (as Figure 3c), with 1/√L from Pre-LN's
//             shallowest depth (Theorem 1's scaling)
//   sens      the output's mean squared change under a small random perturbation against L (as the
//             output-sensitivity figure), log–log
// A panel's y extent holds every series; a placement a document lacks is left out.
import type { MeanStdArr, ProbeStats } from '../../engine/documents';
import type { InitProfileDoc } from '../../lib/composer';
import { yExtent, type Pt } from '../fig3/transform';

export interface NamedSeries {
  name: string;
  points: Pt[];
}
export interface ComposerPanel {
  series: NamedSeries[];
  /** Lemma 2's band (stream) or nothing */
  band: { x: number; lo: number; hi: number }[];
  /** Theorem 1's 1/√L from Pre-LN's shallowest depth (last) or nothing */
  guide: Pt[];
  ticks: number[];
  xDomain: [number, number];
  yDomain: [number, number];
}
export interface ComposerPanels {
  stream: ComposerPanel;
  w2: ComposerPanel;
  last: ComposerPanel;
  sens: ComposerPanel;
}

const meanPoints = (s: MeanStdArr | undefined): Pt[] =>
  (s?.mean ?? []).map((y, i) => {
    const sd = s?.std?.[i];
    return { x: i + 1, y, ...(sd != null && Number.isFinite(sd) ? { std: sd, lo: y - sd, hi: y + sd } : {}) };
  });

/** Every placement of the documents, the reference's first; each with its probe stats and sensitivity. */
function placementsOf(docs: readonly (InitProfileDoc | null)[]) {
  return docs.flatMap((d) =>
    d?.probe?.placements
      ? Object.entries(d.probe.placements as Record<string, ProbeStats>).map(([name, stats]) => ({ name, stats, sens: d.sensitivity?.[name] }))
      : [],
  );
}

function layerPanel(series: NamedSeries[], band: ComposerPanel['band'] = []): ComposerPanel {
  const L = Math.max(0, ...series.map((s) => s.points.length), band.length);
  return {
    series,
    band,
    guide: [],
    ticks: Array.from({ length: L }, (_, i) => i + 1),
    xDomain: [0.5, Math.max(1, L) + 0.5],
    yDomain: yExtent([...series.flatMap((s) => s.points), ...band.map((b) => ({ x: b.x, y: b.hi }))]),
  };
}

const finitePositive = (y: number) => Number.isFinite(y) && y > 0;

/** The four panels of the reference and the composed documents (either may be null). */
export function composerPanels(reference: InitProfileDoc | null, composed: InitProfileDoc | null): ComposerPanels {
  const all = placementsOf([reference, composed]);
  const b = all[0]?.stats.lemma2_band;
  const band = (b?.lo ?? []).map((lo, i) => ({ x: i + 1, lo, hi: b!.hi[i] }));
  const stream = layerPanel(
    all.map((p) => ({ name: p.name, points: meanPoints(p.stats.norm2_over_d) })),
    band,
  );
  const w2 = layerPanel(all.map((p) => ({ name: p.name, points: meanPoints(p.stats.W2_per_layer) })));

  const lastSeries = all.map((p) => ({
    name: p.name,
    points: Object.entries(p.stats.lastW2_vs_L ?? {})
      .map(([L, v]) => ({ x: Number(L), y: v.W2_per_layer?.mean ?? NaN }))
      .filter((q) => Number.isFinite(q.y))
      .sort((a, c) => a.x - c.x),
  }));
  const depths = [...new Set(lastSeries.flatMap((s) => s.points.map((q) => q.x)))].sort((a, c) => a - c);
  const pre = lastSeries.find((s) => s.name === 'pre')?.points[0];
  const guide = pre ? depths.map((L) => ({ x: L, y: pre.y * Math.sqrt(pre.x / L) })) : [];
  const last: ComposerPanel = {
    series: lastSeries,
    band: [],
    guide,
    ticks: depths,
    xDomain: depths.length ? [depths[0] - 1, depths[depths.length - 1] + 1] : [0, 1],
    yDomain: yExtent([...lastSeries.flatMap((s) => s.points), ...guide]),
  };

  const sensSeries = all.map((p) => ({
    name: p.name,
    points: (p.sens?.depths ?? []).map((d) => ({ x: d.layers, y: d.dlogits2?.mean ?? NaN })).filter((q) => finitePositive(q.y)),
  }));
  const sDepths = [...new Set(sensSeries.flatMap((s) => s.points.map((q) => q.x)))].sort((a, c) => a - c);
  const ys = sensSeries.flatMap((s) => s.points.map((q) => q.y));
  const sens: ComposerPanel = {
    series: sensSeries,
    band: [],
    guide: [],
    ticks: sDepths,
    xDomain: sDepths.length ? [sDepths[0] / 1.25, sDepths[sDepths.length - 1] * 1.25] : [1, 2],
    yDomain: ys.length ? [Math.min(...ys) / 1.4, Math.max(...ys) * 1.4] : [1e-4, 1e-2],
  };
  return { stream, w2, last, sens };
}

/** The composed placement's headline: its last-layer gradient's change from the shallowest to the
 *  deepest depth (ratio), and its output sensitivity's log–log slope; null where not measured. */
export function composedHeadline(composed: InitProfileDoc | null, name: string): { lastRatio: number | null; slope: number | null } {
  const s = composed?.probe?.placements?.[name as keyof typeof composed.probe.placements] as ProbeStats | undefined;
  const pts = Object.entries(s?.lastW2_vs_L ?? {})
    .map(([L, v]) => ({ x: Number(L), y: v.W2_per_layer?.mean ?? NaN }))
    .sort((a, c) => a.x - c.x);
  const first = pts[0]?.y,
    lastY = pts[pts.length - 1]?.y;
  return {
    lastRatio: pts.length > 1 && finitePositive(first) && Number.isFinite(lastY) ? lastY / first : null,
    slope: composed?.sensitivity?.[name]?.slope ?? null,
  };
}
