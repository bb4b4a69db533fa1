// permalink.ts — the page's view state ⇄ the URL query string. Pure functions.
//
// Covers: parsing a query string into the settings it names (each parameter checked on its own;
// an invalid one is reported as an issue and left out, so the page falls back to the default for
// that parameter only), serialising the current view back (only what differs from the defaults,
// in a fixed order, commas left readable), page and embed links, the iframe snippet, and the
// settings carried by an engine result document (so the URL names what is actually drawn).
// Leaves out: reading/writing location and history (App.svelte), showing issues (UrlBanner).
//
// Parameters (docs/sharing.md has the user-facing table):
//   lang=zh|en  theme=light|dark  embed=fig1…fig4
//   fig1.step=1…6  fig1.ln=open|closed
//   fig2.layer=1…6|final
//   fig3.stat=paper|batch  fig3.model=full|small  fig3.seeds=1…5  fig3.batches=1…20  fig3.depths=6,8,…
//   fig4.lrs=0.001,0.003  fig4.warmups=0,300  fig4.seeds=1…4  fig4.steps=10…1000
import type { FigureId, Lang } from '../content/types';
import type { GridResult, ProbeResult } from '../engine/documents';
import { STEPS } from '../figures/fig1/path';
import { SMALL_MODEL, SMALL_PRESET, type ProbeControls } from '../figures/fig3/transform';
import { GRID_BOUNDS, checkInt, checkLrs, checkWarmups, parseList } from '../figures/fig4/transform';

export type Theme = 'light' | 'dark';
export type Stat = 'W2_per_layer' | 'W2_per_batch';
export const FIGURES: readonly FigureId[] = ['fig1', 'fig2', 'fig3', 'fig4'];
/** Layers drawn by Figure 2 (the probe's model has 6 layers, in the full and the small config). */
export const FIG2_LAYERS = 6;
export const FIG1_STEPS = STEPS.length;
/** A parameter value longer than this is refused before it is looked at. */
export const MAX_VALUE_LENGTH = 200;

/** Settings of a Figure 4 run as the URL names them (seeds = how many, 0…n−1). */
export interface GridSettings {
  lrs: number[];
  warmups: number[];
  seeds: number;
  steps: number;
}
export type ProbeSettings = ProbeControls;

/** What a link asks for; absent keys mean "the default". */
export interface LinkState {
  lang?: Lang;
  theme?: Theme;
  embed?: FigureId;
  fig1Step?: number;
  fig1Ln?: boolean;
  fig2Layer?: number | 'final';
  fig3Stat?: Stat;
  probe?: Partial<ProbeSettings>;
  grid?: Partial<GridSettings>;
}

/** The complete current view, as the page holds it. */
export interface ViewState {
  lang: Lang;
  theme?: Theme;
  embed?: FigureId;
  fig1Step: number;
  fig1Ln: boolean;
  /** null = the default selection (the top layer) */
  fig2Layer: number | 'final' | null;
  fig3Stat: Stat;
  /** settings of the drawn (or running) probe; null = unknown / default */
  probe: ProbeSettings | null;
  grid: GridSettings | null;
}

export interface Defaults {
  probe: ProbeSettings;
  grid: GridSettings;
}

/** The precomputed results' settings (public/data/*.json); used until those files arrive. */
export const DEFAULTS: Defaults = {
  probe: { seeds: 5, batches: 20, depths: [6, 8, 10, 12, 14], small: false },
  grid: { lrs: [0.001, 0.003], warmups: [0, 300], seeds: 2, steps: 500 },
};

export type IssueKind = 'invalid' | 'unknown' | 'duplicate';
/** One parameter of the link that was not used. `reason` is a text key (see UrlBanner). */
export interface LinkIssue {
  param: string;
  /** the raw value, for display (the banner shortens and escapes it) */
  value: string;
  kind: IssueKind;
  /** text key: 'url.…' in the page strings, or 'figN:err.…' in a figure's strings */
  reason: string;
}

// ---- parsing ----------------------------------------------------------------------------------
type Parser = (v: string, st: LinkState) => boolean;

const enumOf =
  <T extends string>(values: readonly T[], set: (st: LinkState, v: T) => void): Parser =>
  (v, st) => {
    if (!(values as readonly string[]).includes(v)) return false;
    set(st, v as T);
    return true;
  };

const probeField =
  <K extends keyof ProbeSettings>(key: K, parse: (v: string) => ProbeSettings[K] | null): Parser =>
  (v, st) => {
    const x = parse(v);
    if (x == null) return false;
    st.probe = { ...st.probe, [key]: x };
    return true;
  };
const gridField =
  <K extends keyof GridSettings>(key: K, parse: (v: string) => GridSettings[K] | null): Parser =>
  (v, st) => {
    const x = parse(v);
    if (x == null) return false;
    st.grid = { ...st.grid, [key]: x };
    return true;
  };

/** 1–16 depths, integers in [1, 48], deduplicated and ascending. */
export function checkDepths(s: string): number[] | null {
  const xs = parseList(s);
  if (!xs || xs.length > 16 || xs.some((d) => !Number.isInteger(d) || d < 1 || d > 48)) return null;
  return [...new Set(xs)].sort((a, b) => a - b);
}

/** Every parameter: its parser and the text key that says what a valid value is. */
const PARAMS: Record<string, { parse: Parser; reason: string }> = {
  lang: { parse: enumOf(['zh', 'en'] as const, (st, v) => (st.lang = v)), reason: 'url.lang' },
  theme: { parse: enumOf(['light', 'dark'] as const, (st, v) => (st.theme = v)), reason: 'url.theme' },
  embed: { parse: enumOf(FIGURES, (st, v) => (st.embed = v)), reason: 'url.embed' },
  'fig1.step': {
    parse: (v, st) => {
      const x = checkInt(v, 1, FIG1_STEPS);
      if (x == null) return false;
      st.fig1Step = x;
      return true;
    },
    reason: 'url.fig1.step',
  },
  'fig1.ln': { parse: enumOf(['open', 'closed'] as const, (st, v) => (st.fig1Ln = v === 'open')), reason: 'url.fig1.ln' },
  'fig2.layer': {
    parse: (v, st) => {
      if (v === 'final') return (st.fig2Layer = 'final'), true;
      const x = checkInt(v, 1, FIG2_LAYERS);
      if (x == null) return false;
      st.fig2Layer = x;
      return true;
    },
    reason: 'url.fig2.layer',
  },
  'fig3.stat': {
    parse: enumOf(['paper', 'batch'] as const, (st, v) => (st.fig3Stat = v === 'batch' ? 'W2_per_batch' : 'W2_per_layer')),
    reason: 'url.fig3.stat',
  },
  'fig3.model': { parse: probeField('small', (v) => (v === 'small' ? true : v === 'full' ? false : null)), reason: 'url.fig3.model' },
  'fig3.seeds': { parse: probeField('seeds', (v) => checkInt(v, 1, 5)), reason: 'fig3:err.seeds' },
  'fig3.batches': { parse: probeField('batches', (v) => checkInt(v, 1, 20)), reason: 'fig3:err.batches' },
  'fig3.depths': { parse: probeField('depths', checkDepths), reason: 'url.fig3.depths' },
  'fig4.lrs': { parse: gridField('lrs', checkLrs), reason: 'fig4:err.lrs' },
  'fig4.warmups': { parse: gridField('warmups', checkWarmups), reason: 'fig4:err.warmups' },
  'fig4.seeds': { parse: gridField('seeds', (v) => checkInt(v, GRID_BOUNDS.seeds.min, GRID_BOUNDS.seeds.max)), reason: 'fig4:err.seeds' },
  'fig4.steps': { parse: gridField('steps', (v) => checkInt(v, GRID_BOUNDS.steps.min, GRID_BOUNDS.steps.max)), reason: 'fig4:err.steps' },
};
export const PARAM_NAMES: readonly string[] = Object.keys(PARAMS);

/** Names in our namespace that are not parameters are reported; anything else (utm_…) is left alone. */
const OURS = /^(fig|lnx|embed|lang|theme)/i;

/**
 * Parse a query string ("?a=b&…" or "a=b&…"). Each known parameter is checked on its own; an
 * invalid, repeated or unknown-but-ours parameter becomes an issue and is left out of the state.
 */
export function parseLink(search: string): { state: LinkState; issues: LinkIssue[] } {
  const state: LinkState = {};
  const issues: LinkIssue[] = [];
  let q: URLSearchParams;
  try {
    q = new URLSearchParams(search);
  } catch {
    return { state, issues };
  }
  const seen = new Map<string, string[]>();
  for (const [k, v] of q) seen.set(k, [...(seen.get(k) ?? []), v]);
  for (const [name, values] of seen) {
    const spec = PARAMS[name];
    if (!spec) {
      if (OURS.test(name)) issues.push({ param: name, value: values[0], kind: 'unknown', reason: 'url.unknown' });
      continue;
    }
    if (values.length > 1) {
      issues.push({ param: name, value: values.join(' | '), kind: 'duplicate', reason: 'url.duplicate' });
      continue;
    }
    const v = values[0];
    if (v.length > MAX_VALUE_LENGTH || !spec.parse(v.trim(), state))
      issues.push({ param: name, value: v, kind: 'invalid', reason: v.length > MAX_VALUE_LENGTH ? 'url.tooLong' : spec.reason });
  }
  return { state, issues };
}

// ---- settings ---------------------------------------------------------------------------------
const sameList = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export const sameProbe = (a: ProbeSettings, b: ProbeSettings): boolean =>
  a.seeds === b.seeds && a.batches === b.batches && a.small === b.small && sameList(a.depths, b.depths);
export const sameGrid = (a: GridSettings, b: GridSettings): boolean =>
  a.seeds === b.seeds && a.steps === b.steps && sameList(a.lrs, b.lrs) && sameList(a.warmups, b.warmups);

/** The base a link's probe settings are read against: the small preset or the defaults. */
const probeBase = (small: boolean | undefined, d: Defaults): ProbeSettings =>
  small ? { ...SMALL_PRESET, depths: [...SMALL_PRESET.depths] } : { ...d.probe, depths: [...d.probe.depths] };

/** A link's partial probe settings completed from the base (fig3.model=small alone = the small preset). */
export function resolveProbe(p: Partial<ProbeSettings> | undefined, d: Defaults = DEFAULTS): ProbeSettings {
  return { ...probeBase(p?.small, d), ...p, small: p?.small ?? false };
}
export function resolveGrid(p: Partial<GridSettings> | undefined, d: Defaults = DEFAULTS): GridSettings {
  return { ...d.grid, ...p };
}

/** The settings that produced a probe document (small = the SMALL_MODEL shape). */
export function probeSettingsOf(P: ProbeResult | null): ProbeSettings | null {
  const c = P?.config;
  if (!c) return null;
  const small = (Object.keys(SMALL_MODEL) as (keyof typeof SMALL_MODEL)[]).every((k) => c[k] === SMALL_MODEL[k]);
  return { seeds: c.seeds, batches: c.batches, depths: [...(c.depths ?? [])], small };
}
export function gridSettingsOf(G: GridResult | null): GridSettings | null {
  const c = G?.config;
  if (!c) return null;
  return { lrs: [...(c.lrs ?? [])], warmups: [...(c.warmups ?? [])], seeds: c.seeds?.length ?? 0, steps: c.steps };
}

/** Settings → the text fields of Figure 4's controls. */
export const gridInputsOf = (g: GridSettings) => ({
  lrs: g.lrs.join(', '),
  warmups: g.warmups.join(', '),
  seeds: String(g.seeds),
  steps: String(g.steps),
});

// ---- serialising ------------------------------------------------------------------------------
const enc = (v: string) => encodeURIComponent(v).replace(/%2C/gi, ',');
const num = (x: number) => String(x);

/** Parameters of one figure's state that differ from the defaults, in a fixed order. */
function figureParams(fig: FigureId, v: ViewState, d: Defaults): [string, string][] {
  const out: [string, string][] = [];
  const probeParams = () => {
    if (!v.probe) return;
    const base = probeBase(v.probe.small, d);
    if (v.probe.small) out.push(['fig3.model', 'small']);
    if (v.probe.seeds !== base.seeds) out.push(['fig3.seeds', num(v.probe.seeds)]);
    if (v.probe.batches !== base.batches) out.push(['fig3.batches', num(v.probe.batches)]);
    if (!sameList(v.probe.depths, base.depths)) out.push(['fig3.depths', v.probe.depths.join(',')]);
  };
  switch (fig) {
    case 'fig1':
      if (v.fig1Step !== 1) out.push(['fig1.step', num(v.fig1Step)]);
      if (v.fig1Ln) out.push(['fig1.ln', 'open']);
      break;
    case 'fig2':
      if (v.fig2Layer != null && v.fig2Layer !== FIG2_LAYERS) out.push(['fig2.layer', String(v.fig2Layer)]);
      break;
    case 'fig3':
      if (v.fig3Stat === 'W2_per_batch') out.push(['fig3.stat', 'batch']);
      probeParams();
      break;
    case 'fig4':
      if (!v.grid) break;
      if (!sameList(v.grid.lrs, d.grid.lrs)) out.push(['fig4.lrs', v.grid.lrs.map(num).join(',')]);
      if (!sameList(v.grid.warmups, d.grid.warmups)) out.push(['fig4.warmups', v.grid.warmups.map(num).join(',')]);
      if (v.grid.seeds !== d.grid.seeds) out.push(['fig4.seeds', num(v.grid.seeds)]);
      if (v.grid.steps !== d.grid.steps) out.push(['fig4.steps', num(v.grid.steps)]);
      break;
  }
  return out;
}

export interface SerializeOptions {
  /** only this figure's parameters (and, for Figure 2, the probe settings it draws) */
  only?: FigureId;
  /** write theme= (embeds) */
  theme?: boolean;
  /** write embed= */
  embed?: boolean;
}

/** The view as a query string without "?": lang first, then figure parameters that differ from the defaults. */
export function serializeView(v: ViewState, d: Defaults = DEFAULTS, o: SerializeOptions = {}): string {
  const out: [string, string][] = [];
  if (o.embed && v.embed) out.push(['embed', v.embed]);
  out.push(['lang', v.lang]);
  if (o.theme && v.theme) out.push(['theme', v.theme]);
  const figs: FigureId[] = o.only ? [o.only] : [...FIGURES];
  for (const f of figs) out.push(...figureParams(f, v, d));
  // Figure 2 draws the probe that Figure 3's settings choose: an embed of Figure 2 carries them.
  if (o.only === 'fig2') out.push(...figureParams('fig3', { ...v, fig3Stat: 'W2_per_layer' }, d));
  return out.map(([k, val]) => `${k}=${enc(val)}`).join('&');
}

/** The LinkState a serialised view parses back to (for tests and for comparing links). */
export function linkStateOf(v: ViewState, d: Defaults = DEFAULTS): LinkState {
  return parseLink(serializeView(v, d, { theme: true, embed: true })).state;
}

/** Query parameters that are not ours (utm_…) survive a rewrite of the address. */
export function foreignParams(search: string): [string, string][] {
  const out: [string, string][] = [];
  for (const [k, v] of new URLSearchParams(search)) if (!PARAMS[k] && !OURS.test(k)) out.push([k, v]);
  return out;
}

/** The full address of the page showing view `v`, scrolled to `hash` (e.g. "fig3"). */
export function pageLink(pageUrl: string, v: ViewState, d: Defaults = DEFAULTS, hash = '', extra: [string, string][] = []): string {
  const base = pageUrl.replace(/[?#].*$/, '');
  const q = [serializeView(v, d), ...extra.map(([k, val]) => `${encodeURIComponent(k)}=${enc(val)}`)].filter(Boolean).join('&');
  return `${base}${q ? `?${q}` : ''}${hash ? `#${hash}` : ''}`;
}

/** The address of one figure alone (no page chrome), in `theme`. */
export function embedLink(pageUrl: string, fig: FigureId, v: ViewState, theme: Theme, d: Defaults = DEFAULTS): string {
  const base = pageUrl.replace(/[?#].*$/, '');
  return `${base}?${serializeView({ ...v, embed: fig, theme }, d, { only: fig, theme: true, embed: true })}`;
}

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The copy-paste HTML for a blog post: the iframe and the resizer script (public/embed.js). */
export function embedSnippet(src: string, title: string, height: number, scriptSrc: string): string {
  const h = Number.isFinite(height) && height > 0 ? Math.round(height) : 480;
  return (
    `<iframe src="${attr(src)}" title="${attr(title)}" data-lnx-embed loading="lazy" ` +
    `style="width:100%;height:${h}px;border:0"></iframe>\n` +
    `<script async src="${attr(scriptSrc)}"></script>`
  );
}

/** A raw parameter value made safe and short for display (control characters replaced, ≤ 40 chars). */
export function displayValue(v: string, max = 40): string {
  // eslint-disable-next-line no-control-regex
  const clean = v.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '\ufffd');
  const chars = [...clean];
  return chars.length > max ? chars.slice(0, max).join('') + '…' : clean;
}
