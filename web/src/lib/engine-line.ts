// engine-line.ts — the page's sentence about which engine runs the live computations and why, in
// the page's language, from the worker's report (engine/client.ts EngineReady: a backend, a `why`
// code from engine/backend-choice.ts and its detail). Pure: the strings come in through `t`.
import type { Backend, BackendWhy } from '../engine/backend-choice';
import { tpl } from './text';

export interface EngineReport {
  backend: Backend;
  why: BackendWhy;
  detail: string;
  asked: boolean;
  threads: number;
}

export function engineLine(e: EngineReport, t: (key: string) => string): string {
  const engine = tpl(t(`engine.${e.backend}`), { detail: e.detail || '?', threads: e.threads });
  const parts: string[] = [];
  const gpuUnused = e.backend !== 'webgpu' && e.why !== 'override-cpu' && e.why !== 'gpu-failed';
  if (e.asked && gpuUnused) parts.push(t('engine.asked'));
  const why = tpl(t(`engine.why.${e.why}`), { detail: e.detail || '?' });
  if (why) parts.push(why);
  if (e.backend === 'cpu-st' && e.why !== 'override-cpu') parts.push(t('engine.noIsolation'));
  return tpl(t('engine.line'), { label: t('engine.label'), engine, why: parts.join(' ') }).trim();
}

/** A run's engine in a few words (the live badge, the run list): its flavour, "fused multiply-add"
 *  when the FMA flavour's fused kernel computed it, and its threads; on the GPU just "WebGPU". */
export function engineWords(e: { flavour: string; fma?: boolean; threads?: number | null; gpu?: boolean }, t: (key: string) => string): string[] {
  if (e.gpu) return ['WebGPU'];
  const n = e.threads;
  return [e.flavour, e.fma ? t('fma') : '', n == null ? '' : n === 1 ? t('singleThread') : tpl(t('threads'), { n })].filter(Boolean);
}

/** How a grid that lost its GPU went on (the runs' "handoff", docs/json-schema.md): runs finished on
 *  the GPU, runs continued on the CPU from a checkpoint (and the earliest such step), runs started
 *  afresh. null when no run was handed over (then the job restarted). */
export interface HandoffSummary {
  finished: number;
  continued: number;
  from: number;
  fresh: number;
}

type HandoffRun = { loss?: unknown; handoff?: { steps?: unknown } };

/** Any drawn document: only a Grid document's runs can carry a hand-off. */
export function handoffSummary(doc: object | null | undefined): HandoffSummary | null {
  const all = (doc as { runs?: unknown } | null | undefined)?.runs;
  const runs = Array.isArray(all) ? (all as HandoffRun[]) : [];
  const steps = (r: HandoffRun) => (typeof r.handoff?.steps === 'number' ? r.handoff.steps : 0);
  const length = (r: HandoffRun) => (Array.isArray(r.loss) ? r.loss.length : 0);
  if (!runs.some((r) => steps(r) > 0)) return null;
  const s: HandoffSummary = { finished: 0, continued: 0, from: Infinity, fresh: 0 };
  for (const r of runs) {
    const k = steps(r);
    if (k <= 0) s.fresh++;
    else if (k >= length(r)) s.finished++;
    else {
      s.continued++;
      s.from = Math.min(s.from, k);
    }
  }
  if (!s.continued) s.from = 0;
  return s;
}

/** How a probe that lost its GPU went on (a Probe document's "handoff"): its first `jobs` of `of`
 *  jobs were measured on the GPU, the rest on the CPU. null when none was handed over. */
export interface ProbeHandoffSummary {
  jobs: number;
  of: number;
}

/** Any drawn document: only a Probe document carries a probe's hand-off. */
export function probeHandoffSummary(doc: object | null | undefined): ProbeHandoffSummary | null {
  const h = (doc as { handoff?: { jobs?: unknown; of?: unknown } } | null | undefined)?.handoff;
  const jobs = h?.jobs,
    of = h?.of;
  if (typeof jobs !== 'number' || typeof of !== 'number' || !(jobs > 0) || !(of >= jobs)) return null;
  return { jobs, of };
}

/** The figure's note after a GPU failure: for a grid or a probe handed over to the CPU (h:
 *  handoffSummary or probeHandoffSummary of the drawn document), what was kept and from where it
 *  went on; otherwise the engine line and that the run restarted. */
export function fallbackNote(e: EngineReport, h: HandoffSummary | ProbeHandoffSummary | null, t: (key: string) => string): string {
  if (!h) return `${engineLine(e, t)} ${t('handoff.restart')}`;
  if ('jobs' in h) return tpl(t('handoff.probe'), { detail: e.detail || '?', jobs: h.jobs, of: h.of, rest: h.of - h.jobs });
  const from = h.continued ? tpl(t('handoff.from'), { from: h.from }) : '';
  return tpl(t('handoff.line'), { detail: e.detail || '?', finished: h.finished, continued: h.continued, fresh: h.fresh, from });
}
