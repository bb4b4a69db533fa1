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
