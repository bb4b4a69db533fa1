// runs/doc-check.ts — is a stored or imported document one the figure of its slot can draw? Pure.
// The grid and the probe are checked field by field (Figures 2–4 index into them); an experiment
// document by its experiment's name, its config and a walk that admits only finite numbers, strings,
// booleans and null. Figures also draw inside a boundary (ResultFigure), so a document that passes
// here and still cannot be drawn gives a message, not a broken page.
import { PLACEMENTS } from '../../generated/engine-schema';
import { EXPERIMENT_SLOTS, type ExperimentSlot, type SlotName } from '../slots';
import { isPlainObject, jsonProblem } from './entry';

const RUN_STATUSES = ['running', 'ok', 'nan', 'diverged'];
const finite = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const numOrNull = (x: unknown) => x === null || typeof x === 'number';

const count = (x: unknown) => (Array.isArray(x) ? x.length : 1);

/** A grid's sizes against its settings: at most one run per placement × warm-up × lr × seed, and
 *  one loss per step; why not, or null. Reads only lengths (cheap on any document). */
function gridBounds(d: Record<string, unknown>): string | null {
  const c = d.config as Record<string, unknown>;
  if (!Number.isInteger(c.steps) || !Array.isArray(d.runs)) return null; // gridProblem says so
  const steps = c.steps as number;
  const runs = count(c.placements) * count(c.warmups) * count(c.lrs) * count(c.seeds);
  if (d.runs.length > runs) return `it holds ${d.runs.length} runs where its settings make ${runs}`;
  for (const [i, r] of d.runs.entries())
    if (isPlainObject(r) && Array.isArray(r.loss) && r.loss.length > steps)
      return `run ${i + 1} holds ${r.loss.length} losses where its settings run ${steps} steps`;
  return null;
}

function gridProblem(d: Record<string, unknown>): string | null {
  // a grid on the article's text has no optimal loss (docs/engine.md, "Real text")
  const text = (d.config as Record<string, unknown>).data === 'text';
  for (const k of ['plateau_entropy', ...(text ? [] : ['optimal_loss']), 'uniform_loss']) if (!finite(d[k])) return `"${k}" is not a number`;
  if (!Array.isArray(d.runs)) return 'it has no "runs"';
  // (its sizes against its settings: gridBounds, checked before)
  if (!Number.isInteger((d.config as Record<string, unknown>).steps)) return 'its settings have no number of steps';
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
      if (!isPlainObject(v) || !Array.isArray(v.mean) || !Array.isArray(v.std) || !v.mean.every(numOrNull)) return `${p}.${k} is not a list of numbers`;
    }
    if (!isPlainObject(s.lastW2_vs_L)) return `${p} has no depth sweep`;
    for (const [L, v] of Object.entries(s.lastW2_vs_L)) {
      if (!/^\d+$/.test(L)) return `${p}'s depth "${L}" is not a depth`;
      if (!isPlainObject(v) || !isPlainObject(v.W2_per_layer) || !numOrNull(v.W2_per_layer.mean)) return `${p} at depth ${L} is malformed`;
    }
  }
  return null;
}

/** The longest list a document of these settings can hold: one entry per step (or per depth, layer,
 *  seed…), so no more than the largest whole number among its settings (seeds aside: they are
 *  names, not sizes), and never fewer than 4096 (lists of a fixed size: an η grid, per-tensor
 *  statistics). */
export function longestSeries(config: Record<string, unknown>): number {
  let most = 4096;
  for (const [k, v] of Object.entries(config))
    if (!/seed/.test(k)) for (const x of Array.isArray(v) ? v : [v]) if (Number.isInteger(x) && (x as number) + 1 > most) most = (x as number) + 1;
  return most;
}

/** A list in `x` longer than `max`: where, or null. Only lists and objects are entered (a number
 *  or a string holds no list: a run's 10⁶ losses cost one look each, not a path of its own). */
function longList(x: unknown, max: number, path: string, depth = 12): string | null {
  if (depth <= 0 || x === null || typeof x !== 'object') return null;
  if (Array.isArray(x)) {
    if (x.length > max) return `${path || 'it'} holds ${x.length} values where its settings make at most ${max}`;
    for (let i = 0; i < x.length; i++) {
      const v: unknown = x[i];
      if (v === null || typeof v !== 'object') continue;
      const p = longList(v, max, `${path}[${i}]`, depth - 1);
      if (p) return p;
    }
    return null;
  }
  for (const [k, v] of Object.entries(x)) {
    if (v === null || typeof v !== 'object') continue;
    const p = longList(v, max, path ? `${path}.${k}` : k, depth - 1);
    if (p) return p;
  }
  return null;
}

/** Why `doc` cannot be the document of `slot`, or null. */
export function docProblem(slot: SlotName, doc: unknown): string | null {
  if (!isPlainObject(doc)) return 'not an object';
  if (!isPlainObject(doc.config)) return 'it has no config';
  // a grid's own bounds first: their message names the run and its steps, more than the count
  if (slot === 'grid') {
    const b = gridBounds(doc);
    if (b) return b;
  }
  const j = jsonProblem(doc, 12);
  if (j) return j;
  const long = longList(doc, longestSeries(doc.config), '');
  if (long) return long;
  if (slot === 'grid') return gridProblem(doc);
  if (slot === 'probe') return probeProblem(doc);
  const want = EXPERIMENT_SLOTS[slot as ExperimentSlot]?.experiment;
  if (!want) return `unknown figure data "${slot}"`;
  if (doc.experiment !== want) return `it is the experiment "${String(doc.experiment)}", not "${want}"`;
  return null;
}
