// runs/doc-check.ts — is a stored or imported document one the figure of its slot can draw? Pure.
// The grid and the probe are checked field by field (Figures 2–4 index into them); an experiment
// document by its experiment's name, its config and a walk that admits only finite numbers, strings,
// booleans and null. Figures also draw inside a boundary (ResultFigure), so a document that passes
// here and still cannot be drawn gives a message, not a broken page.
import { PLACEMENTS } from '../../generated/engine-schema';
import { EXPERIMENT_SLOTS, type ExperimentSlot, type SlotName } from '../result-slots.svelte';
import { isPlainObject } from './entry';

const RUN_STATUSES = ['running', 'ok', 'nan', 'diverged'];
const finite = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const numOrNull = (x: unknown) => x === null || typeof x === 'number';

function gridProblem(d: Record<string, unknown>): string | null {
  for (const k of ['plateau_entropy', 'optimal_loss', 'uniform_loss']) if (!finite(d[k])) return `"${k}" is not a number`;
  if (!Array.isArray(d.runs)) return 'it has no "runs"';
  for (const [i, r] of d.runs.entries()) {
    const at = `run ${i + 1}`;
    if (!isPlainObject(r)) return `${at} is not an object`;
    if (!PLACEMENTS.includes(r.placement as never)) return `${at} has an unknown placement "${String(r.placement)}"`;
    if (!finite(r.lr) || r.lr <= 0) return `${at} has no learning rate`;
    if (!Number.isInteger(r.warmup) || (r.warmup as number) < 0) return `${at} has no warm-up length`;
    if (!Number.isInteger(r.seed)) return `${at} has no seed`;
    if (!RUN_STATUSES.includes(r.status as string)) return `${at} has an unknown status`;
    if (!Array.isArray(r.loss) || !r.loss.every(numOrNull)) return `${at}'s losses are not numbers`;
    if (r.stop_step != null && !Number.isInteger(r.stop_step)) return `${at}'s stop step is not a step`;
  }
  return null;
}

const MEAN_STD_ARR = ['W2_per_layer', 'W2_per_batch', 'norm2_over_d'];

function probeProblem(d: Record<string, unknown>): string | null {
  if (!isPlainObject(d.placements)) return 'it has no "placements"';
  for (const [p, s] of Object.entries(d.placements)) {
    if (!PLACEMENTS.includes(p as never)) return `unknown placement "${p}"`;
    if (!isPlainObject(s)) return `${p} is not an object`;
    for (const k of MEAN_STD_ARR) {
      const v = s[k];
      if (!isPlainObject(v) || !Array.isArray(v.mean) || !Array.isArray(v.std) || !v.mean.every(numOrNull))
        return `${p}.${k} is not a list of numbers`;
    }
    if (!isPlainObject(s.lastW2_vs_L)) return `${p} has no depth sweep`;
    for (const [L, v] of Object.entries(s.lastW2_vs_L)) {
      if (!/^\d+$/.test(L)) return `${p}'s depth "${L}" is not a depth`;
      if (!isPlainObject(v) || !isPlainObject(v.W2_per_layer) || !numOrNull(v.W2_per_layer.mean)) return `${p} at depth ${L} is malformed`;
    }
  }
  return null;
}

/** Only JSON values (finite numbers: a file's 1e999 reads as Infinity), nested at most `depth` deep. */
function jsonProblem(x: unknown, depth: number): string | null {
  if (typeof x === 'number') return Number.isFinite(x) ? null : 'it holds a number that is not finite';
  if (x === null || typeof x === 'string' || typeof x === 'boolean') return null;
  if (depth <= 0) return 'it is nested too deeply';
  if (Array.isArray(x)) {
    for (const v of x) {
      const p = jsonProblem(v, depth - 1);
      if (p) return p;
    }
    return null;
  }
  if (isPlainObject(x)) {
    for (const v of Object.values(x)) {
      const p = jsonProblem(v, depth - 1);
      if (p) return p;
    }
    return null;
  }
  return `it holds a ${typeof x}`;
}

/** Why `doc` cannot be the document of `slot`, or null. */
export function docProblem(slot: SlotName, doc: unknown): string | null {
  if (!isPlainObject(doc)) return 'not an object';
  if (!isPlainObject(doc.config)) return 'it has no config';
  const j = jsonProblem(doc, 12);
  if (j) return j;
  if (slot === 'grid') return gridProblem(doc);
  if (slot === 'probe') return probeProblem(doc);
  const want = EXPERIMENT_SLOTS[slot as ExperimentSlot]?.experiment;
  if (!want) return `unknown figure data "${slot}"`;
  if (doc.experiment !== want) return `it is the experiment "${String(doc.experiment)}", not "${want}"`;
  return null;
}
