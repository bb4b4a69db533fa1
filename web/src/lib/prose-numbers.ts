// prose-numbers.ts — the numbers the prose quotes, computed from the same result objects the figures draw.
//
// proseNumbers(probe, grid, lang, experiments) → { key: display string } for every key in PROSE_NUMBERS. The
// article writes {{key}} (a "binding" in the inline mini-language, content/types.ts); inline.ts looks
// the key up in this record. When a live recompute replaces the precomputed result, the page
// recomputes this record, so prose and figures never disagree.
// A key that cannot be computed (a missing depth, a diverged run, no data yet) shows '—'. A caption
// whose clause would hold a number a live run may not have (a quick setting without a warm-up arm)
// binds a phrase instead that says what was run (`exp.*.arms`), never a '—' inside a sentence.
// Keys are documented next to each entry; where the article uses each one is listed in
// web/src/content/prose-numbers.md.
import type { Lang } from '../content/types';
import {
  gridTextLang,
  meanFirstBelow,
  meanLeavesPlateauAt,
  probeDepths,
  seedMeanAt,
  withAddedKeys,
  type ExperimentResult,
  type GridResult,
  type GridRunDoc,
  type ProbeResult,
} from '../engine/documents';
import { EXPERIMENT_SLOTS, judge, type ExperimentSlot } from './slots';
import * as verdicts from '../experiments/verdicts.js';
import { tpl, withAside } from './text';
import { fmt, fmtInt, fmtList, fmtLr, DASH_MISSING } from './format';
import { UI_STRINGS } from '../content/ui-strings';
import { GRID } from './settings';
import { valueIn } from './fields';
import { phasePlacements, phaseTally, type PhaseDiagramResult } from '../experiments/phase-diagram';
import type { LrSensitivityResult } from '../experiments/lr-sensitivity';
import { placementLabel } from './placements';
import { EXPERIMENT_INFO } from '../generated/engine-schema';

/** The placement composer's model (Figure fig16's caption): init-profile's defaults, read from the engine. */
const composerDefault = (k: string) => (EXPERIMENT_INFO['init-profile'].defaults as Record<string, unknown>)[k];
import type { RealTextResult } from '../experiments/real-text';

type Val = string | number | null | undefined;
type Entry = (ctx: Ctx) => Val;
interface Ctx {
  P: ProbeResult | null;
  G: GridResult | null;
  lang: Lang;
  /** the experiment documents the figures draw (result-slots EXPERIMENT_SLOTS) */
  E: Partial<Record<ExperimentSlot, ExperimentResult | null>>;
}

/** The page's sentence for a verdict: UI_STRINGS `verdict.<claim>.<verdict>` filled with the facts
 *  (numbers formatted to two decimals, lists joined), computed by the rules of verdicts.js. */
const num = (x: number) => (Number.isInteger(x) ? String(x) : fmt(x));
// facts that are null (an escape that never came, a warm-up none of those tried) read as '—'
function verdictSentence(claim: string, judged: { verdict: string; facts: object } | null, lang: Lang): string | null {
  if (!judged) return null;
  const vars: Record<string, string> = {};
  for (const [k, v] of Object.entries(judged.facts)) {
    // learning rates and step sizes (lr…, eta…) read as powers of ten, ratios (ratio…), attention
    // logits (logit…, which span decades) and angles in degrees (deg…, small) with 3 significant
    // digits (as powers of ten outside 0.01 … 1000); other numbers with 2 decimals
    const one = (x: unknown) =>
      x == null ? DASH_MISSING : typeof x === 'number' ? (/^(lr|eta)/.test(k) ? fmtLr(x) : /^(ratio|logit|deg)/.test(k) ? fmtRatio(x) : num(x)) : String(x);
    vars[k] = v == null ? DASH_MISSING : Array.isArray(v) ? (listOf(v.map(one), lang) ?? '') : one(v);
  }
  const t = UI_STRINGS[lang][`verdict.${claim}.${judged.verdict}`];
  return t ? tpl(t, vars) : null;
}

/** Step 1's value of a per-step series of the adam-first-step document. */
const afs = (E: Ctx['E'], p: string, key: 'update_rms' | 'grad_norm') => verdicts.afsByPlacement(E.adamFirstStep)[p]?.[key]?.[0] ?? null;

/** A slope of an output-sensitivity document (slot `outputSensitivity` or `outputSensitivitySign`). */
const osSlope = (E: Ctx['E'], slot: 'outputSensitivity' | 'outputSensitivitySign', p: string) =>
  (E[slot] as { placements?: Record<string, { slope?: number | null }> } | null | undefined)?.placements?.[p]?.slope ?? null;

/** The unigram entropy of a language's text in the real-text document (3 decimals), or null. */
const rtEntropy = (E: Ctx['E'], lang: string) => {
  const h = (E.realText as RealTextResult | null | undefined)?.texts?.find((x) => x.lang === lang)?.unigram_entropy;
  return typeof h === 'number' ? h.toFixed(3) : null;
};

/** A ratio that may span decades: 3 significant digits, or a×10ⁿ below 0.01 and from 1000 on. */
const fmtRatio = (x: number) => (x > 0 && (x < 0.01 || x >= 1000) ? fmtLr(x) : String(+x.toPrecision(3)));

/** A number of an experiment slot's config as text, by `format` (String: a count); null when the slot
 *  has no document or the field is not a number. */
const configNumber =
  (slot: ExperimentSlot, key: string, format: (x: number) => string = String): Entry =>
  ({ E }) => {
    const v = E[slot]?.config?.[key];
    return typeof v === 'number' ? format(v) : null;
  };

/** The first and last depth of an experiment slot's config ("2–16"; zh "2～16"), null when it has none. */
const depthRange =
  (slot: ExperimentSlot): Entry =>
  ({ E, lang }) => {
    const d = E[slot]?.config?.depths;
    return d?.length ? `${d[0]}${lang === 'zh' ? '～' : '–'}${d[d.length - 1]}` : null;
  };

/** A fraction as a percentage ("1%"); null when not a number. */
const pct = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? `${+(x * 100).toPrecision(3)}%` : null);

/** "a, b" / "a、b"; null for none (shown as '—'). */
const listOf = (xs: string[], lang: Lang) => (xs.length ? xs.join(lang === 'zh' ? '、' : ', ') : null);

// ---- probe helpers ---------------------------------------------------------------------------
const max = (xs?: number[]) => (xs && xs.length ? Math.max(...xs) : null);
const min = (xs?: number[]) => (xs && xs.length ? Math.min(...xs) : null);
const avg = (xs?: number[]) => (xs && xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
const first = (xs?: number[]) => (xs && xs.length ? xs[0] : null);
const last = (xs?: number[]) => (xs && xs.length ? xs[xs.length - 1] : null);
const div = (a: number | null, b: number | null) => (a == null || b == null || b === 0 ? null : a / b);

const depthW2 = (P: ProbeResult | null, norm: 'post' | 'pre', L: number | undefined) =>
  P && L != null ? (P.placements[norm]?.lastW2_vs_L?.[String(L)]?.W2_per_batch?.mean ?? null) : null;

/** Smallest depth where Pre-LN's last-layer per-batch W² gradient is below Post-LN's. */
export function crossoverDepth(P: ProbeResult | null): number | null {
  for (const L of probeDepths(P)) {
    const a = depthW2(P, 'pre', L);
    const b = depthW2(P, 'post', L);
    if (a != null && b != null && a < b) return L;
  }
  return null;
}

// ---- grid helpers ----------------------------------------------------------------------------
export type Arm = 'w0' | 'w300';
export type LrPick = 'lo' | 'hi';

/** The grid's lrs sorted ascending: lo = smallest, hi = largest. */
export const gridLrs = (G: GridResult | null): number[] => [...new Set((G?.runs ?? []).map((r) => r.lr))].sort((a, b) => a - b);

/** 'w0' → warm-up 0; 'w300' → warm-up 300 if present, else the longest nonzero warm-up. */
export function armWarmup(G: GridResult | null, arm: Arm): number | null {
  const ws = [...new Set((G?.runs ?? []).map((r) => r.warmup))].sort((a, b) => a - b);
  if (arm === 'w0') return ws.includes(0) ? 0 : null;
  if (ws.includes(300)) return 300;
  const nz = ws.filter((w) => w > 0);
  return nz.length ? nz[nz.length - 1] : null;
}

/** The runs (all seeds) of one (norm, arm, lr) cell. */
export function cellRuns(G: GridResult | null, norm: 'post' | 'pre', arm: Arm, lr: LrPick): GridRunDoc[] {
  const lrs = gridLrs(G);
  const w = armWarmup(G, arm);
  if (!G || w == null || !lrs.length) return [];
  const target = lr === 'lo' ? lrs[0] : lrs[lrs.length - 1];
  return G.runs.filter((r) => r.placement === norm && r.warmup === w && r.lr === target);
}

/** Seed-mean final loss; null when any seed diverged or is unfinished or lengths differ. */
export function finalLoss(runs: GridRunDoc[]): number | null {
  if (!runs.length || runs.some((r) => r.status !== 'ok')) return null;
  const lens = new Set(runs.map((r) => r.loss.length));
  if (lens.size !== 1) return null;
  // (the last step's mean alone: a reader's run may have 10⁵ steps)
  return seedMeanAt(runs, runs[0].loss.length - 1) ?? null;
}

/** 1-based first step where curve < threshold, or null. */
export function firstBelow(curve: number[], threshold: number): number | null {
  const i = curve.findIndex((v) => v < threshold);
  return i < 0 ? null : i + 1;
}

const toyFinal =
  (norm: 'post' | 'pre', arm: Arm, lr: LrPick): Entry =>
  ({ G }) =>
    fmt(finalLoss(cellRuns(G, norm, arm, lr)));

// ---- lr-sensitivity (`fig18`): its config, and each placement's LR sensitivity ------------------
const lsDoc = (E: Ctx['E']) => (E.lrSensitivity as LrSensitivityResult | null | undefined) ?? null;
const lsConfig =
  (key: string): Entry =>
  ({ E }) => {
    const v = lsDoc(E)?.config?.[key];
    return typeof v === 'number' ? String(v) : null;
  };
const lsSensitivity =
  (p: string): Entry =>
  ({ E }) => {
    const s = lsDoc(E)?.placements.find((x) => x.placement === p)?.sensitivity;
    return s == null || !Number.isFinite(s) ? null : s.toFixed(3); // two nearly equal numbers: 3 decimals
  };

// ---- phase-diagram helpers (its three slots: the map, claims 9 and 10) -----------------------
type PhaseSlot = 'phaseDiagram' | 'preWarmup' | 'deepNorm';
const phaseDoc = (E: Ctx['E'], slot: PhaseSlot) => (E[slot] as PhaseDiagramResult | null | undefined) ?? null;
const phaseConfig = (E: Ctx['E'], slot: PhaseSlot) => (phaseDoc(E, slot)?.config ?? null) as Record<string, unknown> | null;
const phaseList = (E: Ctx['E'], slot: PhaseSlot, key: string) => {
  const v = phaseConfig(E, slot)?.[key];
  return Array.isArray(v) ? (v as number[]) : null;
};
/** The longest warm-up of a slot's config (the "with warm-up" arm). */
const phaseWarmup = (E: Ctx['E'], slot: PhaseSlot) => {
  const ws = phaseList(E, slot, 'warmups')?.filter((w) => w > 0);
  return ws?.length ? Math.max(...ws) : null;
};
/** The caption's phrase on a document's warm-up arms (`ws`, its config's warm-ups), in one of two
 *  styles (ui-strings `arms.<style>.<kind>`: `plain`, "without warm-up and with 300 steps of it";
 *  `lines`, the same with the line styles): both arms, only the arm without warm-up (`none`: a
 *  quick setting that runs no warm-up says so in words, never "with — steps"), or only warm-ups
 *  (`only`). Null when the document has no warm-ups. */
export function armsPhrase(ws: unknown, style: 'plain' | 'lines', lang: Lang): string | null {
  if (!Array.isArray(ws) || !ws.length || !ws.every((w) => typeof w === 'number' && Number.isFinite(w))) return null;
  const warm = [...new Set((ws as number[]).filter((w) => w > 0))].sort((a, b) => a - b);
  const kind = !warm.length ? 'none' : ws.includes(0) ? 'both' : 'only';
  return tpl(UI_STRINGS[lang][`arms.${style}.${kind}`], { w: listOf(warm.map(String), lang) ?? '' });
}
const arms =
  (slot: ExperimentSlot, style: 'plain' | 'lines'): Entry =>
  ({ E, lang }) =>
    armsPhrase(E[slot]?.config?.warmups, style, lang);

const phaseCommon = (slot: PhaseSlot): Record<string, Entry> => {
  const k = slot === 'phaseDiagram' ? 'pd' : slot === 'preWarmup' ? 'pw' : 'dn';
  return {
    [`exp.${k}.steps`]: configNumber(slot, 'steps'),
    [`exp.${k}.settle`]: configNumber(slot, 'settle'),
    [`exp.${k}.seeds`]: ({ E }) => fmtInt(phaseList(E, slot, 'seeds')?.length),
    [`exp.${k}.warmup`]: ({ E }) => fmtInt(phaseWarmup(E, slot)),
    // the caption's words on the drawn arms (Figure 14 draws them as line styles)
    [`exp.${k}.arms`]: arms(slot, slot === 'preWarmup' ? 'lines' : 'plain'),
    [`exp.${k}.lrs`]: ({ E, lang }) => listOf((phaseList(E, slot, 'lrs') ?? []).map(fmtLr), lang),
  };
};
/** Per placement of the map, `v(placement)`, as "Post-LN 5, Pre-LN 20" (the page's labels). */
const perPlacement = (E: Ctx['E'], lang: Lang, v: (doc: PhaseDiagramResult, p: string) => string | null) => {
  const doc = phaseDoc(E, 'phaseDiagram');
  if (!doc) return null;
  const t = (key: string) => UI_STRINGS[lang][key] ?? key;
  return listOf(
    phasePlacements(doc).map((p) => `${placementLabel(p, t)} ${v(doc, p) ?? DASH_MISSING}`),
    lang,
  );
};
/** The map's warm-up arm: 0, or its longest warm-up. */
const arm = (E: Ctx['E'], w: 'w0' | 'w') => (w === 'w0' ? 0 : phaseWarmup(E, 'phaseDiagram'));
const trainedCells =
  (w: 'w0' | 'w'): Entry =>
  ({ E, lang }) => {
    const a = arm(E, w);
    return a == null ? null : perPlacement(E, lang, (doc, p) => String(phaseTally(doc, p, a).trained));
  };
const deepestTrained =
  (w: 'w0' | 'w'): Entry =>
  ({ E, lang }) => {
    const a = arm(E, w);
    if (a == null) return null;
    return perPlacement(E, lang, (doc, p) => {
      const ls = doc.cells.filter((c) => c.placement === p && c.warmup === a && c.outcome === 'trained').map((c) => c.layers);
      return ls.length ? String(Math.max(...ls)) : null;
    });
  };

/** The document a slot's verdict reads beside its own (its declaration's `verdictWith`), or null. */
const withOf = (slot: ExperimentSlot, E: Ctx['E']): unknown => {
  const w = EXPERIMENT_SLOTS[slot].verdictWith;
  return w ? (E[w] ?? null) : null;
};

/** `exp.<slot>.verdict` of every experiment slot whose verdict sentences are written under the slot's
 *  own name (UI_STRINGS `verdict.<slot>.<verdict>`, e.g. `verdict.angularUpdate.confirmed`): the
 *  sentence of its declared rule (experiments/<name>.ts `verdict`) on the drawn document. A new
 *  experiment's verdict sentence is bound by its declaration and its strings, with no line here; the
 *  older slots' sentences, keyed by a short claim name (`verdict.dn.…`), are listed below. */
const declaredVerdicts = (): Record<string, Entry> =>
  Object.fromEntries(
    (Object.keys(EXPERIMENT_SLOTS) as ExperimentSlot[])
      .filter((slot) => EXPERIMENT_SLOTS[slot].verdict && UI_STRINGS.en[`verdict.${slot}.untested`] != null)
      .map((slot): [string, Entry] => [
        `exp.${slot}.verdict`,
        ({ E, lang }) => (E[slot] ? verdictSentence(slot, judge(slot, E[slot], withOf(slot, E)) as { verdict: string; facts: object }, lang) : null),
      ]),
  );

// ---- the keys --------------------------------------------------------------------------------
/** Every {{key}} the prose may quote and how it is computed. */
export const PROSE_NUMBERS: Record<string, Entry> = {
  // Probe config (so prose never types them)
  'probe.layers': ({ P }) => fmtInt(P?.config.layers),
  'probe.d': ({ P }) => fmtInt(P?.config.d),
  'composer.layers': () => fmtInt(composerDefault('layers') as number),
  'composer.d': () => fmtInt(composerDefault('d') as number),
  'composer.d_ff': () => fmtInt(composerDefault('d_ff') as number),
  'composer.vocab': () => fmtInt(composerDefault('vocab') as number),
  'composer.seq': () => fmtInt(composerDefault('seq') as number),
  'composer.batch': () => fmtInt(composerDefault('batch') as number),
  'composer.seeds': () => fmtInt((composerDefault('seeds') as number[]).length),
  'probe.d_ff': ({ P }) => fmtInt(P?.config.d_ff),
  'probe.seeds': ({ P }) => fmtInt(P?.config.seeds?.length),
  'probe.batches': ({ P }) => fmtInt(P?.config.batches),
  'probe.depth_batches': ({ P }) => fmtInt(P?.config.depth_batches),
  // Residual stream ‖h‖²/d per layer
  'post.norm2': ({ P, lang }) => fmtList(P?.placements.post?.norm2_over_d.mean, lang),
  'post.norm2.maxstd': ({ P }) => fmt(max(P?.placements.post?.norm2_over_d.std)),
  'post.norm2.mean': ({ P }) => fmt(avg(P?.placements.post?.norm2_over_d.mean)),
  'pre.norm2': ({ P, lang }) => fmtList(P?.placements.pre?.norm2_over_d.mean, lang),
  'pre.norm2.first': ({ P }) => fmt(first(P?.placements.pre?.norm2_over_d.mean)),
  'pre.norm2.last': ({ P }) => fmt(last(P?.placements.pre?.norm2_over_d.mean)),
  'pre.norm2.step': ({ P }) => {
    const m = P?.placements.pre?.norm2_over_d.mean;
    return m && m.length > 1 ? fmt((m[m.length - 1] - m[0]) / (m.length - 1)) : null;
  },
  // Final-LN multiplier √d/‖h_L‖
  'pre.gain': ({ P }) => fmt(P?.placements.pre?.final_ln_gain.mean),
  'post.gain': ({ P }) => fmt(P?.placements.post?.final_ln_gain.mean),
  // W² gradients of the L-layer model
  'post.w2.paper': ({ P, lang }) => fmtList(P?.placements.post?.W2_per_layer.mean, lang),
  'pre.w2.paper': ({ P, lang }) => fmtList(P?.placements.pre?.W2_per_layer.mean, lang),
  'post.w2.batch.min': ({ P }) => fmt(min(P?.placements.post?.W2_per_batch.mean)),
  'post.w2.batch.max': ({ P }) => fmt(max(P?.placements.post?.W2_per_batch.mean)),
  'pre.w2.batch.first': ({ P }) => fmt(first(P?.placements.pre?.W2_per_batch.mean)),
  'pre.w2.batch.last': ({ P }) => fmt(last(P?.placements.pre?.W2_per_batch.mean)),
  'pre.w2.batch.ratio': ({ P }) => fmt(div(first(P?.placements.pre?.W2_per_batch.mean), last(P?.placements.pre?.W2_per_batch.mean)), 1),
  // Last layer's W² gradient vs depth
  'depth.min': ({ P }) => fmtInt(first(probeDepths(P))),
  'depth.max': ({ P }) => fmtInt(last(probeDepths(P))),
  'depth.pre.L6': ({ P }) => fmt(depthW2(P, 'pre', first(probeDepths(P)) ?? undefined)),
  'depth.post.L6': ({ P }) => fmt(depthW2(P, 'post', first(probeDepths(P)) ?? undefined)),
  'depth.crossover': ({ P }) => fmtInt(crossoverDepth(P)),
  'depth.pre.ratio': ({ P }) => {
    const ds = probeDepths(P);
    return ds.length > 1 ? fmt(div(depthW2(P, 'pre', last(ds)!), depthW2(P, 'pre', first(ds)!))) : null;
  },
  'depth.sqrtL.ratio': ({ P }) => {
    const ds = probeDepths(P);
    return ds.length > 1 ? fmt(Math.sqrt(first(ds)! / last(ds)!)) : null;
  },
  // Toy training grid (Figure 4)
  'toy.plateau': ({ G }) => fmt(G?.plateau_entropy),
  'toy.lnV': ({ G }) => fmt(G?.uniform_loss),
  'toy.opt': ({ G }) => fmt(G?.optimal_loss),
  'toy.steps': ({ G }) => fmtInt(G?.config.steps),
  'toy.seeds': ({ G }) => fmtInt(G?.config.seeds?.length),
  // what the drawn grid ran, for the caption: the optimizer's name, the warm-ups, the peak lrs
  'toy.optimizer': ({ G, lang }) => (G?.config.optimizer ? (UI_STRINGS[lang][`optimizer.${G.config.optimizer}`] ?? G.config.optimizer) : null),
  // the model drawn: "the toy model", with what it learned when it is the article's text and its
  // architecture choices where they are not the engine's defaults (the article's), e.g. "the toy
  // model (on the article’s English text, no final norm, RMSNorm)"
  'toy.model': ({ G, lang }) => {
    if (!G) return null;
    const base = lang === 'zh' ? '玩具模型' : 'the toy model';
    const cfg = withAddedKeys(G.config as unknown as Record<string, unknown>);
    const text = cfg.data === 'text' ? String(valueIn(GRID, 'text_lang', cfg)) : null;
    // the architecture's fields of Figure 4's form (lib/settings.ts GRID)
    const changed = [
      ...(text ? [tpl(UI_STRINGS[lang]['toy.onText'], { lang: UI_STRINGS[lang][`text_lang.${text}`] ?? text })] : []),
      ...GRID.rows.flatMap(({ field: n, group }) => {
        const v = String(valueIn(GRID, n, cfg));
        return group !== 'ctl.arch' || v === valueIn(GRID, n, null) ? [] : [UI_STRINGS[lang][`arch.${n}.${v}`] ?? v];
      }),
    ];
    if (!changed.length) return base;
    return withAside((k) => UI_STRINGS[lang][k], base, changed.join(UI_STRINGS[lang]['sep.list']));
  },
  // the caption's sentence on the lines under the drawn grid's curves, as Figure 4 draws them
  // (transform.ts buildPanels refs): on the chain its optimal loss, ln successors, dotted; on the
  // article's text its unigram entropy as the plateau line, and no optimal line (real text has none known)
  'toy.lines': ({ G, lang }) => {
    if (!G) return null;
    if (gridTextLang(G) != null) return tpl(UI_STRINGS[lang]['toy.lines.text'], { v: fmt(G.plateau_entropy) });
    return Number.isFinite(G.optimal_loss) ? tpl(UI_STRINGS[lang]['toy.lines.chain'], { k: fmtInt(Math.round(Math.exp(G.optimal_loss!))) }) : null;
  },
  // the warm-up lengths drawn, and their shape when it is not the default (a document without one is linear)
  'toy.warmups': ({ G, lang }) => {
    const list = listOf([...new Set(G?.runs.map((r) => r.warmup))].sort((a, b) => a - b).map(String), lang);
    const shape = G ? String(withAddedKeys(G.config as unknown as Record<string, unknown>).warmup_shape) : null;
    if (!list || !shape || shape === valueIn(GRID, 'warmup_shape', null)) return list;
    const name = UI_STRINGS[lang][`shape.${shape}`] ?? shape;
    return withAside((k) => UI_STRINGS[lang][k], list, name);
  },
  // Figure F (`fig5`) (output-sensitivity): log–log slopes of the logits' change against depth, and the verdict.
  'exp.os.post': ({ E }) => osSlope(E, 'outputSensitivity', 'post'),
  'exp.os.pre': ({ E }) => osSlope(E, 'outputSensitivity', 'pre'),
  'exp.os.admin': ({ E }) => osSlope(E, 'outputSensitivity', 'admin'),
  'exp.os.deepnorm': ({ E }) => osSlope(E, 'outputSensitivity', 'deepnorm'),
  'exp.os.sign.post': ({ E }) => osSlope(E, 'outputSensitivitySign', 'post'),
  'exp.os.sign.pre': ({ E }) => osSlope(E, 'outputSensitivitySign', 'pre'),
  'exp.os.delta': configNumber('outputSensitivity', 'perturbation', fmtLr),
  'exp.os.depths': depthRange('outputSensitivity'),
  // (its declaration's rule, with the sign step's document beside the random one: verdictWith)
  'exp.os.verdict': ({ E, lang }) =>
    E.outputSensitivity
      ? verdictSentence('os', judge('outputSensitivity', E.outputSensitivity, withOf('outputSensitivity', E)) as { verdict: string; facts: object }, lang)
      : null,
  // Figure C (`fig7`) (adam-first-step): step 1's update RMS / lr and gradient norm, and the verdict.
  'exp.afs.rms1.post': ({ E }) => afs(E, 'post', 'update_rms'),
  'exp.afs.rms1.pre': ({ E }) => afs(E, 'pre', 'update_rms'),
  'exp.afs.g1.post': ({ E }) => afs(E, 'post', 'grad_norm'),
  'exp.afs.g1.pre': ({ E }) => afs(E, 'pre', 'grad_norm'),
  'exp.afs.lr': configNumber('adamFirstStep', 'lr', fmtLr),
  'exp.afs.verdict': ({ E, lang }) => (E.adamFirstStep ? verdictSentence('afs', verdicts.adamFirstStep(E.adamFirstStep), lang) : null),
  // fig17 (adam-first-step's counterfactuals): its model depth, run length and lr, and the verdict.
  'exp.afscf.layers': configNumber('adamFirstStepCf', 'layers'),
  'exp.afscf.steps': configNumber('adamFirstStepCf', 'steps'),
  'exp.afscf.lr': configNumber('adamFirstStepCf', 'lr', fmtLr),
  'exp.afscf.verdict': ({ E, lang }) => (E.adamFirstStepCf ? verdictSentence('afscf', verdicts.adamFirstStepCounterfactual(E.adamFirstStepCf), lang) : null),
  // Figure H (`fig8`) (warmup-length): the verdicts on claim 4 (what warm-up removes) and claim 5 (the SGD control).
  'exp.rt.layers': ({ E }) => (typeof E.realText?.config?.layers === 'number' ? String(E.realText.config.layers) : null),
  'exp.rt.steps': ({ E }) => (typeof E.realText?.config?.steps === 'number' ? String(E.realText.config.steps) : null),
  'exp.rt.warmup': ({ E }) => (E.realText ? String(verdicts.realText(E.realText).facts.W ?? DASH_MISSING) : null),
  'exp.rt.arms': arms('realText', 'lines'),
  'exp.rt.h.en': ({ E }) => rtEntropy(E, 'en'),
  'exp.rt.h.zh': ({ E }) => rtEntropy(E, 'zh'),
  'exp.rt.verdict': ({ E, lang }) => {
    if (!E.realText) return null;
    // the languages by their names in the page's language (textLang.*), not their codes
    const j = verdicts.realText(E.realText);
    const name = (ls: string[]) => (ls.length ? ls.map((l) => UI_STRINGS[lang][`textLang.${l}`] ?? l) : null);
    return verdictSentence(
      'rt',
      { ...j, facts: { ...j.facts, langsHold: name(j.facts.langsHold), langsFail: name(j.facts.langsFail), langsShort: name(j.facts.langsShort) } },
      lang,
    );
  },
  'exp.wl.verdict': ({ E, lang }) => (E.warmupLength ? verdictSentence('wl', verdicts.warmupLength(E.warmupLength), lang) : null),
  'exp.sgd.verdict': ({ E, lang }) => (E.warmupLength ? verdictSentence('sgd', verdicts.sgdControl(E.warmupLength), lang) : null),
  'exp.wl.steps': configNumber('warmupLength', 'steps'),
  // Figure E (`fig10`) (step-size): the verdict on claim 2 (an update's effect lives in function space).
  'exp.ss.verdict': ({ E, lang }) => (E.stepSize ? verdictSentence('ss', verdicts.stepSize(E.stepSize), lang) : null),
  // its margins as percentages of the initial loss, and the grid's largest η (the caption's band and line)
  'exp.ss.margin': ({ E }) => pct(E.stepSize?.config?.eta_margin),
  'exp.ss.gain': ({ E }) => pct(E.stepSize?.config?.eta_min_gain),
  'exp.ss.etaMax': ({ E }) => {
    const etas = E.stepSize?.config?.etas;
    return Array.isArray(etas) && etas.length ? fmtLr(Math.max(...(etas as number[]))) : null;
  },
  // Post-LN's near-best ranges of η per depth ("L = 2: a to b; …") and the successive depths where they overlap
  'exp.ss.postRanges': ({ E, lang }) => {
    const f = E.stepSize ? verdicts.stepSize(E.stepSize).facts : null;
    const to = lang === 'zh' ? ' 到 ' : ' to ';
    return f
      ? (listOf(
          f.nearPost.map((r, i) => `L = ${f.depths[i]}: ${fmtLr(r[0])}${to}${fmtLr(r[1])}`),
          lang,
        )?.replace(/, /g, '; ') ?? null)
      : null;
  },
  'exp.ss.postOverlap': ({ E, lang }) => {
    const f = E.stepSize ? verdicts.stepSize(E.stepSize).facts : null;
    return f
      ? listOf(
          f.depths.slice(1).flatMap((L, i) => (f.stepsPost[i] === 'overlap' ? [`${f.depths[i]} → ${L}`] : [])),
          lang,
        )
      : null;
  },
  // Figure I (`fig9`) (plateau-share): the verdict on claim 6 (a frequency-only plateau).
  'exp.ps.verdict': ({ E, lang }) => (E.plateauShare ? verdictSentence('ps', verdicts.plateauShare(E.plateauShare), lang) : null),
  // Figure A (`fig6`) (tied-output): the depths and the verdict (whose sentence carries the slopes).
  'exp.tied.depths': depthRange('tiedOutput'),
  'exp.tied.verdict': ({ E, lang }) => (E.tiedOutput ? verdictSentence('tied', verdicts.tiedOutput(E.tiedOutput), lang) : null),
  // Figure B (`fig11`) (depth-factors): the depth, Appendix F's predicted layer-1 share, and the verdict on claim 8.
  'exp.df.layers': configNumber('depthFactors', 'layers'),
  'exp.df.rF': ({ E }) => {
    const p = (E.depthFactors as { placements?: Record<string, { appendix_f_first_over_last?: number }> } | null | undefined)?.placements;
    const r = p?.post?.appendix_f_first_over_last ?? Object.values(p ?? {})[0]?.appendix_f_first_over_last;
    return r != null && Number.isFinite(r) ? r.toPrecision(2) : null;
  },
  'exp.df.verdict': ({ E, lang }) => (E.depthFactors ? verdictSentence('df', verdicts.depthFactors(E.depthFactors), lang) : null),
  // the sharpness figure (`fig12`): its run length, how often it measures, the warm-up that sets the
  // window, and the verdicts on its two claims (warm-up keeps Adam under its stability threshold;
  // GI-Adam removes the need for warm-up)
  'exp.sh.steps': configNumber('sharpness', 'steps'),
  'exp.sh.every': configNumber('sharpness', 'every'),
  'exp.sh.window': ({ E }) => (E.sharpness ? fmtInt(verdicts.sharpnessWarmup(E.sharpness).facts.window) : null),
  'exp.sh.verdict': ({ E, lang }) => (E.sharpness ? verdictSentence('sh', verdicts.sharpnessWarmup(E.sharpness), lang) : null),
  'exp.gi.verdict': ({ E, lang }) => (E.sharpness ? verdictSentence('gi', verdicts.sharpnessGiAdam(E.sharpness), lang) : null),
  // The phase-diagram experiment: Figure of claim 10 (`fig13`, slot deepNorm), of claim 9 (`fig14`,
  // slot preWarmup), and the trainability map (`fig15`, slot phaseDiagram).
  'exp.dn.verdict': ({ E, lang }) => (phaseDoc(E, 'deepNorm') ? verdictSentence('dn', verdicts.deepNormNoWarmup(phaseDoc(E, 'deepNorm')), lang) : null),
  ...phaseCommon('deepNorm'),
  // QK-norm and learning-rate sensitivity (`fig18`, slot lrSensitivity; Wortsman et al. 2023)
  'exp.ls.lrs': ({ E, lang }) => {
    const v = lsDoc(E)?.config?.lrs;
    return Array.isArray(v) ? listOf((v as number[]).map(fmtLr), lang) : null;
  },
  'exp.ls.seeds': ({ E }) => {
    const v = lsDoc(E)?.config?.seeds;
    return Array.isArray(v) ? fmtInt(v.length) : null;
  },
  'exp.ls.layers': lsConfig('layers'),
  'exp.ls.steps': lsConfig('steps'),
  'exp.ls.warmup': lsConfig('warmup'),
  'exp.ls.every': lsConfig('every'),
  'exp.ls.s.pre': lsSensitivity('pre'),
  'exp.ls.s.qknorm': lsSensitivity('qknorm'),
  'exp.ls.verdict': ({ E, lang }) => (lsDoc(E) ? verdictSentence('ls', verdicts.lrSensitivity(lsDoc(E)), lang) : null),
  'exp.pw.verdict': ({ E, lang }) => (phaseDoc(E, 'preWarmup') ? verdictSentence('pw', verdicts.preWarmup(phaseDoc(E, 'preWarmup')), lang) : null),
  ...phaseCommon('preWarmup'),
  ...phaseCommon('phaseDiagram'),
  'exp.pd.depths': ({ E, lang }) => listOf((phaseList(E, 'phaseDiagram', 'depths') ?? []).map(String), lang),
  'exp.pd.placements': ({ E, lang }) => {
    const doc = phaseDoc(E, 'phaseDiagram');
    return doc
      ? listOf(
          phasePlacements(doc).map((p) => placementLabel(p, (key) => UI_STRINGS[lang][key] ?? key)),
          lang,
        )
      : null;
  },
  'exp.pd.cells': ({ E }) => {
    const doc = phaseDoc(E, 'phaseDiagram');
    const p = phasePlacements(doc)[0];
    return doc && p != null ? String(phaseTally(doc, p, 0).cells) : null;
  },
  'exp.pd.trained.w0': trainedCells('w0'),
  'exp.pd.trained.w': trainedCells('w'),
  'exp.pd.deepest.w0': deepestTrained('w0'),
  'exp.pd.deepest.w': deepestTrained('w'),
  ...declaredVerdicts(),
  'toy.lrs': ({ G, lang }) => listOf([...new Set(G?.runs.map((r) => r.lr))].sort((a, b) => a - b).map(fmtLr), lang),
  'toy.post.w0.lo.final': toyFinal('post', 'w0', 'lo'),
  'toy.post.w0.hi.final': toyFinal('post', 'w0', 'hi'),
  'toy.post.w300.lo.final': toyFinal('post', 'w300', 'lo'),
  'toy.post.w300.hi.final': toyFinal('post', 'w300', 'hi'),
  'toy.pre.w0.lo.final': toyFinal('pre', 'w0', 'lo'),
  'toy.pre.w0.hi.final': toyFinal('pre', 'w0', 'hi'),
  'toy.pre.w300.lo.final': toyFinal('pre', 'w300', 'lo'),
  'toy.pre.w300.hi.final': toyFinal('pre', 'w300', 'hi'),
  'toy.pre.w0.lo.at100': ({ G }) => fmt(seedMeanAt(cellRuns(G, 'pre', 'w0', 'lo'), 99)),
  'toy.post.w300.lo.break': ({ G }) => (G ? fmtInt(meanLeavesPlateauAt(cellRuns(G, 'post', 'w300', 'lo'), G.plateau_entropy)) : null),
  'toy.post.w300.hi.break': ({ G }) => (G ? fmtInt(meanLeavesPlateauAt(cellRuns(G, 'post', 'w300', 'hi'), G.plateau_entropy)) : null),
  'toy.pre.delay': ({ G }) => {
    if (G?.optimal_loss == null) return null; // a run on the article's text has no best loss
    const thr = (G.plateau_entropy + G.optimal_loss) / 2;
    const a = meanFirstBelow(cellRuns(G, 'pre', 'w0', 'lo'), thr);
    const b = meanFirstBelow(cellRuns(G, 'pre', 'w300', 'lo'), thr);
    return a == null || b == null ? null : fmtInt(b - a);
  },
};

export const PROSE_NUMBER_KEYS: readonly string[] = Object.keys(PROSE_NUMBERS);

/** Keys whose value is a sentence about what a figure draws rather than a number the article
 *  quotes: under a live run it says what that run's drawing shows, and is not followed by the
 *  reference's (whose line the run's drawing does not have: `toy.lines`; the warm-up arms it ran:
 *  `exp.*.arms`, whose reference arms the figure draws muted beside it). */
export const DESCRIBES_DRAWING: ReadonlySet<string> = new Set(['toy.lines', 'exp.dn.arms', 'exp.pw.arms', 'exp.pd.arms', 'exp.rt.arms']);

/** The bound values a live run changed, each with the visible note that follows it in a figure's
 *  caption or readout (`note(reference value)`: " (article: 0.54)"); a key the reference cannot
 *  compute, or one in DESCRIBES_DRAWING, gets none. Pure. */
export function changedNotes(now: Record<string, string>, reference: Record<string, string>, note: (article: string) => string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(now)
      .filter(([k, v]) => reference[k] != null && v !== reference[k] && !DESCRIBES_DRAWING.has(k))
      .map(([k]) => [k, note(reference[k])]),
  );
}

/** Two records of bindings hold the same keys with the same values. Pure. */
export function sameNumbers(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => b[k] === a[k]);
}

/** proseNumbers' work one key at a time, into `out` (in PROSE_NUMBERS' order): the sliced form's steps. */
function* numberSteps(ctx: Ctx, out: Record<string, string>): Generator<void, void, void> {
  for (const [k, f] of Object.entries(PROSE_NUMBERS)) {
    let v: Val;
    try {
      v = f(ctx);
    } catch {
      v = null;
    }
    out[k] = v == null || v === '' ? DASH_MISSING : typeof v === 'number' ? fmt(v) : v;
    yield;
  }
}

/** All bindings for the given results and language; uncomputable keys → '—'. Never throws. */
export function proseNumbers(
  P: ProbeResult | null,
  G: GridResult | null,
  lang: Lang,
  E: Partial<Record<ExperimentSlot, ExperimentResult | null>> = {},
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const _ of numberSteps({ P, G, lang, E }, out));
  return out;
}

/**
 * The same record as proseNumbers, computed a few keys at a time: after each slice of about `sliceMs`
 * (by `now`), `between()` is awaited (lib/slices.ts yieldToBrowser: the reader's input goes first).
 * The page's first computation of the record runs every rule's code for the first time (compiled
 * then): in traces of the load 15–24 ms of CPU in one task at desktop speed, 61–97 ms by the estimate
 * of a phone (× 4; bench/notes/mainthread.md); in Node 23 ms the first call, 4–8 ms each one after. Never throws, as proseNumbers.
 */
export async function proseNumbersInSlices(
  P: ProbeResult | null,
  G: GridResult | null,
  lang: Lang,
  E: Partial<Record<ExperimentSlot, ExperimentResult | null>>,
  between: () => Promise<void>,
  sliceMs = 8,
  now: () => number = () => performance.now(),
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  let t0 = now();
  for (const _ of numberSteps({ P, G, lang, E }, out)) {
    if (now() - t0 < sliceMs) continue;
    await between();
    t0 = now();
  }
  return out;
}
